import Foundation
import SceneGraph
import Testing

/// The snippets in Snippets.swift compile with only their import changed; these render them
/// and check what SwiftUI would draw, so a snippet that compiles but means something else
/// fails too.
@Suite struct SnippetTests {
    /// `.tint` is SwiftUI's accent colour (system blue, #007AFF) unless `tint(_:)` sets it.
    /// The border is 6 pt inside a 120 × 44 frame centred in 140 × 60: its top edge runs from
    /// y 8 to 14, so (70, 11) is solid border.
    @Test func tintIsTheAccentColourUntilSet() throws {
        let size = CGSize(width: 140, height: 60)
        let blue = try Renderer().render(TintedBorder(), size: size)
        #expect(blue.pixel(x: 70, y: 11) == RGBA8(0, 122, 255, 255))
        let pink = try Renderer().render(TintedBorder().tint(.pink), size: size)
        #expect(pink.pixel(x: 70, y: 11) == RGBA8(255, 45, 85, 255))
        // The inside stays white.
        #expect(pink.pixel(x: 70, y: 30) == RGBA8(255, 255, 255, 255))
    }

    /// The file-scope border is a value like any other view.
    @Test func aViewAtFileScopeRenders() throws {
        let surface = try Renderer().render(borde.frame(width: 100, height: 30), size: CGSize(width: 100, height: 30))
        #expect(surface.pixel(x: 50, y: 3) == RGBA8(0, 122, 255, 255))
    }

    /// A ViewModifier's body is applied as if written out: the card's padding (16) and
    /// shadow are there.
    @Test func viewModifiersApplyTheirBody() throws {
        let size = CGSize(width: 100, height: 100)
        let viaModifier = try Renderer().render(Color.blue.frame(width: 40, height: 40).cardStyle(), size: size)
        let written = try Renderer().render(Color.blue.frame(width: 40, height: 40).padding()
            .background(RoundedRectangle(cornerRadius: 16).fill(.white)).shadow(radius: 4, y: 2), size: size)
        #expect(try viaModifier.compare(to: written).differingPixels == 0)
        // Concatenated modifiers apply in order.
        let twice = try Renderer().render(Color.blue.frame(width: 20, height: 20).modifier(CardStyle().concat(CardStyle(cornerRadius: 4))),
                                          size: size)
        let twiceWritten = try Renderer().render(Color.blue.frame(width: 20, height: 20).modifier(CardStyle())
            .modifier(CardStyle(cornerRadius: 4)), size: size)
        #expect(try twice.compare(to: twiceWritten).differingPixels == 0)
    }

    /// Every other snippet renders (their semantics are pinned by the suites of their
    /// features): the badge's capsule background, the ring, the swatches, the orbit, the
    /// spotlight, the pie and the layout.
    @Test func everySnippetRenders() throws {
        let size = CGSize(width: 200, height: 160)
        let badge = try Renderer().render(Badge(isAvailable: true), size: size)
        // The badge is 78 × 10 of content padded to 110 × 30, centred: x 45…155, y 65…95. At
        // (100, 68), inside the padding, the capsule behind is green (#34C759 = 52, 199, 89) at
        // 0.15 over white: premultiplied (8, 30, 13) with alpha 38, plus 255 × (1 − 38/255) =
        // 217: (225, 247, 230), ±1 for pixman's rounding.
        let p = badge.pixel(x: 100, y: 68)
        #expect(abs(Int(p.r) - 225) <= 1 && abs(Int(p.g) - 247) <= 1 && abs(Int(p.b) - 230) <= 1, "\(p)")
        for view in [AnyView(ProgressRing(progress: 0.7)), AnyView(Swatches()), AnyView(Orbit()), AnyView(Spotlight()),
                     AnyView(Pie()), AnyView(Layout())] {
            _ = try Renderer().render(view, size: size)
        }
    }

    /// The seed's DownloadExample: its button is accent-coloured text; pressing it animates the
    /// badge from leading to trailing over its 1.2 s ease-in-out, its label changing from
    /// "Descargando" (blue) to "Disponible" (green). Halfway the badge is between its ends.
    @Test func theDownloadExampleAnimatesWhenItsButtonIsPressed() throws {
        let size = CGSize(width: 390, height: 200)
        let change = try AnimatedChange(pressing: "Cambiar estado", in: DownloadExample())
        #expect(change.duration == 1.2)
        func badgeInk(_ surface: Surface) -> (minX: Int, maxX: Int) {
            // The badge's tinted capsule: not white, in its row (the top part of the canvas).
            var lo = Int.max, hi = Int.min
            for x in 0..<surface.width where surface.pixel(x: x, y: 70) != RGBA8(255, 255, 255, 255) {
                lo = min(lo, x); hi = max(hi, x)
            }
            return (lo, hi)
        }
        let start = badgeInk(try Renderer().render(change.view(at: 0, in: size), size: size))
        let middle = badgeInk(try Renderer().render(change.view(at: 0.6, in: size), size: size))
        let end = badgeInk(try Renderer().render(change.view(at: 1.2, in: size), size: size))
        #expect(start.minX < 30 && end.maxX > 360, "\(start) \(end)")
        #expect(middle.minX > start.minX + 40 && middle.maxX < end.maxX - 40, "\(middle)")
        // The button's title in the accent colour: some pure #007AFF text pixels low in the canvas.
        let still = try Renderer().render(DownloadExample(), size: size)
        var accent = 0
        for y in 100..<200 { for x in 0..<390 where still.pixel(x: x, y: y) == RGBA8(0, 122, 255, 255) { accent += 1 } }
        #expect(accent > 20)
        #expect(throws: ButtonError.self) { try AnimatedChange(pressing: "Nope", in: DownloadExample()) }
    }

    /// The radar seal's centre symbol is drawn in mint in a 38 pt square.
    @Test func theRadarCentreIsASymbol() throws {
        let surface = try Renderer().render(RadarCentre(), size: CGSize(width: 38, height: 38), background: nil)
        var mint = 0
        for y in 0..<38 { for x in 0..<38 where surface.pixel(x: x, y: y) == RGBA8(0, 199, 190, 255) { mint += 1 } }
        #expect(mint > 100)
    }
}
