import Compositor
import Foundation
import Report
import SceneGraph
#if canImport(Glibc)
import Glibc
#endif

/// The port `preview` listens on unless told: 8000, the usual port of local development
/// servers (Python's `http.server`, Hugo, Django), easy to type and remember.
let defaultPreviewPort = 8000

/// How often `preview` looks at the scene file: 50 ms keeps a save-to-page update well under
/// 300 ms with a render of ordinary size, for one `stat` call a tick.
let previewPollSeconds = 0.05

/// A scene file that vanished is given this long to come back before the page says so:
/// editors that save by renaming leave the path empty for a moment.
let previewMissingGraceSeconds = 0.25

func runPreview(_ arguments: [String]) -> ExitCode {
    var reader = ArgumentReader(command: "preview", arguments, known: SceneOptions.flags + ["--port", "--time", "--frames"])
    var options = SceneOptions()
    var port = defaultPreviewPort, frameCount = defaultReportFrames
    var time: AnimationTime?
    while let arg = reader.next() {
        switch arg {
        case "-h", "--help": print(previewHelp); return .ok
        case "--port": port = reader.count(for: arg, in: 0...65535)
        case "--frames": frameCount = reader.count(for: arg, in: 0...maximumReportFrames)
        case "--time": time = reader.animationTime(for: arg)
        default:
            if !options.take(arg, &reader, allowBackground: true) { reader.unknown(arg) }
        }
    }
    if options.path == "-" {
        fail(UsageError(message: "preview watches a file; standard input cannot be watched (save the scene to a file).", command: "preview"))
    }
    if !options.demo && options.path == nil { fail(UsageError(message: "Missing expected argument '<scene>'.", command: "preview")) }
    if let path = options.path, !options.demo {
        // A path that is not there is a typo, not a scene with errors: nothing to watch.
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            printError("cannot read '\(path)': \(isDirectory.boolValue ? "it is a folder" : "no such file")")
            return .noInput
        }
    }
    // Fonts and symbols once, for every render of the session; a bad one stops it here.
    if let failure = options.registerFonts() ?? options.registerSymbols() { return failure }
    options.registersResources = false

    let server: PreviewServer
    do {
        server = try PreviewServer(port: UInt16(port))
    } catch {
        printError("\(error)")
        return .unavailable
    }
    server.log = { line in FileHandle.standardError.write(Data("preview: refused \(line)\n".utf8)) }
    let session = PreviewSession(options: options, time: time, frames: frameCount, server: server)
    session.reload()
    let name = options.demo ? "the demo" : options.path!
    // Written straight to the file descriptor: a script reading the address from a pipe gets
    // it now, not when a buffer fills.
    _ = writeStandardOutput(Data("Previewing \(name) at http://127.0.0.1:\(server.port)/ (Ctrl-C stops)\n".utf8))

    // Ctrl-C and SIGTERM stop the server; `serve` then returns and the command ends with 0.
    signal(SIGINT, SIG_IGN)
    signal(SIGTERM, SIG_IGN)
    let signals = [SIGINT, SIGTERM].map { number in
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        // Weak: a cancelled source lets go of its handler later, on its queue; holding the server
        // there kept its page alive past `exit` (LeakSanitizer reported it).
        source.setEventHandler { [weak server] in server?.stop() }
        source.resume()
        return source
    }
    let watcher = options.demo ? nil : session.startWatching()
    server.serve()
    session.stop()
    watcher?.join()
    for source in signals { source.cancel() }
    FileHandle.standardError.write(Data("preview: stopped\n".utf8))
    return .ok
}

/// One `preview`: the scene's options, the last report that rendered, and the server that
/// shows it. `reload` runs on one thread at a time (first the command's, then the watcher's).
final class PreviewSession: @unchecked Sendable {
    private var options: SceneOptions
    private let time: AnimationTime?
    private let frames: Int
    private let server: PreviewServer
    private var lastGood: SceneReport?
    private var messages: [String] = []
    private let stopping = NSLock()
    private var stopped = false

    init(options: SceneOptions, time: AnimationTime?, frames: Int, server: PreviewServer) {
        self.options = options
        self.time = time
        self.frames = frames
        self.server = server
        // Loading's messages go to the page and, as in `render`, to standard error.
        self.options.diagnostics.write = { [unowned self] text in
            messages.append(text)
            FileHandle.standardError.write(Data((text + "\n").utf8))
        }
    }

    private var title: String { options.demo ? "demo" : URL(fileURLWithPath: options.path ?? "scene").lastPathComponent }

    /// Loads and renders the scene and publishes the page: the new report, or the problem
    /// above the last good one.
    func reload() {
        messages = []
        let started = Date()
        var problem: String?
        switch options.load(command: "preview") {
        case .failure:
            problem = messages.joined(separator: "\n")
        case .success(let scene):
            switch makeReport(scene, options: options, time: time, frames: frames) {
            case .success(let report): lastGood = report
            case .failure(let failure):
                options.diagnostics.error(failure.text)  // to the page and to standard error
                problem = messages.joined(separator: "\n")
            }
        }
        let (report, title) = (lastGood, title)
        server.publish { version in SceneReport.page(title: title, report: report, problem: problem, version: version) }
        let ms = Date().timeIntervalSince(started) * 1000
        let status = problem == nil ? "rendered in \(String(format: "%.0f", ms)) ms" : "has errors (shown on the page)"
        FileHandle.standardError.write(Data("preview: \(title) \(status), version \(server.currentVersion)\n".utf8))
    }

    /// Watches the scene file on a thread of its own (with the command's large stack, as deep
    /// scenes need) and reloads when it changes, until `stop()`; join the thread after that.
    func startWatching() -> JoinableThread {
        JoinableThread(stackBytes: commandStackBytes) { [self] in watch() }
    }

    func stop() {
        stopping.lock()
        stopped = true
        stopping.unlock()
    }

    private var isStopped: Bool {
        stopping.lock(); defer { stopping.unlock() }
        return stopped
    }

    /// Polls the file's identity, size and modification time; a change (a save in place, or
    /// a new file renamed over it) reloads.
    private func watch() {
        guard let path = options.path else { return }
        var last = FileSignature(path: path)
        var missingSince: Date?
        while !isStopped {
            usleep(UInt32(previewPollSeconds * 1_000_000))
            let now = FileSignature(path: path)
            guard now != last else { missingSince = nil; continue }
            if now == nil {
                if missingSince == nil { missingSince = Date() }
                guard Date().timeIntervalSince(missingSince!) >= previewMissingGraceSeconds else { continue }
            }
            missingSince = nil
            last = now
            reload()
        }
    }
}

/// What tells one version of a file from the next without reading it.
struct FileSignature: Equatable {
    var device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        seconds = info.st_mtim.tv_sec
        nanoseconds = info.st_mtim.tv_nsec
    }
}
