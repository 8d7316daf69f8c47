import Foundation
import Testing
@testable import Compositor
import ReferenceScenes

/// `CoverageQuality.fast` (accumulation everywhere) against `.exact`: the same bytes wherever a
/// pixel holds winding numbers that differ by at most one, within 2 levels on strokes (whose
/// outline pieces all wind one way), and an error of about a level on the self-crossing S4.
@Suite struct CoverageQualityTests {
    private func mask(_ path: Path, _ rule: FillRule, _ quality: CoverageQuality, width: Int, height: Int,
                      cells: Bool = true) throws -> [UInt8] {
        let r = Rasterizer()
        r.coverageQuality = quality
        r.usesCells = cells
        var out = [UInt8](repeating: 0, count: width * height)
        try r.rasterize(path, fillRule: rule, clip: PixelRect(x: 0, y: 0, width: width, height: height)) { m, stride, rect in
            for y in 0..<rect.height { for x in 0..<rect.width { out[(rect.y + y) * width + rect.x + x] = m[y * stride + x] } }
        }
        return out
    }

    /// Circles and rounded rectangles, each alone (one chain per row: at most two adjacent
    /// windings in any pixel), under both rules: `.fast` (the cell rasterizer at 22.10 fixed
    /// point) within 1 level of the exact strip resolver, the difference being the cells'
    /// fixed-point rounding. (Where two separate shapes' edges meet inside one pixel, windings
    /// 0, 1 and 2 share it and fast differs: two circles crossing measured 17 levels at the
    /// crossing pixels.)
    @Test(arguments: [FillRule.nonZero, .evenOdd]) func simpleShapesAreWithinALevel(rule: FillRule) throws {
        var g = SceneLCG(seed: 11)
        for k in 0..<40 {
            let x = g.u() * 150, y = g.u() * 150, r = 2 + g.u() * 40
            let shape = k % 2 == 0 ? Path(ellipseIn: CGRect(x: x, y: y, width: r, height: r * (0.5 + g.u())))
                : Path(roundedRect: CGRect(x: x, y: y, width: r * 1.5, height: r), cornerRadius: 6)
            let exact = try mask(shape, rule, .exact, width: 200, height: 200, cells: false)
            let fast = try mask(shape, rule, .fast, width: 200, height: 200)
            #expect(zip(exact, fast).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "shape \(k)")
        }
    }

    /// The winding numbers of `polygons` (closed) at `n` × `n` points spread over pixel (x, y):
    /// the pixel's rows of points each crossed by the edges that span them. `rows` holds the
    /// edges by the pixel row they touch.
    private func windings(_ rows: [[(CGPoint, CGPoint)]], x: Int, y: Int, n: Int) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(n * n)
        for sy in 0..<n {
            let py = Double(y) + (Double(sy) + 0.5) / Double(n)
            var crossings: [(x: Double, w: Int)] = []
            for (a, b) in rows[y] where (a.y <= py) != (b.y <= py) {
                crossings.append((a.x + (py - a.y) / (b.y - a.y) * (b.x - a.x), b.y > a.y ? 1 : -1))
            }
            for sx in 0..<n {
                let px = Double(x) + (Double(sx) + 0.5) / Double(n)
                out.append(crossings.reduce(0) { $0 + ($1.x < px ? $1.w : 0) })
            }
        }
        return out
    }

    /// Random cubics stroked 1 to 20 px wide with every join and cap, fast against exact: the
    /// property of RASTER.md §3.3, fact 2, checked pixel by pixel where they differ by more
    /// than 2 levels. A stroke's outline winds one way (within any pixel every winding number
    /// has one sign, so accumulation never cancels), and accumulation then overestimates by the
    /// area covered more than once, ∫ max(|w| − 1, 0), and only where such an area shares the
    /// pixel with an uncovered one: fast − exact lies between −2 and 255 times that area
    /// (sampled 64 × 64 in the pixel) plus 2 and the sampling's error (8 levels).
    ///
    /// So fast is within 2 levels of exact except where a stroke crosses or folds over itself
    /// next to its edge: random cubics do both (loops, tight turns), and there it measured up
    /// to 117 levels off. (This test replaces one that recorded those pixels as a known issue
    /// and blamed reversed loops; sampling their windings showed one sign, 0 to ±2.)
    @Test(arguments: 0..<8) func strokesAreOffOnlyWhereTheyCoverAPixelTwice(seed: Int) throws {
        var g = SceneLCG(seed: UInt32(seed) + 100)
        let size = 200
        var checked = 0, within2 = 0, inked = 0
        for k in 0..<6 {
            var path = Path()
            path.move(to: CGPoint(x: g.u() * 160 + 20, y: g.u() * 160 + 20))
            for _ in 0..<3 {
                path.addCurve(to: CGPoint(x: g.u() * 160 + 20, y: g.u() * 160 + 20),
                              control1: CGPoint(x: g.u() * 200, y: g.u() * 200), control2: CGPoint(x: g.u() * 200, y: g.u() * 200))
            }
            let joins: [CGLineJoin] = [.miter, .round, .bevel], caps: [CGLineCap] = [.butt, .round, .square]
            let style = StrokeStyle(lineWidth: 1 + g.u() * 19, lineCap: caps[k % 3], lineJoin: joins[(k + seed) % 3])
            let outline = path.strokedPath(style)
            let exact = try mask(outline, .nonZero, .exact, width: size, height: size)
            let fast = try mask(outline, .nonZero, .fast, width: size, height: size)
            // The outline's edges (it is all lines) by the pixel rows they touch.
            var rows = [[(CGPoint, CGPoint)]](repeating: [], count: size)
            var start = CGPoint.zero, last = CGPoint.zero
            func edge(_ a: CGPoint, _ b: CGPoint) {
                guard a.y != b.y else { return }
                let lo = max(0, Int(floor(min(a.y, b.y)))), hi = min(size - 1, Int(floor(max(a.y, b.y))))
                if lo <= hi { for r in lo...hi { rows[r].append((a, b)) } }
            }
            outline.forEach { element in
                switch element {
                case .move(let p): edge(last, start); start = p; last = p
                case .line(let p): edge(last, p); last = p
                case .closeSubpath: edge(last, start); last = start
                default: Issue.record("a stroke's outline holds only lines")
                }
            }
            edge(last, start)
            for i in 0..<(size * size) where exact[i] > 0 || fast[i] > 0 {
                inked += 1
                let d = Int(fast[i]) - Int(exact[i])
                if abs(d) <= 2 { within2 += 1; continue }
                checked += 1
                let w = windings(rows, x: i % size, y: i / size, n: 64)
                let positive = w.contains { $0 > 0 }, negative = w.contains { $0 < 0 }
                #expect(!(positive && negative), "seed \(seed) stroke \(k) pixel \(i % size), \(i / size): windings of both signs")
                let twice = Double(w.reduce(0) { $0 + max(abs($1) - 1, 0) }) / Double(w.count)
                #expect(d >= -2 && Double(d) <= 255 * twice + 2 + 8,
                        "seed \(seed) stroke \(k) pixel \(i % size), \(i / size): fast − exact = \(d), twice-covered \(twice)")
            }
        }
        // Most pixels agree within 2 levels (measured: 99.1–99.6 % of the inked pixels, 100–197 pixels checked per seed).
        #expect(Double(within2) / Double(inked) > 0.98, "seed \(seed): \(within2) of \(inked) within 2, \(checked) checked")
    }

    /// Strokes that never cover a pixel twice (arcs of 20–80 px radius turning 90° to 270°,
    /// at most half the radius wide, every cap and join, and gentle cubics) are within 2 levels
    /// fast against exact, on every pixel: the issue's property where its premise holds.
    @Test(arguments: 0..<8) func strokesThatDoNotOverlapThemselvesAreWithinTwoLevels(seed: Int) throws {
        var g = SceneLCG(seed: UInt32(seed) + 300)
        var worst = 0
        for k in 0..<8 {
            var path = Path()
            let radius = 20 + g.u() * 60
            let centre = CGPoint(x: 100 + g.u() * 20 - 10, y: 100 + g.u() * 20 - 10)
            if k % 2 == 0 {
                let from = g.u() * 2 * .pi
                // Half a turn to three quarters, either way (the other way round is then also at
                // most three quarters: its ends stay apart).
                path.addArc(center: centre, radius: radius, startAngle: .radians(from), endAngle: .radians(from + (0.5 + g.u()) * .pi),
                            clockwise: g.u() < 0.5)
            } else {
                // A gentle cubic: controls a third of the way along, pushed aside by at most a fifth.
                let a = CGPoint(x: 20 + g.u() * 40, y: 20 + g.u() * 160), b = CGPoint(x: 140 + g.u() * 40, y: 20 + g.u() * 160)
                let push = { (t: Double) in CGPoint(x: a.x + (b.x - a.x) * t + (g.u() - 0.5) * 0.4 * (b.y - a.y),
                                                    y: a.y + (b.y - a.y) * t + (g.u() - 0.5) * 0.4 * (b.x - a.x)) }
                path.move(to: a)
                path.addCurve(to: b, control1: push(1.0 / 3), control2: push(2.0 / 3))
            }
            let joins: [CGLineJoin] = [.miter, .round, .bevel], caps: [CGLineCap] = [.butt, .round, .square]
            let style = StrokeStyle(lineWidth: 1 + g.u() * (radius / 2 - 1), lineCap: caps[k % 3], lineJoin: joins[(k + seed) % 3])
            let outline = path.strokedPath(style)
            let exact = try mask(outline, .nonZero, .exact, width: 200, height: 200)
            let fast = try mask(outline, .nonZero, .fast, width: 200, height: 200)
            worst = max(worst, zip(exact, fast).map { abs(Int($0) - Int($1)) }.max() ?? 0)
        }
        #expect(worst <= 2, "seed \(seed): \(worst) levels")
    }

    /// S4's 2,000 self-crossing cubics, blue on white as the scene draws them: fast is not
    /// exact there. Measured: masks a mean of 1.67 levels apart (max 249, 42,735 pixels more
    /// than 4 apart), the images 0.64 over their four channels (`bench --reference S4-nz-fast`:
    /// 0.64 against the exact reference too). The issue's bound, a mean of at most 1.0 over
    /// the image's channels, holds.
    @Test func theSelfCrossingSceneIsAboutALevelOffUnderNonZero() throws {
        var scene = ReferenceScene.s4(fillRule: .nonZero)
        let exact = try ReferenceRenderer(width: scene.width, height: scene.height)
        try exact.render(scene)
        scene.coverageQuality = .fast
        let fast = try ReferenceRenderer(width: scene.width, height: scene.height)
        try fast.render(scene)
        var sum = 0, differing = 0
        for y in 0..<scene.height {
            for x in 0..<scene.width {
                let a = exact.surface.pixel(x: x, y: y), b = fast.surface.pixel(x: x, y: y)
                let d = abs(Int(a.r) - Int(b.r)) + abs(Int(a.g) - Int(b.g)) + abs(Int(a.b) - Int(b.b)) + abs(Int(a.a) - Int(b.a))
                sum += d
                if d > 0 { differing += 1 }
            }
        }
        let mean = Double(sum) / Double(4 * scene.width * scene.height)
        #expect(differing > 0 && mean <= 1.0, "mean \(mean)")
    }
}
