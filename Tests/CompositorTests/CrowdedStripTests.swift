import Foundation
import ReferenceScenes
import Testing
@testable import Compositor

/// Strips so crowded with crossing edges that resolving them region by region would cost the
/// square of their pieces (`crossingPairBudget`) are sampled along 16 sub-rows per row
/// instead (`resolveRowBySampling`): bounded work, a few levels of error.
@Suite struct CrowdedStripTests {
    /// Accumulates lines into `Float` cells, 4 rows of `width` + 3 columns.
    private struct Cells: LineSink {
        var values: [Float]
        let stride: Int
        mutating func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
            values.withUnsafeMutableBufferPointer {
                accumulateLine($0.baseAddress!, stride: stride, Float(x0), Float(y0), Float(x1), Float(y1))
            }
        }
        /// Each pixel's coverage in levels (0…255), the guard column left out.
        func levels(width: Int) -> [Int] {
            (0..<4).flatMap { row in
                var sum: Float = 0
                return (0...width).compactMap { x -> Int? in
                    sum += values[row * stride + x]
                    return x == 0 ? nil : Int((min(1, abs(sum)) * 255).rounded())
                }
            }
        }
    }

    /// 40 random pieces through one strip of 4 rows, 30 px wide (band-local x from 1), each
    /// from the strip's top to its bottom, as the pieces of long edges are: the
    /// sampled coverage against the exact one. Sampling is exact along x and takes each
    /// sub-row's winding at its centre, so a pixel is off only by the sub-rows where pieces
    /// cross inside it, each at most 1/16 of the pixel (16 levels) and in practice a
    /// fraction of that. Measured: at most 2 levels (non-zero) and 3 (even-odd), means 0.04
    /// and 0.47; held to 6 and 1.
    @Test(arguments: [FillRule.nonZero, .evenOdd]) func samplingIsCloseToTheExactArea(rule: FillRule) {
        var g = SceneLCG(seed: 21)
        let width = 30
        var pieces: [Piece] = []
        for i in 0..<40 {
            let xa = 1 + g.u() * Double(width), xb = 1 + g.u() * Double(width)
            let ya = 0.0, yb = 4.0
            pieces.append(Piece(xa: xa, ya: ya, xb: xb, yb: yb, slope: (xb - xa) / (yb - ya), dir: i % 3 == 0 ? -1 : 1,
                                segment: Int32(i), contour: Int32(i)))
        }
        let stride = width + 3
        var exact = Cells(values: .init(repeating: 0, count: 4 * stride + 2), stride: stride)
        var sampled = exact
        var scratch = ExactRowScratch()
        var crossings = ScratchBuffer<SampleCrossing>()
        pieces.withUnsafeBufferPointer { p in
            #expect(resolveRowExactly(p, rowTop: 0, rowBottom: 4, width: Double(width + 1), fillRule: rule, scratch: &scratch,
                                      out: &exact))
            resolveRowBySampling(p, rowTop: 0, rowBottom: 4, fillRule: rule, crossings: &crossings, out: &sampled)
        }
        let a = exact.levels(width: width), b = sampled.levels(width: width)
        let differences = zip(a, b).map { abs($0 - $1) }
        #expect(differences.max()! <= 6, "largest difference \(differences.max()!)")
        #expect(Double(differences.reduce(0, +)) / Double(differences.count) < 1)
    }

    /// `Rasterizer.crossings` counts the crossings of the rows resolved exactly: a pentagram
    /// (five points, each edge crossing two others) has five, each inside one strip, under both
    /// fill rules, whether drawn alone or as one of many; a convex polygon has none.
    @Test(arguments: [FillRule.nonZero, .evenOdd]) func crossingsAreCounted(rule: FillRule) throws {
        // Vertices 144° apart, turned by 0.1 rad so no crossing lies on a strip's edge.
        let star = Path { p in
            p.addLines((0..<5).map { i in
                let a = 0.1 + Double(i) * 4 * .pi / 5
                return CGPoint(x: 50 + 40 * cos(a), y: 50 + 40 * sin(a))
            })
            p.closeSubpath()
        }
        let rasterizer = Rasterizer()
        let canvas = Canvas(try Surface(width: 100, height: 100), rasterizer: rasterizer)
        try canvas.fill(star, with: .color(.black), fillRule: rule)
        #expect(rasterizer.crossings == 5)
        try canvas.fill(Path(ellipseIn: CGRect(x: 10, y: 10, width: 80, height: 60)), with: .color(.black), fillRule: rule)
        #expect(rasterizer.crossings == 5)
        try canvas.fill(star, with: .color(.black), fillRule: rule)
        #expect(rasterizer.crossings == 10)
    }

    /// A star of 3,000 edges, each spanning the shape: every strip holds thousands of pieces
    /// that cross one another (millions of pairs a strip, over `crossingPairBudget`; at 9,000
    /// edges, gigabytes of crossing events and minutes before the budget). Now its strips are sampled: it renders, the same at
    /// 1 and 2 threads, and under non-zero its centre is covered.
    @Test func aStarOfLongEdgesIsSampledNotSquared() throws {
        let n = 3000
        let star = Path { p in
            p.addLines((0..<n).map { i in
                let a = Double(i) * 2 * .pi * 1499 / Double(n)
                return CGPoint(x: 60 + 55 * cos(a), y: 60 + 55 * sin(a))
            })
            p.closeSubpath()
        }
        var images: [[UInt8]] = []
        for threads in [1, 2] {
            let surface = try Surface(width: 120, height: 120)
            let rasterizer = Rasterizer()
            rasterizer.threads = threads
            try Canvas(surface, rasterizer: rasterizer).fill(star, with: .color(.black))
            #expect(rasterizer.sampledRows > 0)
            images.append(surface.withUnsafeMutableBytes { Array($0) })
            // Pixel (60, 60), the centre: opaque black (alpha in the top byte of ARGB).
            let centre = surface.withUnsafeMutableBytes { $0.load(fromByteOffset: 60 * surface.stride + 60 * 4, as: UInt32.self) }
            #expect(centre == 0xFF00_0000)
        }
        #expect(images[0] == images[1])
    }
}
