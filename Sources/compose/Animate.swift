import Foundation
import SceneFile
import SceneGraph

/// The most frames one `animate` run renders unless raised: 10,000, about 2.8 minutes at 60 fps;
/// enough for any UI animation, few enough that a typo in --fps or --duration is an error,
/// not an afternoon of rendering.
let defaultMaximumFrames = 10_000

/// A moment of a scene's animation: seconds, or a share of its length ("50%").
struct AnimationTime {
    let value: Double
    let isShare: Bool

    init?(_ text: String) {
        isShare = text.hasSuffix("%")
        guard let v = Double(isShare ? String(text.dropLast()) : text), v.isFinite, v >= 0, isShare ? v <= 100 : v <= 3600 else { return nil }
        value = isShare ? v / 100 : v
    }

    /// Seconds after the change starts; a share is of the duration (of one period for an
    /// animation that repeats forever).
    func seconds(in change: AnimatedChange) -> Double {
        guard isShare else { return value }
        let length = change.duration.isFinite ? change.duration : change.animation.period
        return length.isFinite ? value * length : 0
    }
}

extension ArgumentReader {
    /// The value of `--time`: seconds, or a share of the animation.
    mutating func animationTime(for flag: String) -> AnimationTime {
        let text = value(for: flag)
        guard let t = AnimationTime(text) else { invalid(text, flag, "seconds (e.g. 0.6) or a share of the animation (e.g. 50%)") }
        return t
    }
}

/// Which frames of a sequence to render: a range, then every N-th of it.
struct FrameSelection {
    var range: Range<Int>?
    var shard: (index: Int, count: Int) = (0, 1)

    /// "A..<B", "A...B" or "A".
    static func parseRange(_ text: String) -> Range<Int>? {
        if let r = text.range(of: "..<") {
            guard let a = Int(text[..<r.lowerBound]), let b = Int(text[r.upperBound...]), a >= 0, a <= b else { return nil }
            return a..<b
        }
        if let r = text.range(of: "...") {
            guard let a = Int(text[..<r.lowerBound]), let b = Int(text[r.upperBound...]), a >= 0, a <= b, b < Int.max else { return nil }
            return a..<(b + 1)
        }
        guard let a = Int(text), a >= 0, a < Int.max else { return nil }
        return a..<(a + 1)
    }

    /// "I/N" with 0 ≤ I < N.
    static func parseShard(_ text: String) -> (Int, Int)? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, n <= 1_000_000, i >= 0, i < n else { return nil }
        return (i, n)
    }

    /// The frames to render out of `total`, in order.
    func frames(of total: Int) -> [Int] {
        let r = (range ?? 0..<total).clamped(to: 0..<total)
        return r.filter { $0 % shard.count == shard.index }
    }
}

/// The shard `--shard-index-from-env NAME --shard-count N` names: index from the variable (a
/// Kubernetes indexed job's `JOB_COMPLETION_INDEX`, a Slurm array's `SLURM_ARRAY_TASK_ID`),
/// count from the flag; nil when neither flag is given. Exits with a usage error when only one
/// is given, when `--shard` is given too, or when the variable is unset or out of range.
func shardFromEnvironment(variable: String?, count: Int?, alsoGiven: Bool,
                          environment: [String: String] = ProcessInfo.processInfo.environment) -> (Int, Int)? {
    guard variable != nil || count != nil else { return nil }
    guard let variable, let count else {
        fail(UsageError(message: "--shard-index-from-env and --shard-count go together: the variable holds this process's index, the count says how many shards there are.", command: "animate"))
    }
    if alsoGiven { fail(UsageError(message: "Give --shard I/N or --shard-index-from-env with --shard-count, not both.", command: "animate")) }
    guard let text = environment[variable] else {
        fail(UsageError(message: "--shard-index-from-env \(variable): the variable is not set (the job scheduler sets it for each shard).", command: "animate"))
    }
    guard let index = Int(text.trimmingCharacters(in: .whitespaces)), index >= 0, index < count else {
        fail(UsageError(message: "--shard-index-from-env \(variable): its value '\(text)' is not a shard index from 0 to \(count - 1) (--shard-count \(count)).", command: "animate"))
    }
    return (index, count)
}

/// A printf-style frame pattern with one integer conversion (`%d`, `%04d`): the path of a frame.
struct FramePattern {
    let prefix: String, suffix: String, width: Int, zeroPadded: Bool

    init?(_ text: String) {
        guard let start = text.firstIndex(of: "%") else { return nil }
        var i = text.index(after: start)
        var zero = false
        if i < text.endIndex, text[i] == "0" { zero = true; i = text.index(after: i) }
        var digits = ""
        while i < text.endIndex, text[i].isASCII, text[i].isNumber { digits.append(text[i]); i = text.index(after: i) }
        guard i < text.endIndex, text[i] == "d" else { return nil }
        let rest = text[text.index(after: i)...]
        guard !rest.contains("%"), digits.count <= 2 else { return nil }
        prefix = String(text[..<start])
        suffix = String(rest)
        width = Int(digits) ?? 0
        zeroPadded = zero
    }

    func path(_ frame: Int) -> String {
        let number = String(frame)
        let pad = String(repeating: zeroPadded ? "0" : " ", count: max(0, width - number.count))
        return prefix + pad + number + suffix
    }
}

func runAnimate(_ arguments: [String]) -> ExitCode {
    var reader = ArgumentReader(command: "animate", arguments,
                                known: SceneOptions.flags + ["--output", "-o", "--fps", "--frames", "--shard", "--format", "--duration",
                                                             "--max-frames", "--quiet", "-q", "--jobs", "-j",
                                                             "--shard-index-from-env", "--shard-count"])
    var options = SceneOptions()
    var output: String?, fps = 60.0, selection = FrameSelection(), raw = false, duration: Double?
    var maximumFrames = defaultMaximumFrames, quiet = false, jobs: Int?
    var shardGiven = false, shardVariable: String?, shardCount: Int?
    while let arg = reader.next() {
        switch arg {
        case "-h", "--help": print(animateHelp); return .ok
        case "-o", "--output": output = reader.value(for: arg)
        case "--fps": fps = reader.number(for: arg, in: 1...1000)
        case "--duration": duration = reader.number(for: arg, in: 0...3600)
        case "--frames":
            let text = reader.value(for: arg)
            guard let r = FrameSelection.parseRange(text) else { reader.invalid(text, arg, "a frame range such as 0..<30, 10...20 or 5") }
            selection.range = r
        case "--shard":
            let text = reader.value(for: arg)
            guard let s = FrameSelection.parseShard(text) else { reader.invalid(text, arg, "I/N with 0 ≤ I < N, e.g. 0/4") }
            selection.shard = s
            shardGiven = true
        case "--shard-index-from-env":
            let name = reader.value(for: arg)
            guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else {
                reader.invalid(name, arg, "the name of an environment variable, e.g. JOB_COMPLETION_INDEX")
            }
            shardVariable = name
        case "--shard-count": shardCount = reader.count(for: arg, in: 1...1_000_000)
        case "--format":
            let text = reader.value(for: arg)
            guard text == "png" || text == "rawvideo" else { reader.invalid(text, arg, "'png' or 'rawvideo'") }
            raw = text == "rawvideo"
        case "--max-frames": maximumFrames = reader.count(for: arg, in: 1...10_000_000)
        case "-j", "--jobs": jobs = reader.count(for: arg, in: 1...maximumJobs)
        case "-q", "--quiet": quiet = true
        default:
            if !options.take(arg, &reader, allowBackground: true) { reader.unknown(arg) }
        }
    }
    if !options.demo && options.path == nil { fail(UsageError(message: "Missing expected argument '<scene>'.", command: "animate")) }
    if options.demo { fail(UsageError(message: "The demo has no animation; give a scene with a 'state'.", command: "animate")) }
    if let shard = shardFromEnvironment(variable: shardVariable, count: shardCount, alsoGiven: shardGiven) { selection.shard = shard }
    let pattern: FramePattern?
    if raw {
        if let output, output != "-" {
            fail(UsageError(message: "--format rawvideo writes to standard output; leave out -o or give '-o -' (not '\(output)').", command: "animate"))
        }
        pattern = nil
    } else {
        guard let output else {
            fail(UsageError(message: "Missing '-o <pattern>': where to write the frames, e.g. -o frames/%04d.png.", command: "animate"))
        }
        guard let p = FramePattern(output) else {
            fail(UsageError(message: "The output '\(output)' needs one frame number conversion such as %04d (and no other '%'), e.g. frames/%04d.png.", command: "animate"))
        }
        pattern = p
    }

    let scene: LoadedScene
    switch options.load(command: "animate") {
    case .success(let s): scene = s
    case .failure(let code): return code
    }
    guard let change = scene.change else {
        printError("\(scene.name): the scene declares no state to animate; add one such as 'state isOn = false -> true' and read it in the view")
        return .dataError
    }
    // Frame i shows time i / fps. A finite change is covered from 0 to its end inclusive; a
    // repeating one for one seamless period (its last frame is the one before the loop
    // restarts); --duration sets the end.
    let length = duration ?? (change.duration.isFinite ? change.duration : change.animation.period)
    guard length.isFinite else {
        printError("\(scene.name): the animation never settles (a spring without damping?); give --duration <seconds>")
        return .dataError
    }
    let loops = duration == nil && !change.duration.isFinite
    let exact = length * fps
    let total = Int((exact - 1e-9).rounded(.up)) + (loops ? 0 : 1)
    guard total <= maximumFrames else {
        printError("\(scene.name): the animation is \(total) frames (\(length.plainDescription) s at \(fps.plainDescription) fps), more than the limit of \(maximumFrames); lower --fps or --duration, or raise --max-frames")
        return .dataError
    }
    if let r = selection.range, r.upperBound > total {
        return usageError(UsageError(message: "--frames \(r.lowerBound)..<\(r.upperBound) reaches past the last frame, \(total - 1) (\(total) frames).", command: "animate"))
    }
    let frames = selection.frames(of: max(1, total))
    if let pattern, let first = frames.first, let problem = unwritable(pattern.path(first)) {
        printError("cannot write '\(pattern.path(first))': \(problem)")
        return .cannotCreate
    }

    // One renderer per job, sharing one drawing-group cache: an image that does not change
    // is drawn once for the whole sequence, by whichever job needs it first. By default, one
    // job per active core, never more jobs than frames, and the cores divided among the jobs
    // for each render's threads (so jobs × threads never oversubscribes by default).
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let jobCount = max(1, min(jobs ?? cores, frames.count))
    let cache = DrawingGroupCache()
    let renderers = (0..<jobCount).map { _ in options.renderer(cache: cache, defaultThreads: max(1, cores / jobCount)) }
    let farm = FrameFarm(change: change, canvas: scene.canvas, name: scene.name, fps: fps, frames: frames,
                         sink: pattern.map { .png($0) } ?? .rawVideo, renderers: renderers)
    let progress = ProgressBar(total: frames.count, enabled: !quiet && isatty(2) == 1)
    let started = ContinuousClock.now
    let result = farm.run { progress.update($0) }
    let (hits, misses, pixelSize) = (result.hits, result.misses, result.pixelSize)
    if let failure = result.failure {
        progress.finish()
        printError(failure.message)
        return failure.code
    }
    progress.finish()
    let elapsed = ContinuousClock.now - started
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    if !quiet {
        var summary = "\(frames.count) of \(total) frames (\(length.plainDescription) s at \(fps.plainDescription) fps) in "
            + String(format: "%.2f s: %.1f frames/s", seconds, Double(frames.count) / max(seconds, 1e-9))
            + " with \(jobCount) job\(jobCount == 1 ? "" : "s")"
        if hits + misses > 0 { summary += String(format: "; drawing-group cache %d hits, %d misses (%.2f hits per frame)", hits, misses, Double(hits) / Double(max(1, frames.count))) }
        if raw { summary += "\nffmpeg input: -f rawvideo -pix_fmt bgra -s \(pixelSize.0)x\(pixelSize.1) -r \(fps.plainDescription) -i -" }
        FileHandle.standardError.write(Data((summary + "\n").utf8))
    }
    return .ok
}

/// A one-line progress bar on standard error, redrawn in place (only on a terminal).
final class ProgressBar {
    let total: Int
    let enabled: Bool
    private let started = ContinuousClock.now
    private var drawn = false

    init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled
    }

    func update(_ done: Int) {
        guard enabled else { return }
        let width = 30
        let filled = total == 0 ? width : done * width / total
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let rate = seconds > 0 ? Double(done) / seconds : 0
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        FileHandle.standardError.write(Data(String(format: "\r[%@] %d/%d frames %.1f/s", bar, done, total, rate).utf8))
        drawn = true
    }

    func finish() {
        if drawn { FileHandle.standardError.write(Data("\n".utf8)) }
        drawn = false
    }
}
