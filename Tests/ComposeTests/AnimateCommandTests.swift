import Compositor
import Foundation
import Testing

/// `compose animate`: frames, shards, raw video and its errors, run as a user runs it.
@Suite struct AnimateCommandTests {
    /// 0.1 s at 60 fps: 7 frames, a capsule moving and changing colour (also used by
    /// `ScalingRecipeTests`).
    static let scene = """
        canvas(width: 40, height: 20, scale: 2)
        state on = false -> true
        animation(.easeInOut(duration: 0.1))
        Capsule().fill(on ? Color.orange : Color.blue).frame(width: on ? 30 : 10, height: 10)
            .frame(maxWidth: .infinity, alignment: on ? .trailing : .leading)
        """

    var scene: String { Self.scene }

    /// Every file of `dir` by name, with its bytes.
    static func files(_ dir: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) {
            result[name] = try Data(contentsOf: dir.appendingPathComponent(name))
        }
        return result
    }

    func files(_ dir: URL) throws -> [String: Data] { try Self.files(dir) }

    /// A new temporary folder holding one scene file `name` with `source`; the caller removes it.
    func sceneFile(_ name: String, _ source: String) throws -> (dir: URL, path: URL) {
        let dir = try temporaryDirectory()
        let path = dir.appendingPathComponent(name)
        try source.write(to: path, atomically: true, encoding: .utf8)
        return (dir, path)
    }

    /// 0.1 s at 60 fps: frames at 0, 1/60 … 6/60 = 0.1: ⌈6⌉ + 1 = 7 frames. Four shards
    /// together write exactly the same files, byte for byte, as one full run.
    @Test func shardsTogetherEqualOneFullRun() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.scene")
        try scene.write(to: path, atomically: true, encoding: .utf8)
        let full = dir.appendingPathComponent("full"), sharded = dir.appendingPathComponent("sharded")
        try FileManager.default.createDirectory(at: full, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: sharded, withIntermediateDirectories: true)
        let r = try compose("animate", path.path, "-o", full.path + "/%04d.png")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("7 of 7 frames (0.1 s at 60 fps)"), "\(r.stderr)")
        for i in 0..<4 {
            let s = try compose("animate", path.path, "-o", sharded.path + "/%04d.png", "--shard", "\(i)/4", "-q")
            #expect(s.status == 0 && s.stderr.isEmpty, "\(s.stderr)")
        }
        let a = try files(full), b = try files(sharded)
        #expect(a.keys.sorted() == (0..<7).map { String(format: "%04d.png", $0) })
        #expect(a == b)
        // The first frame is the start state, the last the end state: blue at the left, orange
        // at the right (pixel (10, 20) is inside the 20 × 20-pixel start capsule's middle).
        let first = try PNG.read(path: full.path + "/0000.png"), last = try PNG.read(path: full.path + "/0006.png")
        #expect(first.pixel(x: 10, y: 20) == RGBA8(0, 122, 255, 255))
        #expect(last.pixel(x: 70, y: 20) == RGBA8(255, 149, 0, 255) && last.pixel(x: 10, y: 20) == RGBA8(255, 255, 255, 255))
        // --frames picks a range; with a shard, every N-th of it.
        let some = dir.appendingPathComponent("some")
        try FileManager.default.createDirectory(at: some, withIntermediateDirectories: true)
        #expect(try compose("animate", path.path, "-o", some.path + "/f%d.png", "--frames", "2...5", "--shard", "1/2", "-q").status == 0)
        #expect(try files(some).keys.sorted() == ["f3.png", "f5.png"])
        #expect(try files(some)["f3.png"] == a["0003.png"])
    }

    /// Raw video: 7 frames of 80 × 40 BGRA = 7 · 12,800 bytes, each frame the PNG's pixels.
    @Test func rawVideoIsTheFramesAsBGRA() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.scene")
        try scene.write(to: path, atomically: true, encoding: .utf8)
        let r = try compose("animate", path.path, "--format", "rawvideo")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.count == 7 * 80 * 40 * 4)
        #expect(r.stderr.contains("ffmpeg input: -f rawvideo -pix_fmt bgra -s 80x40 -r 60 -i -"))
        #expect(try compose("animate", path.path, "-o", dir.path + "/%d.png", "--frames", "3", "-q").status == 0)
        let png = try PNG.read(path: dir.path + "/3.png")
        let frame = r.stdout.subdata(in: (3 * 12_800)..<(4 * 12_800))
        var same = true
        for y in 0..<40 {
            for x in 0..<80 {
                let p = png.pixel(x: x, y: y), o = (y * 80 + x) * 4
                if frame[o] != p.b || frame[o + 1] != p.g || frame[o + 2] != p.r || frame[o + 3] != p.a { same = false }
            }
        }
        #expect(same)
    }

    @Test func badInputGetsClearErrors() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.scene")
        try scene.write(to: path, atomically: true, encoding: .utf8)
        let still = dir.appendingPathComponent("still.scene")
        try "Circle()".write(to: still, atomically: true, encoding: .utf8)
        let out = dir.path + "/%03d.png"

        let noState = try compose("animate", still.path, "-o", out)
        #expect(noState.status == 65 && noState.stderr.contains("declares no state to animate"))
        let pattern = try compose("animate", path.path, "-o", dir.path + "/frame.png")
        #expect(pattern.status == 64 && pattern.stderr.contains("needs one frame number conversion"))
        let noOutput = try compose("animate", path.path)
        #expect(noOutput.status == 64 && noOutput.stderr.contains("Missing '-o <pattern>'"))
        let tooMany = try compose("animate", path.path, "-o", out, "--fps", "1000", "--duration", "60")
        #expect(tooMany.status == 65 && tooMany.stderr.contains("60001 frames") && tooMany.stderr.contains("--max-frames"))
        #expect(try compose("animate", path.path, "-o", out, "--fps", "1000", "--duration", "60", "--max-frames", "60001", "--frames", "0", "-q").status == 0)
        let past = try compose("animate", path.path, "-o", out, "--frames", "5..<9")
        #expect(past.status == 64 && past.stderr.contains("reaches past the last frame, 6 (7 frames)"))
        let shard = try compose("animate", path.path, "-o", out, "--shard", "4/4")
        #expect(shard.status == 64 && shard.stderr.contains("I/N with 0 ≤ I < N"))
        let missingFolder = try compose("animate", path.path, "-o", dir.path + "/nope/%d.png")
        #expect(missingFolder.status == 73 && missingFolder.stderr.contains("does not exist"))
        let rawWithFile = try compose("animate", path.path, "--format", "rawvideo", "-o", out)
        #expect(rawWithFile.status == 64)
        let bad = dir.appendingPathComponent("bad.scene")
        try "state on = false -> 2\nCircle()".write(to: bad, atomically: true, encoding: .utf8)
        let badRun = try compose("animate", bad.path, "-o", out)
        #expect(badRun.status == 65 && badRun.stderr.contains("bad.scene:1:21: error: the state 'on' starts as a boolean but ends as an integer"))
        // Nothing was written by the failing runs (the one successful run wrote frame 0).
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["000.png", "bad.scene", "s.scene", "still.scene"])
        let help = try compose("animate", "--help")
        #expect(String(decoding: help.stdout, as: UTF8.self).contains("ffmpeg -f rawvideo -pix_fmt bgra -s WxH -r FPS -i - out.mp4"))
    }

    /// A change that repeats forever covers one period, as a seamless loop: linear 0.1 s there
    /// and back is a 0.2 s period, 12 frames at 60 fps (frame 12 would repeat frame 0). `render
    /// --time 50%` of it is half a period: the far end, like frame 6.
    @Test func repeatingAnimationsCoverOnePeriod() throws {
        let (dir, path) = try sceneFile("loop.scene", """
            canvas(width: 40, height: 20)
            state x = -10.0 -> 10.0
            animation(.linear(duration: 0.1).repeatForever(autoreverses: true))
            Circle().fill(.pink).frame(width: 10, height: 10).offset(x: x)
            """)
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try compose("animate", path.path, "-o", dir.path + "/%02d.png")
        #expect(r.status == 0 && r.stderr.hasPrefix("12 of 12 frames (0.2 s at 60 fps)"), "\(r.stderr)")
        let half = try compose("render", path.path, "--time", "50%", "-o", dir.path + "/half.png")
        #expect(half.status == 0, "\(half.stderr)")
        #expect(try Data(contentsOf: dir.appendingPathComponent("half.png")) == Data(contentsOf: dir.appendingPathComponent("06.png")))
        let still = dir.appendingPathComponent("still.scene")
        try "Circle()".write(to: still, atomically: true, encoding: .utf8)
        let noTime = try compose("render", still.path, "--time", "0.5", "-o", dir.path + "/x.png")
        #expect(noTime.status == 65 && noTime.stderr.contains("--time needs a scene that declares a state"))
        #expect(try compose("render", path.path, "--time", "150%").status == 64)
    }

    /// A drawing group whose content does not change is rasterized once for the whole sequence:
    /// 7 frames of a group turning as a unit are 1 miss and 6 hits, with 1 job or 4.
    @Test func unchangedDrawingGroupsHitTheCacheAcrossFrames() throws {
        let (dir, path) = try sceneFile("turn.scene", """
            canvas(width: 40, height: 40)
            state angle = 0.0 -> 90.0
            animation(.linear(duration: 0.1))
            ZStack { Circle().fill(.mint); Rectangle().fill(.pink).frame(width: 8, height: 30) }
                .drawingGroup()
                .rotationEffect(.degrees(angle))
            """)
        defer { try? FileManager.default.removeItem(at: dir) }
        // With one job, and with 4 sharing the cache: a job that needs the image while another
        // draws it waits and hits, so the counts do not depend on timing (three runs of 4).
        for jobs in ["1", "4", "4", "4"] {
            let r = try compose("animate", path.path, "-o", dir.path + "/%d.png", "--jobs", jobs)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stderr.contains("drawing-group cache 6 hits, 1 misses"), "jobs \(jobs): \(r.stderr)")
        }
    }

    /// `--jobs`: frames rendered at once by renderers sharing one cache are the same bytes,
    /// PNG and raw video, whatever the job count (more jobs than frames included).
    @Test func jobsGiveTheSameBytes() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.scene")
        try scene.write(to: path, atomically: true, encoding: .utf8)
        var runs: [[String: Data]] = []
        var raws: [Data] = []
        for jobs in [1, 2, 3, 8] {
            let out = dir.appendingPathComponent("j\(jobs)")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            let r = try compose("animate", path.path, "-o", out.path + "/%04d.png", "--jobs", String(jobs))
            #expect(r.status == 0, "\(r.stderr)")
            // 7 frames: never more jobs than frames.
            #expect(r.stderr.contains("with \(min(jobs, 7)) job"), "\(r.stderr)")
            runs.append(try files(out))
            let raw = try compose("animate", path.path, "--format", "rawvideo", "--jobs", String(jobs), "-q")
            #expect(raw.status == 0 && raw.stdout.count == 7 * 12_800)
            raws.append(raw.stdout)
        }
        #expect(runs[0].count == 7)
        #expect(runs.allSatisfy { $0 == runs[0] })
        #expect(raws.allSatisfy { $0 == raws[0] })
        #expect(try compose("animate", path.path, "-o", dir.path + "/%d.png", "--jobs", "0").status == 64)
        #expect(try compose("animate", path.path, "-o", dir.path + "/%d.png", "--jobs", "257").status == 64)
    }

    /// A frame that cannot be rendered stops the run with the same message whatever the job
    /// count: the earliest failing frame's. Here the group grows past the offscreen limit from
    /// frame 4 on: at frame k (of 0…6, linear) its side is 20 + 60·k/6 pt and its layer, with
    /// the 2 px margin on each side, (side + 4)² · 4 bytes: frame 3 is 54² · 4 = 11,664 bytes,
    /// within 12,000; frame 4 is 64² · 4 = 16,384, over. (A circle on the square: a group around
    /// one leaf would be folded into it, without a layer.)
    @Test func theEarliestFailingFrameIsReported() throws {
        let (dir, path) = try sceneFile("grow.scene", """
            canvas(width: 100, height: 100)
            state side = 20.0 -> 80.0
            animation(.linear(duration: 0.1))
            ZStack { Rectangle().fill(.blue); Circle().fill(.red).frame(width: 10, height: 10) }
                .frame(width: side, height: side).compositingGroup().opacity(0.5)
            """)
        defer { try? FileManager.default.removeItem(at: dir) }
        var messages: [String] = []
        for jobs in ["1", "2", "4"] {
            let r = try compose("animate", path.path, "-o", dir.path + "/%d.png", "--jobs", jobs, "--max-offscreen-bytes", "12000", "-q")
            #expect(r.status == 65)
            messages.append(r.stderr)
        }
        #expect(messages[0].contains("frame "), "\(messages[0])")
        #expect(messages.allSatisfy { $0 == messages[0] }, "\(messages)")
        // Raw video stops at the same frame, with every frame before it written.
        let raw = try compose("animate", path.path, "--format", "rawvideo", "--jobs", "3", "--max-offscreen-bytes", "12000", "-q")
        #expect(raw.status == 65 && raw.stderr == messages[0])
        #expect(messages[0].contains("frame 4 (t = 0.0666"), "\(messages[0])")
        #expect(raw.stdout.count == 4 * 100 * 100 * 4, "frames 0 to 3")
    }

    /// A reader that stops early (`| head -c`) is a write error (74), not a crash by SIGPIPE.
    @Test func aClosedPipeIsAWriteError() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let script = dir.appendingPathComponent("run.sh")
        try """
            set -o pipefail
            '\(composeBinary.path)' animate Examples/badge.scene --format rawvideo --jobs 2 -q 2>'\(dir.path)/err' | head -c 1000 > /dev/null
            """.write(to: script, atomically: true, encoding: .utf8)
        // pipefail: the pipeline's status is compose's.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 74)
        #expect(try String(contentsOf: dir.appendingPathComponent("err"), encoding: .utf8).contains("Broken pipe"))
    }

    /// Many cheap frames and many jobs, in both formats, several times: the command thread and
    /// the jobs hand frames over quickly, so a lost wake-up would hang a run (as one did in
    /// development: the command thread slept while a frame it could write was ready). Each run
    /// has a watchdog, so a hang fails here instead of stalling the suite.
    @Test func manyFramesManyJobsNeverHang() throws {
        let (dir, path) = try sceneFile("tiny.scene", """
            canvas(width: 8, height: 8)
            state x = 0.0 -> 1.0
            animation(.linear(duration: 2))
            Rectangle().fill(.blue).opacity(x)
            """)
        defer { try? FileManager.default.removeItem(at: dir) }
        for round in 0..<4 {
            for (format, jobs) in [("rawvideo", "4"), ("png", "5"), ("rawvideo", "2")] {
                let process = Process()
                process.executableURL = composeBinary
                let output = format == "png" ? ["-o", dir.path + "/%04d.png"] : ["--format", "rawvideo"]
                process.arguments = ["animate", path.path, "--fps", "200", "--jobs", jobs, "-q"] + output
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                let deadline = Date().addingTimeInterval(60)
                while process.isRunning && Date() < deadline { usleep(10_000) }
                let hung = process.isRunning
                if hung { process.terminate(); process.waitUntilExit() }
                #expect(!hung, "round \(round): animate --format \(format) --jobs \(jobs) of 401 frames hung")
                if hung { return }  // one hang is the finding; the others would cost a minute each
                #expect(process.terminationStatus == 0)
            }
        }
    }
}
