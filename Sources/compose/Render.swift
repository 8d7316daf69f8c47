import Compositor
import Foundation
import SceneFile
import SceneGraph

func runRender(_ arguments: [String]) -> ExitCode {
    var reader = ArgumentReader(command: "render", arguments,
                                known: SceneOptions.flags + ["--output", "-o", "--output-dir", "--jobs", "-j", "--stats", "--stats-json",
                                                             "--trace", "--overlay", "--time"])
    var options = SceneOptions()
    options.acceptsManyScenes = true
    var output: String?, outputDirectory: String?, jobs: Int?, printStats = false
    var statsJSON: String?, trace: String?, overlay: RenderOverlay?, time: AnimationTime?
    while let arg = reader.next() {
        switch arg {
        case "-h", "--help": print(renderHelp); return .ok
        case "-o", "--output": output = reader.value(for: arg)
        case "--output-dir": outputDirectory = reader.value(for: arg)
        case "-j", "--jobs": jobs = reader.count(for: arg, in: 1...maximumJobs)
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
    let style = RenderStyle(time: time, overlay: overlay)
    if outputDirectory != nil || !options.morePaths.isEmpty {
        // Several scenes (or a folder to write into): one image each, named after the scene.
        let single = [("-o", output), ("--stats-json", statsJSON), ("--trace", trace), ("--stats", printStats ? "" : nil)]
        if let (flag, _) = single.first(where: { $0.1 != nil }) {
            fail(UsageError(message: "\(flag) is for one scene; with --output-dir or several scenes each image is named after its scene.", command: "render"))
        }
        if options.demo { fail(UsageError(message: "Give scenes or '--demo', not both.", command: "render")) }
        return renderMany(options, into: outputDirectory ?? ".", jobs: jobs, style: style)
    }
    // The default output is the scene's name with '.png', in the current folder.
    let output_ = output ?? (options.demo ? "demo.png" : options.path == "-" ? "scene.png" : imageName(for: options.path!))
    let targets = [output_ == "-" ? nil : output_, statsJSON, trace].compactMap { $0 }
    if Set(targets.map { URL(fileURLWithPath: $0).standardized.path }).count < targets.count {
        fail(UsageError(message: "Two outputs name the same file; give the image, --stats-json and --trace different paths.", command: "render"))
    }
    let scene: LoadedScene
    switch options.load(command: "render") {
    case .success(let s): scene = s
    case .failure(let code): return code
    }

    // Render and encode everything in memory first, so that an error leaves no file behind.
    let renderer = options.renderer()
    var files: [(path: String, data: Data)] = []
    let png: Data
    switch style.png(of: scene, with: renderer) {
    case .success(let data): png = data
    case .failure(let failure):
        printError(failure.message)
        return failure.code
    }
    do {
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

/// The image a scene file renders to by default: its name with '.png', without its folder.
func imageName(for path: String) -> String {
    URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent + ".png"
}

/// A failed step: the message to print (after "Error: ") and the exit code.
struct CommandFailure: Error {
    let message: String
    let code: ExitCode
}

/// How `render` draws each scene: at `--time`, with `--overlay`.
struct RenderStyle {
    var time: AnimationTime?
    var overlay: RenderOverlay?

    /// `scene` rendered and encoded as PNG in memory.
    func png(of scene: LoadedScene, with renderer: Renderer) -> Result<Data, CommandFailure> {
        var scene = scene
        if let time {
            guard let change = scene.change else {
                return .failure(CommandFailure(message: "\(scene.name): --time needs a scene that declares a state ('state isOn = false -> true')",
                                               code: .dataError))
            }
            scene.view = change.view(at: time.seconds(in: change), in: scene.canvas.size)
        }
        do {
            let surface = try renderer.render(scene.view, size: scene.canvas.size, scale: scene.canvas.scale, background: scene.canvas.background)
            if let overlay { try renderer.lastStats.drawOverlay(overlay, on: surface) }
            return .success(try renderer.encodePNG(surface))
        } catch {
            return .failure(CommandFailure(message: "\(scene.name): \(describe(error))", code: exitCode(for: error)))
        }
    }
}

/// `render` with several scenes: each to `<directory>/<scene name>.png`, `jobs` scenes at once
/// (default: one per active core, the cores divided among them for each render's threads).
/// A scene that fails is reported and the others are still rendered; the exit code is then the
/// first failed scene's (in the order given), after a count of the failures.
private func renderMany(_ options: SceneOptions, into directory: String, jobs: Int?, style: RenderStyle) -> ExitCode {
    let paths = [options.path!] + options.morePaths
    if paths.contains("-") {
        fail(UsageError(message: "'-' (standard input) is one scene; render it on its own with -o.", command: "render"))
    }
    let outputs = paths.map { URL(fileURLWithPath: directory).appendingPathComponent(imageName(for: $0)).path }
    var firstScene: [String: String] = [:]
    for (path, output) in zip(paths, outputs) {
        let key = URL(fileURLWithPath: output).standardized.path
        if let other = firstScene[key] {
            fail(UsageError(message: "'\(other)' and '\(path)' would both be written to '\(output)'; render them into different folders.", command: "render"))
        }
        firstScene[key] = path
    }
    if let problem = unwritable(outputs[0]) {
        printError("cannot write into '\(directory)': \(problem)")
        return .cannotCreate
    }
    // Fonts and symbols once, before any render (the registries are shared): --fonts,
    // COMPOSE_FONT_PATH, --symbols, then each scene's own fonts/ folder.
    for (k, path) in paths.enumerated() {
        var one = options
        one.path = path
        if let failure = one.registerFonts(besideSceneOnly: k > 0) { return failure }
    }
    if let failure = options.registerSymbols() { return failure }

    let cores = ProcessInfo.processInfo.activeProcessorCount
    let jobCount = max(1, min(jobs ?? cores, paths.count))
    let cache = DrawingGroupCache()
    let batch = SceneBatch(options: options, paths: paths, outputs: outputs, style: style)
    let renderers = (0..<jobCount).map { _ in options.renderer(cache: cache, defaultThreads: max(1, cores / jobCount)) }
    if jobCount == 1 {
        batch.work(renderers[0])
    } else {
        nonisolated(unsafe) let shared = renderers
        // With the command's large stack, as scenes nest as deep as --max-depth allows. Each
        // renderer is used by its job's thread only; the threads are joined (`JoinableThread`).
        let threads = (0..<jobCount).map { job in JoinableThread(stackBytes: commandStackBytes) { batch.work(shared[job]) } }
        threads.forEach { $0.join() }
    }
    let failed = batch.codes.compactMap { $0 }
    guard let first = failed.first else { return .ok }
    printError("\(failed.count) of \(paths.count) scenes failed")
    return first
}

/// The scenes of a batch, handed out in order to the jobs, and each one's exit code (nil:
/// written).
private final class SceneBatch: @unchecked Sendable {
    private let options: SceneOptions
    private let paths: [String], outputs: [String]
    private let style: RenderStyle
    private let lock = NSLock()
    private var next = 0
    private var results: [ExitCode?]

    init(options: SceneOptions, paths: [String], outputs: [String], style: RenderStyle) {
        self.options = options
        self.paths = paths
        self.outputs = outputs
        self.style = style
        results = Array(repeating: nil, count: paths.count)
    }

    /// One job: load, render and write the next scene until none is left.
    func work(_ renderer: Renderer) {
        while let k = take() {
            var one = options
            one.path = paths[k]
            one.morePaths = []
            one.registersResources = false
            let code: ExitCode?
            switch one.load(command: "render") {
            case .failure(let c): code = c
            case .success(let scene):
                switch style.png(of: scene, with: renderer) {
                case .failure(let failure):
                    printError(failure.message)
                    code = failure.code
                case .success(let png):
                    code = writeAll([(outputs[k], png)])
                }
            }
            lock.lock()
            results[k] = code
            lock.unlock()
        }
    }

    private func take() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard next < results.count else { return nil }
        next += 1
        return next - 1
    }

    var codes: [ExitCode?] {
        lock.lock()
        defer { lock.unlock() }
        return results
    }
}
