import Foundation

extension Path {
    /// The smallest rectangle containing every point of the path's segments (not their control
    /// points), as SwiftUI's `boundingRect`; `.zero` for an empty path.
    public var boundingRect: CGRect {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        func include(_ x: Double, _ y: Double) {
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        }
        var current = CGPoint.zero
        for element in elements {
            switch element {
            case .move(let p), .line(let p):
                include(p.x, p.y); current = p
            case .quadCurve(let p, let c):
                include(p.x, p.y)
                // B'(t) = 0 where t = (P0 − P1) / (P0 − 2P1 + P2), per axis.
                for axis in 0..<2 {
                    let (p0, p1, p2) = axis == 0 ? (current.x, c.x, p.x) : (current.y, c.y, p.y)
                    let den = p0 - 2 * p1 + p2
                    guard den != 0 else { continue }
                    let t = (p0 - p1) / den
                    guard t > 0, t < 1 else { continue }
                    let u = 1 - t
                    let q = CGPoint(x: u * u * current.x + 2 * u * t * c.x + t * t * p.x,
                                    y: u * u * current.y + 2 * u * t * c.y + t * t * p.y)
                    include(q.x, q.y)
                }
                current = p
            case .curve(let p, let c1, let c2):
                include(p.x, p.y)
                for axis in 0..<2 {
                    let (p0, p1, p2, p3) = axis == 0 ? (current.x, c1.x, c2.x, p.x) : (current.y, c1.y, c2.y, p.y)
                    for t in cubicExtremaParameters(p0, p1, p2, p3) {
                        let u = 1 - t
                        let b0 = u * u * u, b1 = 3 * u * u * t, b2 = 3 * u * t * t, b3 = t * t * t
                        include(b0 * current.x + b1 * c1.x + b2 * c2.x + b3 * p.x,
                                b0 * current.y + b1 * c1.y + b2 * c2.y + b3 * p.y)
                    }
                }
                current = p
            case .closeSubpath:
                break
            }
        }
        guard minX <= maxX else { return .zero }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}

/// Parameters in (0, 1) where one coordinate of a cubic has a zero derivative.
/// B'(t)/3 = a t² + b t + c with a = −p0 + 3p1 − 3p2 + p3, b = 2(p0 − 2p1 + p2), c = p1 − p0.
func cubicExtremaParameters(_ p0: Double, _ p1: Double, _ p2: Double, _ p3: Double) -> [Double] {
    let a = -p0 + 3 * p1 - 3 * p2 + p3, b = 2 * (p0 - 2 * p1 + p2), c = p1 - p0
    var roots: [Double] = []
    if abs(a) < 1e-12 {
        if b != 0 { roots.append(-c / b) }
    } else {
        let disc = b * b - 4 * a * c
        if disc >= 0 {
            let s = disc.squareRoot()
            roots.append((-b + s) / (2 * a))
            roots.append((-b - s) / (2 * a))
        }
    }
    return roots.filter { $0 > 0 && $0 < 1 }
}

extension Path {
    /// Whether `point` is inside the filled path under the non-zero rule, or the even-odd rule
    /// when `eoFill` is true. Curves are flattened within `flatteningTolerance`; open subpaths
    /// count as closed, as when filling.
    public func contains(_ point: CGPoint, eoFill: Bool = false) -> Bool {
        var winding = 0
        var sx = 0.0, sy = 0.0, lx = 0.0, ly = 0.0
        let px = point.x, py = point.y
        func edge(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
            // Half-open rule in y so a vertex on the ray counts once.
            if y0 <= py {
                if y1 > py, (x1 - x0) * (py - y0) - (px - x0) * (y1 - y0) > 0 { winding += 1 }
            } else if y1 <= py, (x1 - x0) * (py - y0) - (px - x0) * (y1 - y0) < 0 {
                winding -= 1
            }
        }
        flatten(moveTo: { x, y in sx = x; sy = y; lx = x; ly = y },
                lineTo: { x, y in edge(lx, ly, x, y); lx = x; ly = y },
                close: { _ in edge(lx, ly, sx, sy); lx = sx; ly = sy })
        return eoFill ? winding % 2 != 0 : winding != 0
    }
}

extension Path {
    /// The rectangle this path is, if it is exactly one axis-aligned rectangle mapped by
    /// `transform` (a move, three or four lines back round, a close), else nil. Lets a fill of
    /// a pixel-aligned rectangle skip the rasterizer, whose coverage would be exactly 0 or 1.
    public func axisAlignedRectangle(transform: CGAffineTransform = .identity) -> CGRect? {
        // Checked in place (no arrays): every colour fill asks.
        guard transform.b == 0, transform.c == 0, elements.count == 5 || elements.count == 6,
              case .move(let p0) = elements[0], case .line(let p1) = elements[1], case .line(let p2) = elements[2],
              case .line(let p3) = elements[3], elements[elements.count - 1] == .closeSubpath else { return nil }
        if elements.count == 6 {
            guard case .line(let back) = elements[4], back == p0 else { return nil }
        }
        // Consecutive corners share y, then x, alternately (or x first).
        let rectangular = (p0.y == p1.y && p1.x == p2.x && p2.y == p3.y && p3.x == p0.x)
            || (p0.x == p1.x && p1.y == p2.y && p2.x == p3.x && p3.y == p0.y)
        guard rectangular else { return nil }
        let a = p0.applying(transform), c = p2.applying(transform)
        let rect = CGRect(x: min(a.x, c.x), y: min(a.y, c.y), width: abs(c.x - a.x), height: abs(c.y - a.y))
        guard rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite else { return nil }
        return rect
    }
}
