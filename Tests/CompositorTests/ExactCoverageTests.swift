import Foundation
import Testing
@testable import Compositor

/// Coverage where several edges of different chains share a pixel: the fill rule must apply
/// per region, not to the pixel's net area.
@Suite struct ExactCoverageTests {
    @Test func pixelWithThreeWindingsIsExact() throws {
        // Two rects wound the same way, left edges at x = 10.2 and 10.6: pixel column 10 holds
        // windings 0 | 1 | 2 over widths 0.2, 0.4, 0.4. Non-zero covers 0.8 → 204; even-odd only
        // the winding-1 strip, 0.4 → 102. (Folding the net area, 0.4 + 0.8 = 1.2, would give 255
        // and 204.)
        var path = Path(CGRect(x: 10.2, y: 2, width: 20, height: 10))
        path.addRect(CGRect(x: 10.6, y: 2, width: 20, height: 10))
        let clip = PixelRect(x: 0, y: 0, width: 40, height: 16)
        let nz = try coverage(path, fillRule: .nonZero, clip: clip)
        let eo = try coverage(path, fillRule: .evenOdd, clip: clip)
        for y in 2..<12 {
            #expect(nz[y * 40 + 10] == 204, "row \(y)")
            #expect(eo[y * 40 + 10] == 102, "row \(y)")
            #expect(eo[y * 40 + 15] == 0 && nz[y * 40 + 15] == 255)
        }
    }

    @Test func crossingEdgesInsideOnePixel() throws {
        // A bow-tie whose two edges cross at (10.5, 10.5), inside pixel (10, 10): the two
        // triangles are wound oppositely, so both rules cover the same area, which is exact:
        // the union of the triangles (0,0)-(21,0)-(10.5,10.5) and (10.5,10.5)-(21,21)-(0,21),
        // 2·½·21·10.5 = 220.5 px². Tolerance: 41 half-covered pixels each read 128/255, which is
        // 0.5/255 over a half: +0.08 px² of 8-bit rounding.
        let bow = Path { p in
            p.move(to: CGPoint(x: 0, y: 0)); p.addLine(to: CGPoint(x: 21, y: 0))
            p.addLine(to: CGPoint(x: 0, y: 21)); p.addLine(to: CGPoint(x: 21, y: 21)); p.closeSubpath()
        }
        let clip = PixelRect(x: 0, y: 0, width: 24, height: 24)
        #expect(abs(try coveredArea(bow, fillRule: .nonZero, clip: clip) - 220.5) < 0.1)
        #expect(abs(try coveredArea(bow, fillRule: .evenOdd, clip: clip) - 220.5) < 0.1)
        // The crossing pixel: each triangle's tip covers a quarter of it.
        #expect(try coverage(bow, clip: clip)[10 * 24 + 10] == 128)
    }

    /// Coverage by brute force: the fill rule tested at n × n points per pixel.
    func supersampled(_ path: Path, _ rule: FillRule, x: Int, y: Int, n: Int) -> Double {
        var inside = 0
        for j in 0..<n { for i in 0..<n {
            let p = CGPoint(x: Double(x) + (Double(i) + 0.5) / Double(n), y: Double(y) + (Double(j) + 0.5) / Double(n))
            if path.contains(p, eoFill: rule == .evenOdd) { inside += 1 }
        } }
        return Double(inside) / Double(n * n)
    }

    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func denseSelfCrossingPolygonConvergesToBruteForce(_ rule: FillRule) throws {
        // A closed 60-gon of random vertices over 10 × 10 px crosses itself hundreds of times,
        // with several edges in most pixels (S4 in small). Point sampling (an exact winding test
        // per sample) converges to the true coverage as 1/n: if the rasterizer is exact, its
        // difference from the n × n reference halves when n doubles, down to the 8-bit rounding
        // floor (mean 0.25/255). Measured: non-zero 0.93 → 0.46, even-odd 1.42 → 0.59 (n = 16 → 32).
        // The net-area fold alone stays near 40/255 in such pixels whatever n is.
        var seed: UInt32 = 7
        func u() -> Double { seed = seed &* 1_664_525 &+ 1_013_904_223; return Double(seed) / 4_294_967_296 * 10 }
        var path = Path()
        path.addLines((0..<60).map { _ in CGPoint(x: u(), y: u()) })
        path.closeSubpath()
        let cov = try coverage(path, fillRule: rule, clip: PixelRect(x: 0, y: 0, width: 10, height: 10))
        func meanDifference(samples n: Int) -> Double {
            var total = 0.0
            for y in 0..<10 { for x in 0..<10 {
                var inside = 0
                for j in 0..<n { for i in 0..<n {
                    let p = CGPoint(x: Double(x) + (Double(i) + 0.5) / Double(n), y: Double(y) + (Double(j) + 0.5) / Double(n))
                    if path.contains(p, eoFill: rule == .evenOdd) { inside += 1 }
                } }
                total += abs(Double(cov[y * 10 + x]) - 255 * Double(inside) / Double(n * n))
            } }
            return total / 100
        }
        let coarse = meanDifference(samples: 16), fine = meanDifference(samples: 32)
        #expect(fine < 0.7 * coarse, "\(coarse) → \(fine)")
        #expect(fine < 0.8, "\(fine)")
    }

    @Test func simpleShapesNeverTakeTheExactPath() throws {
        // A circle and a rounded rect are single monotone chains per strip, except where a
        // contour starts (its first and last segments meet in the list's order): at most one
        // exact strip per contour.
        let r = Rasterizer()
        try r.rasterize(Path(ellipseIn: CGRect(x: 3.3, y: 4.1, width: 50, height: 40)), clip: PixelRect(x: 0, y: 0, width: 64, height: 64)) { _, _, _ in }
        try r.rasterize(Path(roundedRect: CGRect(x: 2, y: 2, width: 50, height: 30), cornerRadius: 9), clip: PixelRect(x: 0, y: 0, width: 64, height: 64)) { _, _, _ in }
        #expect(r.exactRows <= 2 * stripHeight)
        // Clipped on the left, the same holds: the parts left of the clip are one guard piece
        // per strip, not one per flattened segment.
        let before = r.exactRows
        try r.rasterize(Path(ellipseIn: CGRect(x: -20.3, y: 4.1, width: 50, height: 40)), clip: PixelRect(x: 0, y: 0, width: 64, height: 64)) { _, _, _ in }
        #expect(r.exactRows - before <= stripHeight)
    }

    /// Coverage of a path, and how many of its rows went through the exact path.
    func coverageAndExactRows(_ path: Path, _ rule: FillRule, clip: PixelRect) throws -> ([UInt8], Int) {
        let r = Rasterizer()
        var out = [UInt8](repeating: 0, count: clip.width * clip.height)
        try r.rasterize(path, fillRule: rule, clip: clip) { mask, stride, rect in
            for y in 0..<rect.height { for x in 0..<rect.width {
                out[(rect.y - clip.y + y) * clip.width + rect.x - clip.x + x] = mask[y * stride + x]
            } }
        }
        return (out, r.exactRows)
    }

    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func thousandsOfEdgesLeftOfTheClipAreOneWinding(_ rule: FillRule) throws {
        // The left side of this polygon is a zig-zag of 2,000 vertices between x = −30 and −1
        // (all left of the clip), running down from y = 2 to y = 30; its right side is x = 20.5.
        // Whatever lies left of the clip only winds the pixels to its right: rows 2..<30 are
        // covered up to x = 20.5 (pixel 20 half: 127.5 → 128), and every strip but the one where
        // the contour starts (its first and last segments meet there, see above) stays on the
        // simple path. (The fuzzer found such a path costing O(edges²) per strip when every left
        // edge was kept as a piece of its own.)
        var path = Path()
        path.move(to: CGPoint(x: 20.5, y: 2))
        path.addLine(to: CGPoint(x: -1, y: 2))
        for i in 1..<2000 { path.addLine(to: CGPoint(x: i % 2 == 0 ? -1 : -30, y: 2 + 28 * Double(i) / 2000)) }
        path.addLine(to: CGPoint(x: -1, y: 30))
        path.addLine(to: CGPoint(x: 20.5, y: 30))
        path.closeSubpath()
        let (cov, exactRows) = try coverageAndExactRows(path, rule, clip: PixelRect(x: 0, y: 0, width: 40, height: 32))
        for y in 0..<32 { for x in 0..<40 {
            let expected: UInt8 = !(2..<30).contains(y) ? 0 : x < 20 ? 255 : x == 20 ? 128 : 0
            #expect(cov[y * 40 + x] == expected, "(\(x), \(y))")
        } }
        #expect(exactRows <= stripHeight)
    }

    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func windingTwoLeftOfTheClipChangesInsideAStrip(_ rule: FillRule) throws {
        // A = [−50, 10.25] × [2, 14] and B = [−50, 20.75] × [6, 20], wound the same way: left of
        // the clip the winding is 1, then 2 from y = 6 to 14, then 1; both changes fall inside a
        // strip (strips are 4 rows), where B's and A's right edges must pick them up.
        // Rows 2..<6 (A): x < 10 → 255; pixel 10 holds 0.25 → 64.
        // Rows 6..<14 (both): non-zero covers up to 20.75 (pixel 20: 0.75 → 191); even-odd
        // leaves winding 2 empty: x < 10 → 0, pixel 10 holds [10.25, 11) = 0.75 → 191, pixels
        // 11…19 → 255, pixel 20 → 191.
        // Rows 14..<20 (B): x < 20 → 255, pixel 20 → 191.
        var path = Path(CGRect(x: -50, y: 2, width: 60.25, height: 12))
        path.addRect(CGRect(x: -50, y: 6, width: 70.75, height: 14))
        let (cov, _) = try coverageAndExactRows(path, rule, clip: PixelRect(x: 0, y: 0, width: 32, height: 24))
        for y in 0..<24 { for x in 0..<32 {
            let expected: UInt8
            switch y {
            case 2..<6: expected = x < 10 ? 255 : x == 10 ? 64 : 0
            case 6..<14 where rule == .evenOdd: expected = x < 10 ? 0 : x == 10 ? 191 : x < 20 ? 255 : x == 20 ? 191 : 0
            case 6..<20: expected = x < 20 ? 255 : x == 20 ? 191 : 0
            default: expected = 0
            }
            #expect(cov[y * 32 + x] == expected, "(\(x), \(y))")
        } }
    }
}

/// Degenerate geometry, where exact resolution is most fragile: vertices on pixel corners and
/// row boundaries, horizontal and vertical edges, collinear and shared edges, repeated points.
@Suite struct DegenerateGeometryTests {
    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func gridPolygonsMatchPointSampling(_ rule: FillRule) throws {
        // 300 random polygons with vertices on a half-pixel grid over 8 × 8 px, several subpaths
        // each (so edges are shared and collinear). Point sampling at 16 × 16 per pixel never
        // lands on an edge (edges lie on multiples of 1/2, samples at odd multiples of 1/32), so
        // its only error is the sampling itself: at most (edges in the pixel)·1/16 of a pixel,
        // and a bookkeeping error would show as a whole-pixel miss. Tolerance: 0.3 of a pixel
        // per pixel, mean under 0.02.
        var seed: UInt32 = 12345
        func grid() -> Double { seed = seed &* 1_664_525 &+ 1_013_904_223; return Double(seed >> 16 % 17) / 2 }
        var worst = 0.0, total = 0.0, pixels = 0
        for _ in 0..<300 {
            var path = Path()
            for _ in 0..<(1 + Int(grid()) % 3) {
                path.addLines((0..<(3 + Int(grid()) % 5)).map { _ in CGPoint(x: grid(), y: grid()) })
                path.closeSubpath()
            }
            let cov = try coverage(path, fillRule: rule, clip: PixelRect(x: 0, y: 0, width: 8, height: 8))
            for y in 0..<8 { for x in 0..<8 {
                var inside = 0
                for j in 0..<16 { for i in 0..<16 {
                    let p = CGPoint(x: Double(x) + (Double(i) + 0.5) / 16, y: Double(y) + (Double(j) + 0.5) / 16)
                    if path.contains(p, eoFill: rule == .evenOdd) { inside += 1 }
                } }
                let d = abs(Double(cov[y * 8 + x]) / 255 - Double(inside) / 256)
                if d >= 0.3 && worst < 0.3 { print("FAIL \(rule) pixel (\(x), \(y)) got \(cov[y * 8 + x]) expected \(inside)/256 path \(path.description)") }
                worst = max(worst, d)
                total += d
                pixels += 1
            } }
        }
        #expect(worst < 0.3, "worst \(worst)")
        #expect(total / Double(pixels) < 0.02, "mean \(total / Double(pixels))")
    }

    @Test func randomGarbageNeverTrapsAndStaysInRange() throws {
        // Huge, tiny, repeated and clustered coordinates under both rules: coverage bytes are
        // always produced (or nothing), never a trap, and a NaN anywhere is an error.
        var seed: UInt32 = 99
        func u() -> Double { seed = seed &* 1_664_525 &+ 1_013_904_223; return Double(seed) / 4_294_967_296 }
        let scales = [1e-9, 1e-3, 1, 40, 1e6, 1e15]
        let r = Rasterizer()
        for n in 0..<400 {
            let scale = scales[n % scales.count]
            var path = Path()
            path.move(to: CGPoint(x: 20 + (u() - 0.5) * scale, y: 20 + (u() - 0.5) * scale))
            for _ in 0..<(1 + n % 40) {
                switch Int(u() * 4) {
                case 0: path.addLine(to: CGPoint(x: 20 + (u() - 0.5) * scale, y: 20 + (u() - 0.5) * scale))
                case 1: path.addCurve(to: CGPoint(x: 20 + (u() - 0.5) * scale, y: 20 + (u() - 0.5) * scale),
                                      control1: CGPoint(x: 20 + (u() - 0.5) * scale, y: 20),
                                      control2: CGPoint(x: 20, y: 20 + (u() - 0.5) * scale))
                case 2: path.closeSubpath()
                default: path.move(to: CGPoint(x: 20 + (u() - 0.5) * scale, y: 20 + (u() - 0.5) * scale))
                }
            }
            for rule in [FillRule.nonZero, .evenOdd] {
                try r.rasterize(path, fillRule: rule, clip: PixelRect(x: 0, y: 0, width: 40, height: 40)) { _, _, rect in
                    #expect(rect.x >= 0 && rect.maxX <= 40 && rect.y >= 0 && rect.maxY <= 40)
                }
            }
        }
    }
}
