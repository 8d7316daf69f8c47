import Foundation
import Testing
import CRasterKernels
@testable import Compositor

/// The engine's glyph-mask kernel against pixman's route for the same fill (ADD the masks into
/// one A8 image, IN the opacity, OVER through it): byte for byte, on random masks that overlap
/// (or sit apart in lines, as glyphs do), run past the band edges and the clip and have
/// garbage in their rows' padding, random colours (opaque and not), opacities and destinations
/// (transparent, opaque and translucent).
@Suite struct MaskKernelTests {
    private struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    @Test(arguments: 0..<32, [true, false]) func kernelEqualsPixmansRoute(seed: Int, avx2: Bool) throws {
        // Rows of 8 pixels and more go through the AVX2 kernel where the CPU has it; both paths.
        try withAVX2(avx2) { _ in
            var g = Generator(state: UInt64(seed) &* 0x9E37_79B9 &+ 7)
            let size = 90
            var masks: [(mask: Surface, x: Int, y: Int)] = []
            for _ in 0..<(3 + g.below(40)) {
                let w = 1 + g.below(24), h = 1 + g.below(40)
                let m = try Surface(width: w, height: h, format: .a8)
                let bytes = m.data.assumingMemoryBound(to: UInt8.self)
                for y in 0..<h {
                    for x in 0..<w {
                        // Mostly empty or full, as glyph masks are, with edges in between.
                        let r = g.below(10)
                        bytes[y * m.stride + x] = r < 4 ? 0 : r < 7 ? 255 : UInt8(g.below(256))
                    }
                    // Whatever lies in a row's padding is not coverage.
                    for x in w..<m.stride { bytes[y * m.stride + x] = UInt8(1 + g.below(255)) }
                }
                if seed % 2 == 0 {
                    // Anywhere: mostly overlapping, so clusters are added in the scratch buffer.
                    masks.append((m, g.below(size + 20) - 10, g.below(size + 20) - 10))
                } else {
                    // In lines, as glyphs are: mostly apart (drawn straight from their own rows),
                    // neighbours sometimes touching by a column or a descender.
                    let k = masks.count
                    masks.append((m, (k % 6) * 16 + g.below(4) - 8, (k / 6) * 22 + g.below(4) - 4))
                }
            }
            let red = Double(g.below(256)) / 255, green = Double(g.below(256)) / 255, blue = Double(g.below(256)) / 255
            // Seeds from 24 draw an opaque colour at full opacity, where fully covered quads are
            // stored rather than blended.
            let alpha: Double = g.below(3) == 0 || seed >= 24 ? 1 : Double(g.below(256)) / 255
            let color = Color(red: red, green: green, blue: blue, opacity: alpha)
            let opacity: Double = g.below(3) == 0 || seed >= 24 ? 1 : Double(g.below(1000)) / 1000
            func destination() throws -> Surface {
                let s = try Surface(width: size, height: size)
                var h = Generator(state: UInt64(seed) + 99)
                let pixels = s.data.assumingMemoryBound(to: UInt32.self)
                for y in 0..<size {
                    for x in 0..<size {
                        // Premultiplied: each colour channel at most alpha.
                        let a = UInt32([0, 255, h.below(256)][h.below(3)])
                        let c = { a == 0 ? 0 : UInt32(h.below(Int(a) + 1)) }
                        pixels[y * s.stride / 4 + x] = a << 24 | c() << 16 | c() << 8 | c()
                    }
                }
                return s
            }
            let kernel = try destination(), pixman = try destination()
            let kernelCanvas = Canvas(kernel), pixmanCanvas = Canvas(pixman)
            let clip = PixelRect(x: g.below(20), y: g.below(20), width: 50 + g.below(40), height: 50 + g.below(40))
            kernelCanvas.clip = clip
            pixmanCanvas.clip = clip
            try kernelCanvas.fill(masks: masks, with: .color(color), opacity: opacity)
            var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
            for m in masks {
                minX = min(minX, m.x); minY = min(minY, m.y)
                maxX = max(maxX, m.x + m.mask.width); maxY = max(maxY, m.y + m.mask.height)
            }
            let rect = PixelRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY).intersection(clip.intersection(pixman.bounds))
            try pixmanCanvas.fillWithPixman(masks: masks, rect: rect, paint: .color(color), paintTransform: .identity, opacity: opacity,
                                            blendMode: .normal, clipMask: nil)
            var differing = 0
            for y in 0..<size {
                for x in 0..<size where kernel.storedARGB(x: x, y: y) != pixman.storedARGB(x: x, y: y) {
                    if differing == 0 {
                        print("seed \(seed) at \(x), \(y): kernel", String(kernel.storedARGB(x: x, y: y), radix: 16), "pixman", String(pixman.storedARGB(x: x, y: y), radix: 16))
                    }
                    differing += 1
                }
            }
            #expect(differing == 0, "seed \(seed): \(differing) pixels differ")
        }
    }

    /// Masks given in reverse reading order (the kernel's insertion sort gives up and sorts
    /// otherwise) and masks cut by the surface's right edge draw as pixman's route does.
    @Test func reversedAndCutMasksEqualPixmansRoute() throws {
        var masks: [(mask: Surface, x: Int, y: Int)] = []
        for k in 0..<300 {
            let m = try Surface(width: 7, height: 9, format: .a8)
            let bytes = m.data.assumingMemoryBound(to: UInt8.self)
            for y in 0..<9 { for x in 0..<7 { bytes[y * m.stride + x] = UInt8((x * 37 + y * 11 + k) % 256) } }
            masks.append((m, (k % 30) * 6 - 4, (k / 30) * 8))
        }
        masks.reverse()
        let kernel = try Surface(width: 177, height: 80), pixman = try Surface(width: 177, height: 80)
        kernel.fill(Color(white: 0.5, opacity: 0.5))
        pixman.fill(Color(white: 0.5, opacity: 0.5))
        let color = Color(red: 0.2, green: 0.4, blue: 0.9)
        try Canvas(kernel).fill(masks: masks, with: .color(color))
        try Canvas(pixman).fillWithPixman(masks: masks, rect: PixelRect(x: 0, y: 0, width: 177, height: 80), paint: .color(color),
                                          paintTransform: .identity, opacity: 1, blendMode: .normal, clipMask: nil)
        #expect(try kernel.compare(to: pixman).maxChannelDifference == 0)
    }
}
