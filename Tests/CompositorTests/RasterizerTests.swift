import Foundation
import Testing
@testable import Compositor

@Suite struct RasterizerTests {
    let clip = PixelRect(x: 0, y: 0, width: 64, height: 64)

    @Test func pixelAlignedRectangleIsExactlyZeroOrFull() throws {
        let cov = try coverage(Path(CGRect(x: 10, y: 12, width: 20, height: 7)), clip: clip)
        for y in 0..<64 {
            for x in 0..<64 {
                let inside = x >= 10 && x < 30 && y >= 12 && y < 19
                #expect(cov[y * 64 + x] == (inside ? 255 : 0), "pixel (\(x), \(y))")
            }
        }
    }

    @Test func verticalEdgeAtHalfPixelIsHalfCovered() throws {
        // The edge at x = 20.5 covers half of each pixel in column 20: 0.5 × 255 = 127.5 → 128 ± 1.
        let cov = try coverage(Path(CGRect(x: 20.5, y: 0, width: 20, height: 64)), clip: clip)
        for y in 0..<64 {
            #expect(abs(Int(cov[y * 64 + 20]) - 128) <= 1)
            #expect(cov[y * 64 + 19] == 0)
            #expect(cov[y * 64 + 21] == 255)
        }
    }

    @Test func circleAreaMatchesPiRSquared() throws {
        // r = 40 → π·40² = 5026.548 px²; the 4-cubic circle and 0.1 px flattening stay within
        // 0.05 % of it.
        let path = Path(ellipseIn: CGRect(x: 50.3, y: 40.7, width: 80, height: 80))
        let area = try coveredArea(path, clip: PixelRect(x: 0, y: 0, width: 200, height: 200))
        #expect(relativeError(area, Double.pi * 1600) < 0.0005, "area \(area)")
    }

    /// A pentagram {5/2} with outer radius R, centred at c.
    func pentagram(radius r: Double, center c: CGPoint) -> Path {
        Path { p in
            for i in 0..<5 {
                let a = -Double.pi / 2 + Double(i * 2) * 2 * Double.pi / 5
                let pt = CGPoint(x: c.x + r * cos(a), y: c.y + r * sin(a))
                if i == 0 { p.move(to: pt) } else { p.addLine(to: pt) }
            }
            p.closeSubpath()
        }
    }

    @Test func evenOddPentagramExcludesInnerPentagon() throws {
        // The five crossing points lie at r_i = R·cos 72° / cos 36° (= R/φ²). Non-zero covers the
        // whole star: 10 triangles (centre, outer vertex, inner vertex) with 36° between their
        // sides, 10 · ½·R·r_i·sin 36°. The inner pentagon (winding 2) has area (5/2)·r_i²·sin 72°.
        // Even-odd covers the star minus the pentagon.
        let R = 90.0
        let ri = R * cos(72 * Double.pi / 180) / cos(36 * Double.pi / 180)
        let star = 5 * R * ri * sin(36 * Double.pi / 180)
        let pentagon = 2.5 * ri * ri * sin(72 * Double.pi / 180)
        let path = pentagram(radius: R, center: CGPoint(x: 100.25, y: 100.5))
        let clip = PixelRect(x: 0, y: 0, width: 200, height: 200)
        let eo = try coveredArea(path, fillRule: .evenOdd, clip: clip)
        let nz = try coveredArea(path, fillRule: .nonZero, clip: clip)
        #expect(relativeError(eo, star - pentagon) < 0.002, "even-odd \(eo) vs \(star - pentagon)")
        #expect(relativeError(nz, star) < 0.002, "non-zero \(nz) vs \(star)")
    }

    @Test func fillRulesDifferExactlyInTheDoublyWoundRegion() throws {
        // Two overlapping rects wound the same way: the overlap [20, 30) × [20, 30) has winding 2.
        var path = Path(CGRect(x: 10, y: 10, width: 20, height: 20))
        path.addRect(CGRect(x: 20, y: 20, width: 20, height: 20))
        let nz = try coverage(path, fillRule: .nonZero, clip: clip)
        let eo = try coverage(path, fillRule: .evenOdd, clip: clip)
        for y in 0..<64 {
            for x in 0..<64 {
                let doubly = x >= 20 && x < 30 && y >= 20 && y < 30
                if doubly {
                    #expect(nz[y * 64 + x] == 255 && eo[y * 64 + x] == 0)
                } else {
                    #expect(nz[y * 64 + x] == eo[y * 64 + x])
                }
            }
        }
    }

    @Test func oppositeWindingCancelsUnderNonZero() throws {
        // The inner rect runs counter-clockwise: winding 0 inside it, a hole under both rules.
        var path = Path(CGRect(x: 0, y: 0, width: 40, height: 40))
        path.addLines([CGPoint(x: 10, y: 10), CGPoint(x: 10, y: 30), CGPoint(x: 30, y: 30), CGPoint(x: 30, y: 10)])
        path.closeSubpath()
        let nz = try coverage(path, clip: clip)
        #expect(nz[20 * 64 + 20] == 0)
        #expect(nz[5 * 64 + 5] == 255)
    }

    @Test func nonFiniteCoordinatesAreRejected() throws {
        // Elements: move, 3 lines, close (0–4); the line after the close re-opens the subpath
        // with an implicit move (5), so the NaN is element 6.
        var path = Path(CGRect(x: 0, y: 0, width: 10, height: 10))
        path.addLine(to: CGPoint(x: Double.nan, y: 3))
        #expect(throws: RasterError.nonFiniteGeometry(element: 6)) {
            try Rasterizer().rasterize(path, clip: clip) { _, _, _ in }
        }
        let inf = Path(CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(throws: RasterError.self) {
            try Rasterizer().rasterize(inf, transform: CGAffineTransform(scaleX: .infinity, y: 1), clip: clip) { _, _, _ in }
        }
    }

    /// 5,000 cubics whose control points are 10^6 px away: each flattens into the most segments
    /// a curve may have (4,096), 20,480,000 in all, beyond the 2^24 = 16,777,216 allowed.
    static let hugeCurves: Path = {
        var p = Path()
        p.move(to: .zero)
        for i in 0..<5_000 {
            p.addCurve(to: CGPoint(x: Double(i % 2) * 10, y: 0), control1: CGPoint(x: -1e6, y: 1e6), control2: CGPoint(x: 1e6, y: -1e6))
        }
        return p
    }()

    @Test func segmentCountIsKnownBeforeFlattening() throws {
        // The count flatten's own callbacks give (every lineTo plus one closing line per
        // subpath) when its curves are stepped uniformly; an upper bound when some are stepped
        // by their bending (the quadratic here: 742 segments against 802 counted).
        var path = Path(roundedRect: CGRect(x: 1, y: 2, width: 40, height: 30), cornerRadius: 7)
        path.addQuadCurve(to: CGPoint(x: 60, y: 5), control: CGPoint(x: 90, y: 70))
        path.addEllipse(in: CGRect(x: 5, y: 5, width: 300, height: 200))
        let t = CGAffineTransform(scaleX: 3, y: 2)
        var flattened = 0
        path.flatten(transform: t, adaptive: false, moveTo: { _, _ in }, lineTo: { _, _ in flattened += 1 }, close: { _ in flattened += 1 })
        #expect(path.flattenedSegmentCount(transform: t) == flattened)
        var adaptive = 0
        path.flatten(transform: t, moveTo: { _, _ in }, lineTo: { _, _ in adaptive += 1 }, close: { _ in adaptive += 1 })
        #expect(adaptive < flattened)
        #expect(Self.hugeCurves.flattenedSegmentCount() == 5_000 * 4_096 + 1)
        // Paths of lines only are counted without a pass (moves and lines, not closes): the
        // same count. A stroke's outline, polygons closed and left open, a subpath re-opened
        // after a close, a lone move.
        var lines = Path(ellipseIn: CGRect(x: 0, y: 0, width: 50, height: 20)).strokedPath(StrokeStyle(lineWidth: 3))
        lines.addLines([CGPoint(x: 1, y: 1), CGPoint(x: 9, y: 1), CGPoint(x: 5, y: 8)])
        lines.closeSubpath()
        lines.addLine(to: CGPoint(x: 20, y: 20))
        lines.addLines([CGPoint(x: 30, y: 1), CGPoint(x: 39, y: 1)])
        lines.move(to: CGPoint(x: 3, y: 3))
        var segments = 0
        lines.flatten(transform: t, moveTo: { _, _ in }, lineTo: { _, _ in segments += 1 }, close: { _ in segments += 1 })
        #expect(lines.flattenedSegmentCount(transform: t) == segments)
        #expect(lines.flattenedSegmentCount(transform: t, tolerance: flatteningTolerance, below: 0x1p64) == segments)
        // Counted with the bounds check of a deferred fill: the same count while every point
        // (control points too) maps inside ±2⁶⁴, nil once one reaches it or is not finite.
        #expect(path.flattenedSegmentCount(transform: t, tolerance: flatteningTolerance, below: 0x1p64) == flattened)
        #expect(path.flattenedSegmentCount(transform: t, tolerance: flatteningTolerance, below: 899) == nil)   // the ellipse's right edge maps to x = 915
        var control = Path()
        control.move(to: .zero)
        control.addQuadCurve(to: CGPoint(x: 10, y: 0), control: CGPoint(x: 5, y: 0x1p63))
        #expect(control.flattenedSegmentCount(transform: .identity, tolerance: 0.1, below: 0x1p64) != nil)
        #expect(control.flattenedSegmentCount(transform: t, tolerance: 0.1, below: 0x1p64) == nil)   // 2⁶³ · 2
        var nan = Path()
        nan.move(to: .zero)
        nan.addLine(to: CGPoint(x: CGFloat.nan, y: 1))
        #expect(nan.flattenedSegmentCount(transform: .identity, tolerance: 0.1, below: 0x1p64) == nil)
    }

    @Test func tooManySegmentsIsAnErrorBeforeAnyMemoryIsTaken() throws {
        // Without the limit this path's edges alone would take 20.5 M × 36 bytes = 740 MB; a
        // scene of a million such curves (within its element limit) would exhaust memory.
        let r = Rasterizer()
        #expect(throws: RasterError.tooManySegments(count: 20_480_001, limit: 1 << 24)) {
            try r.rasterize(Self.hugeCurves, clip: clip) { _, _, _ in }
        }
        // The limit is a setting: a 16-segment square-ish path under a limit of 4 fails, under 16 draws.
        var small = Path()
        small.addLines((0..<16).map { CGPoint(x: 8 + 5 * cos(Double($0) * .pi / 8), y: 8 + 5 * sin(Double($0) * .pi / 8)) })
        small.closeSubpath()
        r.maximumSegments = 4
        #expect(throws: RasterError.tooManySegments(count: 16, limit: 4)) { try r.rasterize(small, clip: clip) { _, _, _ in } }
        r.maximumSegments = 16
        var drawn = false
        try r.rasterize(small, clip: clip) { _, _, _ in drawn = true }
        #expect(drawn)
        // Strokes and booleans of such a path give nothing, as their other work limits do.
        #expect(Self.hugeCurves.strokedPath(StrokeStyle(lineWidth: 2)).isEmpty)
        #expect(Self.hugeCurves.union(small).isEmpty)
        #expect(small.lineIntersection(Self.hugeCurves).isEmpty)
    }

    @Test func enormousCoordinatesAreClippedNotOverflowed() throws {
        // A rect from −1e30 to 1e30 covers the whole clip exactly.
        let cov = try coverage(Path(CGRect(x: -1e30, y: -1e30, width: 2e30, height: 2e30)), clip: clip)
        #expect(cov.allSatisfy { $0 == 255 })
        // A triangle far to the left still winds every pixel right of its edges: here its
        // right edge is the vertical x = 32 from y = −1e20 to 1e20.
        let tri = Path { p in
            p.move(to: CGPoint(x: 32, y: -1e20)); p.addLine(to: CGPoint(x: 32, y: 1e20))
            p.addLine(to: CGPoint(x: -1e25, y: 0)); p.closeSubpath()
        }
        let c2 = try coverage(tri, clip: clip)
        #expect(c2[10 * 64 + 31] == 255 && c2[10 * 64 + 32] == 0)
    }

    @Test func emptyAndZeroAreaPathsDrawNothing() throws {
        var calls = 0
        let r = Rasterizer()
        try r.rasterize(Path(), clip: clip) { _, _, _ in calls += 1 }
        // A horizontal line and a degenerate rect have no area.
        var line = Path(); line.move(to: CGPoint(x: 1, y: 5)); line.addLine(to: CGPoint(x: 40, y: 5))
        try r.rasterize(line, clip: clip) { _, _, _ in calls += 1 }
        #expect(calls == 0)
        let cov = try coverage(Path(CGRect(x: 5, y: 5, width: 0, height: 30)), clip: clip)
        #expect(cov.allSatisfy { $0 == 0 })
    }

    @Test func pathOutsideClipEmitsNothing() throws {
        var calls = 0
        try Rasterizer().rasterize(Path(CGRect(x: 100, y: 100, width: 10, height: 10)), clip: clip) { _, _, _ in calls += 1 }
        #expect(calls == 0)
    }

    @Test func coverageIsOnlyProducedOverThePathBounds() throws {
        var rects: [PixelRect] = []
        try Rasterizer().rasterize(Path(CGRect(x: 10.5, y: 3.2, width: 5, height: 6)), clip: clip) { _, _, r in rects.append(r) }
        #expect(rects == [PixelRect(x: 10, y: 3, width: 6, height: 7)])
    }

    @Test func largePathsAreBandedWithoutSeams() throws {
        // 3000 px wide × 1500 rows exceeds one band (4 Mi cells): the rows at band seams must
        // look like any other. A slanted edge gives each row a distinct, predictable value.
        let w = 3000, h = 1500
        let clip = PixelRect(x: 0, y: 0, width: w, height: h)
        let path = Path { p in
            p.move(to: CGPoint(x: 0, y: 0)); p.addLine(to: CGPoint(x: 100, y: 0))
            p.addLine(to: CGPoint(x: 2900, y: 1500)); p.addLine(to: CGPoint(x: 0, y: 1500)); p.closeSubpath()
        }
        var bands = 0
        var sum = 0.0
        try Rasterizer().rasterize(path, clip: clip) { mask, stride, rect in
            bands += 1
            for y in 0..<rect.height { for x in 0..<rect.width { sum += Double(mask[y * stride + x]) } }
        }
        #expect(bands > 1)
        // Trapezoid area: (100 + 2900) / 2 · 1500 = 2,250,000 px².
        #expect(relativeError(sum / 255, 2_250_000) < 1e-5)
    }

    @Test func opacityScalesCoverage() throws {
        var value: UInt8 = 0
        try Rasterizer().rasterize(Path(CGRect(x: 0, y: 0, width: 4, height: 4)), clip: clip, opacity: 0.25) { m, _, _ in
            value = m[0]
        }
        #expect(value == 64)   // 0.25 × 255 = 63.75 → 64
    }
}
