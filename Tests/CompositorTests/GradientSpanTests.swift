import CPixman
import CRasterKernels
import Foundation
import ReferenceScenes
import Testing
@testable import Compositor

/// Linear gradients along one device axis, composited from the cells (`GradientOverSink`)
/// against pixman compositing the same gradient through the same coverage as an A8 mask (the
/// route they replace): the same bytes for a vertical gradient; within 1 level for a
/// horizontal one, whose colours pixman steps along a row in floating point from wherever
/// the composited rectangle starts (so pixman itself differs by as much between two
/// rectangles, as it did between the 8-row chunks of the route replaced).
@Suite(.serialized) struct GradientSpanTests {
    @Test func theAxisIsFoundAsPixmanComputesIt() {
        let stops = Gradient(stops: [.init(color: .blue, location: 0), .init(color: .red, location: 1)])
        func axis(_ start: CGPoint, _ end: CGPoint, _ t: CGAffineTransform = .identity) -> LinearGradientAxis? {
            LinearGradientAxis(.linearGradient(stops, start: start, end: end), transform: t)
        }
        let frame = CGAffineTransform(scaleX: 120, y: 80).concatenating(CGAffineTransform(translationX: 13, y: 7))
        #expect(axis(CGPoint(x: 0, y: 0), CGPoint(x: 0, y: 100)) == .rows)
        #expect(axis(CGPoint(x: 0.5, y: 0), CGPoint(x: 0.5, y: 1), frame) == .rows)     // SwiftUI's .top → .bottom
        #expect(axis(CGPoint(x: 0, y: 0.5), CGPoint(x: 1, y: 0.5), frame) == .columns)  // .leading → .trailing
        #expect(axis(CGPoint(x: 0, y: 0), CGPoint(x: 0, y: 100), CGAffineTransform(rotationAngle: .pi / 2)) == .columns)
        #expect(axis(CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 100)) == nil)
        #expect(axis(CGPoint(x: 0, y: 0), CGPoint(x: 0, y: 100), CGAffineTransform(rotationAngle: 0.3)) == nil)
        #expect(LinearGradientAxis(.color(.red), transform: .identity) == nil)
        // Ends 2¹⁵ px and more apart (their 16.16 difference beyond 32 bits, or clamped): no
        // trap (the raster fuzz target's find), and the axis as for nearer ends.
        #expect(axis(CGPoint(x: 0, y: -40_000), CGPoint(x: 0, y: 40_000)) == .rows)
        #expect(axis(CGPoint(x: -1e12, y: 3), CGPoint(x: 1e12, y: 3)) == .columns)
        #expect(axis(CGPoint(x: -1e12, y: -1e12), CGPoint(x: 1e12, y: 1e12)) == nil)
    }

    /// A region wide enough that its cells come in several bands (32 rows each at 2,100 px),
    /// so each band must find its rows' colours.
    @Test(arguments: [LinearGradientAxis.rows, .columns]) func wideFillsFindTheirRowsInEveryBand(axis: LinearGradientAxis) throws {
        let stops = Gradient(stops: [.init(color: .blue, location: 0), .init(color: .orange.opacity(0.7), location: 0.6),
                                     .init(color: .mint, location: 1)])
        let paint = axis == .rows ? Paint.linearGradient(stops, start: CGPoint(x: 0, y: 3), end: CGPoint(x: 0, y: 190))
            : Paint.linearGradient(stops, start: CGPoint(x: 10, y: 0), end: CGPoint(x: 2000, y: 0))
        let shape = Path(ellipseIn: CGRect(x: 3.3, y: 2.7, width: 2090.4, height: 194.1))
        let fused = try Surface(width: 2100, height: 200), reference = try Surface(width: 2100, height: 200)
        fused.fill(.white)
        reference.fill(.white)
        try Canvas(fused).fill(shape, with: paint)
        let coverage = try Surface(width: 2100, height: 200, format: .a8)
        try Rasterizer().rasterize(shape, clip: coverage.bounds) { m, stride, r in
            for y in 0..<r.height { memcpy(coverage.data + (r.y + y) * coverage.stride + r.x, m + y * stride, r.width) }
        }
        let source = try #require(paint.pixmanSource(transform: .identity, format: .argb32))
        pixman_image_composite32(PIXMAN_OP_OVER, source.image, coverage.image, reference.image, 0, 0, 0, 0, 0, 0, 2100, 200)
        let a = fused.withUnsafeMutableBytes { Array($0) }, b = reference.withUnsafeMutableBytes { Array($0) }
        let largest = zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(largest <= (axis == .rows ? 0 : 1), "\(largest) levels apart")
    }

    @Test(arguments: [true, false]) func gradientSpansEqualPixman(avx2: Bool) throws {
        try withAVX2(avx2) { _ in
            var g = SceneLCG(seed: 9)
            for k in 0..<40 {
                let (w, h) = (83, 67)
                let fused = try Surface(width: w, height: h), reference = try Surface(width: w, height: h)
                for s in [fused, reference] {
                    s.withUnsafeMutableBytes { bytes in
                        var r = SceneLCG(seed: UInt32(k + 500))
                        let px = bytes.bindMemory(to: UInt32.self)
                        for i in 0..<px.count {
                            let v = r.next(), a = v >> 24
                            let c = { (x: UInt32) in a == 0 ? 0 : (x & 0xff) % (a + 1) }
                            px[i] = a << 24 | c(v >> 16) << 16 | c(r.next()) << 8 | c(v)
                        }
                    }
                }
                var stops: [Gradient.Stop] = []
                for i in 0..<(2 + k % 3) {
                    let color = Color(red: g.u(), green: g.u(), blue: g.u(), opacity: k % 2 == 0 ? 1 : 0.2 + 0.8 * g.u())
                    stops.append(.init(color: color, location: Double(i) / Double(1 + k % 3)))
                }
                let spread: GradientSpread = [.pad, .reflect, .repeat][k % 3]
                let gradient = Gradient(stops: stops, spread: spread)
                // Vertical and horizontal in their own space, in frames moved, scaled and turned by
                // quarter turns; every fifth diagonal (pixman's route, for the routing).
                let along = g.u() * 40 - 10, reach = 10 + g.u() * 50
                let vertical = k % 2 == 0
                var start = vertical ? CGPoint(x: along, y: g.u() * 20) : CGPoint(x: g.u() * 20, y: along)
                var end = vertical ? CGPoint(x: along, y: start.y + reach) : CGPoint(x: start.x + reach, y: along)
                if k % 5 == 4 { end.x += 7; start.y -= 3 }
                var frame = CGAffineTransform(scaleX: 0.5 + g.u() * 2, y: 0.5 + g.u() * 2)
                    .concatenating(CGAffineTransform(translationX: g.u() * 30 - 5, y: g.u() * 30 - 5))
                if k % 4 == 3 { frame = CGAffineTransform(rotationAngle: .pi / 2).concatenating(CGAffineTransform(translationX: 70, y: 0)) }
                let paint = Paint.linearGradient(gradient, start: start, end: end)
                let rect = CGRect(x: g.u() * 40 - 10, y: g.u() * 30 - 10, width: 20 + g.u() * 70, height: 10 + g.u() * 60)
                let shape = k % 3 == 0 ? Path(roundedRect: rect, cornerRadius: 9) : Path(ellipseIn: rect)
                let opacity = k % 4 == 1 ? g.u() : 1
                try Canvas(fused).fill(shape, with: paint, paintTransform: frame, opacity: opacity)
                // The reference: the same coverage as a mask, the gradient composited by pixman.
                let coverage = try Surface(width: w, height: h, format: .a8)
                try Rasterizer().rasterize(shape, clip: coverage.bounds, opacity: opacity) { m, stride, r in
                    for y in 0..<r.height { memcpy(coverage.data + (r.y + y) * coverage.stride + r.x, m + y * stride, r.width) }
                }
                let source = try #require(paint.pixmanSource(transform: frame, format: .argb32))
                pixman_image_composite32(PIXMAN_OP_OVER, source.image, coverage.image, reference.image, 0, 0, 0, 0, 0, 0,
                                         Int32(w), Int32(h))
                let a = fused.withUnsafeMutableBytes { Array($0) }, b = reference.withUnsafeMutableBytes { Array($0) }
                if let axis = LinearGradientAxis(paint, transform: frame) {
                    let largest = zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
                    #expect(largest <= (axis == .rows ? 0 : 1), "case \(k) (\(axis)): \(largest) levels apart")
                } else {
                    // A diagonal gradient still goes through pixman, an 8-row chunk at a time: its t
                    // steps along each row from the chunk's first pixel in float, so a chunk that
                    // starts elsewhere than the whole image's row may round a channel the other way.
                    let largest = zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
                    #expect(largest <= 1, "case \(k) (diagonal): \(largest) levels apart")
                }
            }
        }
    }
}
