import Foundation
import PixelTesting
import Testing
import SceneGraph

/// The code examples of README.md and of the DocC landing pages, compiled and run (keep them
/// in step).
@Suite struct ReadmeExampleTests {
    /// Compositor's landing page.
    @Test func libraryExample() throws {
        let surface = try Surface(width: 200, height: 120)          // premultiplied ARGB, sRGB-encoded
        surface.fill(.white)
        let canvas = Canvas(surface)

        var star = Path()
        star.addLines((0..<5).map { i in
            let a = -Double.pi / 2 + Double(i * 2) * 2 * .pi / 5
            return CGPoint(x: 60 + 50 * cos(a), y: 60 + 50 * sin(a))
        })
        star.closeSubpath()
        try canvas.fill(star, with: .color(.indigo), fillRule: .evenOdd)

        let card = Path(roundedRect: CGRect(x: 120, y: 20, width: 70, height: 80), cornerRadius: 16) // .continuous
        try canvas.fill(card, with: .linearGradient(Gradient(colors: [.mint, .blue]),
                                                    start: CGPoint(x: 120, y: 20), end: CGPoint(x: 190, y: 100)),
                        opacity: 0.8, blendMode: .multiply)
        // The star's tip region is indigo, its centre (even-odd) white, the card tinted.
        #expect(surface.pixel(x: 60, y: 60) == RGBA8(255, 255, 255, 255))
        #expect(surface.pixel(x: 60, y: 20) == RGBA8(0x58, 0x56, 0xD6, 255))
        #expect(surface.pixel(x: 155, y: 60).r < 200)
    }

    struct Circles: View {
        var body: some View {
            ZStack {
                Circle().fill(.blue).frame(width: 96, height: 96).offset(x: -28)
                Circle().fill(.pink).frame(width: 96, height: 96)
                Circle().fill(.orange).frame(width: 96, height: 96).offset(x: 28)
            }
        }
    }

    /// The README's example: it draws what Examples/circles.png shows, and explains as the
    /// README prints.
    @Test func circlesExample() throws {
        let view = HStack(spacing: 24) {
            Circles().opacity(0.25)                       // each circle at 25 %: overlaps mix
            Circles().compositingGroup().opacity(0.25)    // the group at 25 %: only the top shows
        }
        let renderer = Renderer()
        let surface = try renderer.render(view, size: CGSize(width: 400, height: 160), scale: 2)
        let reference = try PNG.read(path: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Examples/circles.png").standardized.path)
        #expect(try surface.compare(to: reference).differingPixels == 0)
        let text = try renderer.explain(view, size: CGSize(width: 400, height: 160), scale: 2).text
        #expect(text.hasPrefix("canvas 800×320 px: 6 leaves, 1 offscreen image (241472 bytes)"))
        #expect(text.contains("compositingGroup opacity 0.250 [366, 62, 308, 196] — layer argb32, 241472 bytes\n"
                              + "    why: compositingGroup(): its content is composited first; opacity after it applies once to the result"))
    }

    /// The README's pixel test, as written there.
    @Test func groupOpacityShowsOnlyTheTopCircle() throws {
        let view = Circles().compositingGroup().opacity(0.25)
        assertSnapshot(of: view, size: CGSize(width: 200, height: 120), scale: 2)
        let surface = try Renderer().render(view, size: CGSize(width: 200, height: 120), scale: 2)
        // The centre is orange (255, 149, 0) at 0.25 over white: (255, 228.5, 191.25).
        #expect(surface.pixel(x: 200, y: 120) == RGBA8(255, 228, 191, 255))
    }

    struct Orbit: View {
        var body: some View {
            ZStack {
                Circle().fill(.blue).frame(width: 64, height: 64).offset(x: -18)
                Circle().fill(.orange).frame(width: 64, height: 64).offset(x: 18)
            }
            .compositingGroup()
            .opacity(0.25)
        }
    }

    /// SceneGraph's landing page.
    @Test func sceneGraphExample() throws {
        let renderer = Renderer()
        let surface = try renderer.render(Orbit(), size: CGSize(width: 200, height: 120), scale: 3)
        let text = try renderer.explain(Orbit(), size: CGSize(width: 200, height: 120), scale: 3).text
        // Two 192 px circles 108 px apart: ink 300 × 192 at (150, 84), plus the 2 px margin.
        #expect(text.contains("compositingGroup opacity 0.250 [148, 82, 304, 196] — layer argb32, 238336 bytes"))
        // The middle of the overlap: orange over blue inside the group, then 25 % over white.
        #expect(surface.pixel(x: 300, y: 180) == RGBA8(255, 228, 191, 255))
    }
}
