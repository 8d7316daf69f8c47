import Foundation
import Report
import SceneFile
import SceneGraph

/// Frames along a scene's change that a report times when not told otherwise: enough for a
/// smooth cost plot, few enough that the report of a short UI animation takes well under a
/// second.
let defaultReportFrames = 30

/// The most frames `--frames` accepts: each is a full render at the report's scale.
let maximumReportFrames = 1_000

func runReport(_ arguments: [String]) -> ExitCode {
    var reader = ArgumentReader(command: "report", arguments, known: SceneOptions.flags + ["--output", "-o", "--time", "--frames"])
    var options = SceneOptions()
    var output: String?, time: AnimationTime?
    var frameCount = defaultReportFrames
    while let arg = reader.next() {
        switch arg {
        case "-h", "--help": print(reportHelp); return .ok
        case "-o", "--output": output = reader.value(for: arg)
        case "--frames": frameCount = reader.count(for: arg, in: 0...maximumReportFrames)
        case "--time": time = reader.animationTime(for: arg)
        default:
            if !options.take(arg, &reader, allowBackground: true) { reader.unknown(arg) }
        }
    }
    if !options.demo && options.path == nil { fail(UsageError(message: "Missing expected argument '<scene>'.", command: "report")) }
    let destination = output ?? (options.demo ? "demo.html" : options.path == "-" ? "scene.html"
        : URL(fileURLWithPath: options.path!).deletingPathExtension().lastPathComponent + ".html")
    if destination != "-", let problem = unwritable(destination) {
        printError("cannot write '\(destination)': \(problem)")
        return .cannotCreate
    }
    let scene: LoadedScene
    switch options.load(command: "report") {
    case .success(let s): scene = s
    case .failure(let code): return code
    }
    let html: String
    switch makeReport(scene, options: options, time: time, frames: frameCount) {
    case .success(let report): html = report.html()
    case .failure(let message):
        printError(message.text)
        return message.code
    }
    if destination == "-" { return writeStandardOutput(Data(html.utf8)) ?? .ok }
    return writeAll([(destination, Data(html.utf8))]) ?? .ok
}

/// Why a report could not be made, as the command line prints it, and its exit code.
struct ReportFailure: Error {
    var text: String
    var code: ExitCode
}

/// The report of a loaded scene: rendered at its canvas (at `time` along its change when
/// given), with `frames` frames along the change when it has one.
func makeReport(_ scene: LoadedScene, options: SceneOptions, time: AnimationTime?, frames: Int) -> Result<SceneReport, ReportFailure> {
    var view = scene.view
    if let time {
        guard let change = scene.change else {
            return .failure(ReportFailure(text: "\(scene.name): --time needs a scene that declares a state ('state isOn = false -> true')", code: .dataError))
        }
        view = change.view(at: time.seconds(in: change), in: scene.canvas.size)
    }
    let title = options.demo ? "demo" : scene.name == "<stdin>" ? "scene from standard input" : URL(fileURLWithPath: scene.name).lastPathComponent
    do {
        let report = try SceneReport(view, size: scene.canvas.size, scale: scene.canvas.scale, background: scene.canvas.background,
                                     title: title, sourceName: options.demo ? nil : scene.name,
                                     change: frames > 0 ? scene.change : nil, frameCount: frames, makeRenderer: { options.renderer() })
        return .success(report)
    } catch {
        return .failure(ReportFailure(text: "\(scene.name): \(describe(error))", code: exitCode(for: error)))
    }
}
