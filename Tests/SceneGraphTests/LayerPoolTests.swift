import Foundation
import SceneGraph
import Testing

/// Layers come from a pool: a renderer keeps the layers of one frame for the next, clears a
/// reused layer unless its first drawing covers it, and frees them on request.
@Suite struct LayerPoolTests {
    /// Same-size group layers (both groups' ink is the whole 60 × 60 canvas, so the layer is the
    /// canvas: the 2 px margin is cut off): first a group whose opaque rectangle covers its
    /// layer (so a reused layer is not cleared for it), then one holding only a circle, which
    /// must not see the red left in the reused layer. (Each group holds two leaves: a group
    /// around one leaf is folded into it, without a layer.)
    @Test func reusedLayersStartClean() throws {
        let size = CGSize(width: 60, height: 60)
        let full = ZStack { Rectangle().fill(.red); Circle().fill(.green).frame(width: 10, height: 10) }.compositingGroup().opacity(0.5)
        let circle = ZStack { Color.clear; Circle().fill(.blue).frame(width: 20, height: 20) }
            .compositingGroup().opacity(0.5)
        let renderer = Renderer()
        _ = try renderer.render(full, size: size)
        #expect(renderer.pooledLayerBytes > 0)
        let reused = try renderer.render(circle, size: size)
        let fresh = try Renderer().render(circle, size: size)
        #expect(try reused.compare(to: fresh).differingPixels == 0)
        // A corner of the group's layer, outside the circle: white (nothing left of the red).
        #expect(reused.pixel(x: 5, y: 5) == RGBA8(255, 255, 255, 255))
        #expect(renderer.lastStats.layers.map(\.bounds) == [[0, 0, 60, 60]])
        // The covering group again reuses the layer the circle left, without clearing it:
        // the same pixels as a fresh render.
        #expect(try renderer.render(full, size: size).compare(to: Renderer().render(full, size: size)).differingPixels == 0)
    }

    /// The circles at 3× in a compositing group: one 304 × 196 layer (238,336 bytes) kept after
    /// the render, reused by the next (no new pixman image), freed on request; a budget of 0
    /// keeps none.
    @Test func poolKeepsOneFramesLayersWithinItsBudget() throws {
        let view = ZStack {
            Circle().fill(.blue).frame(width: 64, height: 64).offset(x: -18)
            Circle().fill(.orange).frame(width: 64, height: 64).offset(x: 18)
        }
        .compositingGroup().opacity(0.25)
        let size = CGSize(width: 200, height: 120)
        let alive = try LiveImageTracker.track {
            let renderer = Renderer()
            _ = try renderer.render(view, size: size, scale: 3)
            #expect(renderer.pooledLayerBytes == 238_336)
            _ = try renderer.render(view, size: size, scale: 3)
            #expect(renderer.pooledLayerBytes == 238_336)
            renderer.releasePooledLayers()
            #expect(renderer.pooledLayerBytes == 0)
            renderer.layerPoolBudgetBytes = 0
            _ = try renderer.render(view, size: size, scale: 3)
            #expect(renderer.pooledLayerBytes == 0)
        }
        #expect(alive == 0)
    }
}
