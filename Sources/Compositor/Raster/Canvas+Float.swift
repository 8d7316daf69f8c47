import Foundation

extension Canvas {
    /// Solid colours into a float (`rgbaFloat`) surface with source-over or plus-lighter, done
    /// here because pixman's float combiners clamp colour at 1: extended-range colour must
    /// survive inside an extended-linear group. Alpha is clamped to [0, 1]; colour is not.
    /// Returns false when it does not apply (other formats, paints or modes).
    func fillFloat(_ path: Path, color: Color, fillRule: FillRule, transform: CGAffineTransform, opacity: Double,
                   blendMode: BlendMode, tolerance: Double = flatteningTolerance) throws -> Bool {
        guard surface.format == .rgbaFloat, blendMode == .normal || blendMode == .plusLighter else { return false }
        let region = clip.intersection(surface.bounds)
        guard !region.isEmpty else { return true }
        let l = color.linearComponents
        let a = Float(color.alpha)
        let (r, g, b) = (Float(l.red) * a, Float(l.green) * a, Float(l.blue) * a)
        let add = blendMode == .plusLighter
        let surface = self.surface
        try rasterizer.rasterize(path, transform: transform, fillRule: fillRule, clip: region, opacity: opacity,
                                 tolerance: tolerance) { mask, stride, rect in
            for y in 0..<rect.height {
                let row = (surface.data + (rect.y + y) * surface.stride).assumingMemoryBound(to: Float.self) + 4 * rect.x
                let m = mask + y * stride
                for x in 0..<rect.width where m[x] != 0 {
                    let cov = Float(m[x]) / 255
                    let p = row + 4 * x
                    let sa = a * cov
                    if add {
                        p[0] += r * cov; p[1] += g * cov; p[2] += b * cov
                        p[3] = min(1, p[3] + sa)
                    } else {
                        let keep = 1 - sa
                        p[0] = r * cov + p[0] * keep; p[1] = g * cov + p[1] * keep; p[2] = b * cov + p[2] * keep
                        p[3] = sa + p[3] * keep
                    }
                }
            }
        }
        return true
    }
}

extension Surface {
    /// Composites a float (linear, extended) layer onto this 8-bit encoded surface with
    /// source-over and `opacity`: each pixel is un-premultiplied, encoded with the extended sRGB
    /// transfer function, scaled by its alpha and `opacity`, and blended; only the stored result
    /// is clamped (DESIGN.md: white + white at 0.75 each, then opacity 0.5 over black, stores
    /// 0.5 × encode(1.5) → 152).
    public func compositeExtended(_ layer: Surface, at ox: Int, y oy: Int, opacity: Double) {
        precondition(layer.format == .rgbaFloat && (format == .argb32 || format == .xrgb32))
        let k = Opacity(opacity).value
        for y in 0..<layer.height where oy + y >= 0 && oy + y < height {
            let src = (layer.data + y * layer.stride).assumingMemoryBound(to: Float.self)
            let dst = (data + (oy + y) * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<layer.width where ox + x >= 0 && ox + x < width {
                let p = src + 4 * x
                let a = Double(min(1, max(0, p[3])))
                guard a > 0 else { continue }
                let sa = a * k
                let d = dst[ox + x]
                let da = format == .xrgb32 ? 1.0 : Double(d >> 24) / 255
                func channel(_ c: Float, _ shift: UInt32) -> UInt32 {
                    let s = srgbEncode(Double(c) / a) * sa
                    let v = s + Double((d >> shift) & 0xFF) / 255 * (1 - sa)
                    return UInt32((min(1, max(0, v)) * 255).rounded()) << shift
                }
                let outA = format == .xrgb32 ? 255 : UInt32((min(1, sa + da * (1 - sa)) * 255).rounded())
                dst[ox + x] = outA << 24 | channel(p[0], 16) | channel(p[1], 8) | channel(p[2], 0)
            }
        }
    }
}
