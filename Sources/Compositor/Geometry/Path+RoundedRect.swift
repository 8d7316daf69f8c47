import Foundation

/// One continuous corner in corner-local units of the radius: the corner point is the origin,
/// the incoming edge runs along +x towards it and the outgoing edge leaves along +y.
/// Three cubics, curvature-continuous where they meet the straight edges, reaching
/// `continuousCornerExtent` radii along each edge.
///
/// Where the numbers come from: PaintCode's published measurement of the corners UIKit draws for
/// `UIBezierPath(roundedRect:cornerRadius:)` since iOS 7, which SwiftUI's `.continuous` style
/// matches. They are symmetric about the corner's diagonal.
let continuousCornerExtent = 1.528665
private let continuousCorner: [(c1: (Double, Double), c2: (Double, Double), to: (Double, Double))] = [
    ((1.08849, 0), (0.86841, 0), (0.63149, 0.07491)),
    ((0.37282, 0.16906), (0.16906, 0.37282), (0.07491, 0.63149)),
    ((0, 0.86841), (0, 1.08849), (0, continuousCornerExtent)),
]

extension Path {
    /// Adds a rounded rectangle as one closed subpath, clockwise on screen from the top edge.
    ///
    /// Corner sizes are clamped to half the rectangle's width and height. `.continuous` corners
    /// need `continuousCornerExtent` (≈1.53) radii of straight edge each; when the rectangle is too
    /// small for that, the radius shrinks so the corners still meet (UIKit shrinks the same way).
    public mutating func addRoundedRect(in rect: CGRect, cornerSize: CGSize, style: RoundedCornerStyle = .continuous,
                                        transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        guard !r.isNull, !r.isInfinite, r.width.isFinite, r.height.isFinite else { return }
        var rx = max(0, min(cornerSize.width, r.width / 2))
        var ry = max(0, min(cornerSize.height, r.height / 2))
        guard rx > 0, ry > 0 else {
            addRect(r, transform: transform)
            return
        }
        if style == .continuous {
            rx = min(rx, r.width / 2 / continuousCornerExtent)
            ry = min(ry, r.height / 2 / continuousCornerExtent)
        }
        // Corners in drawing order: top-right, bottom-right, bottom-left, top-left. For each,
        // the corner point and the unit directions of its incoming edge (towards the corner)
        // and outgoing edge (away from it).
        let corners: [(corner: CGPoint, incoming: CGPoint, outgoing: CGPoint)] = [
            (CGPoint(x: r.maxX, y: r.minY), CGPoint(x: 1, y: 0), CGPoint(x: 0, y: 1)),
            (CGPoint(x: r.maxX, y: r.maxY), CGPoint(x: 0, y: 1), CGPoint(x: -1, y: 0)),
            (CGPoint(x: r.minX, y: r.maxY), CGPoint(x: -1, y: 0), CGPoint(x: 0, y: -1)),
            (CGPoint(x: r.minX, y: r.minY), CGPoint(x: 0, y: -1), CGPoint(x: 1, y: 0)),
        ]
        // Corner-local (u along the incoming edge measured back from the corner, v along the
        // outgoing edge) to absolute, scaled by the radius along each axis.
        func point(_ c: (corner: CGPoint, incoming: CGPoint, outgoing: CGPoint), _ u: Double, _ v: Double) -> CGPoint {
            let du = CGPoint(x: -c.incoming.x * u, y: -c.incoming.y * u)
            let dv = CGPoint(x: c.outgoing.x * v, y: c.outgoing.y * v)
            // Radii follow the absolute axis each offset lies on.
            let x = c.corner.x + (du.x + dv.x) * rx
            let y = c.corner.y + (du.y + dv.y) * ry
            return CGPoint(x: x, y: y).applying(transform)
        }
        let extent = style == .continuous ? continuousCornerExtent : 1
        move(to: point(corners[3], 0, extent))   // top edge, just after the top-left corner
        for c in corners {
            addLine(to: point(c, extent, 0))
            switch style {
            case .circular:
                // A quarter ellipse: the standard cubic with k = 4/3·tan(π/8).
                let k = 1 - 4.0 / 3.0 * tan(Double.pi / 8)
                addCurve(to: point(c, 0, 1), control1: point(c, k, 0), control2: point(c, 0, k))
            case .continuous:
                for seg in continuousCorner {
                    addCurve(to: point(c, seg.to.0, seg.to.1),
                             control1: point(c, seg.c1.0, seg.c1.1), control2: point(c, seg.c2.0, seg.c2.1))
                }
            }
        }
        closeSubpath()
    }

    /// Adds a rectangle as a closed subpath: top-left, top-right, bottom-right, bottom-left.
    public mutating func addRect(_ rect: CGRect, transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        guard !r.isNull, !r.isInfinite else { return }
        move(to: CGPoint(x: r.minX, y: r.minY).applying(transform))
        addLine(to: CGPoint(x: r.maxX, y: r.minY).applying(transform))
        addLine(to: CGPoint(x: r.maxX, y: r.maxY).applying(transform))
        addLine(to: CGPoint(x: r.minX, y: r.maxY).applying(transform))
        closeSubpath()
    }

    public mutating func addRects(_ rects: [CGRect], transform: CGAffineTransform = .identity) {
        for rect in rects { addRect(rect, transform: transform) }
    }
}
