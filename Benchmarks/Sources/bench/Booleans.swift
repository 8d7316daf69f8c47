import Compositor
import Foundation

// Shape booleans: union and subtraction of two 1,000-vertex random (star-shaped) polygons, and
// of two rings of 72 capsules (the radar seal's, the second turned by 2.5°). Median ms.

struct BooleanRow: Codable {
    var name: String
    var unionMs: Double
    var subtractingMs: Double
    var resultElements: Int
}

/// A star-shaped polygon of `n` vertices around (270, 270): random radii from 150 to 250 at
/// evenly spread angles, from the SCENES.md LCG with `seed`.
func randomPolygon(_ n: Int, seed: UInt32) -> Path {
    var state = seed
    func unit() -> Double { state = state &* 1664525 &+ 1013904223; return Double(state) / 4294967296 }
    var path = Path()
    path.addLines((0..<n).map { i in
        let a = (Double(i) + unit() * 0.9) / Double(n) * 2 * .pi
        let r = 150 + 100 * unit()
        return CGPoint(x: 270 + r * cos(a), y: 270 + r * sin(a))
    })
    path.closeSubpath()
    return path
}

/// 72 capsules (6 × 42, radius 3) around (270, 270), 210 out, every 5° from `start`.
func capsuleRing(start: Double) -> Path {
    var ring = Path()
    for i in 0..<72 {
        let capsule = Path(roundedRect: CGRect(x: 267, y: 39, width: 6, height: 42), cornerRadius: 3, style: .circular)
        let angle = (start + Double(i) * 5) * .pi / 180
        let about = CGAffineTransform(translationX: -270, y: -270).concatenating(CGAffineTransform(rotationAngle: angle))
            .concatenating(CGAffineTransform(translationX: 270, y: 270))
        ring.addPath(capsule, transform: about)
    }
    return ring
}

func booleanSeries(runs: Int) -> [BooleanRow] {
    print("\nshape booleans (median of \(runs) runs, ms)")
    func time(_ body: () -> Path) -> (Double, Int) {
        var times: [Double] = []
        var elements = 0
        _ = body()
        for _ in 0..<runs {
            let t0 = now()
            elements = body().elements.count
            times.append(ms(now() - t0))
        }
        return (median(times), elements)
    }
    var rows: [BooleanRow] = []
    for (name, a, b) in [("1000-vertex polygons", randomPolygon(1000, seed: 1), randomPolygon(1000, seed: 2)),
                         ("72-capsule rings", capsuleRing(start: 0), capsuleRing(start: 2.5))] {
        let (u, elements) = time { a.union(b) }
        let (d, _) = time { a.subtracting(b) }
        rows.append(BooleanRow(name: name, unionMs: u, subtractingMs: d, resultElements: elements))
        print(String(format: "%@: union %.3f ms (%d elements), subtracting %.3f ms", name, u, elements, d))
    }
    return rows
}
