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
    /// small for that, the corners are circular (a capsule stays a stadium).
    public mutating func addRoundedRect(in rect: CGRect, cornerSize: CGSize, style: RoundedCornerStyle = .continuous,
                                        transform: CGAffineTransform = .identity) {
        addRoundedRect(in: rect, cornerSizes: [cornerSize, cornerSize, cornerSize, cornerSize], style: style,
                       transform: transform)
    }

    /// A rounded rectangle with its own corner size at each corner, in drawing order: top-right,
    /// bottom-right, bottom-left, top-left. Each corner is clamped to half the sides and is
    /// continuous only where its curve fits (see above).
    public mutating func addRoundedRect(in rect: CGRect, cornerSizes: [CGSize], style: RoundedCornerStyle,
                                        transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        guard !r.isNull, !r.isInfinite, r.width.isFinite, r.height.isFinite, cornerSizes.count == 4 else { return }
        let sizes = cornerSizes.map {
            CGSize(width: max(0, min($0.width, r.width / 2)), height: max(0, min($0.height, r.height / 2)))
        }
        guard sizes.contains(where: { $0.width > 0 && $0.height > 0 }) else {
            addRect(r, transform: transform)
            return
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
        // A corner is continuous where its curve fits in half of each side.
        func cornerStyle(_ size: CGSize) -> RoundedCornerStyle {
            style == .continuous && size.width * continuousCornerExtent <= r.width / 2
                && size.height * continuousCornerExtent <= r.height / 2 ? .continuous : .circular
        }
        // Corner-local (u along the incoming edge measured back from the corner, v along the
        // outgoing edge) to absolute, scaled by the corner's radii along each axis.
        func point(_ i: Int, _ u: Double, _ v: Double) -> CGPoint {
            let c = corners[i], size = sizes[i]
            let dx = -c.incoming.x * u + c.outgoing.x * v, dy = -c.incoming.y * u + c.outgoing.y * v
            return CGPoint(x: c.corner.x + dx * size.width, y: c.corner.y + dy * size.height).applying(transform)
        }
        func extent(_ i: Int) -> Double { cornerStyle(sizes[i]) == .continuous ? continuousCornerExtent : 1 }
        // A move, four lines and four corners of up to `continuousCorner.count` cubics, a close.
        reserveRoom(for: 6 + 4 * continuousCorner.count)
        move(to: point(3, 0, extent(3)))   // top edge, just after the top-left corner
        for i in 0..<4 {
            addLine(to: point(i, extent(i), 0))
            guard sizes[i].width > 0, sizes[i].height > 0 else { continue }
            switch cornerStyle(sizes[i]) {
            case .circular:
                // A quarter ellipse: the standard cubic with k = 4/3·tan(π/8).
                let k = 1 - 4.0 / 3.0 * tan(Double.pi / 8)
                addCurve(to: point(i, 0, 1), control1: point(i, k, 0), control2: point(i, 0, k))
            case .continuous:
                for seg in continuousCorner {
                    addCurve(to: point(i, seg.to.0, seg.to.1),
                             control1: point(i, seg.c1.0, seg.c1.1), control2: point(i, seg.c2.0, seg.c2.1))
                }
            }
        }
        closeSubpath()
    }

    /// Adds a rectangle as a closed subpath: top-left, top-right, bottom-right, bottom-left.
    public mutating func addRect(_ rect: CGRect, transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        guard !r.isNull, !r.isInfinite else { return }
        reserveRoom(for: 5)
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
