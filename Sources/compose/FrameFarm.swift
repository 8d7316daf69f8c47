import Compositor
import Foundation
import SceneFile
import SceneGraph

/// The most frames rendered at once by `animate --jobs`: far above any core count this runs
/// on, low enough that a typo (`--jobs 10000`) is an error, not ten thousand threads.
let maximumJobs = 256

/// How far raw-video workers may run ahead of the frame being written, in frames per job:
/// enough to keep every job busy when frames differ in cost, and a bound on the frames held
/// in memory (2 × jobs frames of width × height × 4 bytes).
let rawVideoLookahead = 2

/// Where `animate` sends each finished frame.
enum FrameSink {
    /// One PNG file per frame, written atomically by the job that rendered it.
    case png(FramePattern)
    /// Un-premultiplied BGRA on standard output, in frame order.
    case rawVideo
}

/// What rendering a sequence gave: its cache counts and size, or the first failure.
struct FarmResult {
    var hits = 0, misses = 0
    var pixelSize = (0, 0)
    /// The failure of the earliest frame that failed (its number in the sequence), the
    /// message to print and the exit code.
    var failure: (frame: Int, message: String, code: ExitCode)?
}

/// Renders `frames` of `change` with `renderers.count` jobs, each a thread of its own (with the
/// command's large stack) and a renderer of its own; the renderers share one drawing-group
/// cache, which draws each image once however the jobs meet it. Jobs take frames in order, so
/// every frame is one render whatever the job count, and its bytes are the same. Raw video is
/// written by the calling thread in frame order. After a failure no new frame is started; the
/// result names the earliest frame that failed.
final class FrameFarm: @unchecked Sendable {
    private let change: AnimatedChange
    private let canvas: SceneCanvas
    private let name: String
    private let fps: Double
    private let frames: [Int]
    private let sink: FrameSink
    private let renderers: [Renderer]

    private let state = NSCondition()
    private var next = 0
    private var finished = 0
    private var running = 0
    private var written = 0
    private var ready: [Int: Data] = [:]
    private var result = FarmResult()

    init(change: AnimatedChange, canvas: SceneCanvas, name: String, fps: Double, frames: [Int], sink: FrameSink, renderers: [Renderer]) {
        self.change = change
        self.canvas = canvas
        self.name = name
        self.fps = fps
        self.frames = frames
        self.sink = sink
        self.renderers = renderers
    }

    /// Renders every frame; `progress` is called on the calling thread with the frames done.
    func run(progress: (Int) -> Void) -> FarmResult {
        state.lock()
        running = renderers.count
        state.unlock()
        // Each renderer is used by its job's thread only. The threads are joined at the end,
        // so nothing they held outlives `run` (see `JoinableThread`).
        let threads = renderers.indices.map { job in
            JoinableThread(stackBytes: commandStackBytes) { [self] in work(renderers[job]) }
        }
        defer { threads.forEach { $0.join() } }
        state.lock()
        var reported = 0
        while true {
            // Every step below may let go of the lock; a job's signal sent meanwhile is not
            // waited for again, so after any of them the state is looked at anew, not slept on.
            var acted = false
            // Raw video: write the frames that are ready, in order, outside the lock.
            if case .rawVideo = sink {
                while written < (result.failure?.frame ?? frames.count), let data = ready.removeValue(forKey: written) {
                    acted = true
                    state.unlock()
                    let problem = standardOutputFailure(data)
                    state.lock()
                    if let problem {
                        fail(frame: written, message: problem, code: .ioError)
                        state.broadcast()  // jobs waiting for the window to move: stop
                        break
                    }
                    written += 1
                    state.broadcast()
                }
            }
            if finished != reported {
                acted = true
                reported = finished
                state.unlock()
                progress(reported)
                state.lock()
            }
            if acted { continue }
            if running == 0 { break }
            state.wait()
        }
        let out = result
        state.unlock()
        return out
    }

    /// One job: the next frame in order, until none is left or a frame failed.
    private func work(_ renderer: Renderer) {
        while true {
            state.lock()
            if case .rawVideo = sink {
                while result.failure == nil && next < frames.count && next - written >= rawVideoLookahead * renderers.count { state.wait() }
            }
            guard result.failure == nil, next < frames.count else {
                running -= 1
                state.broadcast()
                state.unlock()
                return
            }
            let index = next
            next += 1
            state.unlock()

            let frame = frames[index]
            let time = Double(frame) / fps
            var data: Data?
            var failure: (String, ExitCode)?
            do {
                let surface = try renderer.render(change.view(at: time, in: canvas.size), size: canvas.size,
                                                  scale: canvas.scale, background: canvas.background)
                switch sink {
                case .png(let pattern):
                    if let (code, message) = writeFiles([(pattern.path(frame), try renderer.encodePNG(surface))]) {
                        failure = (message, code)
                    }
                case .rawVideo:
                    data = surface.straightBGRA()
                }
                state.lock()
                result.hits += renderer.lastStats.cache.hits
                result.misses += renderer.lastStats.cache.misses
                result.pixelSize = (surface.width, surface.height)
                state.unlock()
            } catch {
                failure = ("\(name): frame \(frame) (t = \(time.plainDescription) s): \(describe(error))", exitCode(for: error))
            }
            state.lock()
            if let (message, code) = failure {
                fail(frame: index, message: message, code: code)
            } else {
                if let data { ready[index] = data }
                finished += 1
            }
            state.broadcast()
            state.unlock()
        }
    }

    /// Keeps the earliest failure (`index` is the frame's place in `frames`). Call with the
    /// lock held.
    private func fail(frame index: Int, message: String, code: ExitCode) {
        if let known = result.failure, known.frame <= index { return }
        result.failure = (index, message, code)
    }
}
