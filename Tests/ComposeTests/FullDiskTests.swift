import Foundation
import Testing

/// Whether this machine lets the tests mount a small tmpfs (root with the capability to mount,
/// as on a developer's container; CI runners without it skip these tests, and say so).
let canMountTmpfs: Bool = {
    guard getuid() == 0 else { return false }
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("compose-mount-probe-\(getpid())")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    guard mount("tmpfs", dir.path, "tmpfs", 0, "size=16k") == 0 else { return false }
    umount(dir.path)
    return true
}()

/// A tmpfs of `size` mounted for the duration of `body` (read-only when asked).
func withTmpfs(size: String, readOnly: Bool = false, _ body: (URL) throws -> Void) throws {
    let dir = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    #expect(mount("tmpfs", dir.path, "tmpfs", readOnly ? UInt(MS_RDONLY) : 0, "size=\(size)") == 0)
    defer { umount(dir.path) }
    try body(dir)
}

/// Nothing lost when the disk is full or read-only: exit 73/74 with the path and the reason,
/// an existing file untouched, no temporary file left.
@Suite(.serialized) struct FullDiskTests {
    /// Standard output to /dev/full (always "No space left on device"): 74, not a trap.
    @Test func fullStandardOutputExits74() throws {
        for arguments in [["render", "--demo", "-o", "-"], ["explain", "--demo", "--json"]] {
            let process = Process()
            process.executableURL = composeBinary
            process.arguments = arguments
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
            let err = Pipe()
            process.standardError = err
            try process.run()
            let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 74, "\(arguments): \(stderr)")
            #expect(stderr.contains("cannot write to standard output: No space left on device"))
        }
    }

    /// The demo's PNG is about 28 KB: it cannot fit in 16 KB.
    @Test(.enabled(if: canMountTmpfs, "needs root and permission to mount a tmpfs"))
    func fullFilesystemExits74AndLosesNothing() throws {
        try withTmpfs(size: "16k") { dir in
            let target = dir.appendingPathComponent("demo.png")
            try Data("old".utf8).write(to: target)
            let r = try compose("render", "--demo", "-o", target.path)
            #expect(r.status == 74, "\(r.stderr)")
            #expect(r.stderr.contains("cannot write '\(target.path)': No space left on device"), "\(r.stderr)")
            #expect(try Data(contentsOf: target) == Data("old".utf8))
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["demo.png"])
            // A frame sequence stops at the first frame that does not fit; the frames before
            // it are complete files and no temporary file is left.
            let scene = dir.deletingLastPathComponent().appendingPathComponent("full-\(UUID()).scene")
            try "canvas(width: 200, height: 200)\nstate t = 0.0 -> 1.0\nanimation(.linear(duration: 1))\nCircle().fill(.blue).opacity(t).blur(radius: 20 * t)"
                .write(to: scene, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: scene) }
            try FileManager.default.removeItem(at: target)
            let a = try compose("animate", scene.path, "-o", dir.path + "/%03d.png", "--fps", "10", "-q")
            #expect(a.status == 74 && a.stderr.contains("No space left on device"), "\(a.stderr)")
            let written = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
            #expect(!written.isEmpty && written.allSatisfy { $0.hasSuffix(".png") && $0.count == 7 })
            for name in written { #expect(try PNGFile.isComplete(dir.appendingPathComponent(name))) }
        }
    }

    /// A read-only filesystem (root ignores permission bits, not a read-only mount): 73, before
    /// anything is rendered.
    @Test(.enabled(if: canMountTmpfs, "needs root and permission to mount a tmpfs"))
    func readOnlyFilesystemExits73() throws {
        try withTmpfs(size: "64k", readOnly: true) { dir in
            let r = try compose("render", "--demo", "-o", dir.appendingPathComponent("demo.png").path)
            #expect(r.status == 73 && r.stderr.contains("is not writable"), "\(r.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        }
    }
}

enum PNGFile {
    /// Whether a file is a whole PNG: the signature first and the IEND chunk last.
    static func isComplete(_ url: URL) throws -> Bool {
        let data = try Data(contentsOf: url)
        return data.starts(with: [0x89, 0x50, 0x4E, 0x47]) && data.suffix(8).starts(with: Array("IEND".utf8))
    }
}
