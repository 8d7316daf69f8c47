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

extension Surface {
    /// Blurs an `a8` surface in place with a Gaussian of standard deviation `sigma` (pixels),
    /// separably: rows, then columns; outside the surface counts as transparent. σ that is not
    /// finite and positive leaves the surface as it is; σ is capped at `DropShadow.maximumSigma`.
    public func blurAlpha(sigma: Double) {
        precondition(format == .a8, "blurAlpha blurs a8 masks")
        let kernel = gaussianKernel(sigma: sigma)
        guard kernel.count > 1 else { return }
        let extent = kernel.count / 2
        var temp = [Float](repeating: 0, count: width * height)
        kernel.withUnsafeBufferPointer { k in
            temp.withUnsafeMutableBufferPointer { t in
                for y in 0..<height {
                    let row = (data + y * stride).assumingMemoryBound(to: UInt8.self)
                    for x in 0..<width {
                        var acc: Float = 0
                        for i in max(-extent, -x)...min(extent, width - 1 - x) { acc += Float(row[x + i]) * k[i + extent] }
                        t[y * width + x] = acc
                    }
                }
                for y in 0..<height {
                    let row = (data + y * stride).assumingMemoryBound(to: UInt8.self)
                    for x in 0..<width {
                        var acc: Float = 0
                        for i in max(-extent, -y)...min(extent, height - 1 - y) { acc += t[(y + i) * width + x] * k[i + extent] }
                        row[x] = UInt8(min(255, acc + 0.5))
                    }
                }
            }
        }
    }
}
