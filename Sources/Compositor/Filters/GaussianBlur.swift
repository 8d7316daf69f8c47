import Foundation

/// How far a Gaussian of standard deviation σ is evaluated: 3σ keeps 99.7 % of its weight, the
/// rest is below what 8-bit output shows for shadows and blurs of ordinary size.
/// σ that is NaN, infinite or not positive has no extent; σ beyond `DropShadow.maximumSigma`
/// counts as that maximum (never a trap converting a huge value to Int).
public func gaussianExtent(sigma: Double) -> Int {
    guard sigma.isFinite, sigma > 0 else { return 0 }
    return Int((3 * min(sigma, DropShadow.maximumSigma)).rounded(.up))
}

/// Normalised weights of a sampled Gaussian of standard deviation `sigma`, from −extent to
/// +extent.
func gaussianKernel(sigma requested: Double) -> [Float] {
    let extent = gaussianExtent(sigma: requested)
    guard extent > 0 else { return [1] }
    let sigma = min(requested, DropShadow.maximumSigma)
    var weights = (-extent...extent).map { Float(exp(-Double($0 * $0) / (2 * sigma * sigma))) }
    let sum = weights.reduce(0, +)
    for i in weights.indices { weights[i] /= sum }
    return weights
}

/// Above this σ (device pixels) the blur is three successive box blurs, the approximation the
/// W3C Filter Effects spec gives for `feGaussianBlur` (within about 3 % of the Gaussian): its
/// cost per pixel does not grow with σ. At or below it, the sampled Gaussian (6σ + 1 taps) is
/// exact and still cheap.
public let exactGaussianMaximumSigma = 8.0

extension Surface {
    /// Blurs an `a8` surface in place with a Gaussian of standard deviation `sigma` (pixels),
    /// separably: rows, then columns; outside the surface counts as transparent. σ that is not
    /// finite and positive leaves the surface as it is; σ is capped at `DropShadow.maximumSigma`.
    /// Above `exactGaussianMaximumSigma` three box blurs approximate the Gaussian.
    /// `threads`: how many threads the rows (then the columns) are shared among; the result is
    /// the same bytes at any count.
    public func blurAlpha(sigma: Double, threads: Int = 1) {
        precondition(format == .a8, "blurAlpha blurs a8 masks")
        blur(sigma: sigma, threads: threads)
    }

    /// Blurs every channel in place (premultiplied colour and alpha, so colour spreads with its
    /// coverage), as `blurAlpha` does. Outside the surface counts as transparent, or, with
    /// `clampEdges`, as the nearest edge pixel (an opaque blur: nothing fades in from outside).
    /// `threads`: as for `blurAlpha`.
    public func blur(sigma: Double, clampEdges: Bool = false, threads: Int = 1) {
        guard sigma.isFinite, sigma > 0 else { return }
        let sigma = min(sigma, DropShadow.maximumSigma)
        let channels = format == .a8 ? 1 : 4
        let isFloat = format == .rgbaFloat
        let count = width * height
        var work = [Float](repeating: 0, count: count)
        var spare = [Float](repeating: 0, count: count)
        for channel in 0..<channels {
            // One plane of the channel, blurred along rows, then along (transposed) columns.
            for y in 0..<height {
                let row = data + y * stride
                if isFloat {
                    let f = row.assumingMemoryBound(to: Float.self)
                    for x in 0..<width { work[y * width + x] = f[x * 4 + channel] }
                } else {
                    let b = row.assumingMemoryBound(to: UInt8.self)
                    for x in 0..<width { work[y * width + x] = Float(b[x * channels + channel]) }
                }
            }
            work.withUnsafeMutableBufferPointer { w in
                spare.withUnsafeMutableBufferPointer { t in
                    blurRows(w.baseAddress!, scratch: t.baseAddress!, width: width, height: height, sigma: sigma, clamp: clampEdges,
                             threads: threads)
                    transpose(w.baseAddress!, into: t.baseAddress!, width: width, height: height)
                    blurRows(t.baseAddress!, scratch: w.baseAddress!, width: height, height: width, sigma: sigma, clamp: clampEdges,
                             threads: threads)
                    transpose(t.baseAddress!, into: w.baseAddress!, width: height, height: width)
                }
            }
            for y in 0..<height {
                let row = data + y * stride
                if isFloat {
                    let f = row.assumingMemoryBound(to: Float.self)
                    for x in 0..<width { f[x * 4 + channel] = work[y * width + x] }
                } else {
                    let b = row.assumingMemoryBound(to: UInt8.self)
                    for x in 0..<width { b[x * channels + channel] = UInt8(min(255, max(0, work[y * width + x] + 0.5))) }
                }
            }
        }
    }
}

/// `out[x * height + y] = values[y * width + x]`.
func transpose(_ values: UnsafeMutablePointer<Float>, into out: UnsafeMutablePointer<Float>, width: Int, height: Int) {
    // In tiles, so both sides stay in cache.
    let tile = 32
    for y0 in stride(from: 0, to: height, by: tile) {
        for x0 in stride(from: 0, to: width, by: tile) {
            for y in y0..<min(height, y0 + tile) {
                for x in x0..<min(width, x0 + tile) { out[x * height + y] = values[y * width + x] }
            }
        }
    }
}

/// Blurs each row of `values` in place along x, the rows shared among up to `threads` threads
/// (each with its own rows of `scratch`, which is as large as `values`); rows are independent,
/// so the result is the same at any count. Planes under 2^14 values (a 128 × 128 mask) stay on one thread.
func blurRows(_ values: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>, width: Int, height: Int,
              sigma: Double, clamp: Bool, threads: Int) {
    let parts = min(max(1, threads), height)
    guard parts > 1, width * height >= 1 << 14 else {
        blurRows(values, scratch: scratch, width: width, height: height, sigma: sigma, clamp: clamp)
        return
    }
    nonisolated(unsafe) let (v, s) = (values, scratch)
    DispatchQueue.concurrentPerform(iterations: parts) { part in
        let r0 = height * part / parts, r1 = height * (part + 1) / parts
        blurRows(v + r0 * width, scratch: s + r0 * width, width: width, height: r1 - r0, sigma: sigma, clamp: clamp)
    }
}

/// Blurs each row of `values` in place along x; with `clamp`, samples beyond the ends repeat
/// the end values instead of being zero. `scratch` holds at least `width` values.
func blurRows(_ values: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>, width: Int, height: Int,
                      sigma: Double, clamp: Bool) {
    if clamp {
        // Each row padded with copies of its end values, blurred without clamping, cut back.
        let pad = gaussianExtent(sigma: sigma) * 2 + 2
        let padded = width + 2 * pad
        let row = UnsafeMutablePointer<Float>.allocate(capacity: padded)
        let rowScratch = UnsafeMutablePointer<Float>.allocate(capacity: padded)
        defer { row.deallocate(); rowScratch.deallocate() }
        for y in 0..<height {
            let source = values + y * width
            for i in 0..<pad { row[i] = source[0]; row[pad + width + i] = source[width - 1] }
            (row + pad).update(from: source, count: width)
            blurRows(row, scratch: rowScratch, width: padded, height: 1, sigma: sigma, clamp: false)
            source.update(from: row + pad, count: width)
        }
        return
    }
    if sigma <= exactGaussianMaximumSigma {
        let kernel = gaussianKernel(sigma: sigma)
        let extent = kernel.count / 2
        kernel.withUnsafeBufferPointer { k in
            let taps = k.baseAddress!
            for y in 0..<height {
                let row = values + y * width
                // Eight outputs at a time where every tap lies inside the row: the same products
                // added in the same order as the scalar loop below, one output per lane, so the
                // same floats.
                var vectorStart = 0, vectorEnd = 0
                if width > 2 * extent + 8 {
                    vectorStart = extent
                    var x = extent
                    while x + 8 <= width - extent {
                        var acc = SIMD8<Float>(repeating: 0)
                        let base = UnsafeRawPointer(row + x - extent)
                        for i in 0..<kernel.count {
                            acc += base.loadUnaligned(fromByteOffset: 4 * i, as: SIMD8<Float>.self) * taps[i]
                        }
                        UnsafeMutableRawPointer(scratch + x).storeBytes(of: acc, as: SIMD8<Float>.self)
                        x += 8
                    }
                    vectorEnd = x
                }
                @inline(__always) func scalar(_ x: Int) {
                    var acc: Float = 0
                    for i in max(-extent, -x)...min(extent, width - 1 - x) { acc += row[x + i] * taps[i + extent] }
                    scratch[x] = acc
                }
                for x in 0..<vectorStart { scalar(x) }
                for x in vectorEnd..<width { scalar(x) }
                row.update(from: scratch, count: width)
            }
        }
        return
    }
    // W3C: d = ⌊σ · 3√(2π) / 4 + 0.5⌋; odd d: three centred boxes of d; even d: boxes of d
    // shifted left, then right, then one of d + 1 centred.
    let d = Int((sigma * 3 * (2 * Double.pi).squareRoot() / 4 + 0.5).rounded(.down))
    let boxes: [(left: Int, right: Int)] = d % 2 == 1 ? Array(repeating: ((d - 1) / 2, (d - 1) / 2), count: 3)
        : [(d / 2, d / 2 - 1), (d / 2 - 1, d / 2), (d / 2, d / 2)]
    for y in 0..<height {
        let row = values + y * width
        for (left, right) in boxes {
            let scale = 1 / Float(left + right + 1)
            // Running sum of row[x - left ... x + right], zero outside.
            var sum: Float = 0
            for i in 0...min(right, width - 1) { sum += row[i] }
            for x in 0..<width {
                scratch[x] = sum * scale
                let enter = x + 1 + right, leave = x - left
                if enter < width { sum += row[enter] }
                if leave >= 0 { sum -= row[leave] }
            }
            row.update(from: scratch, count: width)
        }
    }
}
