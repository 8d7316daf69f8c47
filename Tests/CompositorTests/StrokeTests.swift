import Foundation
import Testing
@testable import Compositor

@Suite struct StrokeTests {
    let clip = PixelRect(x: 0, y: 0, width: 200, height: 200)

    func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Path {
        Path { p in p.move(to: CGPoint(x: x0, y: y0)); p.addLine(to: CGPoint(x: x1, y: y1)) }
    }

    @Test func defaultsAreSwiftUIs() {
        let s = StrokeStyle()
        #expect(s.lineWidth == 1 && s.lineCap == .butt && s.lineJoin == .miter && s.miterLimit == 10 && s.dash.isEmpty && s.dashPhase == 0)
    }

    @Test(arguments: [CGLineCap.butt, .square, .round])
    func capsAddTheirArea(_ cap: CGLineCap) throws {
        // w = 6, L = 100.5, at a slant so nothing is pixel-aligned:
        // butt w·L = 603; square w·(L + w) = 639; round w·L + π·3² = 631.27.
        let w = 6.0, length = 100.5
        let a = 0.3
        let path = line(40, 60, 40 + length * cos(a), 60 + length * sin(a))
        let outline = path.strokedPath(StrokeStyle(lineWidth: w, lineCap: cap))
        let expected: Double = switch cap {
        case .butt: w * length
        case .square: w * (length + w)
        case .round: w * length + .pi * 9
        }
        #expect(relativeError(try coveredArea(outline, clip: clip), expected) < 0.002)
    }

    /// Segment lengths come from a square root of the sum of squares, or from `hypot` where
    /// those squares overflow or underflow: a segment 10²⁰⁰ long, or 10⁻²⁰⁰, still has its
    /// direction, so its butt-capped outline is the segment offset by half the width on each
    /// side (4 corners, the offsets finite and exact to a few ulps).
    @Test(arguments: [1e200, 1e-200]) func segmentLengthsSurviveHugeAndTinySquares(_ size: Double) {
        let outline = line(0, 0, 3 * size, 4 * size).strokedPath(StrokeStyle(lineWidth: 10))
        var points: [CGPoint] = []
        outline.forEach { if case .line(let p) = $0 { points.append(p) } else if case .move(let p) = $0 { points.append(p) } }
        #expect(points.count == 4)
        // The unit normal is (−0.8, 0.6): the start's corners at ±(−4, 3).
        let start = points.filter { abs($0.x) < 10 && abs($0.y) < 10 }
        #expect(start.count == (size > 1 ? 2 : 4))
        for p in start where size > 1 || abs(p.x) > 1 {
            #expect(abs(abs(p.x) - 4) < 1e-12 && abs(abs(p.y) - 3) < 1e-12, "\(p)")
        }
    }

    @Test func zeroLengthSegmentsDrawDotsOnlyWithRoundOrSquareCaps() throws {
        var p = Path(); p.move(to: CGPoint(x: 50.3, y: 50.6)); p.addLine(to: CGPoint(x: 50.3, y: 50.6))
        // Round: π·5² = 78.54 (the polygon within 0.1 of the circle); square: 10 × 10, within the
        // 8-bit rounding of its ~40 edge pixels (≤ 0.5/255 each).
        #expect(relativeError(try coveredArea(p.strokedPath(StrokeStyle(lineWidth: 10, lineCap: .round)), clip: clip), .pi * 25) < 0.005)
        #expect(abs(try coveredArea(p.strokedPath(StrokeStyle(lineWidth: 10, lineCap: .square)), clip: clip) - 100) < 0.1)
        #expect(p.strokedPath(StrokeStyle(lineWidth: 10, lineCap: .butt)).isEmpty)
    }

    @Test func thinStrokesKeepTheirWeight() throws {
        // w = 0.25 over 100 px: 25 px² in all, and every column the line crosses is touched
        // (no dropouts).
        let outline = line(10, 20.5, 110, 31.5).strokedPath(StrokeStyle(lineWidth: 0.25))
        let cov = try coverage(outline, clip: clip)
        #expect(relativeError(cov.reduce(0.0) { $0 + Double($1) } / 255, 25) < 0.01)
        for x in 11..<109 { #expect((0..<200).contains { cov[$0 * 200 + x] > 0 }, "column \(x)") }
    }

    /// Inside a flattened curve, a step's outer side is one vertex, where the two segments'
    /// offset lines meet (hw/cos(θ/2) from the centre line's vertex), not a bevel's two: a
    /// ring's outer and inner contours have a vertex per centre-line vertex each. Both stay
    /// within the tolerance of the true offset circles, and the ring's area is exact.
    @Test func curveStepsTakeOneOuterVertex() throws {
        // A circle of r = 60 stroked 10 wide: outer r = 65, inner 55, area π(65² − 55²) = 1200π.
        let c = CGPoint(x: 100, y: 100)
        let circle = Path(ellipseIn: CGRect(x: c.x - 60, y: c.y - 60, width: 120, height: 120))
        let tolerance = strokeFlatteningTolerance
        let outline = circle.strokedPath(StrokeStyle(lineWidth: 10), tolerance: tolerance)
        var contours: [[CGPoint]] = []
        outline.forEach { element in
            switch element {
            case .move(let p): contours.append([p])
            case .line(let p): contours[contours.count - 1].append(p)
            default: break
            }
        }
        #expect(contours.count == 2)
        let centre = circle.polylines(tolerance: tolerance, balanced: true)
        #expect(centre.count == 1)
        // One vertex a side for each of the centre line's (bevels gave the outer side two).
        #expect(contours.allSatisfy { $0.count == centre[0].points.count }, "\(contours.map(\.count)) for \(centre[0].points.count)")
        let radii = contours.map { $0.map { hypot($0.x - c.x, $0.y - c.y) } }
        let outer = radii.max { $0.max()! < $1.max()! }!, inner = radii.min { $0.min()! < $1.min()! }!
        // Balanced centre vertices sit up to ⅔ of a step's sagitta (≤ tolerance) outside the
        // circle, and the outer vertex a further hw(1/cos(θ/2) − 1) ≤ tolerance beyond.
        #expect(outer.allSatisfy { abs($0 - 65) <= 2 * tolerance }, "\(outer.min()!) … \(outer.max()!)")
        #expect(inner.allSatisfy { abs($0 - 55) <= 2 * tolerance }, "\(inner.min()!) … \(inner.max()!)")
        #expect(relativeError(try coveredArea(outline, clip: clip), 1200 * .pi) < 0.0005)
    }

    @Test func closedSubpathsJoinAtTheirStart() throws {
        // A closed 80 × 80 square stroked 10 wide with miter joins: (80 + 10)² − (80 − 10)² = 3200
        // exactly, the start corner included.
        let outline = Path(CGRect(x: 50, y: 50, width: 80, height: 80)).strokedPath(StrokeStyle(lineWidth: 10))
        #expect(abs(try coveredArea(outline, clip: clip) - 3200) < 0.5)
        // Round joins: the four outer corners become quarter circles of r = 5, losing (4 − π)·25.
        let round = Path(CGRect(x: 50, y: 50, width: 80, height: 80)).strokedPath(StrokeStyle(lineWidth: 10, lineJoin: .round))
        #expect(relativeError(try coveredArea(round, clip: clip), 3200 - (4 - .pi) * 25) < 0.002)
        // Bevel: four triangles of legs 5 cut off: 3200 − 4·12.5.
        let bevel = Path(CGRect(x: 50, y: 50, width: 80, height: 80)).strokedPath(StrokeStyle(lineWidth: 10, lineJoin: .bevel))
        #expect(abs(try coveredArea(bevel, clip: clip) - 3150) < 0.5)
    }

    @Test func miterTurnsIntoBevelExactlyAtTheLimitAngle() {
        // Core Graphics: a miter is 1 / sin(φ/2) line widths long; beyond the limit it bevels.
        // Limit 10 → φ* = 2·asin(1/10) = 11.478°. Two segments meeting at φ* ± 0.2°: the miter
        // tip, about 10 half-widths from the vertex, exists only above φ*.
        let limit = 10.0, hw = 2.0
        let critical = 2 * asin(1 / limit)
        func tipReach(_ phi: Double) -> Double {
            // Come in along +x to (100, 100), leave at the angle φ back towards the start.
            let p = Path { path in
                path.move(to: CGPoint(x: 0, y: 100))
                path.addLine(to: CGPoint(x: 100, y: 100))
                path.addLine(to: CGPoint(x: 100 - 100 * cos(phi), y: 100 - 100 * sin(phi)))
            }
            return p.strokedPath(StrokeStyle(lineWidth: 2 * hw, miterLimit: limit)).boundingRect.maxX - 100
        }
        let above = tipReach(critical + 0.2 * .pi / 180), below = tipReach(critical - 0.2 * .pi / 180)
        // The tip lies hw / sin(φ/2) ≈ 10·hw from the vertex along the bisector; its x reach is
        // that times cos(φ/2) ≈ 19.8; a bevel reaches only hw·sin(φ) ≈ 0.4 beyond the vertex.
        #expect(above > 19 && above < 20.5, "\(above)")
        #expect(below < 2, "\(below)")
    }

    @Test func dashesRepeatAndContinueAcrossJoins() throws {
        // 100 px line, dash [10, 5], butt, w = 4: dashes at 0, 15, …, 90: 7 of 10 → 280 px².
        let l = line(20, 40.5, 120, 40.5)
        #expect(relativeError(try coveredArea(l.strokedPath(StrokeStyle(lineWidth: 4, dash: [10, 5])), clip: clip), 280) < 0.005)
        // Phase 5 shifts the pattern: 5, then 10 at 10, 25, 40, 55, 70, 85 → 65 px → 260 px².
        #expect(relativeError(try coveredArea(l.strokedPath(StrokeStyle(lineWidth: 4, dash: [10, 5], dashPhase: 5)), clip: clip), 260) < 0.005)
        // An odd-length pattern repeats: [10] means [10, 10]: 5 dashes → 200 px².
        #expect(relativeError(try coveredArea(l.strokedPath(StrokeStyle(lineWidth: 4, dash: [10])), clip: clip), 200) < 0.005)
        // A dash continues across a corner as one piece (one contour, with a join).
        let corner = Path { p in
            p.move(to: CGPoint(x: 50, y: 50)); p.addLine(to: CGPoint(x: 60, y: 50)); p.addLine(to: CGPoint(x: 60, y: 100))
        }
        let dashed = corner.strokedPath(StrokeStyle(lineWidth: 2, dash: [15, 100]))
        #expect(dashed.elements.filter { if case .move = $0 { true } else { false } }.count == 1)
        // ... and restarts on every subpath: two 20 px subpaths with [15, 100] paint 15 each.
        var two = line(20, 150.5, 40, 150.5)
        two.addPath(line(60, 150.5, 80, 150.5))
        #expect(relativeError(try coveredArea(two.strokedPath(StrokeStyle(lineWidth: 2, dash: [15, 100])), clip: clip), 60) < 0.005)
        // Invalid patterns draw solid lines.
        #expect(try coveredArea(l.strokedPath(StrokeStyle(lineWidth: 4, dash: [0, 0])), clip: clip) > 399)
        #expect(try coveredArea(l.strokedPath(StrokeStyle(lineWidth: 4, dash: [-1, 5])), clip: clip) > 399)
    }

    @Test func undashedStrokesAreOutlinedAsOneDashLongerThanThePath() throws {
        // Undashed strokes are stroked subpath by subpath while the centre line is flattened
        // (`StrokingSink`); dashed ones go through `Path.polylines` and `dash`. A dash longer
        // than the whole path keeps every open subpath whole, with the same corners, so both
        // ways must give the same outline, element for element. Random open paths of lines,
        // quadratics and cubics, some continuing smoothly (the next control point mirrors the
        // last), some with zero-length lines, every cap and join.
        var state: UInt32 = 11
        func u() -> Double { state = state &* 1664525 &+ 1013904223; return Double(state) / 4294967296 }
        func point() -> CGPoint { CGPoint(x: u() * 180 + 10, y: u() * 180 + 10) }
        let caps: [CGLineCap] = [.butt, .round, .square], joins: [CGLineJoin] = [.miter, .round, .bevel]
        var outlined = 0
        for k in 0..<300 {
            var path = Path()
            for _ in 0..<(1 + k % 3) {
                path.move(to: point())
                var lastControl: CGPoint?
                for _ in 0..<(1 + Int(u() * 4)) {
                    let current = path.currentPoint!
                    let mirrored = lastControl.map { CGPoint(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) }
                    switch Int(u() * 4) {
                    case 0: path.addLine(to: point()); lastControl = nil
                    case 1: path.addLine(to: current); lastControl = nil
                    case 2:
                        let c = mirrored ?? point()
                        path.addQuadCurve(to: point(), control: c); lastControl = c
                    default:
                        let c2 = point()
                        path.addCurve(to: point(), control1: mirrored ?? point(), control2: c2); lastControl = c2
                    }
                }
            }
            let style = StrokeStyle(lineWidth: 0.5 + u() * 12, lineCap: caps[k % 3], lineJoin: joins[(k / 3) % 3],
                                    miterLimit: 1 + u() * 9)
            var dashed = style
            dashed.dash = [1e6, 1]
            let tolerance = [0.02, 0.25][k % 2]
            let whole = try path.strokedPath(style, tolerance: tolerance, limits: .standard)
            if !whole.isEmpty { outlined += 1 }
            #expect(whole.elements == (try path.strokedPath(dashed, tolerance: tolerance, limits: .standard)).elements, "path \(k)")
        }
        // Only a lone zero-length line with butt caps outlines to nothing.
        #expect(outlined > 280, "\(outlined)")
    }

    @Test func trimKeepsAFractionOfTheLength() throws {
        // A circle of r = 40 stroked 4 wide, trimmed to 0.72: 0.72·2π·40·4 = 723.8 px² with butt
        // caps (the caps are straight, so the annulus sector's area is exact).
        let circle = Path(ellipseIn: CGRect(x: 60, y: 60, width: 80, height: 80))
        let trimmed = circle.trimmedPath(from: 0, to: 0.72)
        let area = try coveredArea(trimmed.strokedPath(StrokeStyle(lineWidth: 4)), clip: clip)
        #expect(relativeError(area, 0.72 * 2 * .pi * 40 * 4) < 0.005, "\(area)")
        // It starts where the circle starts (3 o'clock) and runs clockwise on screen: 0.25 ends
        // at the bottom.
        let quarter = circle.trimmedPath(from: 0, to: 0.25)
        #expect(abs(quarter.currentPoint!.x - 100) < 0.05 && abs(quarter.currentPoint!.y - 140) < 0.05)
        // The whole path stays closed; an empty or reversed range is empty; values clamp.
        #expect(circle.trimmedPath(from: 0, to: 1).elements.last == .closeSubpath)
        #expect(circle.trimmedPath(from: 0.5, to: 0.5).isEmpty && circle.trimmedPath(from: 0.7, to: 0.2).isEmpty)
        #expect(circle.trimmedPath(from: -3, to: 7) == circle.trimmedPath(from: 0, to: 1))
    }

    @Test func trimCountsEverySubpathAndClosingSegments() {
        // Two 40-unit squares (perimeter 160 each, closing edges included): 0.25…0.5 of the
        // total 320 is units 80…160, the second half of the first square: its bottom edge and
        // its closing (left) edge.
        var p = Path(CGRect(x: 0, y: 0, width: 40, height: 40))
        p.addRect(CGRect(x: 100, y: 0, width: 40, height: 40))
        let t = p.trimmedPath(from: 0.25, to: 0.5)
        #expect(t.elements.first == .move(to: CGPoint(x: 40, y: 40)))
        #expect(t.elements.contains(.line(to: CGPoint(x: 0, y: 40))))
        #expect(t.currentPoint == CGPoint(x: 0, y: 0))
    }
}

/// The stroke limits: outside a scope a stroke beyond them is drawn as documented (solid, or
/// not at all); the throwing form refuses instead, which a renderer turns into an error.
@Suite struct StrokeLimitTests {
    /// A 1,000 pt line with dash [0.5] (an odd pattern repeats: on 0.5, off 0.5, period 1):
    /// 1,000 dashes. Stroked 2 pt wide with butt caps, dashed it covers 1,000 × 0.5 × 2 =
    /// 1,000 pt², solid 2,000 pt². Dashed, each of the 2,000 pixels it touches is exactly half
    /// covered, which 8 bits hold as 127 or 128 (127.5 rounds either way): the sum may be off
    /// by 2,000 × 0.5 / 255 = 3.92 pt², hence `dashedTolerance`.
    let line = Path { p in p.move(to: CGPoint(x: 0, y: 10)); p.addLine(to: CGPoint(x: 1000, y: 10)) }
    let style = StrokeStyle(lineWidth: 2, dash: [0.5])
    let clip = PixelRect(x: -10, y: 0, width: 1020, height: 20)
    let dashedTolerance = 4.0

    @Test func aPatternBeyondTheDashLimitIsRefused() throws {
        #expect(throws: StrokeRefusal.dashes(count: 1000, limit: 999)) {
            try line.strokedPath(style, tolerance: 0.1, limits: StrokeLimits(maximumDashes: 999))
        }
        let dashed = try line.strokedPath(style, tolerance: 0.1, limits: StrokeLimits(maximumDashes: 1000))
        #expect(abs(try coveredArea(dashed, clip: clip) - 1000) < dashedTolerance)
        // The non-throwing form holds the standard limit (2^20): 1,000 dashes are drawn dashed;
        // a pattern of period 0.0008 would give 1,250,000, beyond it, so it is drawn solid
        // (2,000 pt²), as documented.
        #expect(abs(try coveredArea(line.strokedPath(style), clip: clip) - 1000) < dashedTolerance)
        let fine = StrokeStyle(lineWidth: 2, dash: [0.0004])
        #expect(abs(try coveredArea(line.strokedPath(fine), clip: clip) - 2000) < 1)
    }

    @Test func anOutlineBeyondItsLimitIsRefused() throws {
        // Each dash's outline takes at least 2 × 2 points + 8 of the budget: 1,000 dashes need
        // more than 12,000.
        #expect(throws: StrokeRefusal.outlinePoints(limit: 5_000)) {
            try line.strokedPath(style, tolerance: 0.1, limits: StrokeLimits(maximumOutlinePoints: 5_000))
        }
        #expect(try !line.strokedPath(style, tolerance: 0.1, limits: StrokeLimits(maximumOutlinePoints: 100_000)).isEmpty)
    }

    @Test func anUndashedOutlineBeyondItsLimitIsRefused() throws {
        // Undashed strokes are stroked while flattened (`StrokingSink`), and hold the same
        // budget: 1,000 subpaths of one segment take 2 × 2 + 8 = 12 points each, 12,000 in all.
        var path = Path()
        for i in 0..<1_000 {
            path.move(to: CGPoint(x: Double(i % 40) * 5, y: Double(i / 40) * 5))
            path.addLine(to: CGPoint(x: Double(i % 40) * 5 + 3, y: Double(i / 40) * 5 + 1))
        }
        let solid = StrokeStyle(lineWidth: 1)
        #expect(throws: StrokeRefusal.outlinePoints(limit: 11_999)) {
            try path.strokedPath(solid, tolerance: 0.1, limits: StrokeLimits(maximumOutlinePoints: 11_999))
        }
        // At exactly the budget every subpath is outlined: a move, three lines and a close each.
        let outline = try path.strokedPath(solid, tolerance: 0.1, limits: StrokeLimits(maximumOutlinePoints: 12_000))
        #expect(outline.elements.count == 5_000)
    }
}
