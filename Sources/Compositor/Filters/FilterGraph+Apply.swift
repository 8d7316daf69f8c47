import Foundation

/// A filter's working image: premultiplied RGBA floats, linear-light or sRGB-encoded, the
/// size of the layer the filter runs on.
final class FilterPlane {
    let width: Int, height: Int
    let pixels: UnsafeMutablePointer<Float>
    var linear: Bool
    /// The subregion of the primitive that made it (the filter region for the source): what
    /// `feTile` repeats.
    var area: PixelRect

    init(width: Int, height: Int, linear: Bool, area: PixelRect) {
        self.width = width
        self.height = height
        self.linear = linear
        self.area = area
        pixels = .allocate(capacity: 4 * width * height)
        pixels.initialize(repeating: 0, count: 4 * width * height)
    }

    deinit { pixels.deallocate() }

    var count: Int { width * height }

    func copy() -> FilterPlane {
        let c = FilterPlane(width: width, height: height, linear: linear, area: area)
        c.pixels.update(from: pixels, count: 4 * count)
        return c
    }

    /// Pixels outside `rect` made transparent, and `area` cut to it.
    func keep(only rect: PixelRect) {
        let r = rect.intersection(PixelRect(x: 0, y: 0, width: width, height: height))
        for y in 0..<height {
            let row = pixels + 4 * y * width
            if r.isEmpty || y < r.y || y >= r.maxY {
                row.update(repeating: 0, count: 4 * width)
                continue
            }
            if r.x > 0 { row.update(repeating: 0, count: 4 * r.x) }
            if r.maxX < width { (row + 4 * r.maxX).update(repeating: 0, count: 4 * (width - r.maxX)) }
        }
        area = r
    }

    /// This image in the other colour encoding (self when it is already in `linear`).
    func encoded(linear target: Bool) -> FilterPlane {
        guard target != linear else { return self }
        let c = FilterPlane(width: width, height: height, linear: target, area: area)
        // `mapUnpremultiplied` with the transfer table, written out: one reciprocal a pixel,
        // transparent pixels left at zero, and the table's results need no finiteness check.
        (target ? SRGBCurve.decoding : SRGBCurve.encoding).withUnsafeBufferPointer { table in
            for i in 0..<count {
                let p = pixels + 4 * i, q = c.pixels + 4 * i
                let a = p[3]
                guard a > 0 else { continue }
                let alpha = min(1, a), inverse = 1 / a
                q[0] = SRGBCurve.sample(table, p[0] * inverse) * alpha
                q[1] = SRGBCurve.sample(table, p[1] * inverse) * alpha
                q[2] = SRGBCurve.sample(table, p[2] * inverse) * alpha
                q[3] = alpha
            }
        }
        return c
    }

    /// Each pixel's un-premultiplied colour through `f`, clamped to 0…1 and premultiplied again.
    func mapUnpremultiplied(_ f: (Float, Float, Float, Float) -> (Float, Float, Float, Float)) {
        for i in 0..<count {
            let p = pixels + 4 * i
            let a = p[3]
            let (r, g, b) = a > 0 ? (p[0] / a, p[1] / a, p[2] / a) : (0, 0, 0)
            var (r2, g2, b2, a2) = f(min(1, max(0, r)), min(1, max(0, g)), min(1, max(0, b)), min(1, max(0, a)))
            a2 = a2.isFinite ? min(1, max(0, a2)) : 0
            @inline(__always) func clamp(_ v: Float) -> Float { v.isFinite ? min(1, max(0, v)) : 0 }
            r2 = clamp(r2); g2 = clamp(g2); b2 = clamp(b2)
            p[0] = r2 * a2; p[1] = g2 * a2; p[2] = b2 * a2; p[3] = a2
        }
    }
}

/// A radius in whole pixels, 0 for NaN or negative, at most `limit` (also for infinity).
func wholePixels(_ v: Double, limit: Int) -> Int {
    guard v > 0 else { return 0 }
    return v >= Double(limit) ? limit : Int(v.rounded())
}

/// The sRGB transfer function, decoding (encoded → linear light), exactly.
@inline(__always) func srgbDecodeF(_ e: Float) -> Float {
    e <= 0.04045 ? e / 12.92 : pow((e + 0.055) / 1.055, 2.4)
}

/// The sRGB transfer function, encoding (linear light → encoded), exactly.
@inline(__always) func srgbEncodeF(_ l: Float) -> Float {
    l <= 0.0031308 ? l * 12.92 : 1.055 * pow(l, 1 / 2.4) - 0.055
}

/// The sRGB transfer functions on 0…1, sampled at 4,097 points and interpolated linearly: what
/// filters convert whole planes with (three `pow` calls a pixel were most of a small filtered
/// SVG's render). The interpolation error is at most 2·10⁻⁵ (h²/8 · |f''| with h = 1/4,096; the
/// encoding's curvature is largest just above its linear part, |f''| ≈ 2,400 at l = 0.0031),
/// under 1/150 of an 8-bit level; `SRGBCurveTests` checks it against the exact functions.
enum SRGBCurve {
    static let segments = 4096
    static let decoding: [Float] = (0...segments).map { srgbDecodeF(Float($0) / Float(segments)) }
    static let encoding: [Float] = (0...segments).map { srgbEncodeF(Float($0) / Float(segments)) }

    /// `table` at `v` (clamped to 0…1, NaN read as 0), interpolated between its two nearest
    /// samples.
    @inline(__always)
    static func sample(_ table: UnsafeBufferPointer<Float>, _ v: Float) -> Float {
        let x = (v > 0 ? min(1, v) : 0) * Float(segments)
        let i = min(Int(x), segments - 1)
        let t = x - Float(i)
        return table[i] + (table[i + 1] - table[i]) * t
    }
}

/// Why a filter could not run.
public enum FilterError: Error, CustomStringConvertible, Equatable {
    case imageMissing(index: Int)
    case inputOutOfOrder(primitive: Int)

    public var description: String {
        switch self {
        case .imageMissing(let i): "filter image \(i) was not supplied"
        case .inputOutOfOrder(let p): "filter primitive \(p) reads a result that is not made before it"
        }
    }
}

extension FilterGraph {
    /// Runs the graph on `layer` in place: its pixels are the source graphic, pixel (0, 0) at
    /// device pixel `origin`; `images` are the `image` primitives' pictures, each the layer's
    /// size and placement. The layer's own encoding is kept (8-bit sRGB, 8-bit linear or float).
    /// `threads`: how many threads its blurs share their rows among (the same bytes at any
    /// count).
    public func apply(to layer: Surface, origin: (x: Int, y: Int), images: [Surface] = [], threads: Int = 1) throws {
        let w = layer.width, h = layer.height
        func pixelRect(_ r: CGRect) -> PixelRect {
            guard !r.isNull, r.minX.isFinite, r.minY.isFinite, r.maxX.isFinite, r.maxY.isFinite else {
                return PixelRect(x: 0, y: 0, width: 0, height: 0)
            }
            let x0 = max(-1, min(Double(w + 1), (Double(r.minX) - Double(origin.x)).rounded(.down)))
            let y0 = max(-1, min(Double(h + 1), (Double(r.minY) - Double(origin.y)).rounded(.down)))
            let x1 = max(-1, min(Double(w + 1), (Double(r.maxX) - Double(origin.x)).rounded(.up)))
            let y1 = max(-1, min(Double(h + 1), (Double(r.maxY) - Double(origin.y)).rounded(.up)))
            return PixelRect(x: Int(x0), y: Int(y0), width: max(0, Int(x1 - x0)), height: max(0, Int(y1 - y0)))
                .intersection(PixelRect(x: 0, y: 0, width: w, height: h))
        }
        let region = pixelRect(self.region)
        let source = FilterPlane(width: w, height: h, linear: false, area: region)
        source.read(layer)
        source.keep(only: region)
        var alpha: FilterPlane?
        var results: [FilterPlane] = []
        for (index, primitive) in primitives.enumerated() {
            let linear = primitive.linearRGB
            func input(_ k: Int) throws -> FilterPlane {
                let which = k < primitive.inputs.count ? primitive.inputs[k] : (results.isEmpty ? .sourceGraphic : .result(results.count - 1))
                switch which {
                case .sourceGraphic: return source.encoded(linear: linear)
                case .sourceAlpha:
                    if alpha == nil {
                        let a = FilterPlane(width: w, height: h, linear: linear, area: source.area)
                        for i in 0..<source.count { a.pixels[4 * i + 3] = source.pixels[4 * i + 3] }
                        alpha = a
                    }
                    // Black: the same in either encoding.
                    let a = alpha!
                    a.linear = linear
                    return a
                case .result(let r):
                    guard r >= 0, r < results.count else { throw FilterError.inputOutOfOrder(primitive: index) }
                    return results[r].encoded(linear: linear)
                }
            }
            let sub = pixelRect(primitive.subregion).intersection(region)
            let out: FilterPlane
            switch primitive.kind {
            case let .gaussianBlur(sx, sy):
                out = try input(0).copy()
                out.blur(sigmaX: sx, sigmaY: sy, threads: threads)
            case let .offset(dx, dy):
                out = try input(0).shifted(dx: dx, dy: dy)
            case .flood(let color):
                out = FilterPlane(width: w, height: h, linear: linear, area: sub)
                out.fill(color, in: sub)
            case .blend(let mode):
                out = try FilterPlane.blended(try input(0), onto: try input(1), mode: mode)
            case .composite(let op):
                out = try input(1).copy()
                out.composite(try input(0), op)
            case let .arithmetic(k1, k2, k3, k4):
                out = FilterPlane.arithmetic(try input(0), try input(1), k: (Float(k1), Float(k2), Float(k3), Float(k4)))
            case .colorMatrix(let m):
                out = try input(0).copy()
                out.mapUnpremultiplied { r, g, b, a in
                    let (r2, g2, b2, a2) = m.apply(Double(r), Double(g), Double(b), Double(a))
                    return (Float(r2), Float(g2), Float(b2), Float(a2))
                }
            case let .componentTransfer(fr, fg, fb, fa):
                out = try input(0).copy()
                out.mapUnpremultiplied { r, g, b, a in
                    (Float(fr(Double(r))), Float(fg(Double(g))), Float(fb(Double(b))), Float(fa(Double(a))))
                }
            case .merge:
                out = FilterPlane(width: w, height: h, linear: linear, area: sub)
                for k in primitive.inputs.indices { out.composite(try input(k), .over, under: false) }
            case let .dropShadow(sx, sy, dx, dy, color):
                let content = try input(0)
                let shadow = content.copy()
                shadow.blur(sigmaX: sx, sigmaY: sy, threads: threads)
                let moved = shadow.shifted(dx: dx, dy: dy)
                let c = color.components(linear: linear)
                for i in 0..<moved.count {
                    let p = moved.pixels + 4 * i
                    let a = p[3] * Float(c.3)
                    p[0] = Float(c.0) * a; p[1] = Float(c.1) * a; p[2] = Float(c.2) * a; p[3] = a
                }
                moved.composite(content, .over)
                out = moved
            case .tile:
                out = try input(0).tiled(over: sub)
            case .image(let i):
                guard i >= 0, i < images.count else { throw FilterError.imageMissing(index: i) }
                out = FilterPlane(width: w, height: h, linear: false, area: sub)
                out.read(images[i])
            case let .morphology(dilate, rx, ry):
                out = try input(0).copy()
                out.morphology(dilate: dilate, rx: wholePixels(rx, limit: w), ry: wholePixels(ry, limit: h))
            }
            // A result is transparent outside its subregion; it reads as `linear` from here on
            // (copied first when it is an input's own plane).
            let result = out === alpha || out === source ? out.copy() : out
            result.keep(only: sub)
            results.append(result)
        }
        let final = (results.last ?? FilterPlane(width: w, height: h, linear: false, area: region)).encoded(linear: false)
        if layer.format == .argb32 {
            final.store(into: layer)
            return
        }
        for y in 0..<h {
            for x in 0..<w {
                let p = final.pixels + 4 * (y * w + x)
                let a = Double(min(1, max(0, p[3])))
                let e = a > 0 ? EncodedPixel(r: Double(p[0]) / a, g: Double(p[1]) / a, b: Double(p[2]) / a, a: a)
                    : EncodedPixel(r: 0, g: 0, b: 0, a: 0)
                layer.setEncodedPixel(x: x, y: y, e)
            }
        }
    }
}

extension Color {
    /// Red, green and blue (decoded to linear light when `linear`), and alpha.
    func components(linear: Bool) -> (Double, Double, Double, Double) {
        linear ? (linearComponents.red, linearComponents.green, linearComponents.blue, alpha) : (red, green, blue, alpha)
    }
}

extension FilterPlane {
    /// This sRGB-encoded image written over an `argb32` surface of its size: per pixel what
    /// `setEncodedPixel` stores (`premultipliedARGB`), without its per-pixel format switch.
    func store(into surface: Surface) {
        precondition(surface.format == .argb32 && surface.width == width && surface.height == height && !linear)
        for y in 0..<height {
            let row = (surface.data + y * surface.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let p = pixels + 4 * (y * width + x)
                let a = Double(min(1, max(0, p[3])))
                guard a > 0 else { row[x] = 0; continue }
                row[x] = premultipliedARGB(r: Double(p[0]) / a, g: Double(p[1]) / a, b: Double(p[2]) / a, alpha: a)
            }
        }
    }

    /// `surface`'s pixels (any format) as premultiplied sRGB-encoded floats, as far as both
    /// extend; the rest stays as it was.
    func read(_ surface: Surface) {
        for y in 0..<min(height, surface.height) {
            for x in 0..<min(width, surface.width) {
                let e = surface.encodedPixel(x: x, y: y)
                let p = pixels + 4 * (y * width + x)
                let a = Float(e.a)
                p[0] = Float(e.r) * a; p[1] = Float(e.g) * a; p[2] = Float(e.b) * a; p[3] = a
            }
        }
    }

    func fill(_ color: Color, in rect: PixelRect) {
        let c = color.components(linear: linear)
        let a = Float(min(1, max(0, c.3)))
        let v: (Float, Float, Float) = (Float(c.0) * a, Float(c.1) * a, Float(c.2) * a)
        guard !rect.isEmpty else { return }
        for y in rect.y..<rect.maxY {
            for x in rect.x..<rect.maxX {
                let p = pixels + 4 * (y * width + x)
                p[0] = v.0; p[1] = v.1; p[2] = v.2; p[3] = a
            }
        }
    }

    /// Blurred in place: σx along rows, σy along columns, each channel separately (colour
    /// spreads with its coverage); outside the image is transparent.
    func blur(sigmaX: Double, sigmaY: Double, threads: Int = 1) {
        // σ capped as every blur of the engine is (`DropShadow.maximumSigma`); infinity too.
        func capped(_ s: Double) -> Double { s.isNaN ? 0 : min(s, DropShadow.maximumSigma) }
        let sx = capped(sigmaX), sy = capped(sigmaY)
        guard sx > 0 || sy > 0 else { return }
        let n = count
        let plane = UnsafeMutablePointer<Float>.allocate(capacity: n)
        let spare = UnsafeMutablePointer<Float>.allocate(capacity: n)
        defer { plane.deallocate(); spare.deallocate() }
        for channel in 0..<4 {
            for i in 0..<n { plane[i] = pixels[4 * i + channel] }
            if sx > 0 { blurRows(plane, scratch: spare, width: width, height: height, sigma: sx, clamp: false, threads: threads) }
            if sy > 0 {
                transpose(plane, into: spare, width: width, height: height)
                blurRows(spare, scratch: plane, width: height, height: width, sigma: sy, clamp: false, threads: threads)
                transpose(spare, into: plane, width: height, height: width)
            }
            for i in 0..<n { pixels[4 * i + channel] = plane[i] }
        }
    }

    /// A copy moved by (dx, dy) device pixels, rounded to whole pixels.
    func shifted(dx: Double, dy: Double) -> FilterPlane {
        let ix = dx.isFinite ? Int(max(-1e6, min(1e6, dx)).rounded()) : 0
        let iy = dy.isFinite ? Int(max(-1e6, min(1e6, dy)).rounded()) : 0
        let out = FilterPlane(width: width, height: height, linear: linear, area: area)
        for y in 0..<height {
            let sy = y - iy
            guard sy >= 0, sy < height else { continue }
            let x0 = max(0, ix), x1 = min(width, width + ix)
            guard x1 > x0 else { continue }
            (out.pixels + 4 * (y * width + x0)).update(from: pixels + 4 * (sy * width + x0 - ix), count: 4 * (x1 - x0))
        }
        return out
    }

    /// `source` composited with this image as the destination (`under`: this image over it).
    func composite(_ source: FilterPlane, _ op: FilterPrimitive.CompositeOperator, under: Bool = false) {
        for i in 0..<count {
            let s = source.pixels + 4 * i, d = pixels + 4 * i
            let sa = s[3], da = d[3]
            let (fs, fd): (Float, Float)
            switch op {
            case .over: (fs, fd) = (1, 1 - sa)
            case .in: (fs, fd) = (da, 0)
            case .out: (fs, fd) = (1 - da, 0)
            case .atop: (fs, fd) = (da, 1 - sa)
            case .xor: (fs, fd) = (1 - da, 1 - sa)
            case .lighter: (fs, fd) = (1, 1)
            }
            for c in 0..<4 { d[c] = min(1, s[c] * fs + d[c] * fd) }
        }
    }

    static func arithmetic(_ a: FilterPlane, _ b: FilterPlane, k: (Float, Float, Float, Float)) -> FilterPlane {
        let out = FilterPlane(width: a.width, height: a.height, linear: a.linear, area: a.area)
        for i in 0..<a.count {
            let p = a.pixels + 4 * i, q = b.pixels + 4 * i, o = out.pixels + 4 * i
            var v = SIMD4<Float>()
            for c in 0..<4 {
                let r = k.0 * p[c] * q[c] + k.1 * p[c] + k.2 * q[c] + k.3
                v[c] = r.isFinite ? min(1, max(0, r)) : 0
            }
            o[3] = v[3]
            for c in 0..<3 { o[c] = min(v[c], v[3]) }
        }
        return out
    }

    /// `source` blended onto `backdrop` by pixman's blend operators on float images.
    static func blended(_ source: FilterPlane, onto backdrop: FilterPlane, mode: BlendMode) throws -> FilterPlane {
        let w = source.width, h = source.height
        let s = try Surface(width: w, height: h, format: .rgbaFloat)
        let d = try Surface(width: w, height: h, format: .rgbaFloat)
        for y in 0..<h {
            (s.data + y * s.stride).assumingMemoryBound(to: Float.self).update(from: source.pixels + 4 * y * w, count: 4 * w)
            (d.data + y * d.stride).assumingMemoryBound(to: Float.self).update(from: backdrop.pixels + 4 * y * w, count: 4 * w)
        }
        try d.composite(s, blendMode: mode)
        let out = FilterPlane(width: w, height: h, linear: backdrop.linear, area: backdrop.area)
        for y in 0..<h {
            (out.pixels + 4 * y * w).update(from: (d.data + y * d.stride).assumingMemoryBound(to: Float.self), count: 4 * w)
        }
        for i in 0..<4 * out.count { out.pixels[i] = min(1, max(0, out.pixels[i])) }
        return out
    }

    /// A copy whose `rect` is covered by this image's area repeated (the area's top-left tile
    /// anchored where it lies).
    func tiled(over rect: PixelRect) -> FilterPlane {
        let out = FilterPlane(width: width, height: height, linear: linear, area: rect)
        let tile = area
        guard !tile.isEmpty, !rect.isEmpty else { return out }
        for y in rect.y..<rect.maxY {
            let ty = tile.y + ((y - tile.y) % tile.height + tile.height) % tile.height
            for x in rect.x..<rect.maxX {
                let tx = tile.x + ((x - tile.x) % tile.width + tile.width) % tile.width
                (out.pixels + 4 * (y * width + x)).update(from: pixels + 4 * (ty * width + tx), count: 4)
            }
        }
        return out
    }

    /// Each channel's minimum (erode) or maximum (dilate) over (2rx+1) × (2ry+1), separably;
    /// outside the image counts as transparent.
    func morphology(dilate: Bool, rx: Int, ry: Int) {
        let rx = min(rx, width), ry = min(ry, height)
        guard rx > 0 || ry > 0 else { return }
        let line = UnsafeMutablePointer<Float>.allocate(capacity: 4 * max(width, height))
        defer { line.deallocate() }
        func pass(length: Int, lines: Int, radius: Int, at: (Int, Int) -> Int) {
            guard radius > 0 else { return }
            for l in 0..<lines {
                for i in 0..<length { for c in 0..<4 { line[4 * i + c] = pixels[at(l, i) + c] } }
                for i in 0..<length {
                    for c in 0..<4 {
                        var v: Float = dilate ? 0 : 1
                        for j in (i - radius)...(i + radius) {
                            let s: Float = j < 0 || j >= length ? 0 : line[4 * j + c]
                            v = dilate ? max(v, s) : min(v, s)
                        }
                        pixels[at(l, i) + c] = v
                    }
                }
            }
        }
        pass(length: width, lines: height, radius: rx) { l, i in 4 * (l * width + i) }
        pass(length: height, lines: width, radius: ry) { l, i in 4 * (i * width + l) }
    }
}
