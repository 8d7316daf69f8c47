import Foundation

/// Offsets polylines by half the width on both sides, with joins and caps, sending each
/// outline to a `PolylineSink` (a `Path` through `PathBuilder`, or a rasterizer's edges), with
/// no array made per polyline: its scratch is kept from one polyline to the next.
struct Stroker: ~Copyable {
    /// The width, style and tolerance, and the joins and caps they make.
    let pen: StrokePen
    typealias Budget = StrokePen.Budget
    /// Outline points still allowed; shared by copies of the pen.
    var budget: Budget { pen.budget }
    /// Scratch, emptied for each polyline: its segments' unit directions and lengths, the
    /// outline's two sides (the right one is sent backwards, so both are gathered before the
    /// sink sees a point) and a cap. (Arrays made per polyline, and a `Path` grown through
    /// its checked appends, were a sixth of S5's stroking.)
    private var directions = ScratchBuffer<OutlinePoint>()
    private var lengths = ScratchBuffer<Double>()
    private var left = ScratchBuffer<OutlinePoint>(), right = ScratchBuffer<OutlinePoint>()
    private var cap = ScratchBuffer<OutlinePoint>()

    init(halfWidth: Double, style: StrokeStyle, tolerance: Double, budget: Budget = Budget()) {
        pen = StrokePen(halfWidth: halfWidth, style: style, tolerance: tolerance, budget: budget)
    }

    /// Sends `line`'s outline to `out`: a closed contour for an open polyline (left side, end
    /// cap, right side backwards, start cap), two for a closed one (outer and inner), a dot for
    /// a polyline of one point.
    mutating func stroke<Sink: PolylineSink & ~Copyable>(_ line: Polyline, into out: inout Sink) {
        line.points.withUnsafeBufferPointer { points in
            line.corners.withUnsafeBufferPointer { corners in
                // CGPoint is two doubles, as OutlinePoint is.
                points.withMemoryRebound(to: OutlinePoint.self) { stroke($0, corners: corners, closed: line.closed, into: &out) }
            }
        }
    }

    /// `stroke(_:into:)` of the polyline through `p` (no two consecutive equal), `corners`
    /// saying which are corners of the path.
    mutating func stroke<Sink: PolylineSink & ~Copyable>(_ p: UnsafeBufferPointer<OutlinePoint>, corners: UnsafeBufferPointer<Bool>,
                                                        closed: Bool, into out: inout Sink) {
        pen.budget.remaining -= 2 * p.count + 8
        guard pen.budget.remaining >= 0 else { return }
        guard let first = p.first else { return }
        let hw = pen.halfWidth
        if p.count == 1 {
            // A dot: a circle with round caps, an axis-aligned square with square caps.
            switch pen.style.lineCap {
            case .round:
                cap.removeAll()
                pen.appendArc(center: first, from: 0, sweep: 2 * .pi, includeStart: true, exactStart: false, into: &cap)
                out.reserve(points: cap.count)
                Self.send(cap, from: 0, to: cap.count, startingContour: true, into: &out)
                if !cap.isEmpty { out.close(explicit: true) }
            case .square:
                let r = CGRect(x: first.x - hw, y: first.y - hw, width: 2 * hw, height: 2 * hw).standardized
                guard !r.isNull, !r.isInfinite else { return }
                out.reserve(points: 4)
                out.moveTo(r.minX, r.minY)
                out.lineTo(r.maxX, r.minY)
                out.lineTo(r.maxX, r.maxY)
                out.lineTo(r.minX, r.maxY)
                out.close(explicit: true)
            case .butt:
                break
            }
            return
        }
        let n = p.count
        let segments = closed ? n : n - 1
        directions.resize(count: segments)
        lengths.resize(count: segments)
        let d = directions.view, lengths = lengths.view
        for i in 0..<segments {
            let a = p[i], b = p[i + 1 == n ? 0 : i + 1]
            let len = pen.segmentLength(b.x - a.x, b.y - a.y)
            d[i] = OutlinePoint(x: (b.x - a.x) / len, y: (b.y - a.y) / len)
            lengths[i] = len
        }
        left.removeAll(); right.removeAll()
        if closed {
            for j in 0..<n {
                let before = j == 0 ? n - 1 : j - 1
                pen.join(at: p[j], d[before], d[j], corner: corners[j],
                         room: min(lengths[before], lengths[j]), &left, &right)
            }
            // The outer contour, then the inner one backwards.
            out.reserve(points: left.count + right.count)
            Self.send(left, from: 0, to: left.count, startingContour: true, into: &out)
            out.close(explicit: true)
            Self.sendBackwards(right, into: &out, startingContour: true)
            out.close(explicit: true)
            return
        }
        let n0 = d[0].normal, nl = d[segments - 1].normal
        let start = p[0], end = p[n - 1]
        left.append(start.offset(n0, hw)); right.append(start.offset(n0, -hw))
        for j in 1..<(n - 1) {
            pen.join(at: p[j], d[j - 1], d[j], corner: corners[j], room: min(lengths[j - 1], lengths[j]),
                 &left, &right)
        }
        left.append(end.offset(nl, hw)); right.append(end.offset(nl, -hw))
        // The outline, in order: the left side, the end cap, the right side backwards, the
        // start cap.
        cap.removeAll()
        pen.appendCap(at: end, direction: d[segments - 1], into: &cap)
        let endCap = cap.count
        pen.appendCap(at: start, direction: OutlinePoint(x: -d[0].x, y: -d[0].y), into: &cap)
        out.reserve(points: left.count + cap.count + right.count)
        Self.send(left, from: 0, to: left.count, startingContour: true, into: &out)
        Self.send(cap, from: 0, to: endCap, startingContour: false, into: &out)
        Self.sendBackwards(right, into: &out, startingContour: false)
        Self.send(cap, from: endCap, to: cap.count, startingContour: false, into: &out)
        out.close(explicit: true)
    }

    /// Sends `points[from..<to]` to `out`, the first as a move when `startingContour`.
    @inline(__always)
    private static func send<Sink: PolylineSink & ~Copyable>(_ points: borrowing ScratchBuffer<OutlinePoint>, from: Int, to: Int,
                                                             startingContour: Bool, into out: inout Sink) {
        guard from < to else { return }
        var i = from
        if startingContour { out.moveTo(points[i].x, points[i].y); i += 1 }
        while i < to { out.lineTo(points[i].x, points[i].y); i += 1 }
    }

    /// Sends `points` last to first.
    @inline(__always)
    private static func sendBackwards<Sink: PolylineSink & ~Copyable>(_ points: borrowing ScratchBuffer<OutlinePoint>,
                                                                      into out: inout Sink, startingContour: Bool) {
        var i = points.count - 1
        guard i >= 0 else { return }
        if startingContour { out.moveTo(points[i].x, points[i].y); i -= 1 }
        while i >= 0 { out.lineTo(points[i].x, points[i].y); i -= 1 }
    }

}

/// What a stroke's width, style and tolerance make of each vertex: the joins, caps and arcs of
/// its outline (`Stroker` sends them on).
struct StrokePen {
    let halfWidth: Double
    let style: StrokeStyle
    let tolerance: Double
    /// Outline points still allowed (`maximumStrokeOutlineElements` in all by default); shared by copies.
    final class Budget {
        var remaining: Int
        init(remaining: Int = maximumStrokeOutlineElements) { self.remaining = remaining }
    }
    let budget: Budget
    /// The angle step that keeps a polygonal arc of radius `halfWidth` within `tolerance` of the
    /// circle: the sagitta r·(1 − cos(δ/2)) ≤ tolerance. Found once per stroke: every vertex of
    /// a flattened curve is a round join that asks for it (an `acos` each was 2 % of S5).
    let arcStep: Double
    /// cos(arcStep): a join whose turning angle θ has cos θ at least this turns by at most one
    /// step (|θ| ≤ arcStep ≤ π/2), which is known without the two `atan2` of its angles.
    let cosArcStep: Double

    init(halfWidth: Double, style: StrokeStyle, tolerance: Double, budget: Budget) {
        self.halfWidth = halfWidth
        self.style = style
        self.tolerance = tolerance
        self.budget = budget
        arcStep = halfWidth <= tolerance ? .pi / 2 : min(.pi / 2, 2 * acos(1 - tolerance / halfWidth))
        cosArcStep = cos(arcStep)
    }

    /// Adds the points between the left and right ends at `point`, going around `direction`
    /// (the way the line leaves): none for butt, two corners for square, a half circle for round.
    func appendCap(at point: OutlinePoint, direction dir: OutlinePoint, into out: inout ScratchBuffer<OutlinePoint>) {
        let n = normal(dir), hw = halfWidth
        switch style.lineCap {
        case .butt:
            break
        case .square:
            out.append(OutlinePoint(x: point.x + (n.x + dir.x) * hw, y: point.y + (n.y + dir.y) * hw))
            out.append(OutlinePoint(x: point.x + (-n.x + dir.x) * hw, y: point.y + (-n.y + dir.y) * hw))
        case .round:
            // From +n through dir to −n.
            let start = atan2(n.y, n.x)
            let toward = atan2(dir.y, dir.x)
            var sweep = toward - start
            while sweep > .pi { sweep -= 2 * .pi }
            while sweep < -.pi { sweep += 2 * .pi }
            appendArc(center: point, from: start, sweep: 2 * sweep, includeStart: false, into: &out)
        }
    }

    /// Adds the left and right offset points at vertex `p` between directions `d1` and `d2`.
    /// Corners of the path take the style's join; steps inside a flattened curve take a round
    /// join (a bevel while the turn is below the arc step, so within the tolerance and never
    /// outside the true offset curve; an arc beyond, so wide strokes show no facets).
    ///
    /// On the inner side the two offset lines meet hw·tan(θ/2) from the vertex; when both
    /// segments (`room` is the shorter) reach that far, the meeting point is the whole join and
    /// the outline stays simple. Otherwise the inner side passes through the vertex itself,
    /// which leaves small loops that the non-zero rule fills correctly.
    func join(at p: OutlinePoint, _ d1: OutlinePoint, _ d2: OutlinePoint, corner: Bool, room: Double,
                      _ left: inout ScratchBuffer<OutlinePoint>, _ right: inout ScratchBuffer<OutlinePoint>) {
        let hw = halfWidth
        let n1 = normal(d1), n2 = normal(d2)
        let cross = d1.x * d2.y - d1.y * d2.x, dot = d1.x * d2.x + d1.y * d2.y
        if abs(cross) < 1e-12, dot > 0 {
            left.append(offset(p, n1, hw)); right.append(offset(p, n1, -hw))
            return
        }
        // tan(θ/2) = sin θ / (1 + cos θ) for the turning angle θ.
        let reach = 1 + dot > 1e-12 ? hw * abs(cross) / (1 + dot) : .infinity
        func inner(_ s: Double, _ out: inout ScratchBuffer<OutlinePoint>) {
            if reach <= room {
                let k = s * hw / (1 + dot)
                out.append(OutlinePoint(x: p.x + (n1.x + n2.x) * k, y: p.y + (n1.y + n2.y) * k))
            } else {
                out.append(offset(p, n1, s * hw)); out.append(p); out.append(offset(p, n2, s * hw))
            }
        }
        // Turning towards +n makes the left side the inner one.
        if !corner, dot >= cosArcStep {
            // A step of a flattened curve turning by at most one arc step: the outer side's
            // two offset lines meet at one point, hw·(1/cos(θ/2) − 1) beyond the round join,
            // which is within the tolerance as the bevel's hw·(1 − cos(θ/2)) inside it is (1.41
            // times it at most, at a quarter turn). One point there instead of the bevel's two
            // makes a stroke's outline a third fewer edges to rasterize.
            let k = hw / (1 + dot)
            let miter = OutlinePoint(x: (n1.x + n2.x) * k, y: (n1.y + n2.y) * k)
            if reach <= room {
                // The inner side meets at the mirror point (`inner`'s, to the bit).
                left.append(OutlinePoint(x: p.x + miter.x, y: p.y + miter.y))
                right.append(OutlinePoint(x: p.x - miter.x, y: p.y - miter.y))
            } else if cross > 0 {
                inner(1, &left)
                right.append(OutlinePoint(x: p.x - miter.x, y: p.y - miter.y))
            } else {
                left.append(OutlinePoint(x: p.x + miter.x, y: p.y + miter.y))
                inner(-1, &right)
            }
            return
        }
        let style = corner ? self.style.lineJoin : .round
        if cross > 0 {
            inner(1, &left)
            outerJoin(p, n1, n2, side: -1, cross: cross, dot: dot, join: style, into: &right)
        } else {
            outerJoin(p, n1, n2, side: 1, cross: cross, dot: dot, join: style, into: &left)
            inner(-1, &right)
        }
    }

    private func outerJoin(_ p: OutlinePoint, _ n1: OutlinePoint, _ n2: OutlinePoint, side s: Double, cross: Double, dot: Double,
                           join: CGLineJoin, into out: inout ScratchBuffer<OutlinePoint>) {
        let hw = halfWidth * s
        let a = offset(p, n1, hw), b = offset(p, n2, hw)
        switch join {
        case .bevel:
            out.append(a); out.append(b)
        case .miter:
            // The miter is 1 / sin(φ/2) line widths long, φ the angle between the segments;
            // sin(φ/2) = cos(θ/2) = √((1 + cos θ) / 2) for the turning angle θ.
            let half = (1 + dot) / 2
            out.append(a)
            if half > 0, 1 / half.squareRoot() <= Double(style.miterLimit) {
                let k = hw / (1 + dot)
                out.append(OutlinePoint(x: p.x + (n1.x + n2.x) * k, y: p.y + (n1.y + n2.y) * k))
            }
            out.append(b)
        case .round:
            // The turning angle θ has cos θ = dot and sin θ = cross. Within one step (most
            // vertices of a flattened curve), the bevel is within the tolerance.
            if dot >= cosArcStep {
                out.append(a); out.append(b)
                return
            }
            let turn = atan2(cross, dot)
            if abs(turn) <= arcStep {
                out.append(a); out.append(b)
            } else {
                appendArc(center: p, from: atan2(n1.y * s, n1.x * s), sweep: turn, includeStart: true, into: &out)
                out.append(b)
            }
        }
    }

    /// Points on the circle of radius `halfWidth` from angle `from` sweeping `sweep` (end
    /// excluded; the start only if `includeStart`), within `tolerance` of the circle. Vertices
    /// sit two thirds of the chord's sagitta outside the circle, so the polygon neither gains
    /// nor loses area (an inscribed 16-gon is 2.5 % short of the circle); the start point of a
    /// join stays exactly on the circle, where it meets the offset line.
    func appendArc(center c: OutlinePoint, from start: Double, sweep: Double, includeStart: Bool,
                           exactStart: Bool = true, into points: inout ScratchBuffer<OutlinePoint>) {
        // A sweep is at most a turn or two; NaN (from non-finite geometry) or a runaway value
        // must not reach the Int conversion, which would trap.
        let wanted = (abs(sweep) / arcStep).rounded(.up)
        guard wanted.isFinite else { return }
        let steps = max(1, Int(min(wanted, Double(maximumSegmentsPerCurve))))
        budget.remaining -= steps
        guard budget.remaining >= 0 else { return }
        let delta = abs(sweep) / Double(steps)
        let balanced = halfWidth * (1 + 2.0 / 3.0 * (1 - cos(delta / 2)))
        for k in (includeStart ? 0 : 1)..<steps {
            let a = start + sweep * Double(k) / Double(steps)
            let r = k == 0 && exactStart ? halfWidth : balanced
            points.append(OutlinePoint(x: c.x + r * cos(a), y: c.y + r * sin(a)))
        }
    }

    /// √(dx² + dy²): by the square root where the sum of squares is a normal number, else
    /// by `hypot`, which avoids its overflow and underflow (libm's `hypot` on every segment
    /// was 1.5 % of S5's instructions).
    @inline(__always) func segmentLength(_ dx: Double, _ dy: Double) -> Double {
        let squares = dx * dx + dy * dy
        return squares.isNormal ? squares.squareRoot() : hypot(dx, dy)
    }

    @inline(__always) private func normal(_ d: OutlinePoint) -> OutlinePoint { OutlinePoint(x: -d.y, y: d.x) }
    @inline(__always) private func offset(_ p: OutlinePoint, _ n: OutlinePoint, _ k: Double) -> OutlinePoint {
        OutlinePoint(x: p.x + n.x * k, y: p.y + n.y * k)
    }
}

/// A point of a stroke's outline, or a unit direction: plain doubles, so the stroker's scratch
/// holds them without reference counting (`ScratchBuffer`).
struct OutlinePoint: BitwiseCopyable {
    var x: Double, y: Double

    @inline(__always) init(x: Double, y: Double) { self.x = x; self.y = y }
    @inline(__always) init(_ p: CGPoint) { x = Double(p.x); y = Double(p.y) }

    /// The direction turned a quarter towards +y.
    @inline(__always) var normal: OutlinePoint { OutlinePoint(x: -y, y: x) }

    /// This point moved `k` along `n`.
    @inline(__always) func offset(_ n: OutlinePoint, _ k: Double) -> OutlinePoint {
        OutlinePoint(x: x + n.x * k, y: y + n.y * k)
    }
}

/// A `Path` built through `PolylineSink`: each contour a move, its lines, and a close.
struct PathBuilder: PolylineSink {
    var path = Path()

    mutating func reserve(points: Int) { path.reserveRoom(for: points + 1) }
    mutating func moveTo(_ x: Double, _ y: Double) { path.move(to: CGPoint(x: x, y: y)) }
    mutating func lineTo(_ x: Double, _ y: Double) { path.continueLine(to: CGPoint(x: x, y: y)) }
    mutating func close(explicit: Bool) { path.closeSubpath() }
}
