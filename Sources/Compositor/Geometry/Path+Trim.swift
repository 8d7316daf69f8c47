import Foundation

/// The tolerance used to measure curve lengths for trimming: 0.01 of a path unit keeps the
/// length of a 100-unit circle within 0.001 %.
let trimLengthTolerance = 0.01

extension Path {
    /// The part of the path between two fractions of its total length, as SwiftUI's
    /// `trimmedPath(from:to:)`: lengths run over all subpaths in order, closing segments included.
    /// Curves are cut exactly (de Casteljau), so the result is made of the same kinds of
    /// segments; a closed subpath kept whole stays closed. Fractions clamp to [0, 1];
    /// `from >= to` gives an empty path.
    ///
    /// ```swift
    /// let progress = Path(ellipseIn: rect).trimmedPath(from: 0, to: 0.72)
    /// ```
    public func trimmedPath(from: CGFloat, to: CGFloat) -> Path {
        let lo = Double(min(1, max(0, from.isNaN ? 0 : from))), hi = Double(min(1, max(0, to.isNaN ? 0 : to)))
        guard lo < hi else { return Path() }
        let pieces = trimPieces()
        let total = pieces.reduce(0) { $0 + $1.length }
        guard total > 0 else { return Path() }
        let a = lo * total, b = hi * total
        var out = Path()
        var s = 0.0
        var lastEnd: CGPoint?
        var subpathFullyKept: [Int: Bool] = [:]
        for (i, piece) in pieces.enumerated() {
            defer { s += piece.length }
            let start = max(a, s), end = min(b, s + piece.length)
            // A piece within the range counts however short it is (a 1e-14 closing segment
            // adds nothing to a running length of 250).
            let inside = end > start || (s >= a && s + piece.length <= b)
            if subpathFullyKept[piece.subpath] == nil { subpathFullyKept[piece.subpath] = true }
            if !(s >= a && s + piece.length <= b) { subpathFullyKept[piece.subpath] = false }
            guard inside else { continue }
            let t0 = piece.parameter(at: start - s), t1 = piece.parameter(at: end - s)
            let seg = piece.segment.sub(from: t0, to: t1)
            if seg.start != lastEnd || i == 0 || pieces[i - 1].subpath != piece.subpath { out.move(to: seg.start) }
            let closesWhole = piece.isClosing && subpathFullyKept[piece.subpath] == true
            if closesWhole {
                out.closeSubpath()
            } else {
                seg.append(to: &out)
            }
            lastEnd = seg.end
        }
        return out
    }

    /// The drawable segments with their lengths, closing segments as lines.
    func trimPieces() -> [TrimPiece] {
        var pieces: [TrimPiece] = []
        var start = CGPoint.zero, current = CGPoint.zero
        var subpath = -1
        for element in elements {
            switch element {
            case .move(let p):
                start = p; current = p; subpath += 1
            case .line(let p):
                pieces.append(TrimPiece(.line(current, p), subpath: subpath, isClosing: false)); current = p
            case .quadCurve(let p, let c):
                pieces.append(TrimPiece(.quad(current, c, p), subpath: subpath, isClosing: false)); current = p
            case .curve(let p, let c1, let c2):
                pieces.append(TrimPiece(.cubic(current, c1, c2, p), subpath: subpath, isClosing: false)); current = p
            case .closeSubpath:
                pieces.append(TrimPiece(.line(current, start), subpath: subpath, isClosing: true)); current = start
            }
        }
        return pieces
    }
}

/// One segment of a path, as geometry that can be evaluated and cut.
enum Segment {
    case line(CGPoint, CGPoint)
    case quad(CGPoint, CGPoint, CGPoint)
    case cubic(CGPoint, CGPoint, CGPoint, CGPoint)

    var start: CGPoint {
        switch self { case .line(let a, _), .quad(let a, _, _), .cubic(let a, _, _, _): a }
    }
    var end: CGPoint {
        switch self { case .line(_, let b), .quad(_, _, let b), .cubic(_, _, _, let b): b }
    }

    func point(at t: Double) -> CGPoint {
        let u = 1 - t
        switch self {
        case let .line(a, b):
            return CGPoint(x: a.x * u + b.x * t, y: a.y * u + b.y * t)
        case let .quad(a, c, b):
            return CGPoint(x: u * u * a.x + 2 * u * t * c.x + t * t * b.x, y: u * u * a.y + 2 * u * t * c.y + t * t * b.y)
        case let .cubic(a, c1, c2, b):
            let (b0, b1, b2, b3) = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
            return CGPoint(x: b0 * a.x + b1 * c1.x + b2 * c2.x + b3 * b.x, y: b0 * a.y + b1 * c1.y + b2 * c2.y + b3 * b.y)
        }
    }

    /// The part between parameters t0 ≤ t1, by de Casteljau subdivision (exact).
    func sub(from t0: Double, to t1: Double) -> Segment {
        if t0 <= 0 && t1 >= 1 { return self }
        func lerp(_ p: CGPoint, _ q: CGPoint, _ t: Double) -> CGPoint { CGPoint(x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t) }
        switch self {
        case .line:
            return .line(point(at: t0), point(at: t1))
        case let .quad(a, c, b):
            // Keep [0, t1] (the original points when t1 = 1, so the end stays exact), then the
            // part of that from t0/t1.
            let left = t1 >= 1 ? (a, c, b) : (a, lerp(a, c, t1), point(at: t1))
            let s = t1 > 0 ? t0 / t1 : 0
            let m1 = lerp(left.0, left.1, s), m2 = lerp(left.1, left.2, s)
            return .quad(t0 <= 0 ? a : lerp(m1, m2, s), m2, left.2)
        case let .cubic(a, c1, c2, b):
            let ab = lerp(a, c1, t1), bc = lerp(c1, c2, t1), cd = lerp(c2, b, t1)
            let abc = lerp(ab, bc, t1), bcd = lerp(bc, cd, t1)
            let left = t1 >= 1 ? (a, c1, c2, b) : (a, ab, abc, lerp(abc, bcd, t1))
            let s = t1 > 0 ? t0 / t1 : 0
            let p01 = lerp(left.0, left.1, s), p12 = lerp(left.1, left.2, s), p23 = lerp(left.2, left.3, s)
            let p012 = lerp(p01, p12, s), p123 = lerp(p12, p23, s)
            return .cubic(t0 <= 0 ? a : lerp(p012, p123, s), p123, p23, left.3)
        }
    }

    func append(to path: inout Path) {
        switch self {
        case let .line(_, b): path.addLine(to: b)
        case let .quad(_, c, b): path.addQuadCurve(to: b, control: c)
        case let .cubic(_, c1, c2, b): path.addCurve(to: b, control1: c1, control2: c2)
        }
    }
}

/// A segment with its arc length, measured by uniform parameter sampling, and a way back from
/// a length to a parameter.
struct TrimPiece {
    let segment: Segment
    let subpath: Int
    let isClosing: Bool
    /// Cumulative chord lengths at t = k / (count − 1).
    let cumulative: [Double]
    var length: Double { cumulative.last ?? 0 }

    init(_ segment: Segment, subpath: Int, isClosing: Bool) {
        self.segment = segment
        self.subpath = subpath
        self.isClosing = isClosing
        var steps = 1
        switch segment {
        case .line: steps = 1
        case let .quad(a, c, b):
            let dd = hypot(a.x - 2 * c.x + b.x, a.y - 2 * c.y + b.y)
            steps = flatteningSegmentCount(secondDerivativeBound: 2 * dd, tolerance: trimLengthTolerance)
        case let .cubic(a, c1, c2, b):
            let m = 6 * max(hypot(a.x - 2 * c1.x + c2.x, a.y - 2 * c1.y + c2.y), hypot(c1.x - 2 * c2.x + b.x, c1.y - 2 * c2.y + b.y))
            steps = flatteningSegmentCount(secondDerivativeBound: m, tolerance: trimLengthTolerance)
        }
        var cumulative = [0.0]
        var previous = segment.start
        for k in 1...steps {
            let p = segment.point(at: Double(k) / Double(steps))
            cumulative.append(cumulative[k - 1] + hypot(p.x - previous.x, p.y - previous.y))
            previous = p
        }
        self.cumulative = cumulative
    }

    /// The parameter at arc length `s` from the start (interpolated between samples).
    func parameter(at s: Double) -> Double {
        let n = cumulative.count - 1
        guard length > 0 else { return 0 }
        if s <= 0 { return 0 }
        if s >= length { return 1 }
        var lo = 0, hi = n
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if cumulative[mid] <= s { lo = mid } else { hi = mid }
        }
        let span = cumulative[hi] - cumulative[lo]
        let f = span > 0 ? (s - cumulative[lo]) / span : 0
        return (Double(lo) + f) / Double(n)
    }
}
