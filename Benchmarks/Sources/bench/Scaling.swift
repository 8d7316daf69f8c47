import Foundation
import Compositor
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
    print("  " + "shapes".leftPad(8) + " " + "canvas".leftPad(11) + ["engine", "cairo", "µs/shape", "ms/Mpx"].map { " " + $0.leftPad(10) }.joined())
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
        print(String(format: "  %8d ", n) + "\(w)×\(h)".leftPad(11)
              + String(format: " %10.2f %10.2f %10.2f %10.2f", row.engineMs, row.cairoMs, row.engineUsPerShape, row.engineMsPerMegapixel))
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

// How the exact tier grows: S4's path (one closed path of random cubics over 1024², so its
// crossings grow with the square of its curves) with 500, 1k, 2k and 4k curves, both fill rules,
// drawn directly on one thread, beside cairo. The exact tier's work should follow the crossings
// its strips hold (`Rasterizer.crossings`), never their square.

struct CrossingScalingRow: Codable {
    var name: String
    var curves: Int
    var crossings: Int
    var engineMs: Double, cairoMs: Double
    var nsPerCrossing: Double
}

func crossingSeries(runs: Int, quick: Bool) throws -> [CrossingScalingRow] {
    print("\nscaling: S4 by curves (1024², exact tier, one thread), then a filled waveform by samples (1000 × 600); median of \(runs) runs, ms")
    // (Padded in Swift: Foundation on Linux ignores a width on %@.)
    print("  " + "scene".rightPad(12) + ["curves", "crossings", "engine", "cairo", "ns/crossing"].map { " " + $0.leftPad(11) }.joined())
    var rows: [CrossingScalingRow] = []
    // One scene drawn on one thread beside cairo: its crossings and median times.
    func measure(_ scene: ReferenceScene, size: Int) throws {
        let engine = try ReferenceRenderer(width: scene.width, height: scene.height)
        engine.rasterizer.threads = 1
        let cairo = CairoRenderer(width: scene.width, height: scene.height)
        let before = engine.rasterizer.crossings
        try engine.render(scene)
        let crossings = engine.rasterizer.crossings - before
        cairo.render(scene)
        var te: [Double] = [], tc: [Double] = []
        for _ in 0..<runs {
            var t0 = now()
            try engine.render(scene)
            te.append(ms(now() - t0))
            t0 = now()
            cairo.render(scene)
            tc.append(ms(now() - t0))
        }
        let e = median(te)
        let row = CrossingScalingRow(name: scene.name, curves: size, crossings: crossings, engineMs: e, cairoMs: median(tc),
                                     nsPerCrossing: e * 1e6 / Double(max(1, crossings)))
        rows.append(row)
        print("  " + row.name.rightPad(12) + String(format: " %11d %11d %11.2f %11.2f %11.1f", size, crossings, e, row.cairoMs, row.nsPerCrossing))
    }
    // Each doubling: how much the crossings and the time grow.
    func verdict(_ series: [CrossingScalingRow], _ what: String) {
        let steps = zip(series, series.dropFirst()).map { (Double($1.crossings) / Double(max(1, $0.crossings)), $1.engineMs / $0.engineMs) }
        let faster = steps.contains { $0.1 > $0.0 * 1.15 }
        print("  ×2 \(what): " + steps.map { String(format: "crossings ×%.2f, time ×%.2f", $0.0, $0.1) }.joined(separator: "; ")
              + (faster ? " (time grows faster than the crossings)" : " (time grows no faster than the crossings)"))
    }
    for rule in [FillRule.nonZero, .evenOdd] {
        for curves in quick ? [500, 1000, 2000] : [500, 1000, 2000, 4000] {
            try measure(ReferenceScene.s4(fillRule: rule, curves: curves), size: curves)
        }
        verdict(rows.filter { $0.name.hasPrefix(rule == .nonZero ? "S4-nz" : "S4-eo") }, "curves")
    }
    // A filled waveform: random samples across 1,000 px, as an audio or chart plot draws
    // them. Every sample is a local top or bottom and neighbouring edges cross, so strips hold
    // many pieces that start inside them: the exact tier's windings there must not cost
    // starts × pieces.
    for samples in quick ? [10_000, 20_000, 40_000] : [10_000, 20_000, 40_000, 80_000] {
        try measure(waveformScene(samples: samples), size: samples)
    }
    verdict(rows.filter { $0.name == "waveform" }, "samples")
    return rows
}

/// `samples` random heights across a 1000 × 600 canvas (LCG seed 1, ±125 px about y = 300),
/// closed along y = 300 and filled non-zero.
func waveformScene(samples: Int) -> ReferenceScene {
    var g = SceneLCG(seed: 1)
    let path = Path { p in
        p.addLines([CGPoint(x: 0, y: 300)] + (0...samples).map { i in
            CGPoint(x: Double(i) * 1000 / Double(samples), y: 300 + 250 * (g.u() - 0.5))
        } + [CGPoint(x: 1000, y: 300)])
        p.closeSubpath()
    }
    return ReferenceScene(name: "waveform", width: 1000, height: 600,
                          ops: [.fill(path, Color(red: 0.27, green: 0.51, blue: 0.71), .nonZero)])
}
