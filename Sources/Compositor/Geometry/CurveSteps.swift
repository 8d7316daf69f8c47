/// A quadratic or cubic curve in power form, c(s) = p0 + s·(c1 + s·(c2 + s·c3)) for s in [0, 1]
/// (c3 = 0 for a quadratic), x and y in one vector.
struct PowerCurve {
    var p0: SIMD2<Double>, c1: SIMD2<Double>, c2: SIMD2<Double>, c3: SIMD2<Double>

    @inline(__always) func point(_ s: Double) -> SIMD2<Double> { ((c3 * s + c2) * s + c1) * s + p0 }
    /// c'(s).
    @inline(__always) func velocity(_ s: Double) -> SIMD2<Double> { (3 * c3 * s + 2 * c2) * s + c1 }
    /// c''(s).
    @inline(__always) func acceleration(_ s: Double) -> SIMD2<Double> { 6 * c3 * s + 2 * c2 }

    /// √(|c′ × c″| / |c′|), the density of an optimal flattening in s: a chord of parameter
    /// length h near s misses the curve by h²/8 times the normal part of c″, |c′ × c″| / |c′|,
    /// so chords that each miss by e need √(that / 8e) of them per unit of s. Where c′ = 0 (a
    /// cusp) the bound |c″| stands in.
    @inline(__always) func density(_ s: Double) -> Double {
        let v = velocity(s), a = acceleration(s)
        let speed = (v * v).sum().squareRoot()
        let normal = abs(v.x * a.y - v.y * a.x)
        return speed > 0 ? (normal / speed).squareRoot() : (a * a).sum().squareRoot().squareRoot()
    }
}

/// The parameters of a curve's polyline vertices, spaced by the curve's own bending: dense where
/// it turns sharply, sparse where it runs straight, instead of uniformly in s.
///
/// Uniform steps need ⌈√(max|c″| / 8·tolerance)⌉ segments (`flatteningSegmentCount`), sized by
/// the largest acceleration anywhere on the curve, tangential part included, though only the
/// normal part bends the curve away from its chords. A random cubic's bending varies a lot
/// along it, and S4's 2,000 cubics take 571,093 uniform segments at 0.01 px where 275,267
/// (the integral below) would keep every chord within the same tolerance; aimed at half of
/// it, they take 432,311.
///
/// 1. The density (`PowerCurve.density`) is integrated by the trapezoid rule over pieces of
///    s, a quarter as many as the uniform count, aiming each chord at half the tolerance
///    (`chordAim`).
/// 2. The vertices are placed at equal steps of that integral (linear within a piece).
/// 3. Each chord is checked exactly: the cubic minus its chord is the polynomial
///    τ(τ − h)·(c″(a)/2 + c‴·(τ + h)/6), whose largest distance from the chord's line is
///    found at the roots of a quadratic; and the curve must not run backwards along the
///    chord (c′·chord ≥ 0 throughout, so no point lies beyond the chord's ends). A chord that
///    fails is halved until it passes. A chord no longer than the uniform step always passes
///    (the uniform bound holds for any parameter interval of that length), so halving ends.
///
/// Every chord is thus within `tolerance` of its arc, as with uniform steps. Returns the
/// number of segments n, with vertex k's parameter, point and the bulge of the chord that
/// ends there in `steps[4k..<4k + 4]` for k in 0...n, 0 = s₀ < s₁ < … < sₙ = 1 (`steps` has
/// room for 4·(`uniformCount` + 1) values). The bulge, the arc's offset from the chord at the
/// chord's middle parameter, is given as w = n·offset with n the chord turned by 90°: the
/// offset is n·w/|n|² (divided by the caller, only for balanced vertices). Or 0 when the
/// adaptive vertices would not be well below `uniformCount` (or not finite): the caller then
/// steps uniformly, so a curve never gets more segments than `flatteningSegmentCount` says.
/// Only for curves `adaptiveStepsMayPay` lets through.
func adaptiveCurveSteps(_ c: PowerCurve, tolerance: Double, uniformCount nu: Int,
                        into steps: UnsafeMutablePointer<Double>) -> Int {
    let scale = 1 / (8 * chordAim * tolerance).squareRoot()
    let pieces = nu / 4
    let pieceLength = 1 / Double(pieces)
    return withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * pieces) { shares in
        // 1. The integral, piece by piece: each piece's share in shares[2j], its reciprocal
        //    in shares[2j + 1] (divided here, where the divisions are independent, rather than
        //    per vertex on the way to its point).
        var total = 0.0
        var left = c.density(0)
        for j in 0..<pieces {
            let right = c.density(Double(j + 1) * pieceLength)
            let share = (left + right) * 0.5 * pieceLength * scale
            shares[2 * j] = share
            shares[2 * j + 1] = 1 / share
            total += share
            left = right
        }
        // Worth it only well below the uniform count: an adaptive vertex costs a chord check
        // besides its point, so a circle (even bending) keeps its uniform steps.
        guard total.isFinite, total < 0.75 * Double(nu) else { return 0 }
        let wanted = max(1, Int(total.rounded(.up)))
        // 2 and 3. Vertices at equal steps of the integral, each chord checked as it is made.
        var checker = ChordChecker(curve: c, tolerance: tolerance, uniformStep: 1 / Double(nu), limit: nu - 1,
                                   vertices: steps)
        let step = total / Double(wanted)
        var k = 1
        var before = 0.0   // the integral up to piece j's start
        for j in 0..<pieces where k < wanted {
            let share = shares[2 * j]
            while k < wanted, Double(k) * step < before + share {
                let s = (Double(j) + (Double(k) * step - before) * shares[2 * j + 1]) * pieceLength
                guard checker.advance(to: s) else { return 0 }
                k += 1
            }
            before += share
        }
        guard checker.advance(to: 1) else { return 0 }
        return checker.count
    }
}

/// Whether `adaptiveCurveSteps` may cut a curve's uniform count `nu` below 0.75 of it, from a
/// first look by Simpson's rule on three densities: a curve of even bending (a circle's arc,
/// about 1.4 times its uniform count at half the tolerance) is left to uniform steps without
/// integrating piece by piece. Under 8 uniform segments a few pieces could not save any.
@inline(__always)
func adaptiveStepsMayPay(_ c: PowerCurve, tolerance: Double, uniformCount nu: Int) -> Bool {
    guard nu >= 8 else { return false }
    let estimate = (c.density(0) + 4 * c.density(0.5) + c.density(1)) / 6 / (8 * chordAim * tolerance).squareRoot()
    return estimate < 0.75 * Double(nu)
}

/// The share of the tolerance an adaptive chord aims at. Aimed at 0.9, S4's chords took half
/// the uniform count, but pixels of S4-nz off the exact reference by more than 1 level went
/// from 17 to 4,340 (max 2 to 5) and S5's from 5,094 to 47,070: uniform chords mostly miss by
/// far less than the tolerance, since their count is sized by the curve's largest bending.
/// At 0.5, S4-nz keeps its max of 2 (91 pixels over 1) and S5 its p99.9 of 2 (9,991), for
/// most of the time saved (`docs/benchmarks.md`).
let chordAim = 0.5

/// Step 3 of `adaptiveCurveSteps`: appends chords' end parameters after checking each chord
/// (halving it until it passes).
private struct ChordChecker {
    let curve: PowerCurve
    let tolerance: Double
    let uniformStep: Double
    let limit: Int
    let vertices: UnsafeMutablePointer<Double>
    var count = 0
    var start = 0.0
    var startPoint: SIMD2<Double>

    init(curve: PowerCurve, tolerance: Double, uniformStep: Double, limit: Int, vertices: UnsafeMutablePointer<Double>) {
        (self.curve, self.tolerance, self.uniformStep, self.limit, self.vertices) = (curve, tolerance, uniformStep, limit, vertices)
        startPoint = curve.point(0)
        (vertices[0], vertices[1], vertices[2], vertices[3]) = (0, startPoint.x, startPoint.y, 0)
    }

    /// Adds the chord from the last vertex to `end`, halved until each part passes; false
    /// when that would make more than `limit` segments.
    @inline(__always)
    mutating func advance(to end: Double) -> Bool {
        guard end > start else { return true }
        let endPoint = curve.point(end)
        if let bulge = bulge(start, startPoint, end, endPoint) { return append(end, endPoint, bulge) }
        return split(end, endPoint)
    }

    /// The chord to `end` as two halves, each checked (and halved) in turn.
    @inline(never)
    private mutating func split(_ end: Double, _ endPoint: SIMD2<Double>) -> Bool {
        let middle = start + (end - start) * 0.5
        // (A chord too short to halve spans two adjacent doubles of s: it is taken as it is.)
        guard middle > start, middle < end else { return append(end, endPoint, 0) }
        return advance(to: middle) && advance(to: end)
    }

    @inline(__always)
    private mutating func append(_ end: Double, _ endPoint: SIMD2<Double>, _ bulge: Double) -> Bool {
        guard count < limit else { return false }
        count += 1
        let v = vertices + 4 * count
        (v[0], v[1], v[2], v[3]) = (end, endPoint.x, endPoint.y, bulge)
        (start, startPoint) = (end, endPoint)
        return true
    }

    /// When the arc from a to b stays within the tolerance of the chord between its ends, the
    /// arc's offset from the chord at the chord's middle parameter (its bulge, for balancing)
    /// as n·offset, n the chord turned by 90°; nil otherwise.
    @inline(__always)
    private func bulge(_ a: Double, _ pa: SIMD2<Double>, _ b: Double, _ pb: SIMD2<Double>) -> Double? {
        let h = b - a
        let d = pb - pa
        let length2 = (d * d).sum()
        guard length2 > 0 else { return h <= uniformStep ? 0 : nil }
        let c = curve
        // Distance from the chord's line, scaled by the chord's length (n = d turned by 90°,
        // |n| = |d|): with u = τ/h, n·(c(a + τ) − chord) = −u(1 − u)·(p + q·u), where
        // p = (n·c″(a)/2 + n·c‴/6·h)·h² and q = n·c‴/6·h³. Compared squared, as the limit is.
        let n = SIMD2(-d.y, d.x)
        let alpha = (n * (c.c2 + 3 * c.c3 * a)).sum()
        let beta = (n * c.c3).sum()
        let p = (alpha + beta * h) * h * h, q = beta * h * h * h
        // At u = ½: n·bulge = −(p + q/2)/4.
        let bulge = -0.25 * (p + 0.5 * q)
        // Within the tolerance by the uniform bound on this chord's own interval, h²/8·max|c″|
        // (c″ is linear, so its largest norm is at an end): then every point of the arc is that
        // near a point of the chord, ends included. Always so for a chord no longer than the
        // uniform step.
        if h <= uniformStep { return bulge }
        let ea = c.acceleration(a), eb = c.acceleration(b)
        let h2 = h * h
        if h2 * h2 * max((ea * ea).sum(), (eb * eb).sum()) <= 64 * tolerance * tolerance { return bulge }
        let limit2 = tolerance * tolerance * length2
        // u(1 − u) ≤ ¼ and the bracket is linear in u: a bound that settles most chords.
        let bound = 0.25 * max(abs(p), abs(p + q))
        if bound * bound > limit2 {
            @inline(__always) func f(_ u: Double) -> Double { abs(u * (1 - u) * (p + q * u)) }
            var largest = f(0.5)
            // f′(u) = p + (2q − 2p)·u − 3q·u² = 0.
            if q != 0 {
                let qa = -3 * q, qb = 2 * (q - p), qc = p
                let disc = qb * qb - 4 * qa * qc
                if disc >= 0 {
                    let r = disc.squareRoot()
                    let u1 = (-qb + r) / (2 * qa), u2 = (-qb - r) / (2 * qa)
                    if u1 > 0, u1 < 1 { largest = max(largest, f(u1)) }
                    if u2 > 0, u2 < 1 { largest = max(largest, f(u2)) }
                }
            }
            guard largest * largest <= limit2 else { return nil }
        }
        // The curve must move forwards along the chord throughout: g(s) = c′(s)·d ≥ 0, a
        // quadratic g0 + g1·s + g2·s² checked at both ends and at its vertex.
        let g0 = (c.c1 * d).sum(), g1 = 2 * (c.c2 * d).sum(), g2 = 3 * (c.c3 * d).sum()
        @inline(__always) func g(_ s: Double) -> Double { (g2 * s + g1) * s + g0 }
        guard g(a) >= 0, g(b) >= 0 else { return nil }
        // A minimum inside (a, b) below 0: its place −g1/2g2 and value g0 − g1²/4g2, compared
        // multiplied out (g2 > 0).
        if g2 > 0, -g1 > 2 * g2 * a, -g1 < 2 * g2 * b, 4 * g0 * g2 < g1 * g1 { return nil }
        return bulge
    }
}
