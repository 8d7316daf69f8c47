import CPixman
import CRasterKernels
import Foundation
import ReferenceScenes
import Testing
@testable import Compositor

/// The cell rasterizer (the fast tier) against the strip resolver (the exact tier), which it
/// replaces for paths `ContourShapeCheck` proves single-wound, and the fused solid compositor
/// against pixman.
@Suite struct CellRasterizerTests {
    private func mask(_ path: Path, _ rule: FillRule = .nonZero, cells: Bool, quality: CoverageQuality = .exact,
                      opacity: Double = 1, clip: PixelRect, transform: CGAffineTransform = .identity) throws -> [UInt8] {
        let r = Rasterizer()
        defer { #expect((r.cellPaths > 0) == cells, "the cell rasterizer should \(cells ? "" : "not ")have drawn it") }
        r.usesCells = cells
        r.coverageQuality = quality
        var out = [UInt8](repeating: 0, count: clip.area)
        try r.rasterize(path, transform: transform, fillRule: rule, clip: clip, opacity: opacity) { m, stride, rect in
            for y in 0..<rect.height {
                for x in 0..<rect.width { out[(rect.y - clip.y + y) * clip.width + rect.x - clip.x + x] = m[y * stride + x] }
            }
        }
        return out
    }

    private func largestDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }

    /// Random convex shapes, in random transforms, cut by random clips on every side: within
    /// one level of the exact tier. Both compute the same area; the cells place vertices
    /// within 1/8,192 px and split rows between cells in steps of 1/4,096 px, about 0.1 level
    /// at worst, which moves a value across a rounding boundary now and then.
    @Test(arguments: [FillRule.nonZero, .evenOdd], [1.0, 0.35])
    func convexShapesMatchTheExactTier(rule: FillRule, opacity: Double) throws {
        var g = SceneLCG(seed: 7)
        var worst = 0
        for k in 0..<60 {
            let w = 3 + g.u() * 90, h = 3 + g.u() * 90
            let rect = CGRect(x: -w / 2, y: -h / 2, width: w, height: h)
            let shape: Path
            switch k % 4 {
            case 0: shape = Path(ellipseIn: rect)
            case 1: shape = Path(roundedRect: rect, cornerRadius: min(w, h) * g.u() / 2)
            case 2: shape = Path(rect)
            default:
                let n = 3 + Int(g.u() * 9)
                shape = Path { p in
                    p.addLines((0..<n).map { i in
                        let a = Double(i) * 2 * .pi / Double(n)
                        return CGPoint(x: w / 2 * cos(a), y: h / 2 * sin(a))
                    })
                    p.closeSubpath()
                }
            }
            let cx = 20 + g.u() * 120, cy = 20 + g.u() * 120
            let t = CGAffineTransform(rotationAngle: g.u() * 2 * .pi).concatenating(CGAffineTransform(translationX: cx, y: cy))
            // A clip around the centre, cutting the shape on any side or none.
            let left = Int(cx) - 1 - Int(g.u() * 50), top = Int(cy) - 1 - Int(g.u() * 50)
            let clip = PixelRect(x: left, y: top, width: Int(cx) + 2 + Int(g.u() * 50) - left, height: Int(cy) + 2 + Int(g.u() * 50) - top)
            let exact = try mask(shape, rule, cells: false, opacity: opacity, clip: clip, transform: t)
            let cells = try mask(shape, rule, cells: true, opacity: opacity, clip: clip, transform: t)
            worst = max(worst, largestDifference(exact, cells))
        }
        #expect(worst <= 1, "largest difference \(worst) levels")
    }

    /// A polygon on the pixel grid covers whole pixels: exactly 255 inside, 0 outside, and
    /// opacity × 255 rounded (0.5 → 127.5 → 128) at half opacity.
    @Test func gridAlignedPolygonsAreExactlyFullOrEmpty() throws {
        let clip = PixelRect(x: 0, y: 0, width: 40, height: 30)
        let l = Path { p in
            p.addLines([CGPoint(x: 3, y: 2), CGPoint(x: 30, y: 2), CGPoint(x: 30, y: 25), CGPoint(x: 3, y: 25)])
            p.closeSubpath()
        }
        for (opacity, inside) in [(1.0, UInt8(255)), (0.5, 128)] {
            let m = try mask(l, cells: true, opacity: opacity, clip: clip)
            for y in 0..<30 {
                for x in 0..<40 {
                    let expected: UInt8 = (3..<30).contains(x) && (2..<25).contains(y) ? inside : 0
                    #expect(m[y * 40 + x] == expected, "(\(x), \(y))")
                }
            }
        }
    }

    /// A shape taller and wider than one band (bands hold 256 KiB of cells: 21 rows of a
    /// 3,000 px region): the bands join without a seam.
    @Test func bandsJoinWithoutASeam() throws {
        let shape = Path(ellipseIn: CGRect(x: 3.3, y: 2.7, width: 2990, height: 180))
            .applying(CGAffineTransform(rotationAngle: 0.03))
        let clip = PixelRect(x: 0, y: 0, width: 3000, height: 300)
        #expect(largestDifference(try mask(shape, cells: false, clip: clip), try mask(shape, cells: true, clip: clip)) <= 1)
    }

    /// Geometry far outside the clip: a rectangle from −10⁹ to 10⁹ covers the whole clip,
    /// and a triangle with a vertex 10¹² px to the left keeps its winding through the region's
    /// left side.
    @Test func geometryFarOutsideKeepsItsWinding() throws {
        let clip = PixelRect(x: 0, y: 0, width: 16, height: 12)
        let huge = Path(CGRect(x: -1e9, y: -1e9, width: 2e9, height: 2e9))
        #expect(try mask(huge, cells: true, clip: clip).allSatisfy { $0 == 255 })
        let triangle = Path { p in
            p.addLines([CGPoint(x: -1e12, y: 6), CGPoint(x: 12.5, y: 0.25), CGPoint(x: 9.75, y: 11.5)])
            p.closeSubpath()
        }
        #expect(largestDifference(try mask(triangle, cells: false, clip: clip), try mask(triangle, cells: true, clip: clip)) <= 1)
    }

    /// 100 nested squares turning the same way give winding k in the k-th ring. Under
    /// `.fast` that stays within the 10-bit cells' limit of ±1,023; under `.exact`, rows
    /// crossing over 32 chains are resolved exactly, so the 19.12 cells never hold the winding
    /// of 100 (which would wrap their ±63). Either way non-zero covers every ring and even-odd
    /// the odd ones.
    @Test(arguments: [CoverageQuality.fast, .exact]) func nestedWindings(quality: CoverageQuality) throws {
        var path = Path()
        for k in 0..<100 {
            let d = CGFloat(k)
            path.addRect(CGRect(x: d, y: d, width: 200 - 2 * d, height: 200 - 2 * d))
        }
        let clip = PixelRect(x: 0, y: 0, width: 200, height: 200)
        let nonZero = try mask(path, .nonZero, cells: true, quality: quality, clip: clip)
        let evenOdd = try mask(path, .evenOdd, cells: true, quality: quality, clip: clip)
        for k in [0, 1, 2, 50, 97, 98, 99] {
            // Pixel (k, 100) lies in ring k + 1 (inside squares 0 … k).
            #expect(nonZero[100 * 200 + k] == 255)
            #expect(evenOdd[100 * 200 + k] == (k % 2 == 0 ? 255 : 0), "ring \(k + 1)")
        }
        #expect(nonZero[100 * 200 + 100] == 255)
    }

    /// Random self-crossing polygons, stroke outlines (which loop back over themselves at
    /// joins) and a path of 6,000 segments (resolved in slabs of 128 rows): the exact tier on
    /// cells, where the strip resolver's lines become fixed-point edges, against the same
    /// resolver accumulating in `Float` cells. Both compute the exact area; rounding the lines'
    /// ends to 1/4,096 px moves a value across a rounding boundary now and then: 1 level.
    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func selfCrossingPathsMatchTheFloatResolver(rule: FillRule) throws {
        var g = SceneLCG(seed: 11)
        var worst = 0
        let clip = PixelRect(x: 0, y: 0, width: 160, height: 140)
        for k in 0..<30 {
            let path: Path
            switch k % 3 {
            case 0:
                let n = 5 + Int(g.u() * 40)
                path = Path { p in
                    p.addLines((0..<n).map { _ in CGPoint(x: g.u() * 170 - 5, y: g.u() * 150 - 5) })
                    p.closeSubpath()
                }
            case 1:
                let curve = Path { p in
                    p.move(to: CGPoint(x: g.u() * 160, y: g.u() * 140))
                    p.addCurve(to: CGPoint(x: g.u() * 160, y: g.u() * 140), control1: CGPoint(x: g.u() * 160, y: g.u() * 140),
                               control2: CGPoint(x: g.u() * 160, y: g.u() * 140))
                    p.addLine(to: CGPoint(x: g.u() * 160, y: g.u() * 140))
                }
                path = curve.strokedPath(StrokeStyle(lineWidth: 1 + g.u() * 12, lineCap: .round, lineJoin: k % 2 == 0 ? .round : .miter))
            default:
                // A random walk of 6,000 steps: it crosses itself everywhere.
                path = randomWalk(6000, in: CGRect(x: -5, y: -5, width: 170, height: 150), g: &g)
            }
            let float = try mask(path, rule, cells: false, clip: clip)
            let cells = try mask(path, rule, cells: true, clip: clip)
            worst = max(worst, largestDifference(float, cells))
        }
        #expect(worst <= 1, "largest difference \(worst) levels")
    }

    /// A closed random walk of `steps` steps of up to 6 px, kept inside `box`.
    private func randomWalk(_ steps: Int, in box: CGRect, g: inout SceneLCG) -> Path {
        var x = box.midX, y = box.midY
        var points: [CGPoint] = []
        for _ in 0..<steps {
            x = min(box.maxX, max(box.minX, x + (g.u() - 0.5) * 12))
            y = min(box.maxY, max(box.minY, y + (g.u() - 0.5) * 12))
            points.append(CGPoint(x: x, y: y))
        }
        return Path { p in
            p.addLines(points)
            p.closeSubpath()
        }
    }

    /// A path large enough to be resolved in slabs on several threads, filled straight into
    /// a surface: the same bytes at 1, 2, 3 and 8 threads, inside a batch and out of one.
    @Test func largePathsAreTheSameAtEveryThreadCount() throws {
        var g = SceneLCG(seed: 5)
        let path = randomWalk(9000, in: CGRect(x: 20, y: 20, width: 460, height: 440), g: &g)
        var images: [[UInt8]] = []
        for threads in [1, 2, 3, 8] {
            for batched in [false, true] {
                let surface = try Surface(width: 500, height: 480)
                let rasterizer = Rasterizer()
                rasterizer.threads = threads
                let canvas = Canvas(surface, rasterizer: rasterizer)
                let state = batched ? try rasterizer.beginBatch(on: surface) : nil
                try canvas.fill(Path(CGRect(x: 10, y: 10, width: 300, height: 200)), with: .color(.blue.opacity(0.5)))
                try canvas.fill(path, with: .color(.orange.opacity(0.7)), fillRule: .nonZero)
                // 440 rows of region: 4 slabs of 128.
                #expect(rasterizer.lastSlabWorkers == min(threads, 4))
                try canvas.fill(Path(ellipseIn: CGRect(x: 100, y: 150, width: 300, height: 200)), with: .color(.green.opacity(0.4)))
                if let state { try rasterizer.endBatch(restoring: state) }
                images.append(surface.withUnsafeMutableBytes { Array($0) })
            }
        }
        for (i, image) in images.enumerated() { #expect(image == images[0], "case \(i)") }
    }

    /// The exact tier's resolved lines drawn straight into the cells where a slab is drawn at
    /// once (`SlabWorker.prepare(direct:)`: on one thread for slabs of more than
    /// `batchedEdgesOnOneThread` segments, on every slab worker otherwise) give the same bytes
    /// as lines kept and sorted into bands: composited straight onto a surface at 1 and 2
    /// threads, inside a batch, and as the mask handed to `emit` (one band of the whole slab
    /// there), under both fill rules.
    @Test(arguments: [FillRule.nonZero, .evenOdd]) func resolvedLinesDrawnDirectlyGiveTheSameBytes(rule: FillRule) throws {
        var g = SceneLCG(seed: 17)
        // 30,000 segments in 200 rows: two slabs of more than 8,192 segments each.
        let path = randomWalk(30_000, in: CGRect(x: 10, y: 10, width: 380, height: 200), g: &g)
        func surface(threads: Int, direct: Bool, batched: Bool) throws -> [UInt8] {
            let surface = try Surface(width: 400, height: 220)
            let rasterizer = Rasterizer()
            rasterizer.threads = threads
            rasterizer.drawsResolvedLinesDirectly = direct
            let canvas = Canvas(surface, rasterizer: rasterizer)
            let state = batched ? try rasterizer.beginBatch(on: surface) : nil
            try canvas.fill(Path(CGRect(x: 5, y: 5, width: 200, height: 100)), with: .color(.blue.opacity(0.5)))
            try canvas.fill(path, with: .color(.orange.opacity(0.7)), fillRule: rule)
            if let state { try rasterizer.endBatch(restoring: state) }
            #expect(rasterizer.exactRows > 100)
            return surface.withUnsafeMutableBytes { Array($0) }
        }
        let kept = try surface(threads: 1, direct: false, batched: false)
        for (threads, batched) in [(1, false), (1, true), (2, false), (2, true)] {
            let drawn = try surface(threads: threads, direct: true, batched: batched)
            let same = drawn == kept
            #expect(same, "\(threads) threads, batched: \(batched): \(zip(drawn, kept).filter { $0 != $1 }.count) bytes differ")
        }
        func mask(direct: Bool) throws -> [UInt8] {
            let rasterizer = Rasterizer()
            rasterizer.drawsResolvedLinesDirectly = direct
            var out = [UInt8](repeating: 0, count: 400 * 220)
            var bands = 0
            try rasterizer.rasterize(path, fillRule: rule, clip: PixelRect(x: 0, y: 0, width: 400, height: 220)) { m, stride, rect in
                bands += 1
                for y in 0..<rect.height { for x in 0..<rect.width { out[(rect.y + y) * 400 + rect.x + x] = m[y * stride + x] } }
            }
            #expect(bands > 0)
            return out
        }
        let maskKept = try mask(direct: false), maskDrawn = try mask(direct: true)
        let sameMask = maskDrawn == maskKept
        #expect(sameMask, "\(zip(maskDrawn, maskKept).filter { $0 != $1 }.count) mask bytes differ")
        #expect(maskKept.contains { $0 > 0 })
    }

    /// Collects the coverage a cell rasterizer hands out, per pixel of a 40 × 40 region.
    private struct Collect: CoverageSink {
        var coverage = [UInt32](repeating: 0, count: 40 * 40)
        var top = 0
        mutating func band(top: Int, rows: Int) { self.top = top }
        mutating func endBand() throws {}
        mutating func span(_ row: Int, _ x: Int, _ count: Int, _ m: UInt32) {
            for i in x..<(x + count) { coverage[(top + row) * 40 + i] = m }
        }
        mutating func quad(_ row: Int, _ x: Int, _ m: SIMD4<UInt32>) {
            for i in 0..<4 { coverage[(top + row) * 40 + x + i] = m[i] }
        }
        mutating func pixel(_ row: Int, _ x: Int, _ m: UInt32) { coverage[(top + row) * 40 + x] = m }
        func prefetch(_ row: Int, _ x: Int, _ end: Int) {}
    }

    /// Lines drawn straight into the cells (`directLines`) and never walked are cleared by the
    /// next `begin`: the next polygon's coverage is the same as from a fresh rasterizer.
    @Test func linesDrawnDirectlyAndNotWalkedAreClearedByBegin() throws {
        // A rectangle from (8, 8) to (36, 24), its four sides: its rows walk the cells the
        // abandoned line below touched.
        let square: [Double] = [8, 8, 36, 8, 36, 8, 36, 24, 36, 24, 8, 24, 8, 24, 8, 8]
        func draw(_ cells: CellRasterizer) throws -> [UInt32] {
            cells.begin(width: 40, height: 40, shift: cellShiftSimple)
            square.withUnsafeBufferPointer { cells.add(segments: $0, origin: (0, 0)) }
            var sink = Collect()
            try cells.run(bandRows: 16, fillRule: .nonZero, opacity: 1, sink: &sink)
            return sink.coverage
        }
        let used = CellRasterizer()
        used.begin(width: 40, height: 40, shift: cellShiftSimple)
        // A line down at x = 30.5 across every row, drawn directly, then abandoned.
        let one = Int32(1 << cellShiftSimple)
        used.directLines().draw(FixedEdge(x0: 30 * one + one / 2, y0: 0, x1: 30 * one + one / 2, y1: 40 * one, dir: 1))
        let fresh = try draw(CellRasterizer())
        let again = try draw(used)
        #expect(fresh[16 * 40 + 33] == 255 && fresh[16 * 40 + 38] == 0)
        #expect(again == fresh)
    }

    /// `run` hands out the same coverage, to the value, whatever the band height: edges that
    /// start in one band and reach into the next ones are carried on to each of them. The
    /// polygon (a 7-point star of edges across the whole region, crossing at random, and a
    /// zigzag of short edges) is drawn at both precisions.
    @Test(arguments: [cellShiftSimple, cellShiftFast]) func everyBandHeightGivesTheSameCoverage(shift: Int) throws {
        var segments: [Double] = []
        var g = SceneLCG(seed: 7)
        var points: [(Double, Double)] = (0..<7).map { k in
            let a = Double(k) * 4 * Double.pi / 7
            return (20 + 19.5 * sin(a), 20 - 19.5 * cos(a))
        }
        for k in 0..<40 {
            let y: Double = k % 2 == 0 ? 30 + g.u() : 33 + g.u() * 6
            points.append((2 + Double(k) * 0.9, y))
        }
        for k in points.indices {
            let (x0, y0) = points[k], (x1, y1) = points[(k + 1) % points.count]
            segments += [x0, y0, x1, y1]
        }
        func coverage(bandRows: Int) throws -> [UInt32] {
            let cells = CellRasterizer()
            cells.begin(width: 40, height: 40, shift: shift)
            segments.withUnsafeBufferPointer { cells.add(segments: $0, origin: (0, 0)) }
            var sink = Collect()
            try cells.run(bandRows: bandRows, fillRule: .nonZero, opacity: 1, sink: &sink)
            return sink.coverage
        }
        let whole = try coverage(bandRows: 40)
        #expect(whole.filter { $0 == 255 }.count > 300 && whole.filter { $0 > 0 && $0 < 255 }.count > 100)
        for bandRows in [1, 2, 3, 7, 16, 39] {
            #expect(try coverage(bandRows: bandRows) == whole, "\(bandRows) rows a band")
        }
    }

    /// Which paths the shape check lets accumulation take under `.exact`.
    @Test func theShapeCheckTakesOnlySingleWoundPaths() {
        func simple(_ path: Path) -> Bool { path.flattenedPassesShapeCheck() }
        let circle = Path(ellipseIn: CGRect(x: 10, y: 10, width: 50, height: 30))
        #expect(simple(circle))
        #expect(simple(Path(roundedRect: CGRect(x: 0, y: 0, width: 80, height: 6), cornerRadius: 3)))
        #expect(simple(Path(CGRect(x: 0, y: 0, width: 5, height: 5)).applying(CGAffineTransform(rotationAngle: 0.7))))
        // Two circles apart: no pixel holds both.
        var apart = circle
        apart.addEllipse(in: CGRect(x: 100, y: 10, width: 20, height: 20))
        #expect(simple(apart))
        for path in Self.notSingleWound { #expect(!simple(path)) }
    }

    /// Paths that neither shape check may take: two circles one pixel apart (they may share
    /// a pixel: not proven), a ring (a hole), a star (self-crossing), an L (concave), and more
    /// contours than are compared pairwise.
    private static var notSingleWound: [Path] {
        var near = Path(ellipseIn: CGRect(x: 10, y: 10, width: 50, height: 30))
        near.addEllipse(in: CGRect(x: 60.5, y: 10, width: 20, height: 20))
        var ring = Path(ellipseIn: CGRect(x: 0, y: 0, width: 50, height: 50))
        ring.addEllipse(in: CGRect(x: 10, y: 10, width: 30, height: 30))
        let star = Path { p in
            p.addLines((0..<5).map { i in
                let a = Double(i) * 4 * .pi / 5
                return CGPoint(x: 50 + 40 * cos(a), y: 50 + 40 * sin(a))
            })
            p.closeSubpath()
        }
        let l = Path { p in
            p.addLines([CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0), CGPoint(x: 10, y: 4), CGPoint(x: 4, y: 4),
                        CGPoint(x: 4, y: 10), CGPoint(x: 0, y: 10)])
            p.closeSubpath()
        }
        var many = Path()
        for i in 0...ContourShapeCheck.maximumContours { many.addRect(CGRect(x: Double(i) * 10, y: 0, width: 4, height: 4)) }
        return [near, ring, star, l, many]
    }

    /// Which paths are known convex from their control polygons, before flattening
    /// (`Path.flattenedSegmentCountAndShape`): the shapes SwiftUI builds, in any affine
    /// transform, but not holes, stars, concave outlines, paths wound twice, near neighbours
    /// or curves whose control points zigzag.
    @Test func controlPolygonsTellConvexPathsBeforeFlattening() {
        func convex(_ path: Path, _ t: CGAffineTransform = .identity) -> Bool {
            path.flattenedSegmentCountAndShape(transform: t, tolerance: flatteningTolerance).convex
        }
        let rect = CGRect(x: 10, y: 10, width: 50, height: 30)
        let transforms = [CGAffineTransform.identity, CGAffineTransform(rotationAngle: 0.7), CGAffineTransform(scaleX: -1, y: 3),
                          CGAffineTransform(a: 1, b: 0.4, c: -0.9, d: 0.2, tx: 5, ty: -8)]
        let shapes = [Path(ellipseIn: rect), Path(rect), Path(roundedRect: rect, cornerRadius: 8),
                      Path(roundedRect: rect, cornerRadius: 8, style: .circular),
                      Path(roundedRect: CGRect(x: 0, y: 0, width: 80, height: 6), cornerRadius: 3),   // a capsule
                      Path(roundedRect: rect, cornerSize: CGSize(width: 25, height: 4))]
        for t in transforms {
            for shape in shapes { #expect(convex(shape, t)) }
        }
        // Squashed flat by a singular transform, each control polygon doubles back on itself
        // (a spike): not known convex before flattening (it covers nothing either way).
        for shape in shapes {
            let flat = CGAffineTransform(scaleX: 0, y: 1)
            #expect(!convex(shape, flat) && shape._convexShortcutHolds(transform: flat))
        }
        // A flattened polygon may have a spike of its own: a curve a millionth of a pixel long
        // (found by the raster fuzzer, after spikes were first failed everywhere) flattens to
        // one segment, closed back, which passes the check. Its control polygon, a triangle,
        // turns one way, but narrower than 4 tolerances it is not known convex.
        var tiny = Path()
        tiny.move(to: CGPoint(x: -20.125, y: 87.5))
        tiny.addQuadCurve(to: CGPoint(x: -0.25, y: 3.5), control: CGPoint(x: 26.125, y: 85.875))
        let shrink = CGAffineTransform(a: 1.0773487946563232e-133, b: 9.1875e-09, c: 9.1875e-09, d: 9.1875e-09, tx: 1.47e-07, ty: 1.47e-07)
        #expect(!convex(tiny, shrink) && tiny.flattenedPassesShapeCheck(transform: shrink))
        #expect(tiny._convexShortcutHolds(transform: shrink))
        // Nearly so (found by the raster fuzzer): a straight quadratic out and a bent one back,
        // squashed onto a line by a transform of determinant −1.3·10⁻⁸. Its control polygon
        // doubles back at the far end; its flattening turns both ways near the start.
        var sliver = Path()
        sliver.move(to: CGPoint(x: 2.27e-07, y: 2.27e-07))
        sliver.addQuadCurve(to: CGPoint(x: 2.27e-07, y: 81.875), control: CGPoint(x: 2.27e-07, y: 2.27e-07))
        sliver.addQuadCurve(to: CGPoint(x: 2.25e-07, y: 6.8e-08), control: CGPoint(x: 23.875, y: 1.17e-07))
        let squash = CGAffineTransform(a: 1.0773487126509996e-133, b: 9.1875e-09, c: 1.40625, d: 1.3984375, tx: 1.47e-07, ty: 1.47e-07)
        #expect(!sliver.flattenedPassesShapeCheck(transform: squash))
        #expect(!convex(sliver, squash))
        #expect(sliver._convexShortcutHolds(transform: squash))
        // A convex blob (three cubics) squashed to 1.3·10⁻⁷ px by 60 px (found by the raster
        // fuzzer, `convex-claim-thin-blob`): its control polygon passes the turn and direction
        // tests, but balancing moves its flattened vertices by far more than its width, and the
        // flattening turns back and forth at its far end. Narrower than 4 tolerances, it is not
        // known convex before flattening.
        var blob = Path()
        blob.move(to: CGPoint(x: 3.7280011429459385, y: 41.642662484624516))
        blob.addCurve(to: CGPoint(x: 41.59831099327503, y: 51.79759411320679),
                      control1: CGPoint(x: 11.390697132678639, y: 54.89233831249638),
                      control2: CGPoint(x: 28.334517737092014, y: 59.43582740579426))
        blob.addCurve(to: CGPoint(x: 51.823107483894276, y: 13.946087653535553),
                      control1: CGPoint(x: 54.86210424945804, y: 44.15936082061933),
                      control2: CGPoint(x: 59.436852070069875, y: 27.22395317293434))
        blob.addCurve(to: CGPoint(x: 13.990533304623632, y: 3.6514611177600926),
                      control1: CGPoint(x: 44.20936289771866, y: 0.6682221341367658),
                      control2: CGPoint(x: 27.28242587422479, y: -3.9377688361245013))
        let thin = CGAffineTransform(a: 2.55497313881602e-135, b: 1.1171875, c: 6.1875e-09, d: 6.1875e-09, tx: 9.9e-08, ty: 9.9e-08)
        #expect(!blob.flattenedPassesShapeCheck(transform: thin, tolerance: 0.01))
        #expect(!convex(blob, thin))
        #expect(blob._convexShortcutHolds(transform: thin))
        // The same blob unsquashed is convex before flattening and after.
        #expect(convex(blob) && blob.flattenedPassesShapeCheck())
        // A quadratic closed by a line, its control triangle squashed to 0.0018 px by 11 px
        // (from a random search of such shapes): balanced at 0.01 px, its flattening crosses
        // itself, so some pixel holds a winding of 2 or −1. Its area over its box's diagonal,
        // 0.00088 px, is below 4 tolerances: not known convex (without the rule it was).
        var hairpin = Path()
        hairpin.move(to: CGPoint(x: 46.64904723587656, y: 52.43182085218814))
        hairpin.addQuadCurve(to: CGPoint(x: 43.55345583729941, y: 38.98431848195937),
                             control: CGPoint(x: 32.709382753456424, y: 5.967987071955861))
        hairpin.closeSubpath()
        let squashed = CGAffineTransform(a: -0.15456164078208548, b: 0.17229557671200652, c: -0.11591708620473183,
                                         d: 0.1262923832635614, tx: 47.3135353480308, ty: 22.276710632655604)
        #expect(!hairpin.flattenedIsSingleWound(transform: squashed, tolerance: 0.01))
        #expect(!convex(hairpin, squashed))
        #expect(hairpin._convexShortcutHolds(transform: squashed))
        // The same counts as `flattenedSegmentCount`.
        let circle = Path(ellipseIn: rect)
        #expect(circle.flattenedSegmentCountAndShape(transform: .identity, tolerance: 0.01).count
                    == circle.flattenedSegmentCount(tolerance: 0.01))
        var apart = circle
        apart.addEllipse(in: CGRect(x: 100, y: 10, width: 20, height: 20))
        #expect(convex(apart))
        for path in Self.notSingleWound { #expect(!convex(path)) }
        // A circle wound twice turns one way but through 4π.
        var twice = Path()
        for _ in 0..<2 {
            Path(ellipseIn: rect).forEach { element in
                switch element {
                case .move(let p): if twice.isEmpty { twice.move(to: p) }
                case .curve(let p, let c1, let c2): twice.addCurve(to: p, control1: c1, control2: c2)
                default: break
                }
            }
        }
        twice.closeSubpath()
        #expect(!convex(twice))
        // A cubic whose control points zigzag (an S): its curve has an inflection.
        let s = Path { p in
            p.move(to: CGPoint(x: 0, y: 0))
            p.addCurve(to: CGPoint(x: 40, y: 40), control1: CGPoint(x: 40, y: 0), control2: CGPoint(x: 0, y: 40))
            p.closeSubpath()
        }
        #expect(!convex(s))
        #expect(!convex(ReferenceScene.s4(fillRule: .nonZero, curves: 50).ops.compactMap { op -> Path? in
            if case .fill(let path, _, _) = op { return path } else { return nil }
        }.first!))
    }

    /// Where no control point sits on or near its curve's end, more than the shortcut's claim
    /// holds: wherever a path's control polygons pass the shape check, its flattened, balanced
    /// polygon passes it too (a dent needs a curve end of zero or nearly zero speed: the next
    /// test). Random
    /// convex outlines of cubics and quadratics (control points at increasing angles on an
    /// ellipse), rounded rectangles of random corners, in random affine transforms, at
    /// tolerances from 0.0001 to 0.25 px.
    @Test func convexControlPolygonsFlattenToPolygonsTheCheckPasses() {
        var g = SceneLCG(seed: 11)
        var passed = 0
        for k in 0..<400 {
            let path: Path
            if k % 2 == 0 {
                let n = 3 * (1 + Int(g.u() * 6))
                var angles = (0..<n).map { _ in g.u() * 2 * .pi }
                angles.sort()
                let rx = 1 + g.u() * 200, ry = 1 + g.u() * 200
                let points = angles.map { CGPoint(x: rx * cos($0), y: ry * sin($0)) }
                path = Path { p in
                    p.move(to: points[0])
                    var i = 1
                    while i + 2 < n {
                        if g.u() < 0.5 {
                            p.addCurve(to: points[i + 2], control1: points[i], control2: points[i + 1])
                        } else {
                            p.addQuadCurve(to: points[i + 1], control: points[i])
                            p.addLine(to: points[i + 2])
                        }
                        i += 3
                    }
                    p.addQuadCurve(to: points[0], control: points[n - 1])
                    p.closeSubpath()
                }
            } else {
                let w = 2 + g.u() * 300, h = 2 + g.u() * 300
                path = Path(roundedRect: CGRect(x: 0, y: 0, width: w, height: h),
                            cornerSize: CGSize(width: g.u() * w / 2, height: g.u() * h / 2),
                            style: g.u() < 0.5 ? .continuous : .circular)
            }
            let t = CGAffineTransform(a: g.u() * 4 - 2, b: g.u() * 4 - 2, c: g.u() * 4 - 2, d: g.u() * 4 - 2,
                                      tx: g.u() * 500, ty: g.u() * 500)
            let tolerance = [0.0001, 0.01, 0.02, 0.1, 0.25][k % 5]
            guard path.flattenedSegmentCountAndShape(transform: t, tolerance: tolerance).convex else { continue }
            passed += 1
            #expect(path.flattenedPassesShapeCheck(transform: t, tolerance: tolerance),
                    "path \(k) at \(tolerance) px: its control polygon is convex, its flattened polygon not")
        }
        // They are convex by construction; a control polygon could fail only by rounding, where
        // its points crowd.
        #expect(passed > 300, "\(passed) of 400 passed the control-polygon check")
    }

    /// The claim the shortcut rests on (`Path.flattenedSegmentCountAndShape`) where the stronger
    /// one fails: a control point on its curve's end (as drawn paths often have) gives that end
    /// zero speed, the chords shorten towards it, and balancing may dent the flattened polygon
    /// next to it, so it fails the shape check. It stays single-wound, and the shortcut draws
    /// it as the exact tier does: within one level. Random cubics with one or both handles
    /// retracted, closed by a line or by a second cubic, in random affine transforms.
    @Test func zeroSpeedCurveEndsDentButStaySingleWound() throws {
        var g = SceneLCG(seed: 17)
        var known = 0, dented = 0, worst = 0
        let clip = PixelRect(x: 0, y: 0, width: 100, height: 100)
        for k in 0..<600 {
            func point() -> CGPoint { CGPoint(x: g.u() * 60, y: g.u() * 60) }
            let p0 = point(), p3 = point()
            let c1 = k % 3 == 1 ? p0 : point(), c2 = k % 3 == 1 ? point() : p3
            var path = Path()
            path.move(to: p0)
            path.addCurve(to: p3, control1: c1, control2: c2)
            if k % 2 == 1 { path.addCurve(to: p0, control1: point(), control2: k % 3 == 2 ? p0 : point()) }
            path.closeSubpath()
            let t = CGAffineTransform(a: g.u() * 4 - 2, b: g.u() * 4 - 2, c: g.u() * 4 - 2, d: g.u() * 4 - 2, tx: 0, ty: 0)
            let box = path.boundingRect.applying(t)
            let placed = t.concatenating(CGAffineTransform(translationX: 50 - box.midX, y: 50 - box.midY))
            let tolerance = k % 4 == 3 ? 0.25 : 0.01
            guard path.flattenedSegmentCountAndShape(transform: placed, tolerance: tolerance).convex else { continue }
            known += 1
            #expect(path.flattenedIsSingleWound(transform: placed, tolerance: tolerance), "path \(k)")
            guard !path.flattenedPassesShapeCheck(transform: placed, tolerance: tolerance) else { continue }
            dented += 1
            var masks: [[UInt8]] = []
            for shortcut in [true, false] {
                let r = Rasterizer()
                r.checksControlPolygons = shortcut
                var out = [UInt8](repeating: 0, count: clip.area)
                try r.rasterize(path, transform: placed, clip: clip, tolerance: tolerance) { m, stride, rect in
                    for y in 0..<rect.height {
                        for x in 0..<rect.width { out[(rect.y + y) * clip.width + rect.x + x] = m[y * stride + x] }
                    }
                }
                #expect(r.convexPaths == (shortcut ? 1 : 0))
                masks.append(out)
            }
            worst = max(worst, largestDifference(masks[0], masks[1]))
        }
        #expect(known > 200 && dented > 20, "\(known) known convex, \(dented) of them dented")
        #expect(worst <= 1, "largest difference \(worst) levels")
    }

    /// `SingleWoundCheck`, the property the shortcut's claim is about, on polygons whose
    /// windings are plain: convex and dented ones pass; a figure eight, a polygon whose edges
    /// touch, one folding straight back, and two contours sharing a pixel fail.
    @Test func singleWoundCheckTellsSimplePolygons() {
        func check(_ contours: [[(Double, Double)]]) -> Bool {
            var c = SingleWoundCheck()
            for contour in contours {
                c.move(contour[0].0, contour[0].1)
                for p in contour.dropFirst() { c.line(p.0, p.1) }
            }
            return c.singleWound
        }
        #expect(check([[(0, 0), (10, 0), (10, 10), (0, 10)]]))
        #expect(check([[(0, 0), (10, 0), (5, 1), (10, 10), (0, 10)]]))           // dented
        #expect(check([[(0, 0), (10, 0), (10, 0), (10, 10), (0, 10), (0, 0)]]))  // repeated points
        #expect(check([[(0, 0), (10, 0)]]))                                     // a spike
        #expect(!check([[(0, 0), (10, 10), (10, 0), (0, 10)]]))                 // a figure eight
        #expect(!check([[(0, 0), (10, 0), (5, 5), (10, 10), (0, 10), (5, 5)]]))  // touching at (5, 5)
        #expect(!check([[(0, 0), (10, 0), (5, 0), (5, 10)]]))                   // folding back
        #expect(check([[(0, 0), (10, 0), (10, 10)], [(20, 0), (30, 0), (30, 10)]]))
        #expect(!check([[(0, 0), (10, 0), (10, 10)], [(11, 0), (20, 0), (20, 10)]]))   // a pixel apart
        // A point and a spike beside a contour (the fuzzer's paths end with a lone move).
        #expect(check([[(0, 0), (10, 0), (10, 10)], [(5, 1)], [(4, 1), (6, 1)]]))
    }

    /// Paths of lines only are their own control polygons: the verdict before flattening is
    /// the verdict after, so the rasterizer does not check again where the first failed.
    /// Random polygons (convex ones, stars, zigzags) and stroke outlines of random cubics.
    @Test func polygonsGetTheSameVerdictBeforeAndAfterFlattening() {
        var g = SceneLCG(seed: 13)
        var verdicts = [0, 0]
        for k in 0..<300 {
            let path: Path
            switch k % 3 {
            case 0:
                let n = 3 + Int(g.u() * 20), spikes = g.u() < 0.5
                path = Path { p in
                    p.addLines((0..<n).map { i in
                        let a = Double(i) * 2 * .pi / Double(n), r = spikes && i % 2 == 1 ? 20 + g.u() * 30 : 50.0
                        return CGPoint(x: 100 + r * cos(a), y: 100 + r * sin(a))
                    })
                    p.closeSubpath()
                }
            case 1:
                path = Path { p in
                    p.addLines((0..<(3 + Int(g.u() * 10))).map { _ in CGPoint(x: g.u() * 200, y: g.u() * 200) })
                    p.closeSubpath()
                }
            default:
                let curve = Path { p in
                    p.move(to: CGPoint(x: g.u() * 200, y: g.u() * 200))
                    p.addCurve(to: CGPoint(x: g.u() * 200, y: g.u() * 200), control1: CGPoint(x: g.u() * 200, y: g.u() * 200),
                               control2: CGPoint(x: g.u() * 200, y: g.u() * 200))
                }
                path = curve.strokedPath(StrokeStyle(lineWidth: 1 + g.u() * 8))
            }
            let before = path.flattenedSegmentCountAndShape(transform: .identity, tolerance: flatteningTolerance)
            #expect(!before.curves)
            let after = path.flattenedPassesShapeCheck()
            #expect(before.convex == after, "path \(k)")
            verdicts[after ? 1 : 0] += 1
        }
        // Both verdicts occur.
        #expect(verdicts[0] > 50 && verdicts[1] > 50, "\(verdicts)")
    }

    /// Paths known convex before flattening draw what the shape check after flattening lets
    /// the cells draw: within one level (the exact tier's vertex perturbation, which the
    /// shortcut leaves out, moves a fixed-point vertex by one step now and then).
    @Test func convexPathsDrawAsWhenCheckedAfterFlattening() throws {
        var g = SceneLCG(seed: 5)
        var worst = 0
        for k in 0..<40 {
            let w = 3 + g.u() * 90, h = 3 + g.u() * 90
            let rect = CGRect(x: -w / 2, y: -h / 2, width: w, height: h)
            let shape = k % 2 == 0 ? Path(ellipseIn: rect) : Path(roundedRect: rect, cornerRadius: min(w, h) * g.u() / 2)
            let t = CGAffineTransform(rotationAngle: g.u() * 2 * .pi).concatenating(CGAffineTransform(translationX: 60, y: 60))
            let clip = PixelRect(x: 0, y: 0, width: 120, height: 120)
            var masks: [[UInt8]] = []
            for shortcut in [true, false] {
                let r = Rasterizer()
                r.checksControlPolygons = shortcut
                var out = [UInt8](repeating: 0, count: clip.area)
                try r.rasterize(shape, transform: t, clip: clip) { m, stride, rect in
                    for y in 0..<rect.height {
                        for x in 0..<rect.width { out[(rect.y + y) * clip.width + rect.x + x] = m[y * stride + x] }
                    }
                }
                #expect(r.cellPaths == 1 && r.convexPaths == (shortcut ? 1 : 0))
                masks.append(out)
            }
            worst = max(worst, largestDifference(masks[0], masks[1]))
        }
        #expect(worst <= 1, "largest difference \(worst) levels")
    }

    /// `.fast` fills flattened for the cells alone (`CellEdgeBuilder`, without the exact tier's
    /// vertex perturbation and contour numbers) draw what they drew through `EdgeBuilder`:
    /// within one level (the perturbation moved a fixed-point vertex by one step now and then:
    /// 18 of S4-nz-fast's million pixels, none of these), at the same precision. Stroke outlines of random cubics (S5's kind: the check fails where
    /// an outline crosses itself, passes on gentle ones) and self-crossing paths (S4's kind),
    /// both rules.
    @Test func fastFillsDrawAsThroughTheExactTiersFlattening() throws {
        var g = SceneLCG(seed: 11)
        var worst = 0, differing = 0
        let clip = PixelRect(x: 0, y: 0, width: 160, height: 160)
        for k in 0..<40 {
            var curve = Path()
            curve.move(to: CGPoint(x: g.u() * 160, y: g.u() * 160))
            for _ in 0..<(k % 2 == 0 ? 1 : 6) {
                curve.addCurve(to: CGPoint(x: g.u() * 160, y: g.u() * 160), control1: CGPoint(x: g.u() * 160, y: g.u() * 160),
                               control2: CGPoint(x: g.u() * 160, y: g.u() * 160))
            }
            let stroke = k % 2 == 0
            let shape = stroke ? curve.strokedPath(StrokeStyle(lineWidth: 1 + g.u() * 7)) : curve
            let rule: FillRule = k % 4 < 2 ? .nonZero : .evenOdd
            var masks: [[UInt8]] = []
            for forCells in [true, false] {
                let r = Rasterizer()
                r.flattensFastFillsForCells = forCells
                var out = [UInt8](repeating: 0, count: clip.area)
                try r.rasterize(shape, fillRule: rule, clip: clip, quality: .fast, solid: nil) { m, stride, rect in
                    for y in 0..<rect.height {
                        for x in 0..<rect.width { out[(rect.y + y) * clip.width + rect.x + x] = m[y * stride + x] }
                    }
                }
                #expect(r.cellPaths == 1 && r.fastCellPaths == (forCells ? 1 : 0))
                masks.append(out)
            }
            worst = max(worst, largestDifference(masks[0], masks[1]))
            differing += zip(masks[0], masks[1]).filter { $0 != $1 }.count
            #expect(masks[0].contains { $0 > 0 })
        }
        #expect(worst <= 1, "largest difference \(worst) levels")
        // Most pixels are the same bytes: the two ways differ by the perturbation alone.
        #expect(differing < 40 * clip.area / 1000, "\(differing) pixels differ")
    }

    /// Segments inside the region become fixed-point edges in C (`raster_fix_inside_segments`)
    /// exactly as the Swift clip makes them: the same edges, in the same order, with AVX2 and
    /// without, at both precisions. The segments mix ends inside, on the region's sides and
    /// corners, outside it on every side, flat ones, ones flat only once rounded, and vertical
    /// ones on the right side (which cover nothing inside and are dropped).
    @Test(.serialized, arguments: [cellShiftSimple, cellShiftFast]) func insideSegmentsConvertTheSameInC(shift: Int) throws {
        let width = 57, height = 31
        var g = SceneLCG(seed: UInt32(shift))
        let origin = (x: 3.25, y: -2.0)
        func coordinate(_ extent: Int, _ offset: Double) -> Double {
            switch g.next() % 8 {
            case 0: return offset   // the region's left or top side
            case 1: return offset + Double(extent)   // its right or bottom side
            case 2: return offset - 1 - g.u() * 5   // outside, before it
            case 3: return offset + Double(extent) + g.u() * 5   // outside, after it
            default: return offset + g.u() * Double(extent)
            }
        }
        var segments: [Double] = []
        for k in 0..<4000 {
            // Two in three inside, as a path's flattening mostly gives them.
            var e = k % 3 == 0
                ? [coordinate(width, origin.x), coordinate(height, origin.y), coordinate(width, origin.x), coordinate(height, origin.y)]
                : [origin.x + g.u() * Double(width), origin.y + g.u() * Double(height),
                   origin.x + g.u() * Double(width), origin.y + g.u() * Double(height)]
            switch k % 10 {
            case 0: e[3] = e[1]   // flat
            case 1: e[3] = e[1] + 1e-5   // flat once rounded to 2⁻¹² or 2⁻¹⁰ px
            case 2: e[2] = e[0]   // vertical
            default: break
            }
            segments += e
        }
        // Vertical segments on the right side, inside in y.
        segments += [origin.x + Double(width), origin.y + 3, origin.x + Double(width), origin.y + 9]
        func edges(avx2: Bool) -> [[Int32]] {
            withAVX2(avx2) { _ in
                let cells = CellRasterizer()
                cells.begin(width: width, height: height, shift: shift)
                segments.withUnsafeBufferPointer { cells.add(segments: $0, origin: origin) }
                let e = cells.edgeView
                return (0..<e.count).map { [e[$0].x0, e[$0].y0, e[$0].x1, e[$0].y1, e[$0].dir] }
            }
        }
        let inC = edges(avx2: true), inSwift = edges(avx2: false)
        #expect(inC.count > 2000)
        #expect(inC.count == inSwift.count)
        let first = (0..<min(inC.count, inSwift.count)).first { inC[$0] != inSwift[$0] }
        #expect(first == nil, "edge \(first ?? 0): \(first.map { inC[$0] } ?? []) in C, \(first.map { inSwift[$0] } ?? []) in Swift")
        // The right side's vertical segment is dropped both ways.
        let right = Int32(width << shift)
        #expect(!inC.contains { $0[0] == right && $0[2] == right })
    }

    /// The fused compositor against pixman: the same coverage (the cells' mask) composited
    /// by pixman's OVER through an A8 image gives the same bytes as `Canvas.fill`, on random
    /// backgrounds, colours, opacities and both 8-bit formats. pixman's arithmetic is
    /// `over_n_8_8888`'s, which the kernels repeat operation for operation.
    ///
    /// Long constant spans go to the AVX2 kernel where the CPU has it: the test runs with it
    /// allowed and not (`raster_kernels_use_avx2`), and both must equal pixman.
    @Test(.serialized, arguments: [PixelFormat.argb32, .xrgb32], [true, false]) func fusedFillsEqualPixman(format: PixelFormat, avx2: Bool) throws {
        try withAVX2(avx2) { _ in
            var g = SceneLCG(seed: 3)
            for k in 0..<24 {
                let fused = try Surface(width: 97, height: 61, format: format)
                let reference = try Surface(width: 97, height: 61, format: format)
                for s in [fused, reference] {
                    s.withUnsafeMutableBytes { bytes in
                        var h = SceneLCG(seed: UInt32(k + 100))
                        for i in 0..<bytes.count { bytes[i] = UInt8(truncatingIfNeeded: h.next() >> 24) }
                    }
                }
                // Keep the backgrounds valid premultiplied pixels (channels ≤ alpha).
                for s in [fused, reference] where format == .argb32 {
                    s.withUnsafeMutableBytes { bytes in
                        let px = bytes.bindMemory(to: UInt32.self)
                        for i in 0..<px.count {
                            let a = px[i] >> 24
                            let c = { (v: UInt32) in min(v & 0xff, a) }
                            px[i] = a << 24 | c(px[i] >> 16) << 16 | c(px[i] >> 8) << 8 | c(px[i])
                        }
                    }
                }
                let alpha = k % 3 == 0 ? 1 : g.u()
                let color = Color(red: g.u(), green: g.u(), blue: g.u(), opacity: alpha)
                let opacity = k % 4 == 0 ? 1 : g.u()
                let shape = Path(ellipseIn: CGRect(x: g.u() * 40 - 10, y: g.u() * 30 - 10, width: 20 + g.u() * 80, height: 10 + g.u() * 60))
                let rule: FillRule = k % 2 == 0 ? .nonZero : .evenOdd
                try Canvas(fused).fill(shape, with: .color(color), fillRule: rule, opacity: opacity)
                let coverage = try Surface(width: 97, height: 61, format: .a8)
                try Rasterizer().rasterize(shape, fillRule: rule, clip: coverage.bounds, opacity: opacity) { m, stride, rect in
                    for y in 0..<rect.height {
                        memcpy(coverage.data + (rect.y + y) * coverage.stride + rect.x, m + y * stride, rect.width)
                    }
                }
                var c = pixmanColor(premultiplied: color, for: format)
                let solid = try #require(pixman_image_create_solid_fill(&c))
                pixman_image_composite32(PIXMAN_OP_OVER, solid, coverage.image, reference.image, 0, 0, 0, 0, 0, 0, 97, 61)
                pixman_image_unref(solid)
                let a = fused.withUnsafeMutableBytes { Array($0) }, b = reference.withUnsafeMutableBytes { Array($0) }
                #expect(a == b, "case \(k)")
            }
        }
    }
}
