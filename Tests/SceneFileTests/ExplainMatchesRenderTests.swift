import Foundation
import SceneFile
import SceneGraph
import Testing

/// `compose explain` reads the layer plan the renderer draws by, so what it reports is what a
/// render allocates: the same offscreen images (kind, device bounds, bytes) in the same order,
/// for every example scene, every scene below (one per kind of offscreen image and the cases
/// explain once got wrong) and at two scales.
@Suite struct ExplainMatchesRenderTests {
    /// Scenes that between them make every kind of offscreen image: group layers cut by the
    /// canvas, blurs reaching past it, masks, shadows of leaves and of groups (clipped ones
    /// too), drawing groups placed at whole pixels, resampled, drawn straight onto the parent,
    /// converted from linear and float, and content clipped away.
    static let scenes: [String: String] = [
        "blur-near-edge": "canvas(width: 100, height: 100)\nCircle().fill(Color.blue).frame(width: 60, height: 60).offset(x: 45).blur(radius: 6)\n",
        "opaque-blur": "canvas(width: 80, height: 80)\nColor.orange.frame(width: 40, height: 40).blur(radius: 4, opaque: true)\n",
        "group-shadow-clip": """
            canvas(width: 120, height: 80)
            ZStack { Circle().fill(.blue).frame(width: 50, height: 50); Capsule().fill(.pink).frame(width: 90, height: 20) }
                .compositingGroup().shadow(radius: 6, x: 3, y: 4).clipShape(RoundedRectangle(cornerRadius: 12)).opacity(0.8)
            """,
        "leaf-shadows": """
            canvas(width: 160, height: 80)
            HStack { Circle().fill(.mint).frame(width: 40, height: 40); Rectangle().fill(.orange).frame(width: 40, height: 30) }
                .shadow(radius: 4, y: 2).shadow(color: .blue, radius: 8)
            """,
        "clipped-shadow": "canvas(width: 80, height: 80)\nCircle().fill(.red).frame(width: 60, height: 60).shadow(radius: 5).clipShape(Rectangle().offset(x: 30))\n",
        "clipped-away": "canvas(width: 80, height: 80)\nCircle().fill(.red).frame(width: 20, height: 20).shadow(radius: 3).clipShape(Rectangle().offset(x: 500))\n",
        "mask": """
            canvas(width: 100, height: 100)
            LinearGradient(colors: [.red, .blue], startPoint: .leading, endPoint: .trailing).frame(width: 80, height: 80)
                .mask { Circle().frame(width: 60, height: 60) }.shadow(radius: 3)
            """,
        "drawing-groups": """
            canvas(width: 200, height: 120)
            HStack {
                Circle().fill(.blue).frame(width: 40, height: 40).drawingGroup()
                Circle().fill(.pink).frame(width: 40, height: 40).drawingGroup().rotationEffect(.degrees(20))
                Circle().fill(.green).frame(width: 40, height: 40).drawingGroup(opaque: true).scaleEffect(1.3).shadow(radius: 2)
                ZStack { Color.white; Color.white.blendMode(.plusLighter) }.frame(width: 30, height: 30)
                    .drawingGroup(colorMode: .extendedLinear).opacity(0.5)
                Circle().fill(.orange).frame(width: 30, height: 30).drawingGroup(colorMode: .linear).blendMode(.multiply)
            }
            """,
        "colour-filter": "canvas(width: 80, height: 80)\nZStack { Circle().fill(.red); Circle().fill(.blue).offset(x: 10) }.frame(width: 40, height: 40).compositingGroup().grayscale(1)\n",
        "beyond-canvas": "canvas(width: 60, height: 60)\nCircle().fill(.teal).frame(width: 200, height: 200).compositingGroup().opacity(0.5)\n",
    ]

    static func check(_ scene: Scene, scale: Double, _ name: String) throws {
        let view = scene.change.map { $0.view(at: $0.duration / 2, in: scene.canvas.size) } ?? scene.view
        let explanation = try Renderer().explain(view, size: scene.canvas.size, scale: scale)
        let renderer = Renderer()
        _ = try renderer.render(view, size: scene.canvas.size, scale: scale, background: scene.canvas.background)
        let stats = renderer.lastStats
        #expect(explanation.images == stats.layers, "\(name) at scale \(scale)")
        #expect(explanation.layers == stats.layers.count, "\(name) at scale \(scale)")
        #expect(explanation.layerBytes == stats.layers.reduce(0) { $0 + $1.bytes }, "\(name) at scale \(scale)")
    }

    @Test(arguments: ExampleSceneTests.names)
    func everyExampleScene(_ name: String) throws {
        let scene = try Scene(contentsOfFile: ExampleSceneTests.folder.appendingPathComponent(name + ".scene").path)
        try Self.check(scene, scale: scene.canvas.scale, name)
        try Self.check(scene, scale: 1.5, name)
    }

    @Test(arguments: scenes.keys.sorted())
    func sceneOfEveryKindOfImage(_ name: String) throws {
        let scene = try Scene(source: Self.scenes[name]!)
        try Self.check(scene, scale: 1, name)
        try Self.check(scene, scale: 2.5, name)
    }

    /// The case that started it: a blur near the canvas edge. The circle's ink is x 65…125,
    /// y 20…80; spread by the blur's reach (3σ = 18 px) and the 2 px margin, x 45…145 and
    /// y 0…100; cut to the canvas widened by the reach (content just outside bleeds in),
    /// −18…118: x 45…118, 73 px, by 100: 73 × 100 × 4 = 29,200 bytes.
    @Test func theBlurNearTheEdge() throws {
        let scene = try Scene(source: Self.scenes["blur-near-edge"]!)
        let explanation = try Renderer().explain(scene.view, size: scene.canvas.size)
        #expect(explanation.images.map(\.bounds) == [[45, 0, 73, 100]])
        #expect(explanation.layerBytes == 29_200)
    }
}
