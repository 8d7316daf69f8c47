import Foundation
import ReferenceScenes
import SceneGraph
import Testing

/// Views against the same pictures drawn with Compositor calls.
@Suite struct ReferenceSceneViewTests {
    /// SCENES.md's S2-noshadow (the radar seal without its glow) built from views — 72 capsules
    /// from `ForEach`, each offset 210 up and rotated about the canvas centre, a gradient disc —
    /// equals the reference scene drawn path by path, within 1 in 8-bit units (the view lowers
    /// each capsule in its own frame and then places it, so its points round differently).
    @Test func radarSealViewsMatchTheReferenceScene() throws {
        let view = ZStack {
            ForEach(0..<72, id: \.self) { i in
                RoundedRectangle(cornerRadius: 3, style: .circular)
                    .fill(Color(rgb: 0x00C7BE, alpha8: i % 3 == 0 ? 230 : 89))
                    .frame(width: 6, height: 42)
                    .offset(y: -210)
                    .rotationEffect(.degrees(Double(i) * 5))
            }
            Circle()
                .fill(LinearGradient(colors: [Color(rgb: 0x333333), Color(rgb: 0x000000)], startPoint: .top, endPoint: .bottom))
                .frame(width: 330, height: 330)
        }
        .frame(width: 540, height: 540)
        let rendered = try Renderer().render(view, size: CGSize(width: 540, height: 540))
        let reference = try ReferenceRenderer(width: 540, height: 540)
        try reference.render(.s2NoShadow())
        let result = try rendered.compare(to: reference.surface)
        #expect(result.maxChannelDifference <= 1, "\(result)")
    }

    /// Every blend mode through `.blendMode` on a view gives exactly what the canvas gives for
    /// the same source, opacity and backdrop.
    @Test(arguments: BlendMode.allCases) func everyBlendModeThroughViews(_ mode: BlendMode) throws {
        let backdrop = Color(red: 0.2, green: 0.6, blue: 0.9, opacity: 0.8)
        let source = Color(red: 0.9, green: 0.4, blue: 0.1)
        let view = ZStack { backdrop; source.opacity(0.7).blendMode(mode) }
        let rendered = try Renderer().render(view, size: CGSize(width: 4, height: 4), background: .white)
        let expected = try Surface(width: 4, height: 4)
        expected.fill(.white)
        let canvas = Canvas(expected)
        try canvas.fill(Path(CGRect(x: 0, y: 0, width: 4, height: 4)), with: .color(backdrop))
        try canvas.fill(Path(CGRect(x: 0, y: 0, width: 4, height: 4)), with: .color(source.opacity(0.7)), blendMode: mode)
        #expect(try rendered.compare(to: expected).differingPixels == 0, "\(mode)")
    }
}

/// Every reference scene built as views (`ReferenceScene.view`, what the benchmarks time)
/// draws what the same operations drawn with Compositor calls draw: exactly for fills and
/// groups, and within 1 in 8-bit units where a gradient's points go through unit points of the
/// canvas (a division and a multiplication that may round).
@Suite struct ReferenceSceneAsViewsTests {
    @Test(arguments: ["S1a", "S1b", "S2-noshadow", "S3-small", "S5", "S6", "S7"])
    func viewsDrawTheReferenceScene(_ name: String) throws {
        let scenes: [String: ReferenceScene] = [
            "S1a": .s1(group: false), "S1b": .s1(group: true), "S2-noshadow": .s2NoShadow(),
            "S3-small": .s3(count: 300, width: 480, height: 270), "S5": .s5(), "S6": .s6(), "S7": .s7(),
        ]
        let scene = try #require(scenes[name])
        let reference = try ReferenceRenderer(width: scene.width, height: scene.height)
        try reference.render(scene)
        let rendered = try Renderer().render(scene.view, size: CGSize(width: scene.width, height: scene.height))
        let result = try rendered.compare(to: reference.surface)
        #expect(result.maxChannelDifference <= 1, "\(name): \(result)")
    }
}
