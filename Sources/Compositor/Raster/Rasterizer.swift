import Foundation

/// The most accumulation cells one band holds: 4 Mi floats (16 MiB). A path larger than that is
/// rasterized in horizontal bands, so memory stays bounded whatever the canvas.
let maximumBandCells = 1 << 22

/// Coverage of paths by exact area: for each pixel, the area of the pixel inside the flattened
/// path, for the non-zero and even-odd rules.
///
/// The method is FreeType's and font-rs's signed-area accumulation. Every line segment adds,
/// to each cell it crosses, its signed height inside the cell times the fraction of the cell to
/// its right (`area`), and its remaining height to the next cell (so a running sum along the
/// row carries the winding to every pixel further right). The prefix sum of a row is then the
/// signed covered area of each pixel, and the fill rule folds it into coverage: non-zero takes
/// min(1, |s|), even-odd folds s into [0, 1] with period 2. Where one pixel holds edges of
/// several overlapping windings the fold is applied to the pixel's net area, as FreeType does
/// (exact whenever the edges inside a pixel do not overlap each other).
///
/// A rasterizer owns scratch buffers and reuses them across paths; it is not thread-safe, so
/// give each thread its own.
public final class Rasterizer {
    /// Flattened device-space segments: x0, y0, x1, y1.
    private var segments: [Double] = []
    private var accumulation: UnsafeMutablePointer<Float>
    private var accumulationCapacity: Int
    private var mask: UnsafeMutablePointer<UInt8>
    private var maskCapacity: Int
    /// Pixels whose coverage was computed (for render statistics).
    public private(set) var coveragePixels = 0

    public init() {
        accumulationCapacity = 4096
        accumulation = .allocate(capacity: accumulationCapacity)
        accumulation.initialize(repeating: 0, count: accumulationCapacity)
        maskCapacity = 4096
        mask = .allocate(capacity: maskCapacity)
    }

    deinit {
        accumulation.deallocate()
        mask.deallocate()
    }

    /// Rasterizes `path` (mapped by `transform` to device pixels) clipped to `clip`, calling
    /// `emit` once per band with an 8-bit coverage mask (row stride a multiple of 4) and the
    /// device rectangle it covers. `opacity` scales the coverage. Nothing is emitted for an
    /// empty or zero-area path, or one entirely outside `clip`.
    ///
    /// - Throws: `RasterError.nonFiniteGeometry` when a device coordinate is NaN or infinite.
    public func rasterize(_ path: Path, transform: CGAffineTransform = .identity, fillRule: FillRule = .nonZero,
                          clip: PixelRect, opacity: Double = 1,
                          emit: (_ mask: UnsafePointer<UInt8>, _ stride: Int, _ rect: PixelRect) throws -> Void) throws {
        var segs = segments
        segments = []
        defer { segments = segs }
        segs.removeAll(keepingCapacity: true)

        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        var sx = 0.0, sy = 0.0, lx = 0.0, ly = 0.0
        var finite = true
        path.flatten(transform: transform, balanced: true,
                     moveTo: { x, y in sx = x; sy = y; lx = x; ly = y },
                     lineTo: { x, y in
                         if !(x.isFinite && y.isFinite) { finite = false; return }
                         if y != ly { segs.append(lx); segs.append(ly); segs.append(x); segs.append(y) }
                         minX = min(minX, x, lx); maxX = max(maxX, x, lx)
                         minY = min(minY, y, ly); maxY = max(maxY, y, ly)
                         lx = x; ly = y
                     },
                     close: {
                         if sy != ly { segs.append(lx); segs.append(ly); segs.append(sx); segs.append(sy) }
                         lx = sx; ly = sy
                     })
        guard finite, sx.isFinite, sy.isFinite else {
            throw RasterError.nonFiniteGeometry(element: firstNonFiniteElement(path, transform))
        }
        guard !segs.isEmpty, opacity > 0 else { return }

        // Device bounds of the path, in whole pixels, intersected with the clip. Coordinates
        // beyond the clip are clamped before conversion, so enormous values cannot overflow.
        func clampedFloor(_ v: Double, _ lo: Int, _ hi: Int) -> Int { Int(min(Double(hi), max(Double(lo), v.rounded(.down)))) }
        func clampedCeil(_ v: Double, _ lo: Int, _ hi: Int) -> Int { Int(min(Double(hi), max(Double(lo), v.rounded(.up)))) }
        let x0 = clampedFloor(minX, clip.x, clip.maxX), x1 = clampedCeil(maxX, clip.x, clip.maxX)
        let y0 = clampedFloor(minY, clip.y, clip.maxY), y1 = clampedCeil(maxY, clip.y, clip.maxY)
        guard x1 > x0, y1 > y0 else { return }
        let width = x1 - x0
        let stride = width + 2                        // two guard cells to the right
        let maskStride = (width + 3) & ~3
        let bandHeight = max(1, min(y1 - y0, maximumBandCells / stride))
        reserve(cells: stride * bandHeight, maskBytes: maskStride * bandHeight)
        let scale = Float(min(1, max(0, opacity)) * 255)

        var top = y0
        while top < y1 {
            let rows = min(bandHeight, y1 - top)
            let acc = accumulation
            segs.withUnsafeBufferPointer { s in
                var i = 0
                while i < s.count {
                    accumulateClipped(acc, stride: stride, width: Double(width), height: Double(rows),
                                      x0: s[i] - Double(x0), y0: s[i + 1] - Double(top),
                                      x1: s[i + 2] - Double(x0), y1: s[i + 3] - Double(top))
                    i += 4
                }
            }
            sweep(rows: rows, width: width, stride: stride, maskStride: maskStride, fillRule: fillRule, scale: scale)
            coveragePixels += width * rows
            try emit(mask, maskStride, PixelRect(x: x0, y: top, width: width, height: rows))
            top += rows
        }
    }

    private func reserve(cells: Int, maskBytes: Int) {
        if cells > accumulationCapacity {
            accumulation.deallocate()
            accumulationCapacity = cells
            accumulation = .allocate(capacity: cells)
            accumulation.initialize(repeating: 0, count: cells)
        }
        if maskBytes > maskCapacity {
            mask.deallocate()
            maskCapacity = maskBytes
            mask = .allocate(capacity: maskBytes)
        }
    }

    /// Prefix-sums each row into coverage bytes and zeroes the accumulation cells for reuse.
    private func sweep(rows: Int, width: Int, stride: Int, maskStride: Int, fillRule: FillRule, scale: Float) {
        for row in 0..<rows {
            let line = accumulation + row * stride
            let out = mask + row * maskStride
            var sum: Float = 0
            switch fillRule {
            case .nonZero:
                for x in 0..<width {
                    sum += line[x]
                    line[x] = 0
                    out[x] = UInt8(min(1, abs(sum)) * scale + 0.5)
                }
            case .evenOdd:
                for x in 0..<width {
                    sum += line[x]
                    line[x] = 0
                    var v = abs(sum)
                    v -= 2 * (v * 0.5).rounded(.down)
                    if v > 1 { v = 2 - v }
                    out[x] = UInt8(v * scale + 0.5)
                }
            }
            line[width] = 0
            line[width + 1] = 0
        }
    }

    private func firstNonFiniteElement(_ path: Path, _ t: CGAffineTransform) -> Int {
        for (i, element) in path.elements.enumerated() {
            let points: [CGPoint]
            switch element {
            case .move(let p), .line(let p): points = [p]
            case .quadCurve(let p, let c): points = [p, c]
            case .curve(let p, let c1, let c2): points = [p, c1, c2]
            case .closeSubpath: points = []
            }
            if points.contains(where: { let q = $0.applying(t); return !(q.x.isFinite && q.y.isFinite) }) { return i }
        }
        return 0
    }
}

// MARK: - Accumulation

/// Clips a segment (band-local coordinates) to 0 ≤ y ≤ height and 0 ≤ x ≤ width, then
/// accumulates it. Parts left of the band become vertical lines at x = 0 (their winding still
/// reaches every pixel to the right); parts right of it are dropped (they reach no pixel).
@inline(__always)
private func accumulateClipped(_ acc: UnsafeMutablePointer<Float>, stride: Int, width: Double, height: Double,
                               x0 ax: Double, y0 ay: Double, x1 bx: Double, y1 by: Double) {
    var x0 = ax, y0 = ay, x1 = bx, y1 = by
    if y0 == y1 { return }
    if (y0 <= 0 && y1 <= 0) || (y0 >= height && y1 >= height) { return }
    if x0 >= width && x1 >= width { return }
    // Clip in y.
    let dxdy = (x1 - x0) / (y1 - y0)
    if y0 < 0 { x0 += (0 - y0) * dxdy; y0 = 0 }
    if y0 > height { x0 += (height - y0) * dxdy; y0 = height }
    if y1 < 0 { x1 += (0 - y1) * dxdy; y1 = 0 }
    if y1 > height { x1 += (height - y1) * dxdy; y1 = height }
    // Split in x at 0 and width; clamp each piece.
    if (x0 < 0) != (x1 < 0) {
        let ym = y0 + (0 - x0) / (x1 - x0) * (y1 - y0)
        accumulateClippedX(acc, stride: stride, width: width, x0, y0, 0, ym)
        accumulateClippedX(acc, stride: stride, width: width, 0, ym, x1, y1)
    } else {
        accumulateClippedX(acc, stride: stride, width: width, x0, y0, x1, y1)
    }
}

@inline(__always)
private func accumulateClippedX(_ acc: UnsafeMutablePointer<Float>, stride: Int, width: Double,
                                _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
    if (x0 > width) != (x1 > width) {
        let ym = y0 + (width - x0) / (x1 - x0) * (y1 - y0)
        if x0 < width { accumulateLine(acc, stride: stride, Float(max(0, x0)), Float(y0), Float(width), Float(ym)) }
        else { accumulateLine(acc, stride: stride, Float(width), Float(ym), Float(max(0, x1)), Float(y1)) }
        return
    }
    if x0 >= width && x1 >= width { return }
    accumulateLine(acc, stride: stride, Float(max(0, x0)), Float(y0), Float(max(0, x1)), Float(y1))
}

/// Adds one line (band-local, 0 ≤ x ≤ width, 0 ≤ y ≤ rows) to the accumulation cells.
/// Downward lines add positive winding, upward lines negative.
@inline(__always)
private func accumulateLine(_ acc: UnsafeMutablePointer<Float>, stride: Int,
                            _ px0: Float, _ py0: Float, _ px1: Float, _ py1: Float) {
    if py0 == py1 { return }
    let dir: Float = py0 < py1 ? 1 : -1
    let (xa, ya, xb, yb) = py0 < py1 ? (px0, py0, px1, py1) : (px1, py1, px0, py0)
    let dxdy = (xb - xa) / (yb - ya)
    let xlo = min(xa, xb), xhi = max(xa, xb)
    var y = ya
    var x = xa
    var row = Int(ya)
    while y < yb {
        let yNext = min(Float(row + 1), yb)
        let dy = yNext - y
        // x at the row's lower crossing, from the start point (no drift), kept on the segment.
        let xNext = min(xhi, max(xlo, xa + (yNext - ya) * dxdy))
        let d = dy * dir
        let line = acc + row * stride
        let l = min(x, xNext), r = max(x, xNext)
        let c = Int(l)
        if r <= Float(c + 1) {
            // Inside one column: the area right of the segment is (c + 1 − mid)·dy.
            let mid = (l + r) * 0.5 - Float(c)
            line[c] += d * (1 - mid)
            line[c + 1] += d * mid
        } else {
            // Across columns: each column receives the piece of dy it holds.
            let dPerX = d / (r - l)
            var xc = l
            var col = c
            while xc < r {
                let xe = min(Float(col + 1), r)
                let dp = dPerX * (xe - xc)
                let mid = (xc + xe) * 0.5 - Float(col)
                line[col] += dp * (1 - mid)
                line[col + 1] += dp * mid
                xc = xe
                col += 1
            }
        }
        x = xNext
        y = yNext
        row += 1
    }
}
