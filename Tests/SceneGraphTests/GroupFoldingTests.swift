import Compositor
import Foundation
import Testing
@testable import SceneGraph

/// A `compositingGroup()` that only fades one leaf is drawn as that leaf with the group's
/// opacity in its paint, without a layer (`DisplayItem.Group.folded`): the same pixels within
/// 1 level, no offscreen image, and `explain` still shows the group.
@Suite struct GroupFoldingTests {
    private let size = CGSize(width: 120, height: 80)
    private let circle = Path(ellipseIn: CGRect(x: 20.3, y: 10.7, width: 70.4, height: 55.1))

    private func group(_ children: [DisplayItem], opacity: Double = 0.5, blendMode: BlendMode = .normal,
                       clips: [ClipPath] = [], shadows: [DropShadow] = []) -> DisplayItem {
        .group(DisplayItem.Group(composite: .init(opacity: opacity, blendMode: blendMode, clips: clips, shadows: shadows),
                                 children: children))
    }

    @Test func oneLeafInAGroupIsDrawnWithoutALayer() throws {
        let view = Rectangle().fill(.blue).frame(width: 40, height: 40).compositingGroup().opacity(0.5)
        let renderer = Renderer()
        let surface = try renderer.render(view, size: size)
        #expect(renderer.lastStats.layers.isEmpty)
        #expect(renderer.lastStats.leafDraws == 1)
        // Blue (0, 122, 255) at 0.5 (alpha 128) over white, either way: 122·128/255 = 61.2 → 61
        // and 255·128/255 = 128 premultiplied; white × (255 − 128)/255 = 127; so (127, 188, 255).
        #expect(surface.pixel(x: 60, y: 40) == RGBA8(127, 188, 255, 255))
        let explanation = try renderer.explain(view, size: size)
        #expect(explanation.layers == 0)
        #expect(explanation.tree.first?.kind == "compositingGroup")
        #expect(explanation.tree.first?.summary.contains("folded, no layer") == true)
        #expect(explanation.tree.first?.children.first?.kind == "leaf")
    }

    /// The folded leaf against the layer it replaces, drawn by the Compositor directly (the
    /// circle into a transparent layer, the layer composited with the opacity): an opaque
    /// colour within 1 level (the layer rounds C·coverage before the opacity, the fold C·opacity
    /// before the coverage), a translucent one within 2 (the layer also rounds its alpha
    /// first); nested groups, whose opacities the fold multiplies before it rounds and the
    /// layers round one after the other, within 2.
    @Test(arguments: [0.5, 0.25, 0.9]) func foldedGroupsMatchTheirLayers(opacity: Double) throws {
        for (color, tolerance) in [(Color.orange, 1), (Color.mint.opacity(0.6), 2)] {
            for nested in [false, true] {
                let leaf = DisplayItem.leaf(.init(path: circle, fill: .color(color)))
                let item = nested ? group([group([leaf], opacity: 0.8)], opacity: opacity) : group([leaf], opacity: opacity)
                let folded = try Surface(width: 120, height: 80)
                let renderer = Renderer(threads: 1)
                try renderer.render(DisplayList(items: [item]), into: folded)
                #expect(renderer.lastStats.layers.isEmpty)
                let reference = try Surface(width: 120, height: 80)
                reference.fill(.white)
                let layer = try Surface(width: 120, height: 80)
                try Canvas(layer).fill(circle, with: .color(color))
                if nested {
                    let inner = try Surface(width: 120, height: 80)
                    try inner.composite(layer, opacity: 0.8)
                    try reference.composite(inner, opacity: opacity)
                } else {
                    try reference.composite(layer, opacity: opacity)
                }
                let diff = try folded.compare(to: reference)
                #expect(diff.maxChannelDifference <= (nested ? 2 : tolerance), "\(color) nested \(nested): \(diff)")
                if color.alpha == 1, !nested {
                    // Inside the circle, where the coverage is 1: the same bytes.
                    #expect(folded.pixel(x: 55, y: 38) == reference.pixel(x: 55, y: 38))
                }
            }
        }
    }

    @Test func whatCannotFoldKeepsItsLayer() throws {
        let leaf = DisplayItem.Leaf(path: circle, fill: .color(.orange))
        var shadowed = leaf
        shadowed.shadows = [DropShadow(color: .black, sigma: 1, offset: .zero)]
        var multiplied = leaf
        multiplied.blendMode = .multiply
        let clip = ClipPath(path: Path(CGRect(x: 0, y: 0, width: 50, height: 50)))
        let kept: [DisplayItem] = [
            group([.leaf(leaf), .leaf(leaf)]),                                  // two leaves
            group([.leaf(shadowed)]),                                           // a shadow inside
            group([.leaf(multiplied)]),                                         // a blend mode inside
            group([.leaf(leaf)], blendMode: .screen),                           // a blend mode outside
            group([.leaf(leaf)], clips: [clip]),                                // a clip outside
            group([.leaf(leaf)], shadows: [DropShadow(color: .black, sigma: 1, offset: .zero)]), // a shadow outside
            group([.leaf(.init(path: circle, fill: .linearGradient(Gradient(colors: [.blue, .pink]), start: .zero,
                                                                   end: CGPoint(x: 90, y: 0), transform: .identity)))]), // a gradient
            .group(.init(composite: .init(opacity: 0.5), isolation: .blur(sigma: 2, opaque: false), children: [.leaf(leaf)])),
        ]
        for item in kept {
            let renderer = Renderer()
            _ = try renderer.render(DisplayList(items: [item]), into: try Surface(width: 120, height: 80))
            #expect(renderer.lastStats.layers.contains { $0.kind != .shadow }, "\(item)")
        }
        // Inside a linear drawing group (not 8-bit sRGB) the layer stays too.
        let renderer = Renderer()
        let view = Rectangle().fill(.blue).frame(width: 40, height: 40).compositingGroup().opacity(0.5)
            .frame(width: 60, height: 60).drawingGroup(colorMode: .linear)
        _ = try renderer.render(view, size: size)
        #expect(renderer.lastStats.layers.map(\.kind).contains(.compositingGroup))
    }
}
