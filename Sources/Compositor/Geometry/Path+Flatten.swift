import Foundation

/// The largest distance, in device pixels, between a curve and the polyline that fills it:
/// the engine's accuracy contract for fills (DESIGN.md, "Rasterization quality"). Curves are
/// flattened with balanced vertices (`flatten(balanced:)`), so the polygon's area equals the
/// curve's and no edge strays more than ⅔ of this from the curve: at 0.01 px a coverage error
/// of at most 0.007 px, under 2 levels of 255. Measured against the exact reference (`bench
/// --reference`): 0.1 px put S1's opaque circles 16 levels off, 0.02 px 3, 0.01 px 1.
public let flatteningTolerance = 0.01

/// The tolerance, in device pixels, of stroke outlines (the centre line's flattening and the
/// polygons of round joins and caps). Coarser than fills': a stroke's outline costs far more
/// points per curve (both sides, joins and caps), and at 0.02 px the strokes of S5 are within 4
/// levels of the exact reference (99.9 % within 2), where 0.01 px costs 1.7× the drawing
/// time for 1 level less.
public let strokeFlatteningTolerance = 0.02


/// How many line segments replace a curve, uniformly in t, so the polyline stays within
/// `tolerance` of the curve.
///
/// The bound: a C² curve and its chord interpolant with parameter step h differ by at most
/// h²/8 · max|B''|. For a quadratic, B'' = 2(P0 − 2P1 + P2) is constant; for a cubic, B'' is
/// linear in t between 6(P0 − 2P1 + P2) and 6(P1 − 2P2 + P3), so its largest norm is at an end.
/// Solving h²/8 · M ≤ tolerance with h = 1/n gives n = ⌈√(M / (8·tolerance))⌉.
@inline(__always)
func flatteningSegmentCount(secondDerivativeBound m: Double, tolerance: Double) -> Int {
    let n = (m / (8 * tolerance)).squareRoot().rounded(.up)
    // The cap keeps a runaway control point (1e30) from asking for 1e15 segments: beyond it the
    // polyline is finer than any pixel of a canvas this engine accepts.
    // (Capped before the conversion: Int(n) traps for a finite n beyond Int.max, e.g. 1e300.)
    return n.isFinite ? max(1, Int(min(n, Double(maximumSegmentsPerCurve)))) : maximumSegmentsPerCurve
}

/// Upper bound on the segments one curve becomes (see `flatteningSegmentCount`).
let maximumSegmentsPerCurve = 4096

/// The most line segments a path may flatten into for filling, stroking or a boolean: 2^24
/// (16.8 million, about 600 MB of edges). A curve becomes up to 4,096 segments, so a path of a
/// million huge curves would otherwise ask for billions and exhaust memory; beyond this the
/// rasterizer throws `RasterError.tooManySegments` (its own limit, `Rasterizer.maximumSegments`,
/// can be raised), and strokes and booleans give an empty path, as their other work limits do.
public let maximumFlattenedSegments = 1 << 24

/// The bound on |B''| of a quadratic from P0 (x0, y0), control P1 and P2: 2·|P0 − 2P1 + P2|.
@inline(__always)
func quadraticSecondDerivativeBound(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
    let ddx = x0 - 2 * x1 + x2, ddy = y0 - 2 * y1 + y2
    return 2 * (ddx * ddx + ddy * ddy).squareRoot()
}

/// The bound on |B''| of a cubic: 6·max(|P0 − 2P1 + P2|, |P1 − 2P2 + P3|) (B'' is linear in t).
@inline(__always)
func cubicSecondDerivativeBound(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double,
                                _ x2: Double, _ y2: Double, _ x3: Double, _ y3: Double) -> Double {
    let ax = x0 - 2 * x1 + x2, ay = y0 - 2 * y1 + y2
    let bx = x1 - 2 * x2 + x3, by = y1 - 2 * y2 + y3
    return 6 * max((ax * ax + ay * ay).squareRoot(), (bx * bx + by * by).squareRoot())
}

/// Where `Path.flatten` sends a path's polylines (see it for the order of the calls).
protocol PolylineSink: ~Copyable {
    mutating func moveTo(_ x: Double, _ y: Double)
    mutating func lineTo(_ x: Double, _ y: Double)
    mutating func close(explicit: Bool)
    /// After the last `lineTo` of each element (where the path may have a corner).
    mutating func elementEnd()
    /// Says that about `points` more points are coming (a stroke's outline), so storage can
    /// grow once.
    mutating func reserve(points: Int)
}

extension PolylineSink where Self: ~Copyable {
    mutating func elementEnd() {}
    mutating func reserve(points: Int) {}
}

/// The closures of `flatten(…moveTo:lineTo:close:elementEnd:)` as a sink.
private struct ClosureSink: PolylineSink {
    let onMove: (Double, Double) -> Void
    let onLine: (Double, Double) -> Void
    let onClose: (_ explicit: Bool) -> Void
    let onElementEnd: () -> Void
    func moveTo(_ x: Double, _ y: Double) { onMove(x, y) }
    func lineTo(_ x: Double, _ y: Double) { onLine(x, y) }
    func close(explicit: Bool) { onClose(explicit) }
    func elementEnd() { onElementEnd() }
}

extension Path {
    /// Walks the path as polylines: `moveTo` starts a subpath, `lineTo` continues it and
    /// `close` ends it with a line back to its start. Curves are flattened within `tolerance`
    /// in the coordinates of `transform`'s output (device pixels when drawing).
    ///
    /// `elementEnd` follows the last `lineTo` of each element (where the path may have a corner).
    /// Every subpath ends with a `close` call, explicitly closed or not (`explicit` tells which):
    /// filling closes open subpaths with a straight line, as every fill rule requires; stroking
    /// needs to know.
    ///
    /// With `balanced`, interior samples are moved to cancel the chord bias: chords of a convex
    /// curve always lie inside it, so a plain polyline loses area systematically (a 40 px circle
    /// flattened at 0.1 px loses ~0.3 % of its area). For a parameter step h the chord's midpoint
    /// misses the curve by B''·h²/8; shifting each interior sample by −B''(t)·h²/12 moves the
    /// polyline 2/3 of that way towards the curve, so the area between them cancels to leading
    /// order, while no point strays further than the tolerance. B'' carries the sign, so
    /// inflections need no special case. Curve end points stay exact, keeping joins closed.
    ///
    /// With `adaptive`, a curve whose bending varies along it is stepped by that bending
    /// (`adaptiveCurveSteps`): every chord still within `tolerance`, in fewer segments. Without,
    /// steps are uniform in the curve's parameter, sized by its largest bending, so most chords
    /// miss by far less than the tolerance (booleans, whose tolerance is coarser, keep that).
    func flatten(transform: CGAffineTransform = .identity, tolerance: Double = flatteningTolerance,
                 balanced: Bool = false, adaptive: Bool = true,
                 moveTo: (Double, Double) -> Void, lineTo: (Double, Double) -> Void, close: (_ explicit: Bool) -> Void,
                 elementEnd: () -> Void = {}) {
        // (Non-escaping closures kept in a struct for the call: they do not outlive it.)
        withoutActuallyEscaping(moveTo) { moveTo in
            withoutActuallyEscaping(lineTo) { lineTo in
                withoutActuallyEscaping(close) { close in
                    withoutActuallyEscaping(elementEnd) { elementEnd in
                        var sink = ClosureSink(onMove: moveTo, onLine: lineTo, onClose: close, onElementEnd: elementEnd)
                        flatten(transform: transform, tolerance: tolerance, balanced: balanced, adaptive: adaptive, into: &sink)
                    }
                }
            }
        }
    }

    /// `flatten(…moveTo:lineTo:close:elementEnd:)` into a sink, specialized for it: the hot
    /// callers (the rasterizer's edge building) get the points without a closure call each.
    func flatten<Sink: PolylineSink & ~Copyable>(transform: CGAffineTransform = .identity, tolerance: Double = flatteningTolerance,
                                                 balanced: Bool = false, adaptive: Bool = true, into sink: inout Sink) {
        let t = transform
        @inline(__always) func map(_ p: CGPoint) -> (Double, Double) {
            (t.a * p.x + t.c * p.y + t.tx, t.b * p.x + t.d * p.y + t.ty)
        }
        var cx = 0.0, cy = 0.0
        var open = false
        for element in elements {
            switch element {
            case .move(let p):
                if open { sink.close(explicit: false) }
                (cx, cy) = map(p)
                sink.moveTo(cx, cy)
                open = true
            case .line(let p):
                (cx, cy) = map(p)
                sink.lineTo(cx, cy)
                sink.elementEnd()
            case .quadCurve(let p, let c):
                let (x1, y1) = map(c), (x2, y2) = map(p)
                let ddx = cx - 2 * x1 + x2, ddy = cy - 2 * y1 + y2
                let n = flatteningSegmentCount(secondDerivativeBound: quadraticSecondDerivativeBound(cx, cy, x1, y1, x2, y2),
                                               tolerance: tolerance)
                let x0 = cx, y0 = cy
                let curve = PowerCurve(p0: SIMD2(x0, y0), c1: 2 * SIMD2(x1 - x0, y1 - y0), c2: SIMD2(ddx, ddy), c3: .zero)
                if adaptive, Path.flattenAdaptively(curve, uniformCount: n, tolerance: tolerance, balanced: balanced, into: &sink) {
                    sink.lineTo(x2, y2)
                    sink.elementEnd()
                    (cx, cy) = (x2, y2)
                    continue
                }
                // B'' = 2(P0 − 2P1 + P2), constant.
                let h2 = balanced ? 1 / (12 * Double(n * n)) : 0
                let ox = -2 * ddx * h2, oy = -2 * ddy * h2
                for i in 1..<n {
                    let s = Double(i) / Double(n), u = 1 - s
                    sink.lineTo(u * u * x0 + 2 * u * s * x1 + s * s * x2 + ox, u * u * y0 + 2 * u * s * y1 + s * s * y2 + oy)
                }
                sink.lineTo(x2, y2)
                sink.elementEnd()
                (cx, cy) = (x2, y2)
            case .curve(let p, let c1, let c2):
                let (x1, y1) = map(c1), (x2, y2) = map(c2), (x3, y3) = map(p)
                let ax = cx - 2 * x1 + x2, ay = cy - 2 * y1 + y2
                let bx = x1 - 2 * x2 + x3, by = y1 - 2 * y2 + y3
                let m = cubicSecondDerivativeBound(cx, cy, x1, y1, x2, y2, x3, y3)
                let n = flatteningSegmentCount(secondDerivativeBound: m, tolerance: tolerance)
                let x0 = cx, y0 = cy
                // B''(s) = 6((1 − s)·A + s·B) with A = P0 − 2P1 + P2, B = P1 − 2P2 + P3.
                let k = balanced ? -6 / (12 * Double(n * n)) : 0
                // The curve in powers of s, evaluated by Horner's rule (x and y in one vector):
                // B(s) = P0 + s·(3(P1 − P0) + s·(3A + s·(P3 − P0 + 3(P1 − P2)))), and the
                // balancing offset k·B''(s)/6 = k·A + s·k·(B − A). Three multiply-adds a point
                // where the Bernstein form took a division and fourteen multiplications.
                let p0 = SIMD2(x0, y0)
                let c1 = 3 * (SIMD2(x1, y1) - p0), c2 = 3 * SIMD2(ax, ay)
                let c3 = SIMD2(x3, y3) - p0 + 3 * (SIMD2(x1, y1) - SIMD2(x2, y2))
                let o0 = k * SIMD2(ax, ay), o1 = k * SIMD2(bx - ax, by - ay)
                let step = 1 / Double(n)
                let stepped = adaptive && Path.flattenAdaptively(PowerCurve(p0: p0, c1: c1, c2: c2, c3: c3), uniformCount: n,
                                                                 tolerance: tolerance, balanced: balanced, into: &sink)
                for i in 1..<(stepped ? 1 : n) {
                    let s = Double(i) * step
                    let p = ((c3 * s + c2) * s + c1) * s + p0 + (o0 + o1 * s)
                    sink.lineTo(p.x, p.y)
                }
                sink.lineTo(x3, y3)
                sink.elementEnd()
                (cx, cy) = (x3, y3)
            case .closeSubpath:
                if open { sink.close(explicit: true) }
                open = false
            }
        }
        if open { sink.close(explicit: false) }
    }

    /// Sends a curve's interior vertices to `sink` at the adaptive steps of
    /// `adaptiveCurveSteps`, balanced as `flatten` describes with the chords' own bulges;
    /// false, having sent nothing, where the curve is left to uniform steps.
    private static func flattenAdaptively<Sink: PolylineSink & ~Copyable>(_ curve: PowerCurve, uniformCount n: Int,
                                                                          tolerance: Double, balanced: Bool,
                                                                          into sink: inout Sink) -> Bool {
        // (Asked before the buffer is taken: most curves that keep uniform steps stop here.)
        guard adaptiveStepsMayPay(curve, tolerance: tolerance, uniformCount: n) else { return false }
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 4 * (n + 1)) { buffer -> Bool in
            let steps = buffer.baseAddress!
            let count = adaptiveCurveSteps(curve, tolerance: tolerance, uniformCount: n, into: steps)
            guard count > 0 else { return false }
            guard balanced else {
                for i in 1..<count { sink.lineTo(steps[4 * i + 1], steps[4 * i + 2]) }
                return true
            }
            // ⅔ of the mean bulge of the chords on either side: to leading order −c″(s)·h²/12
            // as for uniform steps, c″'s normal part only, and at most ⅔ of the tolerance,
            // since every chord's bulge is within it.
            @inline(__always) func bulge(_ k: Int) -> SIMD2<Double> {
                let d = SIMD2(steps[4 * k + 1] - steps[4 * k - 3], steps[4 * k + 2] - steps[4 * k - 2])
                let length2 = (d * d).sum()
                return length2 > 0 ? SIMD2(-d.y, d.x) * (steps[4 * k + 3] / length2) : .zero
            }
            var before = bulge(1)
            for i in 1..<count {
                let after = bulge(i + 1)
                let p = SIMD2(steps[4 * i + 1], steps[4 * i + 2]) + (before + after) * (1.0 / 3)
                sink.lineTo(p.x, p.y)
                before = after
            }
            return true
        }
    }

    /// How many line segments `flatten` would produce at most (lines, curve steps and closing
    /// lines; a curve flattened adaptively takes fewer than its uniform count), counted without
    /// flattening: one pass over the elements. Saturates at `Int.max`.
    func flattenedSegmentCount(transform: CGAffineTransform = .identity, tolerance: Double = flatteningTolerance) -> Int {
        // Without curves, one segment per move (its subpath's closing line) and per line: the
        // count the pass below makes, without reading a stroke outline's million points.
        if lineSegmentCount >= 0 { return Int(lineSegmentCount) }
        return segmentCount(transform: transform, tolerance: tolerance, below: nil)!
    }

    /// `flattenedSegmentCount`, or nil when a point of the path (an end or a control point)
    /// mapped by `transform` lies at `magnitude` or beyond in x or y (or is not finite): both
    /// found in one pass, for the rasterizer's check of a fill it defers to its threads.
    func flattenedSegmentCount(transform: CGAffineTransform, tolerance: Double, below magnitude: Double) -> Int? {
        segmentCount(transform: transform, tolerance: tolerance, below: magnitude)
    }

    /// `flattenedSegmentCount`, and whether the path's control polygons (each subpath's ends
    /// and control points in order, closed as a fill closes it) pass `ContourShapeCheck`, all
    /// mapped by `transform`, in one pass.
    ///
    /// When they pass, every pixel of the flattened path holds the winding numbers 0 and 1 only
    /// (or 0 and −1), and the rasterizer knows before flattening that accumulation alone is
    /// exact (`Rasterizer.rasterize`). A Bézier curve turns no more often than its control
    /// polygon (the variation-diminishing property), so polygons turning one way with at most
    /// two changes of vertical and horizontal direction (convex) hold convex curves, and
    /// vertices on those curves make convex polygons; each curve lies inside its control
    /// points' bounding box, so disjoint boxes stay disjoint.
    ///
    /// The balancing of `flatten` moves vertices outwards by at most ⅔ of the tolerance, a
    /// sliver of the pixel the check's boxes are padded with. It may dent the polygon: next to
    /// a curve end of zero or nearly zero speed (a control point on or near its end point,
    /// where a random search found dents with handles a few hundredths of a unit long: 1,823
    /// of 27,730 cubics closed by a line) the chords shorten towards
    /// the end, a vertex moves out less than its neighbour, and the polygon turns back there
    /// by up to about 10⁻² rad. A dented polygon is still simple, so its windings stay 0 and
    /// 1. Only across a contour about a tolerance wide may vertices of opposite sides pass
    /// each other; the check refuses contours with curves narrower than 4 tolerances
    /// (`ContourShapeCheck.minimumCurvedWidth`). The raster fuzz target checks the claim
    /// (`Path._convexShortcutHolds`).
    ///
    /// `curves`: whether the path has a curve. Without one, the flattened polygons are the
    /// control polygons, and a failed check fails again on them.
    func flattenedSegmentCountAndShape(transform: CGAffineTransform, tolerance: Double) -> (count: Int, convex: Bool, curves: Bool) {
        var shape = ContourShapeCheck()
        shape.checksControlPolygons = true
        shape.minimumCurvedWidth = 4 * tolerance
        var curves = false
        let count = segmentCount(transform: transform, tolerance: tolerance, below: nil, checking: true, shape: &shape,
                                 curves: &curves)!
        return (count, shape.simple, curves)
    }

    @inline(__always)
    private func segmentCount(transform t: CGAffineTransform, tolerance: Double, below magnitude: Double?) -> Int? {
        var unused = ContourShapeCheck(), curves = false
        return segmentCount(transform: t, tolerance: tolerance, below: magnitude, checking: false, shape: &unused,
                            curves: &curves)
    }

    /// With `checking`, the control polygons go to `shape` until it fails (a stroke's outline
    /// of thousands of points fails within its first turn back: the rest costs a test each),
    /// and `curves` says whether the path has a curve.
    @inline(__always)
    private func segmentCount(transform t: CGAffineTransform, tolerance: Double, below magnitude: Double?,
                              checking: Bool, shape: inout ContourShapeCheck, curves: inout Bool) -> Int? {
        let limit = magnitude ?? 0
        var inside = true
        @inline(__always) func map(_ p: CGPoint) -> (Double, Double) {
            let (x, y) = (t.a * p.x + t.c * p.y + t.tx, t.b * p.x + t.d * p.y + t.ty)
            if magnitude != nil, !(abs(x) < limit && abs(y) < limit) { inside = false }
            return (x, y)
        }
        var count = 0
        var cx = 0.0, cy = 0.0
        var open = false
        for element in elements {
            switch element {
            case .move(let p):
                (cx, cy) = map(p); count &+= 1   // its subpath's closing line
                if checking && shape.simple {
                    if open { shape.close() }
                    shape.move(cx, cy)
                    open = true
                }
            case .line(let p):
                (cx, cy) = map(p); count &+= 1
                if checking && shape.simple { shape.controlPoint(cx, cy) }
            case .quadCurve(let p, let c):
                let (x1, y1) = map(c), (x2, y2) = map(p)
                count &+= flatteningSegmentCount(secondDerivativeBound: quadraticSecondDerivativeBound(cx, cy, x1, y1, x2, y2),
                                                 tolerance: tolerance)
                if checking {
                    curves = true
                    if shape.simple {
                        shape.curve()
                        shape.controlPoint(x1, y1)
                        shape.controlPoint(x2, y2)
                    }
                }
                (cx, cy) = (x2, y2)
            case .curve(let p, let c1, let c2):
                let (x1, y1) = map(c1), (x2, y2) = map(c2), (x3, y3) = map(p)
                count &+= flatteningSegmentCount(secondDerivativeBound: cubicSecondDerivativeBound(cx, cy, x1, y1, x2, y2, x3, y3),
                                                 tolerance: tolerance)
                if checking {
                    curves = true
                    if shape.simple {
                        shape.curve()
                        shape.controlPoint(x1, y1)
                        shape.controlPoint(x2, y2)
                        shape.controlPoint(x3, y3)
                    }
                }
                (cx, cy) = (x3, y3)
            case .closeSubpath:
                if checking && shape.simple && open {
                    shape.close()
                    open = false
                }
            }
            if count < 0 { count = .max; break }
        }
        if checking && shape.simple && open { shape.close() }
        return inside ? count : nil
    }
}

extension Path {
    /// The path mapped by `transform` with its curves replaced by lines within `tolerance`
    /// (in the transform's output units), balanced so the polygon's area matches the curves'
    /// (see `flatten`): for outlines flattened once and drawn many times at a tolerance of
    /// their own, such as glyphs (0.02 px).
    ///
    /// ```swift
    /// let polygon = outline.flattened(transform: toDevice, tolerance: 0.02)
    /// ```
    public func flattened(transform: CGAffineTransform, tolerance: Double) -> Path {
        var out = Path()
        flatten(transform: transform, tolerance: max(tolerance, 1e-6), balanced: true,
                moveTo: { x, y in out.move(to: CGPoint(x: x, y: y)) },
                lineTo: { x, y in out.addLine(to: CGPoint(x: x, y: y)) },
                close: { _ in out.closeSubpath() })
        return out
    }
}
