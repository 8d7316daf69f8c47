import Foundation
import Testing
import SceneGraph

/// The README's code examples, compiled and run (keep them in step with README.md).
@Suite struct ReadmeExampleTests {
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

    struct Orbit: View {
        var body: some View {
            ZStack {
                Circle().fill(.blue).frame(width: 64, height: 64).offset(x: -18)
                Circle().fill(.pink).frame(width: 64, height: 64)
                Circle().fill(.orange).frame(width: 64, height: 64).offset(x: 18)
            }
            .compositingGroup()
            .opacity(0.25)
        }
    }

    @Test func viewsExample() throws {
        let renderer = Renderer()
        let surface = try renderer.render(Orbit(), size: CGSize(width: 200, height: 120), scale: 3)
        let text = try renderer.displayList(for: Orbit(), size: CGSize(width: 200, height: 120), scale: 3).description
        #expect(text.hasPrefix("compositingGroup opacity 0.250\n  fill #007AFF nonZero bounds [150.0, 84.0, 192.0, 192.0]"))
        #expect(surface.pixel(x: 300, y: 180) == RGBA8(255, 228, 191, 255))
    }
}
