import Foundation
import Testing
@testable import Compositor

@Suite struct FlatteningTests {
    let clip = PixelRect(x: 0, y: 0, width: 200, height: 200)

    @Test func polygonsRasterizeToTheirExactArea() throws {
        // A 60 px square turned by 17°: 3600 px² exactly.
        let t = CGAffineTransform(translationX: -30, y: -30)
            .concatenating(CGAffineTransform(rotationAngle: 17 * .pi / 180))
            .concatenating(CGAffineTransform(translationX: 100.3, y: 100.7))
        let square = Path(CGRect(x: 0, y: 0, width: 60, height: 60)).applying(t)
        #expect(abs(try coveredArea(square, clip: clip) - 3600) < 0.01)
        // A regular 720-gon of radius 40: area ½·n·r²·sin(2π/n) = 5026.484 px². The only error
        // left is 8-bit rounding of edge pixels.
        let n = 720
        let polygon = Path { p in
            p.addLines((0..<n).map { i in
                let a = Double(i) * 2 * .pi / Double(n)
                return CGPoint(x: 100.3 + 40 * cos(a), y: 100.7 + 40 * sin(a))
            })
            p.closeSubpath()
        }
        let exact = 0.5 * Double(n) * 1600 * sin(2 * .pi / Double(n))
        #expect(relativeError(try coveredArea(polygon, clip: clip), exact) < 2e-5)
    }

    /// Distance from point p to segment ab.
    func distance(_ p: (Double, Double), _ a: (Double, Double), _ b: (Double, Double)) -> Double {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1)
        let len2 = dx * dx + dy * dy
        let t = len2 == 0 ? 0 : max(0, min(1, ((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2))
        return hypot(p.0 - (a.0 + t * dx), p.1 - (a.1 + t * dy))
    }

    /// The curve and its polyline within `tolerance` + `slack` of each other: every sample of
    /// the curve near a segment, every vertex near the curve (32 samples per uniform step).
    func expectWithinTolerance(_ path: Path, curve: (Double) -> (Double, Double), balanced: Bool,
                               tolerance: Double = flatteningTolerance, slack: Double = 1e-9,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        var poly: [(Double, Double)] = []
        path.flatten(tolerance: tolerance, balanced: balanced, moveTo: { poly.append(($0, $1)) }, lineTo: { poly.append(($0, $1)) },
                     close: { _ in })
        let n = poly.count - 1
        // At most the uniform count (`flattenedSegmentCount` adds the subpath's closing line).
        #expect(n <= path.flattenedSegmentCount(tolerance: tolerance) - 1, sourceLocation: sourceLocation)
        let m = 32 * path.flattenedSegmentCount(tolerance: tolerance)
        let samples = (0...m).map { curve(Double($0) / Double(m)) }
        // The nearest segment to a sample, or sample to a vertex: first in a window that moves
        // along, then everywhere if the window's nearest is not near enough (a loop can put a
        // nearer branch outside the window).
        func nearest(_ p: (Double, Double), _ points: [(Double, Double)], around k: Int, window: Int) -> (Double, Int) {
            func best(_ range: ClosedRange<Int>) -> (Double, Int) {
                range.map { (distance(p, points[$0], points[$0 + 1]), $0) }.min { $0.0 < $1.0 }!
            }
            let near = best(max(0, k - window)...min(points.count - 2, k + window))
            return near.0 <= tolerance ? near : best(0...(points.count - 2))
        }
        var worst = 0.0
        var segment = 0
        for s in samples {
            let (d, k) = nearest(s, poly, around: segment, window: 4)
            worst = max(worst, d)
            segment = k
        }
        var sample = 0
        for v in poly {
            let (d, k) = nearest(v, samples, around: sample, window: 64)
            worst = max(worst, d)
            sample = k
        }
        #expect(worst <= tolerance + slack, sourceLocation: sourceLocation)
    }

    func cubic(_ p: [CGPoint]) -> (Path, (Double) -> (Double, Double)) {
        var path = Path(); path.move(to: p[0]); path.addCurve(to: p[3], control1: p[1], control2: p[2])
        return (path, { t in
            let u = 1 - t
            let (b0, b1, b2, b3) = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
            return (b0 * p[0].x + b1 * p[1].x + b2 * p[2].x + b3 * p[3].x, b0 * p[0].y + b1 * p[1].y + b2 * p[2].y + b3 * p[3].y)
        })
    }

    @Test(arguments: [false, true])
    func flattenedCubicsStayWithinTolerance(balanced: Bool) throws {
        // Random cubics (inflections and loops included), plus cusps, a collinear spike that
        // turns back on itself, a nearly straight curve and a quadratic: every point of the
        // curve lies within the tolerance of the polyline, every vertex within it of the curve.
        // Unbalanced vertices lie on the curve, so the bound is the chords' own; balanced ones
        // move off it by ⅔ of their chords' sagitta, which the same bound covers.
        var seed: UInt64 = 0x9E37_79B9
        func rand() -> Double { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Double(seed >> 11) / Double(1 << 53) * 300 }
        var curves = (0..<200).map { _ in (0..<4).map { _ in CGPoint(x: rand(), y: rand()) } }
        curves += [
            [CGPoint(x: 10, y: 10), CGPoint(x: 290, y: 200), CGPoint(x: 10, y: 200), CGPoint(x: 290, y: 10)],   // a cusp-like loop
            [CGPoint(x: 10, y: 150), CGPoint(x: 250, y: 20), CGPoint(x: 250, y: 20), CGPoint(x: 10, y: 280)],   // a cusp
            [CGPoint(x: 0, y: 100), CGPoint(x: 290, y: 100), CGPoint(x: -150, y: 100), CGPoint(x: 60, y: 100)], // a spike
            [CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 0.001), CGPoint(x: 200, y: -0.001), CGPoint(x: 300, y: 0)],
        ]
        for p in curves {
            let (path, curve) = cubic(p)
            expectWithinTolerance(path, curve: curve, balanced: balanced)
        }
        var quad = Path(); quad.move(to: CGPoint(x: 5, y: 290)); quad.addQuadCurve(to: CGPoint(x: 295, y: 280), control: CGPoint(x: 150, y: -250))
        expectWithinTolerance(quad, curve: { t in
            let u = 1 - t
            return (u * u * 5 + 2 * u * t * 150 + t * t * 295, u * u * 290 + 2 * u * t * -250 + t * t * 280)
        }, balanced: balanced)
    }

    @Test func curvesTakeTheirBendingsSegmentsNotTheUniformCount() throws {
        // S4's kind of curve: random cubics across a 1024 px canvas. Spaced by their bending
        // (`adaptiveCurveSteps`) they take under 80 % of the uniform count at the same
        // tolerance (74 % here; S4's 2,000 cubics: 432,311 against 571,094); a circle, whose
        // bending is even, keeps its uniform segments.
        var seed: UInt64 = 42
        func rand() -> Double { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Double(seed >> 11) / Double(1 << 53) * 1024 }
        var uniform = 0, adaptive = 0
        for _ in 0..<50 {
            var path = Path(); path.move(to: CGPoint(x: rand(), y: rand()))
            path.addCurve(to: CGPoint(x: rand(), y: rand()), control1: CGPoint(x: rand(), y: rand()), control2: CGPoint(x: rand(), y: rand()))
            var segments = 0
            path.flatten(balanced: true, moveTo: { _, _ in }, lineTo: { _, _ in segments += 1 }, close: { _ in })
            adaptive += segments
            uniform += path.flattenedSegmentCount() - 1
        }
        #expect(Double(adaptive) < 0.8 * Double(uniform))
        let circle = Path(ellipseIn: CGRect(x: 0, y: 0, width: 400, height: 400))
        var segments = 0
        circle.flatten(balanced: true, moveTo: { _, _ in }, lineTo: { _, _ in segments += 1 }, close: { _ in })
        #expect(segments + 1 == circle.flattenedSegmentCount())
    }

    @Test func balancedFlatteningKeepsCircleArea() throws {
        // The 4-cubic circle of r = 40 has exact area 5027.954 px² (+0.028 % over π·40², the
        // cubic construction's own excess; shoelace over a 1e-5 px flattening). The balanced
        // polyline keeps it within 0.05 %; the plain one loses ~0.3 %.
        let c = Path(ellipseIn: CGRect(x: 60.3, y: 60.7, width: 80, height: 80))
        var pts: [(Double, Double)] = []
        c.flatten(tolerance: 1e-5, moveTo: { pts.append(($0, $1)) }, lineTo: { pts.append(($0, $1)) }, close: { _ in })
        var twice = 0.0
        for i in pts.indices {
            let (a, b) = (pts[i], pts[(i + 1) % pts.count])
            twice += a.0 * b.1 - b.0 * a.1
        }
        let exact = twice / 2
        #expect(abs(exact - 5027.954) < 0.01)
        #expect(relativeError(try coveredArea(c, clip: clip), exact) < 0.0005)
    }
}
