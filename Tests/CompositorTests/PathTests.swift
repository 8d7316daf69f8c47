import Foundation
import Testing
import _TestSupport
@testable import Compositor

@Suite struct PathTests {
    @Test func arcFromZeroToNinetyCounterclockwiseFalsePassesThroughTheBottom() {
        // SwiftUI (y down): clockwise: false sweeps towards increasing angles, so 0° → 90° ends
        // at the bottom of the circle, (cx, cy + r), passing (cx + r·cos 45°, cy + r·sin 45°).
        var p = Path()
        p.addArc(center: CGPoint(x: 50, y: 50), radius: 20, startAngle: .degrees(0), endAngle: .degrees(90), clockwise: false)
        #expect(isClose(p.currentPoint, CGPoint(x: 50, y: 70)))
        #expect(p.contains(CGPoint(x: 50 + 20 * cos(.pi / 4) - 0.5, y: 50 + 20 * sin(.pi / 4) - 0.5)))
        #expect(p.boundingRect.minY >= 50 - 1e-9)   // it never goes above the centre
        // clockwise: true takes the long way round, through the top.
        var q = Path()
        q.addArc(center: CGPoint(x: 50, y: 50), radius: 20, startAngle: .degrees(0), endAngle: .degrees(90), clockwise: true)
        #expect(isClose(q.currentPoint, CGPoint(x: 50, y: 70)))
        #expect(abs(q.boundingRect.minY - 30) < 1e-9)
    }

    @Test func arcsUseAtMostNinetyDegreeCubics() {
        var p = Path()
        p.addArc(center: .zero, radius: 10, startAngle: .zero, endAngle: .degrees(359), clockwise: false)
        let curves = p.elements.filter { if case .curve = $0 { true } else { false } }
        #expect(curves.count == 4)   // ⌈359 / 90⌉
        var full = Path()
        full.addArc(center: .zero, radius: 10, startAngle: .zero, endAngle: .degrees(720), clockwise: false)
        #expect(full.elements.count == 5)   // a sweep beyond a turn draws one circle: move + 4 cubics
    }

    @Test func arcJoinsTheCurrentPointWithALine() {
        var p = Path()
        p.move(to: .zero)
        p.addArc(center: CGPoint(x: 50, y: 0), radius: 10, startAngle: .degrees(180), endAngle: .degrees(0), clockwise: false)
        if case .line(let q) = p.elements[1] { #expect(isClose(q, CGPoint(x: 40, y: 0))) } else { Issue.record() }
        #expect(isClose(p.currentPoint, CGPoint(x: 60, y: 0)))
        // Sweeping 180° → 0° with increasing angles passes through 270°, the top (y < 0).
        #expect(abs(p.boundingRect.minY + 10) < 1e-9)
    }

    @Test func relativeArcSweepsByDelta() {
        var p = Path()
        p.addRelativeArc(center: .zero, radius: 1, startAngle: .degrees(90), delta: .degrees(-90))
        #expect(isClose(p.elements.first.flatMap { if case .move(let q) = $0 { q } else { nil } }, CGPoint(x: 0, y: 1)))
        #expect(isClose(p.currentPoint, CGPoint(x: 1, y: 0)))
    }

    @Test func tangentArcRoundsACorner() {
        // From (0, 0) along x to the corner (100, 0), then down to (100, 100), radius 20: the
        // arc runs from (80, 0) to (100, 20) around the centre (80, 20).
        var p = Path()
        p.move(to: .zero)
        p.addArc(tangent1End: CGPoint(x: 100, y: 0), tangent2End: CGPoint(x: 100, y: 100), radius: 20)
        #expect(p.elements[1] == .line(to: CGPoint(x: 80, y: 0)))
        #expect(isClose(p.currentPoint, CGPoint(x: 100, y: 20), tolerance: 1e-9))
        // Collinear points degrade to a line to tangent1End.
        var q = Path()
        q.move(to: .zero)
        q.addArc(tangent1End: CGPoint(x: 10, y: 0), tangent2End: CGPoint(x: 20, y: 0), radius: 5)
        #expect(q.elements.last == .line(to: CGPoint(x: 10, y: 0)))
    }

    @Test func segmentsWithoutACurrentPointAreIgnoredAsInCoreGraphics() {
        var p = Path()
        p.addLine(to: CGPoint(x: 1, y: 1))
        p.addCurve(to: .zero, control1: .zero, control2: .zero)
        p.closeSubpath()
        #expect(p.isEmpty)
        #expect(p.currentPoint == nil)
    }

    @Test func drawingAfterCloseStartsAtTheSubpathStart() {
        var p = Path()
        p.move(to: CGPoint(x: 5, y: 5)); p.addLine(to: CGPoint(x: 10, y: 5)); p.closeSubpath()
        #expect(p.currentPoint == CGPoint(x: 5, y: 5))
        p.addLine(to: CGPoint(x: 5, y: 10))
        #expect(p.elements.suffix(2) == [.move(to: CGPoint(x: 5, y: 5)), .line(to: CGPoint(x: 5, y: 10))])
    }

    @Test func boundingRectIsTightOnCurves() {
        // A quarter circle's control points reach (1, 0.552…) but the curve only reaches 1 in x
        // at its end; the cubic bulging to the right has its extreme at t = 0.5: x = 0.75·c.
        var p = Path()
        p.move(to: .zero)
        p.addCurve(to: CGPoint(x: 0, y: 10), control1: CGPoint(x: 8, y: 0), control2: CGPoint(x: 8, y: 10))
        let r = p.boundingRect
        #expect(abs(r.maxX - 6) < 1e-9)   // B_x(0.5) = 3·0.25·0.5·8·2 = 6
        #expect(r.minY == 0 && r.maxY == 10)
        #expect(Path().boundingRect == .zero)
    }

    @Test func containsHonoursTheFillRule() {
        var p = Path(CGRect(x: 0, y: 0, width: 10, height: 10))
        p.addRect(CGRect(x: 2, y: 2, width: 6, height: 6))
        #expect(p.contains(CGPoint(x: 5, y: 5)))
        #expect(!p.contains(CGPoint(x: 5, y: 5), eoFill: true))
        #expect(p.contains(CGPoint(x: 1, y: 1), eoFill: true))
        #expect(!p.contains(CGPoint(x: 11, y: 5)))
    }

    @Test func ellipseStartsAtTheRightAndRunsClockwise() {
        let p = Path(ellipseIn: CGRect(x: 0, y: 0, width: 20, height: 10))
        #expect(p.elements.first == .move(to: CGPoint(x: 20, y: 5)))
        // The first quarter ends at the bottom (y down: clockwise on screen).
        if case .curve(let to, _, _) = p.elements[1] { #expect(isClose(to, CGPoint(x: 10, y: 10))) } else { Issue.record() }
        #expect(p.elements.last == .closeSubpath)
    }

    @Test func roundedRectAreas() throws {
        // Circular corners: w·h − (4 − π)·r² = 100·60 − (4 − π)·400 = 5656.637 px².
        let clip = PixelRect(x: 0, y: 0, width: 128, height: 96)
        let circular = Path(roundedRect: CGRect(x: 10, y: 10, width: 100, height: 60), cornerRadius: 20, style: .circular)
        #expect(relativeError(try coveredArea(circular, clip: clip), 6000 - (4 - .pi) * 400) < 0.0005)
        // Continuous corners (they fit: 20·1.528665 = 30.6 ≤ half of 80) are flatter than
        // circles: they cut more area off the rectangle than circular ones of the same radius
        // (8000 − (4 − π)·400 = 7656.6), less than the radius-20 square corners (8000 − 1600),
        // and stay inside the rectangle.
        let clip2 = PixelRect(x: 0, y: 0, width: 128, height: 128)
        let continuous = Path(roundedRect: CGRect(x: 10, y: 10, width: 100, height: 80), cornerRadius: 20, style: .continuous)
        let a = try coveredArea(continuous, clip: clip2)
        #expect(a < 8000 - (4 - .pi) * 400 && a > 8000 - 1600)
        let b = continuous.boundingRect
        #expect(abs(b.minX - 10) < 1e-9 && abs(b.maxX - 110) < 1e-9 && abs(b.minY - 10) < 1e-9 && abs(b.maxY - 90) < 1e-9)
        // Symmetric: the top edge starts 1.528665·r from each side.
        #expect(continuous.elements.first == .move(to: CGPoint(x: 10 + 20 * continuousCornerExtent, y: 10)))
        // Where the curve does not fit (the 60 px tall case), the corners are circular.
        let tight = Path(roundedRect: CGRect(x: 10, y: 10, width: 100, height: 60), cornerRadius: 20, style: .continuous)
        #expect(tight == circular)
    }

    @Test func oversizedCornerRadiiAreClamped() throws {
        // Radius 1000 on a 40×40 square with circular corners: a circle of r = 20.
        let p = Path(roundedRect: CGRect(x: 4, y: 4, width: 40, height: 40), cornerRadius: 1000, style: .circular)
        let area = try coveredArea(p, clip: PixelRect(x: 0, y: 0, width: 48, height: 48))
        #expect(relativeError(area, .pi * 400) < 0.001)
    }

    @Test func applyingTransformsEveryPoint() {
        let p = Path(CGRect(x: 0, y: 0, width: 2, height: 1)).applying(CGAffineTransform(scaleX: 3, y: 2).translatedBy(x: 1, y: 0))
        #expect(p.boundingRect == CGRect(x: 3, y: 0, width: 6, height: 2))
    }

    // MARK: - SVG path data

    @Test func svgParsesEveryCommand() throws {
        let p = try Path(svgPath: "M10,10 L20 10 H30 V20 l-5 5 h-5 v-5 C 0 0 1 1 2 2 S 4 4 5 5 Q 6 6 7 7 T 9 9 A 5 5 0 0 1 19 9 z m 1 1 c1 1 2 2 3 3 s 1 1 2 2 q 1 1 2 2 t 1 1 a 2 3 30 1 0 4 4 Z")
        #expect(p.elements.first == .move(to: CGPoint(x: 10, y: 10)))
        #expect(p.elements[1] == .line(to: CGPoint(x: 20, y: 10)))
        #expect(p.elements[2] == .line(to: CGPoint(x: 30, y: 10)))
        #expect(p.elements[3] == .line(to: CGPoint(x: 30, y: 20)))
        #expect(p.elements[4] == .line(to: CGPoint(x: 25, y: 25)))
        // S reflects the previous control point (1, 1) about (2, 2): (3, 3).
        #expect(p.elements[8] == .curve(to: CGPoint(x: 5, y: 5), control1: CGPoint(x: 3, y: 3), control2: CGPoint(x: 4, y: 4)))
        // T reflects the previous quadratic control (6, 6) about (7, 7): (8, 8).
        #expect(p.elements[10] == .quadCurve(to: CGPoint(x: 9, y: 9), control: CGPoint(x: 8, y: 8)))
        // The arc ends exactly where it was told: a half circle from (9, 9) to (19, 9).
        let afterArc = p.elements.firstIndex(of: .closeSubpath)!
        if case .curve(let to, _, _) = p.elements[afterArc - 1] { #expect(isClose(to, CGPoint(x: 19, y: 9), tolerance: 1e-9)) }
        // The relative moveto after z starts from the subpath start (10, 10).
        #expect(p.elements[afterArc + 1] == .move(to: CGPoint(x: 11, y: 11)))
    }

    @Test func svgArcHalfCircleHasTheRightArea() throws {
        // Two half-circle arcs of r = 20 make a full circle: area π·400.
        let p = try Path(svgPath: "M30 50 A20 20 0 0 1 70 50 A20 20 0 0 1 30 50 Z")
        #expect(relativeError(try coveredArea(p, clip: PixelRect(x: 0, y: 0, width: 100, height: 100)), .pi * 400) < 0.0005)
        // Radii too small are scaled up (SVG F.6.6): r = 1 between points 40 apart becomes 20.
        let q = try Path(svgPath: "M30 50 A1 1 0 0 0 70 50 Z")
        #expect(abs(q.boundingRect.height - 20) < 1e-6)
    }

    @Test func svgAcceptsCompactNumbersAndImplicitRepeats() throws {
        let p = try Path(svgPath: "M.5.5L1e1-2.5 3,4 5 6a1 1 0 1110 10")
        #expect(p.elements[0] == .move(to: CGPoint(x: 0.5, y: 0.5)))
        #expect(p.elements[1] == .line(to: CGPoint(x: 10, y: -2.5)))
        #expect(p.elements[2] == .line(to: CGPoint(x: 3, y: 4)))
        #expect(p.elements[3] == .line(to: CGPoint(x: 5, y: 6)))
        #expect(isClose(p.currentPoint, CGPoint(x: 15, y: 16), tolerance: 1e-9))   // flags "11" without separators
        // Pairs after a moveto are linetos.
        let q = try Path(svgPath: "m1 1 2 2, 1 1")
        #expect(q.elements == [.move(to: CGPoint(x: 1, y: 1)), .line(to: CGPoint(x: 3, y: 3)), .line(to: CGPoint(x: 4, y: 4))])
    }

    @Test(arguments: [
        ("L 1 2", 0, "path data must start with a moveto (M or m)"),
        ("M 1", 3, "expected a number, found the end of the data"),
        ("M 1 2 L 3 x", 10, "expected a number, found 'x'"),
        ("M 1 2 K 3 4", 6, "unknown command 'K'"),
        ("M 1 2 A 1 1 0 2 0 3 3", 14, "expected an arc flag, 0 or 1"),
        ("M 1e 2", 3, "exponent without digits"),
        ("M 1 2 L 1e999 0", 8, "number '1e999' is out of range"),
        ("M 1 2,,3", 6, "expected a number, found ','"),
        ("M 1 2 z 3", 8, "unexpected '3'"),
    ])
    func svgErrorsAreLocated(data: String, offset: Int, message: String) {
        #expect(throws: SVGPathError(offset: offset, message: message)) { try Path(svgPath: data) }
    }

    @Test func svgDescriptionRoundTrips() throws {
        var p = Path()
        p.move(to: CGPoint(x: 1, y: 2.5))
        p.addLine(to: CGPoint(x: -3, y: 4))
        p.addQuadCurve(to: CGPoint(x: 5, y: 6), control: CGPoint(x: 0.1, y: 0.2))
        p.addCurve(to: CGPoint(x: 7, y: 8), control1: CGPoint(x: 1e-7, y: 3), control2: CGPoint(x: 1.0 / 3, y: 2))
        p.closeSubpath()
        #expect(p.description == "M1 2.5 L-3 4 Q0.1 0.2 5 6 C1e-07 3 0.3333333333333333 2 7 8 Z")
        #expect(try Path(svgPath: p.description) == p)
        let circle = Path(ellipseIn: CGRect(x: 0.3, y: 1.7, width: 33.3, height: 12))
        #expect(try Path(svgPath: circle.description) == circle)
    }
}

@Suite struct AxisAlignedRectangleTests {
    @Test func recognisesRectanglesOnly() {
        let r = CGRect(x: 1, y: 2, width: 3, height: 4)
        #expect(Path(r).axisAlignedRectangle() == r)
        #expect(Path(r).axisAlignedRectangle(transform: CGAffineTransform(scaleX: 2, y: 2).translatedBy(x: 1, y: 0)) == CGRect(x: 4, y: 4, width: 6, height: 8))
        // Rotated by 90°: still a rectangle, but the transform is not axis-aligned (declined).
        #expect(Path(r).axisAlignedRectangle(transform: CGAffineTransform(rotationAngle: .pi / 2)) == nil)
        // Explicitly closed with a fourth line back to the start.
        var closed = Path()
        closed.addLines([CGPoint(x: 0, y: 0), CGPoint(x: 5, y: 0), CGPoint(x: 5, y: 5), CGPoint(x: 0, y: 5), CGPoint(x: 0, y: 0)])
        closed.closeSubpath()
        #expect(closed.axisAlignedRectangle() == CGRect(x: 0, y: 0, width: 5, height: 5))
        var quad = Path()
        quad.addLines([CGPoint(x: 0, y: 0), CGPoint(x: 5, y: 0), CGPoint(x: 6, y: 5), CGPoint(x: 0, y: 5)])
        quad.closeSubpath()
        #expect(quad.axisAlignedRectangle() == nil)
        var open = Path(r)
        open.addLine(to: CGPoint(x: 9, y: 9))
        #expect(open.axisAlignedRectangle() == nil)
        #expect(Path(ellipseIn: r).axisAlignedRectangle() == nil)
    }

    /// The fast path for pixel-aligned rectangles gives exactly what the rasterizer gives: the
    /// same rectangle with an extra collinear corner (not recognised) is rasterized, with
    /// coverage exactly 1 inside.
    @Test func fastPathMatchesTheRasterizer() throws {
        let rect = CGRect(x: 3, y: 4, width: 10, height: 7)
        var slow = Path()
        slow.addLines([CGPoint(x: 3, y: 4), CGPoint(x: 8, y: 4), CGPoint(x: 13, y: 4), CGPoint(x: 13, y: 11), CGPoint(x: 3, y: 11)])
        slow.closeSubpath()
        #expect(slow.axisAlignedRectangle() == nil)
        for (c, blend) in [(Color.red, BlendMode.normal), (Color.blue.opacity(0.4), .normal), (Color.green.opacity(0.7), .multiply),
                           (Color.orange, .screen), (Color.purple.opacity(0.5), .plusLighter)] {
            let a = try Surface(width: 16, height: 16), b = try Surface(width: 16, height: 16)
            for s in [a, b] { s.fill(Color(red: 0.2, green: 0.5, blue: 0.9, opacity: 0.6)) }
            try Canvas(a).fill(Path(rect), with: .color(c), blendMode: blend)
            try Canvas(b).fill(slow, with: .color(c), blendMode: blend)
            #expect(try a.compare(to: b).differingPixels == 0, "\(c) \(blend)")
        }
    }
}
