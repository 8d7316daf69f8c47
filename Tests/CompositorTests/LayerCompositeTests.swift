import CPixman
import CRasterKernels
import Foundation
import ReferenceScenes
import Testing
@testable import Compositor

/// The engine's own layer kernel (`Surface.composite` of an ARGB layer, normal blend, no clip:
/// every compositing group) against pixman's `OVER` through a solid mask, the route it
/// replaces: the same bytes, for random premultiplied layers and backgrounds, every kind of
/// opacity, layers reaching past every side, with and without AVX2, on 1 and 3 threads.
@Suite(.serialized) struct LayerCompositeTests {
    /// Random valid premultiplied pixels (channels ≤ alpha), with runs of transparent and of
    /// opaque pixels so that the kernels' skip and store paths are taken too.
    private func randomize(_ s: Surface, seed: UInt32) {
        var g = SceneLCG(seed: seed)
        s.withUnsafeMutableBytes { bytes in
            let px = bytes.bindMemory(to: UInt32.self)
            var i = 0
            while i < px.count {
                let run = 1 + Int(g.next() >> 28)
                let kind = g.next() >> 30
                for j in i..<min(px.count, i + run) {
                    let v = g.next()
                    let a: UInt32 = kind == 0 ? 0 : kind == 1 ? 255 : v >> 24
                    let c = { (x: UInt32) in a == 0 ? 0 : (x & 0xff) % (a + 1) }
                    px[j] = a << 24 | c(v >> 16) << 16 | c(g.next()) << 8 | c(v)
                }
                i += run
            }
        }
    }

    private func bytes(_ s: Surface) -> [UInt8] { s.withUnsafeMutableBytes { Array($0) } }

    /// How many bytes differ, and the first that does (nil: none), for a short failure message.
    private func mismatch(_ a: Surface, _ b: Surface) -> (count: Int, first: Int)? {
        let x = bytes(a), y = bytes(b)
        let differing = x.indices.filter { x[$0] != y[$0] }
        return differing.first.map { (differing.count, $0) }
    }

    @Test(arguments: [true, false], [1, 3]) func layersComposeAsPixmanComposesThem(avx2: Bool, threads: Int) throws {
        try withAVX2(avx2) { _ in
            var g = SceneLCG(seed: 11)
            // 0 and 1, opacities whose 16-bit alpha's top byte is a tie, and random ones.
            let opacities = [1.0, 0.5, 128.0 / 255, 230.0 / 255, 1.0 / 255, 0.999, 0.002] + (0..<9).map { _ in g.u() }
            for (k, opacity) in opacities.enumerated() {
                // Large enough for several threads (2¹⁶ pixels) on some cases, odd widths for tails.
                let (w, h) = k % 3 == 0 ? (301, 257) : (37 + k, 23 + k)
                let layer = try Surface(width: w, height: h)
                randomize(layer, seed: UInt32(k + 1))
                for (dx, dy) in [(0, 0), (-7, 5), (40, -3), (-w + 3, -h + 2), (w - 2, h - 1)] {
                    let ours = try Surface(width: w + 20, height: h + 10), theirs = try Surface(width: w + 20, height: h + 10)
                    randomize(ours, seed: UInt32(100 + k))
                    randomize(theirs, seed: UInt32(100 + k))
                    try ours.composite(layer, at: dx, y: dy, opacity: opacity, threads: threads)
                    var c = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16((opacity * 65535).rounded()))
                    let mask = opacity < 1 ? pixman_image_create_solid_fill(&c) : nil
                    pixman_image_composite32(PIXMAN_OP_OVER, layer.image, mask, theirs.image, 0, 0, 0, 0, Int32(dx), Int32(dy),
                                             Int32(w), Int32(h))
                    if let mask { pixman_image_unref(mask) }
                    let m = mismatch(ours, theirs)
                    #expect(m == nil, "opacity \(opacity) at (\(dx), \(dy)): \(m.map { "\($0.count) bytes differ, the first at \($0.first)" } ?? "")")
                }
            }
        }
    }

    /// Eight pixels a run: the AVX2 kernel and the SSE2 one give the same bytes on every
    /// alignment of the tail (the AVX2 kernel leaves counts under 16 to SSE2).
    @Test func bothKernelsAgreeOnEveryTail() throws {
        for count in 16..<40 {
            let layer = try Surface(width: count, height: 1)
            randomize(layer, seed: UInt32(count))
            var results: [[UInt8]] = []
            for avx2 in [true, false] {
                try withAVX2(avx2) { _ in
                    let target = try Surface(width: count, height: 1)
                    randomize(target, seed: UInt32(1000 + count))
                    try target.composite(layer, opacity: 0.6)
                    results.append(bytes(target))
                }
            }
            #expect(results[0] == results[1], "\(count) pixels")
        }
    }
}
