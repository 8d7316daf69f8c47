import Foundation

/// The largest sweep one cubic approximates. At 90° the radial error of the
/// `k = 4/3·tan(θ/4)` construction is 2.7e-4 of the radius (0.027 px on a 100 px radius), as
/// in CoreGraphics and every other engine drawing circles as four cubics: the path is that
/// curve, which fills then flatten within `flatteningTolerance`.
let maximumArcSegmentSweep = Double.pi / 2

extension Path {
    /// Adds an arc of a circle, as SwiftUI does (and so as Core Graphics does).
    ///
    /// Angles grow clockwise on screen (y points down). `clockwise: false` sweeps from
    /// `startAngle` towards increasing angles, which looks clockwise on screen; this is SwiftUI's
    /// documented quirk, kept exactly. A line joins the current point to the arc's start; an
    /// empty path starts a subpath there. A sweep larger than a full turn draws one full circle.
    ///
    /// ```swift
    /// var p = Path()
    /// p.addArc(center: .zero, radius: 10, startAngle: .degrees(0), endAngle: .degrees(90), clockwise: false)
    /// p.currentPoint   // (0, 10): the bottom of the circle
    /// ```
    public mutating func addArc(center: CGPoint, radius: CGFloat, startAngle: Angle, endAngle: Angle,
                                clockwise: Bool, transform: CGAffineTransform = .identity) {
        var sweep = endAngle.radians - startAngle.radians
        let turn = 2 * Double.pi
        if clockwise {
            // Towards decreasing angles: the sweep lies in (-2π, 0].
            if sweep > 0 { sweep = sweep.truncatingRemainder(dividingBy: turn) - turn }
            if sweep < -turn { sweep = -turn }
        } else {
            if sweep < 0 { sweep = sweep.truncatingRemainder(dividingBy: turn) + turn }
            if sweep > turn { sweep = turn }
        }
        appendArc(center: center, radius: radius, start: startAngle.radians, sweep: sweep, transform: transform)
    }

    /// Adds an arc that starts at `startAngle` and sweeps by `delta` (positive: increasing
    /// angles, clockwise on screen), as SwiftUI's `addRelativeArc`.
    public mutating func addRelativeArc(center: CGPoint, radius: CGFloat, startAngle: Angle, delta: Angle,
                                        transform: CGAffineTransform = .identity) {
        appendArc(center: center, radius: radius, start: startAngle.radians, sweep: delta.radians, transform: transform)
    }

    /// Adds a line towards `tangent1End` and an arc of `radius` tangent to the lines
    /// current point → `tangent1End` and `tangent1End` → `tangent2End` (Core Graphics' `arcTo`).
    /// Without a current point nothing is added; collinear points or a zero radius give a line
    /// to `tangent1End`.
    public mutating func addArc(tangent1End p1: CGPoint, tangent2End p2: CGPoint, radius: CGFloat,
                                transform: CGAffineTransform = .identity) {
        guard let p0t = currentPoint else { return }
        // Work in the untransformed space: the current point is already transformed.
        let inverse = transform.inverted()
        let p0 = transform.isIdentity ? p0t : p0t.applying(inverse)
        let v1 = CGPoint(x: p0.x - p1.x, y: p0.y - p1.y), v2 = CGPoint(x: p2.x - p1.x, y: p2.y - p1.y)
        let l1 = hypot(v1.x, v1.y), l2 = hypot(v2.x, v2.y)
        let cross = v1.x * v2.y - v1.y * v2.x
        guard radius > 0, l1 > 0, l2 > 0, abs(cross) > 1e-12 * l1 * l2 else {
            addLine(to: p1.applying(transform))
            return
        }
        let cosTheta = max(-1, min(1, (v1.x * v2.x + v1.y * v2.y) / (l1 * l2)))
        let theta = acos(cosTheta)                     // angle at p1 between the two lines
        let tangentDistance = radius / tan(theta / 2)
        let u1 = CGPoint(x: v1.x / l1, y: v1.y / l1), u2 = CGPoint(x: v2.x / l2, y: v2.y / l2)
        let t1 = CGPoint(x: p1.x + u1.x * tangentDistance, y: p1.y + u1.y * tangentDistance)
        let t2 = CGPoint(x: p1.x + u2.x * tangentDistance, y: p1.y + u2.y * tangentDistance)
        // The centre lies on the bisector, at radius / sin(θ/2) from p1.
        let bisector = CGPoint(x: u1.x + u2.x, y: u1.y + u2.y)
        let bl = hypot(bisector.x, bisector.y)
        let centreDistance = radius / sin(theta / 2)
        let centre = CGPoint(x: p1.x + bisector.x / bl * centreDistance, y: p1.y + bisector.y / bl * centreDistance)
        let a1 = atan2(t1.y - centre.y, t1.x - centre.x)
        var sweep = atan2(t2.y - centre.y, t2.x - centre.x) - a1
        if sweep > .pi { sweep -= 2 * .pi }
        if sweep < -.pi { sweep += 2 * .pi }
        appendArc(center: centre, radius: radius, start: a1, sweep: sweep, transform: transform)
    }

    /// Adds an ellipse inscribed in `rect` as one closed subpath of four cubics, starting at the
    /// right-most point and running clockwise on screen, as Core Graphics does.
    public mutating func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        guard !r.isNull, !r.isInfinite else { return }
        let scale = CGAffineTransform(a: r.width / 2, b: 0, c: 0, d: r.height / 2, tx: r.midX, ty: r.midY)
        reserveRoom(for: 6)   // move, four cubics, close
        move(to: CGPoint(x: 1, y: 0).applying(scale).applying(transform))
        appendUnitArcCubics(start: 0, sweep: 2 * .pi, transform: scale.concatenating(transform))
        closeSubpath()
    }

    // MARK: - Shared construction

    private mutating func appendArc(center: CGPoint, radius: CGFloat, start: Double, sweep: Double,
                                    transform: CGAffineTransform) {
        guard radius.isFinite, start.isFinite, sweep.isFinite else { return }
        let r = abs(radius)
        let place = CGAffineTransform(a: r, b: 0, c: 0, d: r, tx: center.x, ty: center.y).concatenating(transform)
        let first = CGPoint(x: cos(start), y: sin(start)).applying(place)
        if currentPoint == nil { move(to: first) } else { addLine(to: first) }
        appendUnitArcCubics(start: start, sweep: sweep, transform: place)
    }

    /// Appends cubics for an arc of the unit circle mapped by `transform`, each spanning at most
    /// `maximumArcSegmentSweep`; the last end point is exact (cos/sin of the end angle).
    private mutating func appendUnitArcCubics(start: Double, sweep: Double, transform: CGAffineTransform) {
        guard sweep != 0 else { return }
        // The epsilon keeps an exact quarter-turn multiple (4.0000000001 after rounding) from
        // asking for an extra segment.
        let count = max(1, Int((abs(sweep) / maximumArcSegmentSweep - 1e-9).rounded(.up)))
        reserveRoom(for: count + 1)   // and the close that usually follows
        let step = sweep / Double(count)
        let k = 4.0 / 3.0 * tan(step / 4)
        var a0 = start
        // A full turn ends exactly where it started (cos/sin of start + 2π are off by an ulp,
        // which would leave a 1e-14 closing segment).
        let fullTurn = abs(abs(sweep) - 2 * Double.pi) < 1e-12
        for i in 0..<count {
            let last = i == count - 1
            let a1 = last ? start + sweep : a0 + step
            let (c0, s0) = (cos(a0), sin(a0))
            let (c1, s1) = last && fullTurn ? (cos(start), sin(start)) : (cos(a1), sin(a1))
            addCurve(to: CGPoint(x: c1, y: s1).applying(transform),
                     control1: CGPoint(x: c0 - k * s0, y: s0 + k * c0).applying(transform),
                     control2: CGPoint(x: c1 + k * s1, y: s1 - k * c1).applying(transform))
            a0 = a1
        }
    }
}
