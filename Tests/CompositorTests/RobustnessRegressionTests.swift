import Compositor
import Foundation
import Testing

/// Inputs the fuzzers' first seeds broke (each trapped before its fix), kept as tests.
@Suite struct RobustnessRegressionTests {
    /// A curve with a control point at 1e300: the flattening step count was a finite 1e150
    /// converted to Int (a trap); it is capped first now.
    @Test func hugeFiniteCurvesDoNotTrapTheFlattener() throws {
        var path = Path()
        path.move(to: .zero)
        path.addQuadCurve(to: CGPoint(x: 10, y: 10), control: CGPoint(x: 1e300, y: -1e300))
        path.closeSubpath()
        let surface = try Surface(width: 16, height: 16)
        // Rejected or clipped, but never a trap.
        _ = try? Canvas(surface).fill(path, with: .color(.black))
    }

    /// A round join whose turn came out NaN from huge coordinates asked for NaN arc steps.
    @Test func nonFiniteJoinsDoNotTrapTheStroker() {
        var path = Path()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 1e308, y: 1e308))
        path.addLine(to: CGPoint(x: -1e308, y: 1e308))
        _ = path.strokedPath(StrokeStyle(lineWidth: 1e300, lineJoin: .round))
    }

    /// A stroke whose outline would be billions of points (round caps and joins of a huge
    /// width on many dashes exhausted memory under the fuzzer) draws nothing instead; ordinary
    /// strokes stay as they were.
    @Test func runawayStrokeOutlinesAreAbandoned() {
        var line = Path()
        line.move(to: .zero)
        line.addLine(to: CGPoint(x: 1_000_000, y: 0))
        let style = StrokeStyle(lineWidth: 1e6, lineCap: .round, dash: [0.5, 0.5])
        #expect(line.strokedPath(style).isEmpty)
        #expect(!line.strokedPath(StrokeStyle(lineWidth: 4, lineCap: .round, dash: [10, 10])).isEmpty)
    }

    /// Booleans of operands at 1e300 produced infinite points; such edges are left out now.
    @Test func hugeOperandsGiveFiniteBooleans() {
        var huge = Path()
        huge.addLines([CGPoint(x: 0, y: 0), CGPoint(x: 1e300, y: 1), CGPoint(x: 3, y: 1e300)])
        huge.closeSubpath()
        let square = Path(CGRect(x: 0, y: 0, width: 10, height: 10))
        for result in [huge.union(square), huge.intersection(square), square.subtracting(huge), huge.lineIntersection(square)] {
            result.forEach { element in
                if case .line(let p) = element { #expect(p.x.isFinite && p.y.isFinite) }
            }
        }
        #expect(huge.union(square).normalized() == square.normalized())
    }

    /// Relative SVG commands adding finite numbers up to infinity: an error now, not a path
    /// that cannot be printed back (found by `make fuzz`, kept in Fuzz/Regressions/svg/).
    @Test func svgCoordinatesThatOverflowAreAnError() {
        #expect(throws: SVGPathError.self) { try Path(svgPath: "M0 0 h1.5e308 h1.5e308") }
        #expect(throws: SVGPathError.self) { try Path(svgPath: "M0 0 l1e308 0 l1e308 0") }
    }
}
