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

    @Test(arguments: [false, true])
    func flattenedCubicsStayWithinTolerance(balanced: Bool) throws {
        // Random cubics (inflections and cusps included): every point of the curve lies within
        // 0.1 px of the polyline, and every vertex of the polyline within 0.1 px of the curve.
        var seed: UInt64 = 0x9E37_79B9
        func rand() -> Double { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Double(seed >> 11) / Double(1 << 53) * 300 }
        for _ in 0..<200 {
            let p = (0..<4).map { _ in CGPoint(x: rand(), y: rand()) }
            var path = Path(); path.move(to: p[0]); path.addCurve(to: p[3], control1: p[1], control2: p[2])
            var poly: [(Double, Double)] = []
            path.flatten(balanced: balanced, moveTo: { poly.append(($0, $1)) }, lineTo: { poly.append(($0, $1)) }, close: { _ in })
            func curve(_ t: Double) -> (Double, Double) {
                let u = 1 - t
                let (b0, b1, b2, b3) = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
                return (b0 * p[0].x + b1 * p[1].x + b2 * p[2].x + b3 * p[3].x, b0 * p[0].y + b1 * p[1].y + b2 * p[2].y + b3 * p[3].y)
            }
            // Vertex i sits at t = i/n, so a point at t is nearest the segments around ⌊t·n⌋.
            let n = poly.count - 1
            let m = 64 * n
            let samples = (0...m).map { curve(Double($0) / Double(m)) }
            for (j, s) in samples.enumerated() {
                let i = j / 64
                let d = (max(0, i - 1)...min(n - 1, i + 1)).map { distance(s, poly[$0], poly[$0 + 1]) }.min()!
                #expect(d <= flatteningTolerance + 1e-9)
            }
            for (i, v) in poly.enumerated() {
                let lo = max(0, 64 * i - 64), hi = min(m - 1, 64 * i + 64)
                let d = (lo...hi).map { distance(v, samples[$0], samples[$0 + 1]) }.min()!
                #expect(d <= flatteningTolerance + 1e-9)
            }
        }
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
