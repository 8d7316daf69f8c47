import Foundation

/// A flattened subpath: its points (no two consecutive equal), which of them are corners of
/// the path (element boundaries, where the stroke's join style applies; the others are steps
/// of a flattened curve), and whether it is closed.
struct Polyline {
    var points: [CGPoint]
    var corners: [Bool]
    var closed: Bool
}

extension Path {
    /// The subpaths as polylines, curves flattened within `tolerance`. Repeated points are
    /// dropped; a subpath of one point remains (a dot, for round and square caps). A closed
    /// subpath does not repeat its first point at the end.
    func polylines(tolerance: Double = strokeFlatteningTolerance, balanced: Bool = false) -> [Polyline] {
        var collector = PolylineCollector(smooth: smoothJunctions())
        flatten(tolerance: tolerance, balanced: balanced, into: &collector)
        return collector.out
    }

    /// For each drawing element, whether the path continues smoothly after its end (the next
    /// segment leaves in the same direction), and for each subpath whether its start is smooth
    /// when closed. A smooth junction gets no join of its own when stroked, as in Core Graphics.
    func smoothJunctions() -> (ends: [Bool], starts: [Bool]) {
        // Start and end tangents of each drawing element, grouped by subpath, with the closing
        // segment's direction (zero when it has no length).
        struct Piece { var start: CGPoint; var end: CGPoint }
        var subpaths: [(pieces: [Piece], closing: CGPoint?)] = []
        var first = CGPoint.zero, current = CGPoint.zero
        func direction(_ candidates: [CGPoint]) -> CGPoint { candidates.first { $0 != .zero } ?? .zero }
        func minus(_ a: CGPoint, _ b: CGPoint) -> CGPoint { CGPoint(x: a.x - b.x, y: a.y - b.y) }
        for element in elements {
            switch element {
            case .move(let p):
                subpaths.append(([], nil)); first = p; current = p
            case .line(let p):
                // A zero-length line is transparent: it continues the direction it arrives with.
                var t = minus(p, current)
                if t == .zero, let previous = subpaths[subpaths.count - 1].pieces.last { t = previous.end }
                subpaths[subpaths.count - 1].pieces.append(Piece(start: t, end: t)); current = p
            case .quadCurve(let p, let c):
                subpaths[subpaths.count - 1].pieces.append(Piece(start: direction([minus(c, current), minus(p, current)]),
                                                                end: direction([minus(p, c), minus(p, current)])))
                current = p
            case .curve(let p, let c1, let c2):
                subpaths[subpaths.count - 1].pieces.append(
                    Piece(start: direction([minus(c1, current), minus(c2, current), minus(p, current)]),
                          end: direction([minus(p, c2), minus(p, c1), minus(p, current)])))
                current = p
            case .closeSubpath:
                if !subpaths.isEmpty { subpaths[subpaths.count - 1].closing = minus(first, current) }
                current = first
            }
        }
        func same(_ a: CGPoint, _ b: CGPoint) -> Bool {
            let la = hypot(a.x, a.y), lb = hypot(b.x, b.y)
            guard la > 0, lb > 0 else { return false }
            return abs(a.x * b.y - a.y * b.x) <= 1e-9 * la * lb && a.x * b.x + a.y * b.y > 0
        }
        var ends: [Bool] = [], starts: [Bool] = []
        for sp in subpaths {
            let closingDir = sp.closing.flatMap { $0 == .zero ? nil : $0 }
            for (i, piece) in sp.pieces.enumerated() {
                if i + 1 < sp.pieces.count {
                    ends.append(same(piece.end, sp.pieces[i + 1].start))
                } else if let c = closingDir {
                    ends.append(same(piece.end, c))
                } else if sp.closing != nil, let firstPiece = sp.pieces.first {
                    ends.append(same(piece.end, firstPiece.start))
                } else {
                    ends.append(false)
                }
            }
            if let firstPiece = sp.pieces.first, sp.closing != nil {
                let arriving = closingDir ?? sp.pieces.last!.end
                starts.append(same(arriving, firstPiece.start))
            } else {
                starts.append(false)
            }
        }
        return (ends, starts)
    }
}

/// Gathers a flattening into polylines (`Path.polylines`): a sink, not closures, so each
/// point costs no closure call and no access to captured, boxed arrays (those were 120
/// instructions a point of S5's strokes).
private struct PolylineCollector: PolylineSink {
    let smooth: (ends: [Bool], starts: [Bool])
    var out: [Polyline] = []
    var current: [CGPoint] = []
    var corners: [Bool] = []
    var element = 0, subpath = -1

    init(smooth: (ends: [Bool], starts: [Bool])) { self.smooth = smooth }

    mutating func moveTo(_ x: Double, _ y: Double) {
        current = [CGPoint(x: x, y: y)]; corners = [true]; subpath += 1
    }

    mutating func lineTo(_ x: Double, _ y: Double) {
        let p = CGPoint(x: x, y: y)
        if p != current.last { current.append(p); corners.append(false) }
    }

    mutating func close(explicit: Bool) {
        if explicit, current.count > 1, current.first == current.last {
            current.removeLast(); corners.removeLast()
        }
        if explicit, subpath < smooth.starts.count, smooth.starts[subpath] { corners[0] = false }
        out.append(Polyline(points: current, corners: corners, closed: explicit && current.count > 1))
        current = []; corners = []
    }

    mutating func elementEnd() {
        if !corners.isEmpty, element < smooth.ends.count { corners[corners.count - 1] = !smooth.ends[element] }
        element += 1
    }
}

/// Strokes a flattening subpath by subpath as it comes (`Path.strokeUndashed`): each polyline
/// is gathered as `PolylineCollector` gathers it, into scratch kept from one to the next, and
/// stroked at once into `out`. Past the outline budget it strokes nothing more
/// (the caller throws).
private struct StrokingSink<Out: PolylineSink>: PolylineSink, ~Copyable {
    var stroker: Stroker
    let smooth: (ends: [Bool], starts: [Bool])
    var out: Out
    var points = ScratchBuffer<OutlinePoint>()
    var corners = ScratchBuffer<Bool>()
    var element = 0, subpath = -1

    init(stroker: consuming Stroker, smooth: (ends: [Bool], starts: [Bool]), out: Out) {
        self.stroker = stroker
        self.smooth = smooth
        self.out = out
    }

    mutating func moveTo(_ x: Double, _ y: Double) {
        points.removeAll(); corners.removeAll()
        points.append(OutlinePoint(x: x, y: y)); corners.append(true)
        subpath += 1
    }

    @inline(__always)
    mutating func lineTo(_ x: Double, _ y: Double) {
        let last = points[points.count - 1]
        if x != last.x || y != last.y { points.append(OutlinePoint(x: x, y: y)); corners.append(false) }
    }

    mutating func close(explicit: Bool) {
        let n = points.count
        if explicit, n > 1, points[0].x == points[n - 1].x, points[0].y == points[n - 1].y {
            points.count -= 1; corners.count -= 1
        }
        if explicit, subpath < smooth.starts.count, smooth.starts[subpath] { corners[0] = false }
        guard stroker.budget.remaining >= 0 else { return }
        stroker.stroke(UnsafeBufferPointer(start: points.base, count: points.count),
                       corners: UnsafeBufferPointer(start: corners.base, count: corners.count),
                       closed: explicit && points.count > 1, into: &out)
    }

    mutating func elementEnd() {
        if !corners.isEmpty, element < smooth.ends.count { corners[corners.count - 1] = !smooth.ends[element] }
        element += 1
    }
}

/// The most dashes one stroke may produce: a pattern whose period would give more over the
/// path's length is treated as a solid line, so a 1e-9 dash cannot ask for billions of pieces.
public let maximumDashCount = 1 << 20

/// The most elements a stroke's outline may have: 2^22 (about 4 million points, 100 MB of path);
/// beyond it `strokedPath` returns an empty path. Round caps and joins of a huge width at
/// `strokeFlatteningTolerance` take up to 4,096 points each, so a huge width times many dashes reaches it; nothing
/// drawable does.
public let maximumStrokeOutlineElements = 1 << 22

extension Path {
    /// The outline of the stroke as a path that fills with the non-zero rule, as Core Graphics'
    /// `copy(strokingWithWidth:…)` and SwiftUI's `strokedPath(_:)`.
    ///
    /// Curves are flattened within `tolerance` (in this path's units: pass the device tolerance
    /// divided by the scale the path is drawn at, so the outline is as fine in pixels whatever
    /// the scale), then each polyline is offset by half the width on both sides. Outer joins
    /// follow `lineJoin` (a miter turns into a bevel exactly when 1 / sin(φ/2) exceeds
    /// `miterLimit`, φ the angle between the segments); inner joins pass through the vertex,
    /// which the non-zero rule resolves. Open subpaths get caps; closed ones join at their start
    /// and give two contours (outer and inner). A subpath of zero length draws a dot with round
    /// or square caps, nothing with butt caps. Round joins and caps are polygons within
    /// `tolerance` of the circle.
    ///
    /// - Throws: `StrokeRefusal` when the stroke would ask for more than `limits` allow (a dash
    ///   pattern finer than `maximumDashes` allows, an outline beyond `maximumOutlinePoints`, a
    ///   path beyond `maximumSegments`); nothing is built then.
    ///
    /// ```swift
    /// let ring = try Path(ellipseIn: rect).strokedPath(StrokeStyle(lineWidth: 8), tolerance: 0.1 / 3,
    ///                                                   limits: .standard)
    /// ```
    public func strokedPath(_ style: StrokeStyle, tolerance: Double, limits: StrokeLimits) throws(StrokeRefusal) -> Path {
        let width = Double(style.lineWidth)
        guard width > 0, width.isFinite, tolerance > 0, tolerance.isFinite else { return Path() }
        let segments = flattenedSegmentCount(tolerance: tolerance)
        guard segments <= limits.maximumSegments else {
            throw .segments(count: segments, limit: limits.maximumSegments)
        }
        let stroker = Stroker(halfWidth: width / 2, style: style, tolerance: tolerance,
                              budget: .init(remaining: limits.maximumOutlinePoints))
        // Balanced samples (see `flatten`): chords would shift a thin stroke's centre line
        // towards the concave side by up to the tolerance, a tenth of a 1 px stroke's width.
        guard let pattern = style.validDashPattern else {
            // Each subpath stroked as soon as it is flattened, from reused scratch.
            let (out, fits) = strokeUndashed(stroker, into: PathBuilder())
            if !fits { throw .outlinePoints(limit: limits.maximumOutlinePoints) }
            return out.path
        }
        let lines = try dash(polylines(tolerance: tolerance, balanced: true), pattern: pattern, phase: Double(style.dashPhase),
                             limit: limits.maximumDashes)
        var out = PathBuilder()
        var dashes = stroker
        for line in lines {
            dashes.stroke(line, into: &out)
            // A runaway outline (a million dashes of a huge round-capped width) is abandoned
            // rather than exhausting memory.
            if dashes.budget.remaining < 0 { throw .outlinePoints(limit: limits.maximumOutlinePoints) }
        }
        return out.path
    }

    /// Strokes this path with `stroker`, ignoring any dash pattern, into `out`: each subpath
    /// stroked as soon as it is flattened (`StrokingSink`), its outline sent point by point.
    /// Returns `out`, and false when the stroker's outline budget ran out (what was sent
    /// before stays sent; nothing more is).
    func strokeUndashed<Out: PolylineSink>(_ stroker: consuming Stroker, into out: Out) -> (Out, fits: Bool) {
        var sink = StrokingSink(stroker: stroker, smooth: smoothJunctions(), out: out)
        flatten(tolerance: sink.stroker.pen.tolerance, balanced: true, into: &sink)
        return (sink.out, sink.stroker.budget.remaining >= 0)
    }

    /// The stroke's outline within `tolerance` (`strokeFlatteningTolerance` by default: 0.02 of
    /// a unit, right for a path drawn at scale 1), under `StrokeLimits.standard`, never throwing (SwiftUI's
    /// signature): a dash pattern finer than the limit allows is drawn as a solid line, and an
    /// outline or path beyond the other limits gives an empty path. Renderers use
    /// `strokedPath(_:tolerance:limits:)`, which reports those as errors instead.
    ///
    /// ```swift
    /// let ring = Path(ellipseIn: rect).strokedPath(StrokeStyle(lineWidth: 8))
    /// ```
    public func strokedPath(_ style: StrokeStyle, tolerance: Double = strokeFlatteningTolerance) -> Path {
        do {
            return try strokedPath(style, tolerance: tolerance, limits: .standard)
        } catch .dashes {
            var solid = style
            solid.dash = []
            return (try? strokedPath(solid, tolerance: tolerance, limits: .standard)) ?? Path()
        } catch {
            return Path()
        }
    }
}
