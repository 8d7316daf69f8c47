import Compositor
import Foundation
import Testing

/// `compose render A B C --output-dir DIR`: many scenes in one process, each image the same
/// bytes as its own `compose render`, failures reported without stopping the rest.
@Suite struct RenderBatchTests {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    var examples: [String] {
        ["circles.scene", "badge.scene", "shadows.scene", "svg-filters.svg"].map { root.appendingPathComponent("Examples/" + $0).path }
    }

    func files(in dir: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    }

    @Test func everySceneIsWrittenAsItsOwnRenderWould() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var single: [String: Data] = [:]
        for path in examples {
            let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent + ".png"
            let out = dir.appendingPathComponent("single-" + name)
            let r = try compose("render", path, "-o", out.path, "--scale", "1")
            #expect(r.status == 0, "\(r.stderr)")
            single[name] = try Data(contentsOf: out)
        }
        for jobs in ["1", "3"] {
            let out = dir.appendingPathComponent("jobs\(jobs)")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            let r = try compose(["render"] + examples + ["--output-dir", out.path, "--jobs", jobs, "--scale", "1"], input: nil)
            #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
            #expect(try files(in: out) == single.keys.sorted())
            for (name, data) in single { #expect(try Data(contentsOf: out.appendingPathComponent(name)) == data, "\(name), \(jobs) jobs") }
        }
        // One scene with --output-dir: named after the scene, in that folder.
        let one = dir.appendingPathComponent("one")
        try FileManager.default.createDirectory(at: one, withIntermediateDirectories: true)
        let r = try compose("render", examples[0], "--output-dir", one.path, "--scale", "1")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try files(in: one) == ["circles.png"])
        #expect(try Data(contentsOf: one.appendingPathComponent("circles.png")) == single["circles.png"])
    }

    /// A missing scene (66) and a scene with errors (65): both reported, the good scenes still
    /// written, no file for the failed ones, and the first failure's status.
    @Test func failedScenesAreReportedAndTheRestWritten() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("bad.scene")
        try "Circle().fill(.nonsense)\n".write(to: bad, atomically: true, encoding: .utf8)
        let missing = dir.appendingPathComponent("missing.scene").path
        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        for jobs in ["1", "2"] {
            for (order, status) in [([examples[0], missing, bad.path, examples[1]], Int32(66)), ([bad.path, examples[0], missing], 65)] {
                try? FileManager.default.removeItem(at: out)
                try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
                let r = try compose(["render"] + order + ["--output-dir", out.path, "--jobs", jobs], input: nil)
                #expect(r.status == status, "\(r.stderr)")
                #expect(r.stderr.contains("cannot read '\(missing)': no such file"), "\(r.stderr)")
                #expect(r.stderr.contains("bad.scene:1:"), "\(r.stderr)")
                #expect(r.stderr.contains("Error: 2 of \(order.count) scenes failed"), "\(r.stderr)")
                let written = order.filter { $0.hasPrefix(root.path) }.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent + ".png" }
                #expect(try files(in: out) == written.sorted())
            }
        }
    }

    /// Refused before anything is drawn (64): flags that name one scene's files, standard input,
    /// the demo, two scenes with the same image name. A folder that does not exist: 73.
    @Test func whatABatchCannotDo() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let twice = dir.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: twice, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: examples[0], toPath: twice.appendingPathComponent("circles.scene").path)
        let cases: [([String], String)] = [
            (["-o", dir.appendingPathComponent("x.png").path], "-o is for one scene"),
            (["--stats-json", dir.appendingPathComponent("s.json").path], "--stats-json is for one scene"),
            (["--trace", dir.appendingPathComponent("t.json").path], "--trace is for one scene"),
            (["--stats"], "--stats is for one scene"),
            (["-"], "'-' (standard input) is one scene"),
            (["--demo"], "not both"),
            ([twice.appendingPathComponent("circles.scene").path], "would both be written to"),
        ]
        for (extra, message) in cases {
            let r = try compose(["render", examples[0], examples[1]] + extra + ["--output-dir", dir.path], input: nil)
            #expect(r.status == 64 && r.stderr.contains(message), "\(extra): \(r.stderr)")
        }
        #expect(try files(in: dir) == ["sub"])
        let r = try compose("render", examples[0], examples[1], "--output-dir", dir.appendingPathComponent("nowhere").path)
        #expect(r.status == 73 && r.stderr.contains("does not exist"), "\(r.stderr)")
        let j = try compose("render", examples[0], examples[1], "--jobs", "0")
        #expect(j.status == 64, "\(j.stderr)")
    }
}
