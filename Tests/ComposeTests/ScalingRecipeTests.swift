import Foundation
import Testing

/// The recipes of docs/scaling.md, run for real: GNU parallel with 4 shards, the Slurm script
/// and the Kubernetes manifest's arguments with the index variables their schedulers set.
/// Each must write exactly the frames of one unsharded run, byte for byte.
@Suite struct ScalingRecipeTests {
    let scene = AnimateCommandTests.scene

    private func files(_ dir: URL) throws -> [String: Data] { try AnimateCommandTests.files(dir) }

    /// A folder with the scene and the frames of one unsharded run.
    private func reference() throws -> (dir: URL, scene: URL, frames: [String: Data]) {
        let dir = try temporaryDirectory()
        let scene = dir.appendingPathComponent("s.scene")
        try self.scene.write(to: scene, atomically: true, encoding: .utf8)
        let full = dir.appendingPathComponent("full")
        try FileManager.default.createDirectory(at: full, withIntermediateDirectories: true)
        let r = try compose("animate", scene.path, "-o", full.path + "/%04d.png", "--jobs", "1", "-q")
        #expect(r.status == 0, "\(r.stderr)")
        let frames = try files(full)
        #expect(frames.count == 7)
        return (dir, scene, frames)
    }

    /// Runs `executable` with `arguments` and extra environment; its status and standard error.
    private func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    private func which(_ name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// docs/scaling.md's first GNU parallel line, with this build's binary and a test folder.
    @Test func gnuParallelShardsEqualOneRun() throws {
        let (dir, scene, frames) = try reference()
        defer { try? FileManager.default.removeItem(at: dir) }
        let parallel = try #require(which("parallel"), "GNU parallel is missing: make deps installs Debian's 'parallel'")
        let out = dir.appendingPathComponent("parallel")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let (status, stderr) = try run(parallel, ["--will-cite", "--jobs", "4", composeBinary.path, "animate", scene.path, "-o", out.path + "/%04d.png",
                                                  "--shard", "{}/4", "--jobs", "1", "--quiet", ":::", "0", "1", "2", "3"])
        #expect(status == 0, "\(stderr)")
        #expect(try files(out) == frames)
    }

    /// deploy/slurm/animate.sbatch: valid bash, an array of 4 tasks, and run as Slurm would
    /// run its tasks, the frames of one unsharded run.
    @Test func slurmScriptShardsEqualOneRun() throws {
        let script = "deploy/slurm/animate.sbatch"
        let text = try String(contentsOfFile: script, encoding: .utf8)
        #expect(try run("/bin/bash", ["-n", script]).0 == 0)
        #expect(text.contains("#SBATCH --array=0-3"))
        #expect(text.contains("--shard-index-from-env SLURM_ARRAY_TASK_ID"))
        let (dir, scene, frames) = try reference()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("slurm")
        for task in 0..<4 {
            let (status, stderr) = try run("/bin/bash", [script, scene.path, out.path],
                                           environment: ["SLURM_ARRAY_TASK_ID": String(task), "SLURM_ARRAY_TASK_COUNT": "4",
                                                         "SLURM_CPUS_PER_TASK": "2", "COMPOSE": composeBinary.path])
            #expect(status == 0, "task \(task): \(stderr)")
        }
        #expect(try files(out) == frames)
        // Outside an array job it stops with a message instead of rendering everything.
        let (status, stderr) = try run("/bin/bash", [script, scene.path, out.path], environment: ["COMPOSE": composeBinary.path])
        #expect(status != 0 && stderr.contains("not in a Slurm array job"), "\(stderr)")
    }

    /// deploy/kubernetes/animate-job.yaml: an Indexed Job whose completions match its
    /// --shard-count, whose arguments read JOB_COMPLETION_INDEX, and whose arguments, run once
    /// per index with the paths pointed here, give the frames of one unsharded run.
    @Test func kubernetesJobShardsEqualOneRun() throws {
        // The manifest as JSON, through a YAML parser: the first python3 with PyYAML, else
        // Debian's (python3-yaml, installed by make deps).
        var python = "/usr/bin/python3"
        for candidate in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map({ "\($0)/python3" })
        where FileManager.default.isExecutableFile(atPath: candidate) {
            if try run(candidate, ["-c", "import yaml"]).0 == 0 { python = candidate; break }
        }
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = dir.appendingPathComponent("job.json")
        let (parsed, error) = try run(python, ["-c", "import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), open(sys.argv[2], 'w'))",
                                               "deploy/kubernetes/animate-job.yaml", json.path])
        #expect(parsed == 0, "the manifest is not YAML: \(error)")
        let job = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        #expect(job["kind"] as? String == "Job" && job["apiVersion"] as? String == "batch/v1")
        let spec = try #require(job["spec"] as? [String: Any])
        #expect(spec["completionMode"] as? String == "Indexed")
        let completions = try #require(spec["completions"] as? Int)
        let template = try #require((spec["template"] as? [String: Any])?["spec"] as? [String: Any])
        let container = try #require((template["containers"] as? [[String: Any]])?.first)
        #expect(container["command"] as? [String] == ["compose"])
        let arguments = try #require(container["args"] as? [String])
        let variable = try #require(arguments.firstIndex(of: "--shard-index-from-env").map { arguments[$0 + 1] })
        #expect(variable == "JOB_COMPLETION_INDEX")
        let count = try #require(arguments.firstIndex(of: "--shard-count").map { Int(arguments[$0 + 1]) } ?? nil)
        #expect(count == completions)

        let (refDir, scene, frames) = try reference()
        defer { try? FileManager.default.removeItem(at: refDir) }
        let out = dir.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let local = arguments.map { $0.replacingOccurrences(of: "/scene/scene.scene", with: scene.path).replacingOccurrences(of: "/frames/", with: out.path + "/") }
        for index in 0..<completions {
            let (status, stderr) = try run(composeBinary.path, local, environment: [variable: String(index)])
            #expect(status == 0, "index \(index): \(stderr)")
        }
        #expect(try files(out) == frames)
    }

    /// The flag's errors: unset, out of range, half given, or with --shard.
    @Test func shardIndexFromEnvironmentErrors() throws {
        let (dir, scene, _) = try reference()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.path + "/%d.png"
        let base = [composeBinary.path, "animate", scene.path, "-o", out]
        func status(_ extra: [String], _ environment: [String: String] = [:]) throws -> (Int32, String) {
            try run(base[0], Array(base.dropFirst()) + extra, environment: environment)
        }
        let unset = try status(["--shard-index-from-env", "NO_SUCH_INDEX_VARIABLE", "--shard-count", "4"])
        #expect(unset.0 == 64 && unset.1.contains("NO_SUCH_INDEX_VARIABLE: the variable is not set"))
        let range = try status(["--shard-index-from-env", "I", "--shard-count", "4"], ["I": "4"])
        #expect(range.0 == 64 && range.1.contains("'4' is not a shard index from 0 to 3"))
        #expect(try status(["--shard-index-from-env", "I", "--shard-count", "4"], ["I": "x"]).0 == 64)
        #expect(try status(["--shard-index-from-env", "I"], ["I": "1"]).0 == 64)
        #expect(try status(["--shard-count", "2"]).0 == 64)
        #expect(try status(["--shard", "0/2", "--shard-index-from-env", "I", "--shard-count", "2"], ["I": "1"]).0 == 64)
        #expect(try status(["--shard-index-from-env", "BAD-NAME", "--shard-count", "2"]).0 == 64)
        #expect(try status(["--shard-index-from-env", "I", "--shard-count", "2", "-q"], ["I": "1"]).0 == 0)
    }
}
