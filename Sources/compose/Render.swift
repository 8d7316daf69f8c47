import Foundation
import SceneFile
import SceneGraph

func runRender(_ arguments: [String]) -> ExitCode {
    var reader = ArgumentReader(command: "render", arguments,
                                known: SceneOptions.flags + ["--output", "-o", "--stats", "--stats-json", "--trace", "--overlay", "--time"])
    var options = SceneOptions()
    var output: String?, printStats = false
    var statsJSON: String?, trace: String?, overlay: RenderOverlay?, time: AnimationTime?
    while let arg = reader.next() {
        switch arg {
        case "-h", "--help": print(renderHelp); return .ok
        case "-o", "--output": output = reader.value(for: arg)
        case "--stats": printStats = true
        case "--time": time = reader.animationTime(for: arg)
        case "--stats-json": statsJSON = reader.value(for: arg)
        case "--trace": trace = reader.value(for: arg)
        case "--overlay":
            let text = reader.value(for: arg)
            guard let o = RenderOverlay(rawValue: text) else { reader.invalid(text, arg, "'offscreen' or 'layers'") }
            overlay = o
        default:
            if !options.take(arg, &reader, allowBackground: true) { reader.unknown(arg) }
        }
    }
    if !options.demo && options.path == nil { fail(UsageError(message: "Missing expected argument '<scene>'.", command: "render")) }
    // The default output is the scene's name with '.png', in the current folder.
    let output_ = output ?? (options.demo ? "demo.png" : options.path == "-" ? "scene.png"
        : URL(fileURLWithPath: options.path!).deletingPathExtension().lastPathComponent + ".png")
    let targets = [output_ == "-" ? nil : output_, statsJSON, trace].compactMap { $0 }
    if Set(targets.map { URL(fileURLWithPath: $0).standardized.path }).count < targets.count {
        fail(UsageError(message: "Two outputs name the same file; give the image, --stats-json and --trace different paths.", command: "render"))
    }
    var scene: LoadedScene
    switch options.load(command: "render") {
    case .success(let s): scene = s
    case .failure(let code): return code
    }
    if let time {
        guard let change = scene.change else {
            printError("\(scene.name): --time needs a scene that declares a state ('state isOn = false -> true')")
            return .dataError
        }
        scene.view = change.view(at: time.seconds(in: change), in: scene.canvas.size)
    }

    // Render and encode everything in memory first, so that an error leaves no file behind.
    let renderer = options.renderer()
    var files: [(path: String, data: Data)] = []
    let png: Data
    do {
        let surface = try renderer.render(scene.view, size: scene.canvas.size, scale: scene.canvas.scale, background: scene.canvas.background)
        if let overlay { try renderer.lastStats.drawOverlay(overlay, on: surface) }
        png = try renderer.encodePNG(surface)
        if output_ != "-" { files.append((output_, png)) }
        if let statsJSON { files.append((statsJSON, try renderer.lastStats.json())) }
        if let trace { files.append((trace, try renderer.lastTrace.chromeTraceJSON())) }
    } catch {
        printError("\(scene.name): \(describe(error))")
        return exitCode(for: error)
    }
    if let code = writeAll(files) { return code }
    if output_ == "-", let code = writeStandardOutput(png) { return code }
    if printStats { FileHandle.standardError.write(Data((renderer.lastStats.table + "\n").utf8)) }
    return .ok
}
