import Foundation
import ReferenceScenes
import SceneGraph

// How cost grows: S3 (random translucent circles and rounded rects, 16–128 px) with N = 100,
// 1k, 10k and 100k shapes on 1920×1080, and N = 1k on canvases of 512² to 4096², this engine
// (through the SceneGraph API) and cairo, median ms, per shape and per megapixel.

struct ScalingRow: Codable {
    var shapes: Int
    var width: Int, height: Int
    var engineMs: Double, cairoMs: Double
    var engineUsPerShape: Double, engineMsPerMegapixel: Double
}

func scalingSeries(runs: Int, quick: Bool) throws -> [ScalingRow] {
    print("\nscaling: S3 by shape count (1920×1080) and by canvas (1,000 shapes); median of \(runs) runs, ms")
    print(String(format: "  %8@ %11@ %10@ %10@ %12@ %12@", "shapes", "canvas", "engine", "cairo", "µs/shape", "ms/Mpx"))
    var rows: [ScalingRow] = []
    func measure(_ n: Int, _ w: Int, _ h: Int) throws {
        let scene = ReferenceScene.s3(count: n, width: w, height: h)
        let engine = SceneGraphEngine(scene)
        let cairo = CairoRenderer(width: w, height: h)
        try engine.render(); cairo.render(scene)
        var te: [Double] = [], tc: [Double] = []
        for _ in 0..<runs {
            var t0 = now()
            try engine.render()
            te.append(ms(now() - t0))
            t0 = now()
            cairo.render(scene)
            tc.append(ms(now() - t0))
        }
        let e = median(te)
        let row = ScalingRow(shapes: n, width: w, height: h, engineMs: e, cairoMs: median(tc),
                             engineUsPerShape: e * 1000 / Double(n), engineMsPerMegapixel: e / (Double(w * h) / 1e6))
        rows.append(row)
        print(String(format: "  %8d %11@ %10.2f %10.2f %12.2f %12.2f", n, "\(w)×\(h)", row.engineMs, row.cairoMs,
                     row.engineUsPerShape, row.engineMsPerMegapixel))
    }
    for n in quick ? [100, 1000, 10000] : [100, 1000, 10000, 100000] { try measure(n, 1920, 1080) }
    for side in quick ? [512, 1024, 2048] : [512, 1024, 2048, 4096] { try measure(1000, side, side) }
    // Linear in N when each tenfold step of shapes costs about ten times as much.
    let byCount = rows.filter { $0.width == 1920 }
    let steps = zip(byCount, byCount.dropFirst()).map { $1.engineMs / $0.engineMs }
    print("  ×10 shapes costs " + steps.map { String(format: "×%.1f", $0) }.joined(separator: ", ")
          + (steps.last.map { $0 > 8 && $0 < 12.5 ? " (linear at the top)" : " (not linear at the top)" } ?? ""))
    return rows
}
