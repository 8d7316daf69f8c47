import Foundation
import PixelTesting
import SceneGraph
import Testing

/// The drawing-group cache: a group is rasterized once in its own space and reused while its
/// subtree, size, scale and format are unchanged, whatever the transforms outside it.
@Suite struct DrawingGroupCacheTests {
    let size = CGSize(width: 100, height: 100)

    /// Twelve capsules around a disc, as the radar seal, in a 60 × 60 frame.
    func seal(_ colour: Color = .mint, count: Int = 12, radius: CGFloat = 0) -> some View {
        ZStack {
            ForEach(0..<count, id: \.self) { i in
                Capsule().fill(colour.opacity(i.isMultiple(of: 3) ? 0.9 : 0.4)).frame(width: 4, height: 12)
                    .offset(y: -24).rotationEffect(.degrees(Double(i) * 360 / Double(count)))
            }
            Circle().fill(.black).frame(width: 30 + radius, height: 30 + radius)
        }
        .frame(width: 60, height: 60)
    }

    @Test func aHitIsPixelIdenticalToTheMissThatFilledIt() throws {
        let renderer = Renderer()
        let miss = try renderer.render(seal().drawingGroup(), size: size, scale: 2)
        #expect(renderer.lastStats.cache.misses == 1 && renderer.lastStats.cache.hits == 0)
        #expect(renderer.lastStats.leafDraws == 13)
        // The image: 60 × 60 points at scale 2, 4 bytes a pixel.
        #expect(renderer.lastStats.cache.bytes == 120 * 120 * 4)
        let hit = try renderer.render(seal().drawingGroup(), size: size, scale: 2)
        #expect(renderer.lastStats.cache.hits == 1 && renderer.lastStats.cache.misses == 0)
        // Nothing rasterized, no layer made: the stored image is composited.
        #expect(renderer.lastStats.leafDraws == 0 && renderer.lastStats.layers.isEmpty)
        #expect(renderer.lastStats.reusedImages.map(\.bounds) == [[40, 40, 120, 120]])
        #expect(try hit.compare(to: miss).differingPixels == 0)
    }

    @Test func everyChangeInsideInvalidates() throws {
        let renderer = Renderer()
        func misses<V: View>(_ view: V, scale: Double = 1) throws -> Int {
            _ = try renderer.render(view, size: size, scale: scale)
            return renderer.lastStats.cache.misses
        }
        #expect(try misses(seal().drawingGroup()) == 1)
        #expect(try misses(seal().drawingGroup()) == 0)
        #expect(try misses(seal(.orange).drawingGroup()) == 1, "a colour")
        #expect(try misses(seal(radius: 2).drawingGroup()) == 1, "a path")
        #expect(try misses(seal(count: 13).drawingGroup()) == 1, "a child added")
        #expect(try misses(seal().opacity(0.5).drawingGroup()) == 1, "an effect inside")
        #expect(try misses(seal().rotationEffect(.degrees(10)).drawingGroup()) == 1, "a transform inside")
        #expect(try misses(seal().frame(width: 70, height: 70).drawingGroup()) == 1, "its size")
        #expect(try misses(seal().drawingGroup(), scale: 2) == 1, "the render scale")
        #expect(try misses(seal().drawingGroup(colorMode: .linear)) == 1, "the colour mode")
        #expect(try misses(seal().drawingGroup(opaque: true)) == 1, "the opaque flag")
        #expect(try misses(seal().drawingGroup()) == 0, "the first one is still stored")
    }

    @Test func transformsOutsideHitAndResampleTheImage() throws {
        let renderer = Renderer()
        // A 20 × 20 red square filling its group, centred in the canvas at (40, 40).
        let square = Rectangle().fill(.red).frame(width: 20, height: 20).drawingGroup()
        _ = try renderer.render(square, size: size)
        #expect(renderer.lastStats.cache.misses == 1)

        // Moved by whole pixels: a hit, placed exactly.
        let moved = try renderer.render(square.offset(x: 30, y: -10), size: size)
        #expect(renderer.lastStats.cache.hits == 1)
        #expect(moved.pixel(x: 70, y: 30) == RGBA8(0xFF, 0x3B, 0x30, 255) && moved.pixel(x: 69, y: 30) == RGBA8(255, 255, 255, 255))

        // Moved by half a pixel: a hit; the edge column is half covered, so half red over
        // white: 255 - 0.5 × (255 - (255, 59, 48)) = (255, 157, 151.5) → within 1.
        let half = try renderer.render(square.offset(x: 10.5), size: size)
        #expect(renderer.lastStats.cache.hits == 1 && renderer.lastStats.cache.misses == 0)
        let edge = half.pixel(x: 50, y: 50)
        #expect(edge.r == 255 && abs(Int(edge.g) - 157) <= 1 && abs(Int(edge.b) - 152) <= 1)
        #expect(half.pixel(x: 51, y: 50) == RGBA8(0xFF, 0x3B, 0x30, 255))

        // Scaled 2× about its centre: a hit; the image is magnified (40 × 40 from (30, 30)),
        // with the red inside and white outside.
        let scaled = try renderer.render(square.scaleEffect(2), size: size)
        #expect(renderer.lastStats.cache.hits == 1)
        #expect(scaled.pixel(x: 31, y: 50) == RGBA8(0xFF, 0x3B, 0x30, 255) && scaled.pixel(x: 29, y: 50) == RGBA8(255, 255, 255, 255))

        // Rotated 45°: a hit; the corners of the frame's bounding box stay white, the diagonal
        // reaches 20√2 / 2 ≈ 14.1 px from the centre (50, 50): (50, 37) is inside, (40, 40) out.
        let rotated = try renderer.render(square.rotationEffect(.degrees(45)), size: size)
        #expect(renderer.lastStats.cache.hits == 1)
        #expect(rotated.pixel(x: 50, y: 37) == RGBA8(0xFF, 0x3B, 0x30, 255))
        #expect(rotated.pixel(x: 40, y: 40) == RGBA8(255, 255, 255, 255))
    }

    /// `.drawingGroup().scaleEffect(4)` magnifies the image (soft edges); `.scaleEffect(4)
    /// .drawingGroup()` rasterizes at the new size (sharp), as DESIGN.md says.
    @Test func scalingOutsideIsSoftScalingInsideIsSharp() throws {
        let dot = Circle().fill(.black).frame(width: 10, height: 10)
        let soft = try Renderer().render(dot.drawingGroup().scaleEffect(4), size: size)
        let sharp = try Renderer().render(dot.scaleEffect(4).drawingGroup(), size: size)
        // Along the row through the centre, the soft edge spreads over more partly covered
        // pixels than the exact one (which has one per side).
        func partial(_ s: Surface) -> Int { (0..<100).filter { x in let v = s.pixel(x: x, y: 50).r; return v > 8 && v < 247 }.count }
        #expect(partial(sharp) <= 2)
        #expect(partial(soft) > partial(sharp))
    }

    @Test func evictionKeepsWithinTheBudget() throws {
        // Each group image is 60 × 60 × 4 = 14,400 bytes; the budget holds two.
        let cache = DrawingGroupCache(budgetBytes: 30_000)
        let renderer = Renderer(cache: cache)
        for colour in [Color.red, .green, .blue] { _ = try renderer.render(seal(colour).drawingGroup(), size: size) }
        #expect(cache.statistics.bytes == 28_800 && cache.statistics.images == 2 && cache.statistics.evictions == 1)
        #expect(renderer.lastStats.cache.evictions == 1)
        // The least recently used (red) went; green and blue hit.
        _ = try renderer.render(seal(.green).drawingGroup(), size: size)
        #expect(renderer.lastStats.cache.hits == 1)
        _ = try renderer.render(seal(.red).drawingGroup(), size: size)
        #expect(renderer.lastStats.cache.misses == 1)
        // An image larger than the whole budget is drawn but not kept.
        cache.budgetBytes = 10_000
        #expect(cache.statistics.bytes == 0)
        _ = try renderer.render(seal().drawingGroup(), size: size)
        #expect(renderer.lastStats.cache.misses == 1 && cache.statistics.images == 0)
    }

    @Test func unusedImagesAreDroppedOnRequestAndNoImageLeaks() throws {
        // Every pixman image made here (renders, cached images, views of them, eviction) is
        // gone once the renderer is.
        let alive = try LiveImageTracker.track {
            let renderer = Renderer()
            _ = try renderer.render(seal(.red).drawingGroup(), size: size)
            _ = try renderer.render(seal(.blue).drawingGroup(), size: size)
            _ = try renderer.render(seal(.blue).drawingGroup().offset(x: 0.5), size: size)
            #expect(renderer.cache.statistics.images == 2)
            renderer.dropUnusedCachedImages()
            #expect(renderer.cache.statistics.images == 1 && renderer.cache.statistics.bytes == 14_400)
            renderer.cache.budgetBytes = 0
            #expect(renderer.cache.statistics.evictions == 1)
        }
        #expect(alive == 0)
    }

    /// Renderers on several tasks sharing one cache (run under ThreadSanitizer by `make
    /// sanitize`): every render equals the single-threaded one.
    @Test func concurrentRendersShareOneCache() async throws {
        let cache = DrawingGroupCache()
        let expected = try PNG.encode(try Renderer().render(seal().drawingGroup().offset(x: 3), size: size))
        let size = self.size
        try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    let renderer = Renderer(cache: cache)
                    var differing = 0
                    for frame in 0..<10 {
                        let offset = CGFloat((task + frame) % 2) * 3
                        let s = try renderer.render(DrawingGroupCacheTests().seal().drawingGroup().offset(x: offset), size: size)
                        if offset == 3, try PNG.encode(s) != expected { differing += 1 }
                    }
                    return differing
                }
            }
            for try await differing in group { #expect(differing == 0) }
        }
        #expect(cache.statistics.images == 1)
        #expect(cache.statistics.hits + cache.statistics.misses == 80)
    }
}

@Suite struct CachedOverlayTests {
    /// In the offscreen overlay a drawing group drawn from the cache is tinted green (a new
    /// image would be yellow): white under green at 50 % is (127.5 + 0x34 / 2, …) =
    /// (153.5, 227, 172) for green #34C759.
    @Test func cachedImagesAreGreenInTheOverlay() throws {
        let renderer = Renderer()
        let view = Color.white.frame(width: 20, height: 20).drawingGroup()
        _ = try renderer.render(view, size: CGSize(width: 40, height: 40))
        let s = try renderer.render(view, size: CGSize(width: 40, height: 40))
        #expect(renderer.lastStats.reusedImages.count == 1 && renderer.lastStats.layers.isEmpty)
        try renderer.lastStats.drawOverlay(.offscreen, on: s)
        let p = s.pixel(x: 20, y: 20)
        #expect(abs(Int(p.r) - 154) <= 1 && abs(Int(p.g) - 227) <= 1 && abs(Int(p.b) - 172) <= 1, "\(p)")
        #expect(s.pixel(x: 2, y: 2) == RGBA8(255, 255, 255, 255))
    }
}
