import Compositor
import Foundation
import Testing

/// Flattened edges of a path, for fast point queries in the property tests.
struct EdgeSet {
    var edges: [(Double, Double, Double, Double)] = []

    init(_ path: Path, tolerance: Double = booleanTolerance) {
        var sx = 0.0, sy = 0.0, lx = 0.0, ly = 0.0
        var collected: [(Double, Double, Double, Double)] = []
        path.flattenForTests(tolerance: tolerance,
                             moveTo: { x, y in sx = x; sy = y; lx = x; ly = y },
                             lineTo: { x, y in collected.append((lx, ly, x, y)); lx = x; ly = y },
                             close: { collected.append((lx, ly, sx, sy)); lx = sx; ly = sy })
        edges = collected
    }

    func winding(_ px: Double, _ py: Double) -> Int {
        var w = 0
        for (x0, y0, x1, y1) in edges {
            if y0 <= py {
                if y1 > py, (x1 - x0) * (py - y0) - (px - x0) * (y1 - y0) > 0 { w += 1 }
            } else if y1 <= py, (x1 - x0) * (py - y0) - (px - x0) * (y1 - y0) < 0 {
                w -= 1
            }
        }
        return w
    }

    func contains(_ px: Double, _ py: Double, eoFill: Bool) -> Bool {
        let w = winding(px, py)
        return eoFill ? w % 2 != 0 : w != 0
    }

    /// Whether any edge passes within `d` of the point.
    func near(_ px: Double, _ py: Double, _ d: Double) -> Bool {
        for (x0, y0, x1, y1) in edges {
            let ex = x1 - x0, ey = y1 - y0
            let len2 = ex * ex + ey * ey
            let t = len2 > 0 ? max(0, min(1, ((px - x0) * ex + (py - y0) * ey) / len2)) : 0
            let dx = x0 + t * ex - px, dy = y0 + t * ey - py
            if dx * dx + dy * dy <= d * d { return true }
        }
        return false
    }

    /// Signed area (shoelace): contours clockwise on screen count positive.
    var area: Double {
        edges.reduce(0) { $0 + ($1.0 * $1.3 - $1.2 * $1.1) } / 2
    }
}

extension Path {
    /// `flatten` for the tests (its closing callback without the flag).
    func flattenForTests(tolerance: Double, moveTo: (Double, Double) -> Void, lineTo: (Double, Double) -> Void, close: () -> Void) {
        var started = false, sx = 0.0, sy = 0.0, lx = 0.0, ly = 0.0
        // Curves as polylines of 8 steps: for the operands' circles (r ≤ 12, quarter arcs) the
        // chords stray under 0.06 from the curve, far inside the tests' one-unit margin.
        forEach { element in
            switch element {
            case .move(let p):
                if started { close() }
                moveTo(p.x, p.y); sx = p.x; sy = p.y; lx = p.x; ly = p.y; started = true
            case .line(let p):
                lineTo(p.x, p.y); lx = p.x; ly = p.y
            case .quadCurve(let p, let c):
                let n = 8
                for i in 1...n {
                    let t = Double(i) / Double(n), u = 1 - t
                    lineTo(u * u * lx + 2 * u * t * c.x + t * t * p.x, u * u * ly + 2 * u * t * c.y + t * t * p.y)
                }
                lx = p.x; ly = p.y
            case .curve(let p, let c1, let c2):
                let n = 8
                let x0 = lx, y0 = ly
                for i in 1...n {
                    let t = Double(i) / Double(n), u = 1 - t
                    lineTo(u * u * u * x0 + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * p.x,
                           u * u * u * y0 + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t * t * t * p.y)
                }
                lx = p.x; ly = p.y
            case .closeSubpath:
                if started { close() }
                started = false
                lx = sx; ly = sy
            }
        }
        if started { close() }
    }
}

/// The SCENES.md LCG, for reproducible random operands.
struct LCG {
    var state: UInt32
    mutating func next() -> UInt32 { state = state &* 1664525 &+ 1013904223; return state }
    mutating func unit() -> Double { Double(next()) / 4294967296 }
    mutating func range(_ a: Double, _ b: Double) -> Double { a + (b - a) * unit() }
}

/// Random operands in [0, 32]²: star-shaped polygons, circles, rounded rectangles,
/// self-intersecting stars, rectangles on a coarse grid (so they share edges, overlap
/// collinearly and touch at corners), and polygons of random vertices in random order (tangles
/// of self-crossings, vertices on a grid so that edges also meet at shared points).
func randomOperand(_ g: inout LCG) -> Path {
    switch g.next() % 6 {
    case 5:
        var p = Path()
        p.addLines((0..<(4 + Int(g.next() % 12))).map { _ in CGPoint(x: Double(g.next() % 9) * 4, y: Double(g.next() % 9) * 4) })
        p.closeSubpath()
        return p
    case 0:
        let n = 3 + Int(g.next() % 10)
        let cx = g.range(8, 24), cy = g.range(8, 24)
        var points: [CGPoint] = []
        for i in 0..<n {
            let a = (Double(i) + g.range(0, 0.8)) / Double(n) * 2 * .pi
            let r = g.range(2, 12)
            points.append(CGPoint(x: cx + r * cos(a), y: cy + r * sin(a)))
        }
        var p = Path()
        p.addLines(points)
        p.closeSubpath()
        return p
    case 1:
        let r = g.range(2, 12)
        return Path(ellipseIn: CGRect(x: g.range(0, 32 - 2 * r), y: g.range(0, 32 - 2 * r), width: 2 * r, height: 2 * r))
    case 2:
        let w = g.range(4, 24), h = g.range(4, 24)
        return Path(roundedRect: CGRect(x: g.range(0, 32 - w), y: g.range(0, 32 - h), width: w, height: h), cornerRadius: g.range(0, 6))
    case 3:
        // {n/k} stars: every k-th of n points, crossing itself.
        let (n, k) = [(5, 2), (7, 3), (7, 2), (8, 3)][Int(g.next() % 4)]
        let cx = g.range(10, 22), cy = g.range(10, 22), r = g.range(4, 10)
        var p = Path()
        p.addLines((0..<n).map { i in
            let a = Double(i * k) / Double(n) * 2 * .pi
            return CGPoint(x: cx + r * cos(a), y: cy + r * sin(a))
        })
        p.closeSubpath()
        return p
    default:
        let x = Double(g.next() % 4) * 8, y = Double(g.next() % 4) * 8
        let w = Double(1 + g.next() % 3) * 8, h = Double(1 + g.next() % 3) * 8
        return Path(CGRect(x: x, y: y, width: w, height: h))
    }
}

@Suite struct PathBooleanTests {
    typealias Op = (name: String, apply: @Sendable (Path, Path, Bool) -> Path, truth: @Sendable (Bool, Bool) -> Bool)
    static let ops: [Op] = [
        ("union", { $0.union($1, eoFill: $2) }, { $0 || $1 }),
        ("intersection", { $0.intersection($1, eoFill: $2) }, { $0 && $1 }),
        ("subtracting", { $0.subtracting($1, eoFill: $2) }, { $0 && !$1 }),
        ("symmetricDifference", { $0.symmetricDifference($1, eoFill: $2) }, { $0 != $1 }),
    ]

    /// 10,000 seeded pairs in ten parallel batches. For each pair and each operation, at the
    /// centres of a 16 × 16 grid over the operands' square, the result (under both fill rules,
    /// which must agree) holds exactly where the operation of the operands holds, except within
    /// one unit of an operand's edge; and the areas obey
    /// |A ∪ B| + |A ∩ B| = |A| + |B|, |A − B| = |A| − |A ∩ B| and |A △ B| = |A ∪ B| − |A ∩ B|
    /// within 1e-6 relative.
    @Test(arguments: 0..<10) func randomPairsAgreeWithTheSetOperation(batch: Int) {
        var g = LCG(state: UInt32(batch * 7919 + 1))
        var failures = 0
        for pair in 0..<1000 {
            var a = randomOperand(&g), b = randomOperand(&g)
            switch pair % 50 {
            case 0: b = a                        // identical operands
            case 1: b = Path()                   // an empty operand
            default: break
            }
            let eoFill = g.next() % 2 == 0
            let ea = EdgeSet(a), eb = EdgeSet(b)
            // The samples away from every operand edge, and the operands' state there.
            var samples: [(x: Double, y: Double, inA: Bool, inB: Bool)] = []
            for i in 0..<16 {
                for j in 0..<16 {
                    let x = Double(i) * 2 + 1.03, y = Double(j) * 2 + 0.97
                    if ea.near(x, y, 1) || eb.near(x, y, 1) { continue }
                    samples.append((x, y, ea.contains(x, y, eoFill: eoFill), eb.contains(x, y, eoFill: eoFill)))
                }
            }
            var areas: [String: Double] = [:]
            for op in Self.ops {
                let result = op.apply(a, b, eoFill)
                let er = EdgeSet(result)
                areas[op.name] = er.area
                for (x, y, inA, inB) in samples {
                    do {
                        let want = op.truth(inA, inB)
                        let w = er.winding(x, y)
                        let nonZero = w != 0, evenOdd = w % 2 != 0
                        if nonZero != want || evenOdd != want {
                            failures += 1
                            if failures <= 3 { Issue.record("batch \(batch) pair \(pair) \(op.name) eo \(eoFill) at (\(x), \(y)): want \(want), non-zero \(nonZero), even-odd \(evenOdd)\nA \(a)\nB \(b)") }
                        }
                    }
                }
            }
            let areaA = EdgeSet(a.normalized(eoFill: eoFill)).area, areaB = EdgeSet(b.normalized(eoFill: eoFill)).area
            let u = areas["union"]!, i = areas["intersection"]!, d = areas["subtracting"]!, x = areas["symmetricDifference"]!
            let scale = max(1, areaA + areaB)
            if abs(u + i - areaA - areaB) > 1e-6 * scale || abs(d - (areaA - i)) > 1e-6 * scale || abs(x - (u - i)) > 1e-6 * scale
                || min(u, i, d, x) < -1e-9 * scale {
                failures += 1
                if failures <= 3 { Issue.record("batch \(batch) pair \(pair): areas A \(areaA) B \(areaB) ∪ \(u) ∩ \(i) − \(d) △ \(x)") }
            }
        }
        #expect(failures == 0)
    }

    @Test func resultsAreClosedAndConsistentlyOriented() {
        // Two overlapping squares with a hole: the union is one outer contour (positive area,
        // clockwise on screen) and one hole (negative).
        let outer = Path(CGRect(x: 0, y: 0, width: 20, height: 20))
        let hole = Path(CGRect(x: 5, y: 5, width: 10, height: 10))
        let ring = outer.subtracting(hole)
        var contours: [Double] = []
        var current: [CGPoint] = []
        ring.forEach { element in
            switch element {
            case .move(let p): current = [p]
            case .line(let p): current.append(p)
            case .closeSubpath:
                let n = current.count
                contours.append((0..<n).reduce(0.0) { $0 + current[$1].x * current[($1 + 1) % n].y - current[($1 + 1) % n].x * current[$1].y } / 2)
            default: Issue.record("a boolean result has only lines")
            }
        }
        #expect(contours.sorted() == [-100, 400])
        // Shared edges: two squares side by side unite into one rectangle of 4 corners.
        let left = Path(CGRect(x: 0, y: 0, width: 10, height: 10)), right = Path(CGRect(x: 10, y: 0, width: 10, height: 10))
        #expect(left.union(right).elements.filter { if case .line = $0 { true } else { false } }.count == 3)
        #expect(EdgeSet(left.union(right)).area == 200)
        // Touching at a corner only: two separate contours, nothing in common.
        let diagonal = Path(CGRect(x: 10, y: 10, width: 10, height: 10))
        #expect(EdgeSet(left.union(diagonal)).area == 200)
        #expect(left.intersection(diagonal).isEmpty)
        // Empty and identical operands.
        #expect(left.union(Path()) == left.normalized(eoFill: false))
        #expect(left.subtracting(left).isEmpty && EdgeSet(left.intersection(left)).area == 100)
    }

    /// The plate of the issue: a 200 × 120 rounded rectangle (radius 24) with a round hole of
    /// radius 20: its area is the rounded rectangle's minus π·20², within 0.1 %.
    @Test func thePlateHasTheAnalyticArea() {
        let plate = Path(roundedRect: CGRect(x: 0, y: 0, width: 200, height: 120), cornerRadius: 24, style: .circular)
        let hole = Path(ellipseIn: CGRect(x: 12, y: 12, width: 40, height: 40))
        let result = plate.subtracting(hole)
        // Circular corners: 200·120 − (4 − π)·24².
        let expected = 200 * 120 - (4 - Double.pi) * 24 * 24 - Double.pi * 20 * 20
        #expect(abs(EdgeSet(result).area - expected) / expected < 0.001)
    }

    @Test func linesAreClippedNotFilled() {
        var line = Path()
        line.move(to: CGPoint(x: -10, y: 5))
        line.addLine(to: CGPoint(x: 30, y: 5))
        let square = Path(CGRect(x: 0, y: 0, width: 10, height: 10))
        // Inside: the piece from x 0 to 10; outside: the two pieces beyond.
        #expect(line.lineIntersection(square).elements == [.move(to: CGPoint(x: 0, y: 5)), .line(to: CGPoint(x: 10, y: 5))])
        #expect(line.lineSubtraction(square).elements == [.move(to: CGPoint(x: -10, y: 5)), .line(to: CGPoint(x: 0, y: 5)),
                                                           .move(to: CGPoint(x: 10, y: 5)), .line(to: CGPoint(x: 30, y: 5))])
    }

    /// Thousands of segments: a 720-vertex polygon against a circle stays exact in area.
    @Test func manySegments() {
        var wavy = Path()
        wavy.addLines((0..<720).map { i in
            let a = Double(i) / 720 * 2 * .pi
            let r = 100 + 10 * sin(12 * a)
            return CGPoint(x: 150 + r * cos(a), y: 150 + r * sin(a))
        })
        wavy.closeSubpath()
        let disc = Path(ellipseIn: CGRect(x: 60, y: 60, width: 180, height: 180))
        let a = EdgeSet(wavy).area, b = EdgeSet(disc.normalized(eoFill: false)).area
        let u = EdgeSet(wavy.union(disc)).area, i = EdgeSet(wavy.intersection(disc)).area
        #expect(abs(u + i - a - b) < 1e-6 * (a + b))
    }
}
