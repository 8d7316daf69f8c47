import Foundation

// Native Blend2D 0.12 on the reference scenes: `../shared/bench/blend2d`'s `b2dbench`, built by
// `Benchmarks/blend2d/build.sh` into `.build-b2d/shared/` (Blend2D's static library comes from
// the blend2d-python wheel on PyPI; nothing of it is committed). `make bench` builds it.
// It runs once per scene right after that scene's engine and cairo rounds, so the three are
// timed in the same minute of the same run.

/// `--threads N`: threads per engine render (`Renderer.threads`) and Blend2D's `-t N`; 1 by
/// default, so the scene table compares one thread with one thread.
let benchThreads: Int = {
    let args = CommandLine.arguments
    guard let i = args.firstIndex(of: "--threads"), i + 1 < args.count, let n = Int(args[i + 1]), (1...64).contains(n) else { return 1 }
    return n
}()

/// The `b2dbench` binary, if it has been built.
let blend2dBenchmark: URL? = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../.build-b2d/shared/b2dbench").standardized
    return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
}()

/// Blend2D's scene for one of ours: it has no exact tier, so the `-fast` variants are the
/// same drawing as the plain ones there.
func blend2dSceneName(_ name: String) -> String {
    name.hasSuffix("-fast") ? String(name.dropLast("-fast".count)) : name
}

/// The median ms per frame of native Blend2D on `scene` with `threads` threads (1: its
/// synchronous one-thread context), or nil when it is not built or fails.
func blend2dMs(_ scene: String, threads: Int = benchThreads) -> Double? {
    guard let binary = blend2dBenchmark else { return nil }
    let process = Process()
    process.executableURL = binary
    process.arguments = (threads > 1 ? ["-t", "\(threads)"] : []) + [blend2dSceneName(scene)]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    // SCENE <tab> blend2d-native-tN <tab> median <tab> min <tab> max <tab> repetitions
    let fields = String(decoding: data, as: UTF8.self).split(separator: "\n").first?.split(separator: "\t") ?? []
    return fields.count >= 3 ? Double(fields[2]) : nil
}
