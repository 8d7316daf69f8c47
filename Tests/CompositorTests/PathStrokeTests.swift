import Foundation
import Testing
@testable import Compositor

/// Strokes drawn straight from themselves (`Canvas.fill(_ stroke:…)`: the outline sent into the
/// rasterizer's edges as it is made) against their outlines filled as paths.
@Suite struct PathStrokeTests {
    /// Random strokes: one to three subpaths of lines, quadratics and cubics, open or closed,
    /// in a random affine place, every cap and join, widths from 0.3 to 14.
    static func randomStrokes(count: Int, seed: UInt32) -> [PathStroke] {
        var state = seed
        func u() -> Double { state = state &* 1664525 &+ 1013904223; return Double(state) / 4294967296 }
        func point() -> CGPoint { CGPoint(x: u() * 50 - 5, y: u() * 50 - 5) }
        let caps: [CGLineCap] = [.butt, .round, .square], joins: [CGLineJoin] = [.miter, .round, .bevel]
        return (0..<count).map { k in
            var path = Path()
            for _ in 0..<(1 + k % 3) {
                path.move(to: point())
                for _ in 0..<(1 + Int(u() * 4)) {
                    switch Int(u() * 3) {
                    case 0: path.addLine(to: point())
                    case 1: path.addQuadCurve(to: point(), control: point())
                    default: path.addCurve(to: point(), control1: point(), control2: point())
                    }
                }
                if u() < 0.3 { path.closeSubpath() }
            }
            let place = CGAffineTransform(a: 0.5 + u(), b: u() - 0.5, c: u() - 0.5, d: 0.5 + u(), tx: u() * 8, ty: u() * 8)
            return PathStroke(path: path, style: StrokeStyle(lineWidth: 0.3 + u() * 14, lineCap: caps[k % 3],
                                                             lineJoin: joins[(k / 3) % 3], miterLimit: 1 + u() * 9),
                              tolerance: [0.02, 0.25][k % 2], transform: k % 4 == 0 ? .identity : place)
        }
    }

    /// Draws each stroke with `draw` onto one 64 × 64 surface, in a translucent colour.
    func drawn(_ strokes: [PathStroke], _ draw: (Canvas, PathStroke, Color, CGAffineTransform) throws -> Void) throws -> [UInt8] {
        let surface = try Surface(width: 64, height: 64)
        let canvas = Canvas(surface)
        for (k, stroke) in strokes.enumerated() {
            let color = Color(red: Double(k % 5) / 4, green: 0.4, blue: 0.7, opacity: 0.35 + 0.6 * Double(k % 3) / 2)
            try draw(canvas, stroke, color, CGAffineTransform(translationX: CGFloat(k % 7), y: CGFloat(-(k % 5))))
        }
        return surface.withUnsafeMutableBytes { Array($0) }
    }

    /// How many bytes differ (and the lengths' difference): a count, not two arrays, when a
    /// check fails.
    func differing(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).reduce(abs(a.count - b.count)) { $0 + ($1.0 != $1.1 ? 1 : 0) }
    }

    @Test func strokesDrawnStraightGiveTheBytesOfTheirOutlines() throws {
        // The outline's points reach the cells in the same order and with the same arithmetic
        // (the place, then the device transform) as the outline path's: the same bytes, not
        // merely close ones.
        // Straight strokes with round caps too: capsules, whose convex outlines pass the shape
        // check and take the cells' finer precision, as the outline path's do.
        let capsules = (0..<40).map { k in
            let a = CGPoint(x: 3.3 + Double(k % 9) * 5.1, y: 4.7 + Double(k % 7) * 7.3)
            let b = CGPoint(x: a.x + 17.9 - Double(k % 4) * 9.7, y: a.y + Double(k % 5) * 3.1 - 5.2)
            return PathStroke(path: Path { p in p.move(to: a); p.addLine(to: b) },
                              style: StrokeStyle(lineWidth: 1.3 + Double(k % 6), lineCap: .round))
        }
        let strokes = Self.randomStrokes(count: 120, seed: 5) + capsules
        #expect(strokes.filter(\.isStreamable).count == strokes.count)
        let outlined = try drawn(strokes) { canvas, stroke, color, shift in
            try canvas.fill(stroke.outline(), with: .color(color), transform: shift, coverageQuality: .fast)
        }
        let straight = try drawn(strokes) { canvas, stroke, color, shift in
            try canvas.fill(stroke, with: .color(color), transform: shift)
        }
        #expect(differing(outlined, straight) == 0)
        #expect(outlined.contains { $0 != 0 })
    }

    @Test func strokesBuiltByHelperThreadsGiveTheSameBytes() throws {
        // Batched on two threads with every fill recorded whole (`minimumParallelBuildSegments`
        // 0): the helpers stroke them (`PendingFill.stroke`), in any order, and the bands draw
        // them in the order asked.
        let strokes = Self.randomStrokes(count: 120, seed: 9)
        let once = try drawn(strokes) { canvas, stroke, color, shift in try canvas.fill(stroke, with: .color(color), transform: shift) }
        let surface = try Surface(width: 64, height: 64)
        let rasterizer = Rasterizer()
        rasterizer.threads = 2
        rasterizer.minimumParallelBuildSegments = 0
        rasterizer.buildsAtFlush = false
        let state = try rasterizer.beginBatch(on: surface)
        let canvas = Canvas(surface, rasterizer: rasterizer)
        for (k, stroke) in strokes.enumerated() {
            let color = Color(red: Double(k % 5) / 4, green: 0.4, blue: 0.7, opacity: 0.35 + 0.6 * Double(k % 3) / 2)
            try canvas.fill(stroke, with: .color(color), transform: CGAffineTransform(translationX: CGFloat(k % 7), y: CGFloat(-(k % 5))))
        }
        try rasterizer.endBatch(restoring: state)
        #expect(rasterizer.helperChunks > 0)
        #expect(differing(surface.withUnsafeMutableBytes { Array($0) }, once) == 0)
    }

    @Test func strokesTheCellsDoNotTakeAreFilledAsOutlines() throws {
        // Dashed (not streamable), a gradient, another blend mode, a float surface: each is
        // its outline filled as a path, to the byte.
        let line = Path { p in p.move(to: CGPoint(x: 4, y: 6)); p.addCurve(to: CGPoint(x: 58, y: 50), control1: CGPoint(x: 60, y: 0),
                                                                             control2: CGPoint(x: 0, y: 64)) }
        var dashed = PathStroke(path: line, style: StrokeStyle(lineWidth: 3, lineCap: .round, dash: [6, 3]))
        #expect(!dashed.isStreamable)
        dashed.transform = CGAffineTransform(rotationAngle: 0.3)
        let solid = PathStroke(path: line, style: StrokeStyle(lineWidth: 5, lineJoin: .round))
        let gradient = Paint.linearGradient(Gradient(colors: [.red, .blue]), start: .zero, end: CGPoint(x: 64, y: 64))
        let cases: [(PathStroke, Paint, BlendMode, PixelFormat)] = [
            (dashed, .color(.blue), .normal, .argb32), (solid, gradient, .normal, .argb32),
            (solid, .color(Color.green.opacity(0.5)), .multiply, .argb32), (solid, .color(.red), .normal, .rgbaFloat),
        ]
        for (stroke, paint, blend, format) in cases {
            let a = try Surface(width: 64, height: 64, format: format), b = try Surface(width: 64, height: 64, format: format)
            try Canvas(a).fill(stroke.outline(), with: paint, blendMode: blend, coverageQuality: .fast)
            try Canvas(b).fill(stroke, with: paint, blendMode: blend)
            #expect(differing(a.withUnsafeMutableBytes { Array($0) }, b.withUnsafeMutableBytes { Array($0) }) == 0, "\(blend) \(format)")
        }
    }

    @Test func aPixelAlignedStrokeDrawsAsTheBoxItsOutlineIs() throws {
        // A butt-capped horizontal line 2 wide on whole pixels: its outline is a pixel-aligned
        // box, which `fill` gives to pixman; drawn straight, the cells cover it 0 or 1 and
        // blend with pixman's arithmetic: the same bytes, opaque and translucent.
        let line = Path { p in p.move(to: CGPoint(x: 3, y: 10)); p.addLine(to: CGPoint(x: 40, y: 10)) }
        let stroke = PathStroke(path: line, style: StrokeStyle(lineWidth: 2))
        #expect(try stroke.outline().axisAlignedRectangle() == CGRect(x: 3, y: 9, width: 37, height: 2))
        for color in [Color.orange, Color.orange.opacity(0.4)] {
            let a = try Surface(width: 48, height: 24), b = try Surface(width: 48, height: 24)
            try Canvas(a).fill(stroke.outline(), with: .color(color), coverageQuality: .fast)
            try Canvas(b).fill(stroke, with: .color(color))
            #expect(differing(a.withUnsafeMutableBytes { Array($0) }, b.withUnsafeMutableBytes { Array($0) }) == 0)
        }
    }

    @Test func streamBoundsHoldWhatStrokingTakes() throws {
        // `streamBounds` promises that stroking fits the outline budget it states, and makes at
        // most the points it states: with the budget set to exactly that bound, no stroke is
        // refused.
        for stroke in Self.randomStrokes(count: 300, seed: 13) {
            let bounds = try #require(stroke.streamBounds)
            var limits = stroke.limits
            limits.maximumOutlinePoints = bounds.budget
            let outline = try stroke.path.strokedPath(stroke.style, tolerance: stroke.tolerance, limits: limits)
            #expect(outline.flattenedSegmentCount() <= bounds.points)
        }
        // Dashes, and limits below the bound, are outlined first (where a refusal is reported).
        var tight = Self.randomStrokes(count: 1, seed: 13)[0]
        tight.limits.maximumOutlinePoints = 8
        #expect(!tight.isStreamable)
    }
}
