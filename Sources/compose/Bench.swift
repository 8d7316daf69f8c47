import Foundation
import SceneFile
import SceneGraph

/// Times a scene: `runs` renders with a new renderer each (cold: buffers allocated afresh)
/// and `runs` with one renderer kept between them (warm: what an app holding a renderer
/// between frames sees: the same scene is the same view, so its display list is drawn again
/// without layout or lowering), after one untimed warm-up; medians per phase.
func runBench(_ arguments: [String]) -> ExitCode {
    var reader = ArgumentReader(command: "bench", arguments, known: SceneOptions.flags + ["-n", "--runs", "--json"])
    var options = SceneOptions()
    var runs = 10
    var json = false
    while let arg = reader.next() {
        switch arg {
        case "-h", "--help": print(benchHelp); return .ok
        case "-n", "--runs": runs = reader.count(for: arg, in: 1...10_000)
        case "--json": json = true
        default:
            if !options.take(arg, &reader, allowBackground: false) { reader.unknown(arg) }
        }
    }
    let scene: LoadedScene
    switch options.load(command: "bench") {
    case .success(let s): scene = s
    case .failure(let code): return code
    }
    func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
    var cold: [[String: Double]] = [], warm: [[String: Double]] = []
    var totalsCold: [Double] = [], totalsWarm: [Double] = []
    var last = RenderStats()
    do {
        let kept = options.renderer()
        _ = try kept.render(scene.view, size: scene.canvas.size, scale: scene.canvas.scale, background: scene.canvas.background)
        for _ in 0..<runs {
            let fresh = options.renderer()
            let t0 = DispatchTime.now().uptimeNanoseconds
            _ = try fresh.encodePNG(try fresh.render(scene.view, size: scene.canvas.size, scale: scene.canvas.scale,
                                                     background: scene.canvas.background))
            totalsCold.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
            cold.append(fresh.lastStats.phasesMs)
            let t1 = DispatchTime.now().uptimeNanoseconds
            _ = try kept.encodePNG(try kept.render(scene.view, size: scene.canvas.size, scale: scene.canvas.scale,
                                                   background: scene.canvas.background))
            totalsWarm.append(Double(DispatchTime.now().uptimeNanoseconds - t1) / 1e6)
            warm.append(kept.lastStats.phasesMs)
            last = kept.lastStats
        }
    } catch {
        printError("\(scene.name): \(describe(error))")
        return exitCode(for: error)
    }
    let phases = RenderStats.phases
    var result: [String: Any] = ["scene": scene.name, "runs": runs, "leafDraws": last.leafDraws, "layers": last.layers.count,
                                 "peakOffscreenBytes": last.peakOffscreenBytes, "warmCacheHits": last.cache.hits,
                                 "warmReusedDisplayList": last.reusedDisplayList]
    var coldMedians: [String: Double] = [:], warmMedians: [String: Double] = [:]
    for phase in phases {
        coldMedians[phase] = median(cold.map { $0[phase] ?? 0 })
        warmMedians[phase] = median(warm.map { $0[phase] ?? 0 })
    }
    coldMedians["total"] = median(totalsCold)
    warmMedians["total"] = median(totalsWarm)
    result["coldMs"] = coldMedians
    result["warmMs"] = warmMedians
    if json {
        guard let data = try? JSONSerialization.data(withJSONObject: result, options: [.prettyPrinted, .sortedKeys]) else { return .failure }
        if let code = writeStandardOutput(data) { return code }
        print()
        return .ok
    }
    let pixels = Int((scene.canvas.width * scene.canvas.scale).rounded(.up)) * Int((scene.canvas.height * scene.canvas.scale).rounded(.up))
    print("\(scene.name): \(pixels) px; warm: \(last.cache.hits) cached drawing groups, \(last.leafDraws) leaf draws, \(last.layers.count) offscreen layer\(last.layers.count == 1 ? "" : "s"), peak \(last.peakOffscreenBytes) offscreen bytes")
    print("median of \(runs) runs (ms)   cold      warm")
    for phase in phases + ["total"] {
        print(phase.padding(toLength: 26, withPad: " ", startingAt: 0)
              + String(format: "%9.3f %9.3f", coldMedians[phase]!, warmMedians[phase]!))
    }
    print("cold: a new renderer per run (empty drawing-group cache); warm: one renderer kept between runs (its cached images and buffers reused"
          + (last.reusedDisplayList ? "; the view unchanged, its display list drawn again: no layout or lowering)" : ")"))
    return .ok
}
