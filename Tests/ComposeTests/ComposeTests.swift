import Compositor
import Foundation
import Testing

/// The `compose` binary next to this test bundle, run as a user would run it.
struct Run {
    let status: Int32
    let stdout: Data
    let stderr: String
}

func compose(_ arguments: String...) throws -> Run { try compose(arguments, input: nil) }

/// The `compose` executable built beside the test bundle.
let composeBinary: URL = {
    let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    return [dir, dir.deletingLastPathComponent()].map { $0.appendingPathComponent("compose") }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }!
}()

/// Runs `compose` with `input` on its standard input.
func compose(_ arguments: [String], input: Data?, in directory: URL? = nil) throws -> Run {
    let process = Process()
    process.executableURL = composeBinary
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    let inputPipe = Pipe()
    if input != nil { process.standardInput = inputPipe }
    try process.run()
    if let input {
        inputPipe.fileHandleForWriting.write(input)
        try inputPipe.fileHandleForWriting.close()
    }
    // Both pipes drained at once: a child that fills one while the other is being read would
    // block forever.
    nonisolated(unsafe) var errData = Data()
    let errDone = DispatchSemaphore(value: 0)
    Thread {
        errData = err.fileHandleForReading.readDataToEndOfFile()
        errDone.signal()
    }.start()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    errDone.wait()
    let stderr = String(decoding: errData, as: UTF8.self)
    process.waitUntilExit()
    return Run(status: process.terminationStatus, stdout: stdout, stderr: stderr)
}

func temporaryDirectory() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("compose-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
}

@Suite struct ComposeTests {
    @Test func versionAndHelp() throws {
        let v = try compose("--version")
        #expect(v.status == 0 && String(decoding: v.stdout, as: UTF8.self) == "0.1.0\n")
        let h = try compose("--help")
        #expect(h.status == 0 && String(decoding: h.stdout, as: UTF8.self).contains("SUBCOMMANDS:"))
        let rh = try compose("render", "--help")
        #expect(rh.status == 0 && String(decoding: rh.stdout, as: UTF8.self).contains("USAGE: compose render"))
        let hr = try compose("help", "render")
        #expect(hr.status == 0 && hr.stdout == rh.stdout)
    }

    @Test func renderDemoWritesThePicture() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("demo.png").path
        let r = try compose("render", "--demo", "-o", out, "--scale", "2")
        #expect(r.status == 0, "\(r.stderr)")
        let png = try PNG.read(path: out)
        #expect(png.width == 1200 && png.height == 680)
        // Centre of the per-leaf overlap of all three circles (x = 150 pt): blue, pink and
        // orange each at 25 % over white, vs the group's overlap (x = 450 pt): orange alone
        // at 25 % — 255 − 0.25·(255 − c): (255, 228, 191) within 1.
        let group = png.pixel(x: 900, y: 180)
        #expect(abs(Int(group.r) - 255) <= 1 && abs(Int(group.g) - 228) <= 1 && abs(Int(group.b) - 191) <= 1, "\(group)")
        let perLeaf = png.pixel(x: 300, y: 180)
        #expect(perLeaf != group)
        // To standard output: the same bytes.
        let piped = try compose("render", "--demo", "-o", "-", "--scale", "2")
        #expect(piped.status == 0 && piped.stdout == FileManager.default.contents(atPath: out))
    }

    /// `--threads`: the same picture at any count (bands of fills dealt to threads); counts
    /// outside 1…64 or not numbers are usage errors.
    @Test func threadsChangeNothingButTheTime() throws {
        let one = try compose("render", "--demo", "-o", "-", "--scale", "3", "--threads", "1")
        let four = try compose("render", "--demo", "-o", "-", "--scale", "3", "--threads", "4")
        #expect(one.status == 0 && four.status == 0 && !one.stdout.isEmpty && one.stdout == four.stdout)
        for bad in ["0", "65", "two", "-1"] {
            let r = try compose("render", "--demo", "-o", "-", "--threads", bad)
            #expect(r.status == 64 && r.stderr.contains("--threads") && r.stdout.isEmpty, "--threads \(bad): \(r.stderr)")
        }
    }

    @Test func usageErrorsExit64WithASuggestion() throws {
        let a = try compose("render", "--dmeo")
        #expect(a.status == 64 && a.stderr.contains("Unknown option '--dmeo'. Did you mean '--demo'?"))
        let b = try compose("rendr")
        #expect(b.status == 64 && b.stderr.contains("Did you mean 'render'?"))
        let c = try compose("render", "--demo", "--scale", "nan")
        #expect(c.status == 64 && c.stderr.contains("--scale"))
        let d = try compose("render", "--demo", "--scale")
        #expect(d.status == 64 && d.stderr.contains("Missing value for '--scale'"))
        let e = try compose("render")
        #expect(e.status == 64 && e.stderr.contains("Missing expected argument '<scene>'"))
        let f = try compose("render", "no-such.scene")
        #expect(f.status == 66 && f.stderr.contains("cannot read 'no-such.scene': no such file"))
        let g = try compose()
        #expect(g.status == 64)
    }

    @Test func unwritableOutputExits73AndLeavesExistingFilesAlone() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = dir.appendingPathComponent("no/such/dir/out.png").path
        let r = try compose("render", "--demo", "-o", missing)
        #expect(r.status == 73 && r.stderr.contains("out.png"))
        #expect(!FileManager.default.fileExists(atPath: missing))
        // A usage error never touches an existing output.
        let existing = dir.appendingPathComponent("keep.png")
        try Data("precious".utf8).write(to: existing)
        let u = try compose("render", "--demo", "-o", existing.path, "--scale", "100")
        #expect(u.status == 64)
        #expect(try Data(contentsOf: existing) == Data("precious".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["keep.png"])
    }
}

@Suite struct ComposeDiffTests {
    /// Writes a w×h PNG of `color`, optionally with one pixel changed.
    func png(_ dir: URL, _ name: String, _ color: Color, w: Int = 4, h: Int = 4, pixel: Color? = nil) throws -> String {
        let s = try Surface(width: w, height: h)
        s.fill(color)
        if let pixel { s.fill(pixel, in: PixelRect(x: 2, y: 1, width: 1, height: 1)) }
        let path = dir.appendingPathComponent(name).path
        try s.writePNG(to: path)
        return path
    }

    @Test func equalDifferentAndTolerances() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try png(dir, "a.png", Color(rgb: 0x808080))
        let b = try png(dir, "b.png", Color(rgb: 0x808080), pixel: Color(rgb: 0x848080))   // one pixel, red + 4
        let same = try compose("diff", a, a)
        #expect(same.status == 0 && String(decoding: same.stdout, as: UTF8.self).hasPrefix("equal: 0 of 16 pixels differ"))
        let diff = try compose("diff", a, b)
        let text = String(decoding: diff.stdout, as: UTF8.self)
        #expect(diff.status == 1 && text.contains("1 of 16 pixels differ") && text.contains("largest channel difference 4")
                && text.contains("worst at (2, 1): expected (128, 128, 128, 255), actual (132, 128, 128, 255)"), "\(text)")
        #expect(try compose("diff", a, b, "--tolerance", "4").status == 0)
        #expect(try compose("diff", a, b, "--tolerance", "3").status == 1)
        #expect(try compose("diff", a, b, "--max-differing", "0.0625").status == 0)   // 1/16
        #expect(try compose("diff", a, b, "--perceptual", "5").status == 0)
        // A difference image.
        let out = dir.appendingPathComponent("d.png").path
        #expect(try compose("diff", a, b, "-o", out).status == 1)
        #expect(try PNG.read(path: out).pixel(x: 2, y: 1) == RGBA8(255, 0, 0, 255))
    }

    @Test func errorsHaveTheirOwnExitCodes() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try png(dir, "a.png", .red)
        let small = try png(dir, "s.png", .red, w: 3)
        let missing = try compose("diff", a, dir.appendingPathComponent("nope.png").path)
        #expect(missing.status == 66 && missing.stderr.contains("nope.png") && missing.stderr.contains("no such file"))
        let size = try compose("diff", a, small)
        #expect(size.status == 65 && size.stderr.contains("expected 4×4, actual 3×4"))
        #expect(try compose("diff", a).status == 64)
        let typo = try compose("diff", a, a, "--tolerence", "3")
        #expect(typo.status == 64 && typo.stderr.contains("Did you mean '--tolerance'?"))
        #expect(try compose("diff", a, a, "--tolerance", "300").status == 64)
        let noFolder = try compose("diff", a, a, "-o", dir.appendingPathComponent("no/dir/d.png").path)
        #expect(noFolder.status == 73 && noFolder.stderr.contains("does not exist"), "\(noFolder.stderr)")
        // A write the checks cannot foresee (/proc takes no new files): 74, in the system's words.
        let refused = try compose("diff", a, a, "-o", "/proc/compose-diff.png")
        #expect(refused.status == 74 && refused.stderr.contains("cannot write '/proc/compose-diff.png': No such file or directory"), "\(refused.stderr)")
        #expect(try compose("diff", "--help").status == 0)
    }
}

@Suite struct ComposeRenderStatsTests {
    @Test func statsTraceAndOverlay() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (png, stats, trace) = (dir.appendingPathComponent("demo.png").path, dir.appendingPathComponent("stats.json").path,
                                   dir.appendingPathComponent("trace.json").path)
        let r = try compose("render", "--demo", "-o", png, "--stats", "--stats-json", stats, "--trace", trace)
        #expect(r.status == 0, "\(r.stderr)")
        // The demo's one layer is the right-hand circles' group: centres x = 410, 450, 490,
        // y = 90, r = 60 → ink [350, 30] … [550, 150], plus 2 px: [348, 28, 204, 124],
        // 204 · 124 · 4 = 101,184 bytes. Nine leaves: six circles, star, card, ring.
        #expect(r.stderr.contains("leaf draws           9") && r.stderr.contains("101184 bytes"), "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stats))) as! [String: Any]
        #expect(json["leafDraws"] as? Int == 9 && json["peakOffscreenBytes"] as? Int == 101_184)
        let layers = json["layers"] as! [[String: Any]]
        #expect(layers.count == 1 && layers[0]["kind"] as? String == "compositingGroup"
                && layers[0]["bounds"] as? [Int] == [348, 28, 204, 124] && layers[0]["bytes"] as? Int == 101_184)
        let phases = json["phasesMs"] as! [String: Double]
        #expect(Set(phases.keys) == ["layout", "lowering", "planning", "rasterization", "composition", "filters", "encoding"])
        #expect(phases["encoding"]! > 0)
        let events = (try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: trace))) as! [String: Any])["traceEvents"]
            as! [[String: Any]]
        #expect(events.first?["name"] as? String == "render" && events.contains { $0["name"] as? String == "compositingGroup" })

        // The overlay tints the layer: white at (349, 29), inside the layer but outside the
        // circles, becomes yellow 0xFFCC00 at 0.5 over white, (255, 229.5, 127.5) ± 1.
        let tinted = dir.appendingPathComponent("tinted.png").path
        #expect(try compose("render", "--demo", "-o", tinted, "--overlay", "offscreen").status == 0)
        let p = try PNG.read(path: tinted).pixel(x: 349, y: 29)
        #expect(p.r == 255 && abs(Int(p.g) - 230) <= 1 && abs(Int(p.b) - 128) <= 1, "\(p)")
        #expect(try PNG.read(path: png).pixel(x: 349, y: 29) == RGBA8(255, 255, 255, 255))
    }

    @Test func badStatsArgumentsWriteNothing() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let png = dir.appendingPathComponent("out.png").path
        let a = try compose("render", "--demo", "-o", png, "--overlay", "everything")
        #expect(a.status == 64 && a.stderr.contains("expected 'offscreen' or 'layers'"))
        let b = try compose("render", "--demo", "-o", png, "--stats-json", png)
        #expect(b.status == 64 && b.stderr.contains("same file"))
        // An unwritable statistics file: exit 73, and the image is not written either.
        let c = try compose("render", "--demo", "-o", png, "--stats-json", dir.appendingPathComponent("no/such/stats.json").path)
        #expect(c.status == 73 && c.stderr.contains("stats.json") && c.stderr.contains("does not exist"))
        let d = try compose("render", "--demo", "-o", png, "--trace", dir.path)
        #expect(d.status == 73 && d.stderr.contains("it is a folder"))
        let e = try compose("render", "--demo", "--stats-json")
        #expect(e.status == 64 && e.stderr.contains("Missing value for '--stats-json'"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }
}
