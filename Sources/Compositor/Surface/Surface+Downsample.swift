import Foundation

extension Surface {
    /// This `argb32` surface reduced to `width` × `height` pixels by area averaging: each
    /// destination pixel is the mean of the premultiplied source area it covers (partial source
    /// pixels weighted by their overlap). For large reductions (a 136-pixel emoji bitmap drawn
    /// 20 pixels wide), where bilinear sampling would skip most source pixels and alias.
    /// Sizes at or above the source's return a copy; use an image paint's filter to enlarge.
    public func downsampled(toWidth width: Int, height: Int) throws -> Surface {
        precondition(format == .argb32, "downsampled(toWidth:height:) reads argb32 pixels")
        let w = max(1, min(width, self.width)), h = max(1, min(height, self.height))
        if w == self.width && h == self.height { return try copy() }
        let out = try Surface(width: w, height: h, format: .argb32)
        let sx = Double(self.width) / Double(w), sy = Double(self.height) / Double(h)
        // Per destination column, the source columns it overlaps and their weights (and the
        // same per row), computed once.
        func spans(_ n: Int, _ s: Double, _ limit: Int) -> [[(Int, Double)]] {
            (0..<n).map { d in
                let lo = Double(d) * s, hi = Double(d + 1) * s
                return (Int(lo.rounded(.down))..<min(limit, Int(hi.rounded(.up)))).map { k in
                    (k, (min(hi, Double(k + 1)) - max(lo, Double(k))) / s)
                }
            }
        }
        let columns = spans(w, sx, self.width), rows = spans(h, sy, self.height)
        for y in 0..<h {
            let target = (out.data + y * out.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<w {
                var a = 0.0, r = 0.0, g = 0.0, b = 0.0
                for (sy, wy) in rows[y] {
                    let source = (data + sy * stride).assumingMemoryBound(to: UInt32.self)
                    for (sx, wx) in columns[x] {
                        let p = source[sx], weight = wx * wy
                        a += Double(p >> 24) * weight
                        r += Double((p >> 16) & 0xFF) * weight
                        g += Double((p >> 8) & 0xFF) * weight
                        b += Double(p & 0xFF) * weight
                    }
                }
                func byte(_ v: Double) -> UInt32 { UInt32(min(255, max(0, v.rounded()))) }
                // Premultiplied means stay premultiplied: no channel above alpha after rounding.
                let alpha = byte(a)
                target[x] = alpha << 24 | min(byte(r), alpha) << 16 | min(byte(g), alpha) << 8 | min(byte(b), alpha)
            }
        }
        return out
    }
}
