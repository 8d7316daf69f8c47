import Foundation
@testable import Compositor
import ReferenceScenes
@testable import SceneGraph
import Testing

/// A render draws runs of solid fills band by band on `Renderer.threads` threads, each band
/// drawn by one thread, fill after fill: the image must be the same bytes whatever the count.
@Suite struct ThreadCountTests {
    /// The reference scenes (SCENES.md) as views, at 1, 2, 3 and 8 threads. S3-1k's batch of
    /// 1,000 fills is large enough to be split (`FillBatch.minimumParallelPieces`) and to be
    /// built on every thread (`Rasterizer.drawPending`), and S4's
    /// path (571,000 segments, exact tier) is resolved in slabs on every thread, and S7's
    /// boxes are blended on every thread; the checks below make sure they were.
    @Test(arguments: ["S1a", "S1b", "S2-noshadow", "S3-1k", "S4-nz", "S4-eo", "S4-nz-fast", "S5", "S6", "S7"])
    func sameBytesAtEveryThreadCount(name: String) throws {
        let scenes: [String: () -> ReferenceScene] = [
            "S1a": { .s1(group: false) }, "S1b": { .s1(group: true) }, "S2-noshadow": { .s2NoShadow() },
            "S3-1k": { .s3(count: 1000) }, "S4-nz": { .s4(fillRule: .nonZero) }, "S4-eo": { .s4(fillRule: .evenOdd) },
            "S4-nz-fast": { .s4(fillRule: .nonZero).fast }, "S5": { .s5() },
            "S6": { .s6() }, "S7": { .s7() },
        ]
        let make = try #require(scenes[name])
        let scene = make()
        var images: [[UInt8]] = []
        for threads in [1, 2, 3, 8] {
            let renderer = Renderer(threads: threads)
            renderer.coverageQuality = scene.coverageQuality
            let surface = try Surface(width: scene.width, height: scene.height)
            try renderer.render(scene.view, into: surface)
            images.append(surface.withUnsafeMutableBytes { Array($0) })
            if name == "S3-1k" {
                #expect(renderer.rasterizer.batch.lastWorkers == min(threads, 34), "\(threads) threads")
                // Its 1,000 fills were flattened and cut into bands on every thread too.
                #expect(renderer.rasterizer.lastBuilders == (threads == 1 ? 0 : threads), "\(threads) threads")
            }
            if name == "S4-nz" || name == "S4-eo" { #expect(renderer.rasterizer.lastSlabWorkers == threads, "\(threads) threads") }
            // S7's eight groups fold into eight full-frame boxes: 16 edges, but 16.6 M pixels,
            // enough to share (`FillBatch.minimumParallelPixels`).
            if name == "S7" { #expect(renderer.rasterizer.batch.lastWorkers == min(threads, 34), "\(threads) threads") }
        }
        for (i, threads) in [2, 3, 8].enumerated() { #expect(images[i + 1] == images[0], "\(name) at \(threads) threads") }
    }
}
