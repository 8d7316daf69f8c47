import Foundation
import Testing
@testable import SceneGraph

/// Text from cached glyph masks against the same text filled from its outlines (TEXT.md §6.9,
/// §6.11): equal within rounding where glyph origins fall on the quarter-pixel bins, within the
/// bin's error elsewhere; the cache serves a second render entirely.
@Suite(.serialized) struct GlyphMaskTests {
    func render(_ view: some View, size: CGSize, scale: Double = 1, masks: Bool) throws -> (Surface, RenderStats) {
        let renderer = Renderer()
        renderer.drawsGlyphsFromMasks = masks
        let surface = try renderer.render(view, size: size, scale: scale, background: nil)
        return (surface, renderer.lastStats)
    }

    func worst(_ a: Surface, _ b: Surface) -> (max: Int, mean: Double) {
        var worst = 0, total = 0
        for y in 0..<a.height { for x in 0..<a.width {
            let d = abs(Int(a.pixel(x: x, y: y).a) - Int(b.pixel(x: x, y: y).a))
            worst = max(worst, d); total += d
        } }
        return (worst, Double(total) / Double(a.width * a.height))
    }

    /// Monospaced digits at 16 pt in JetBrains Mono: every advance is 9.6 px, so pens fall at
    /// multiples of 0.6 px, mostly off the quarter-pixel bins, and the baseline falls where SF's
    /// metrics put it: each glyph moves by at most 1/8 px each way, 32 levels on an edge at
    /// most (measured 27). Moving ink does not change its amount: the totals agree within
    /// 0.2 %. 26 glyphs: 30 characters, 4 of them spaces, which have no mask.
    @Test func masksMatchTheOutlinesWithinTheBinError() throws {
        let text = Text("0123456789 The quick brown fox").font(.system(size: 16, design: .monospaced)).foregroundStyle(.black)
        let size = CGSize(width: 320, height: 30)
        let (masked, stats) = try render(text, size: size, masks: true)
        let (outlined, plain) = try render(text, size: size, masks: false)
        #expect(worst(masked, outlined).max <= 32)
        func ink(_ s: Surface) -> Int { (0..<s.height).reduce(0) { t, y in (0..<s.width).reduce(t) { $0 + Int(s.pixel(x: $1, y: y).a) } } }
        let a = Double(ink(masked)), b = Double(ink(outlined))
        #expect(abs(a - b) / b < 0.002, "\(a) vs \(b)")
        #expect(stats.glyphs == 26 && plain.glyphs == 0, "\(stats.glyphs) \(plain.glyphs)")
    }

    /// A glyph whose origin lies on a bin is drawn from a mask made at that very offset: the
    /// same pixels as its outline, within 1 level (pixman's rounding of the composite). The
    /// text is placed with `.position` at x = 10.25 px, y (baseline) on a whole pixel.
    @Test func onTheBinsMasksEqualTheOutlines() throws {
        let t = Text("H").font(.system(size: 40, weight: .bold)).foregroundStyle(.black).fixedSize()
        // The frame's top is chosen so the baseline (40 × 1950 / 2048 below it) is at y = 45.
        let top = 45 - 40 * 1950.0 / 2048
        let view = ZStack(alignment: .topLeading) { Color.clear; t.offset(x: 10.25, y: top) }
        let size = CGSize(width: 60, height: 60)
        let (masked, _) = try render(view, size: size, masks: true)
        let (outlined, _) = try render(view, size: size, masks: false)
        #expect(worst(masked, outlined).max <= 1)
    }

    /// A renderer keeps each text's glyph runs and the masks it found for them where it drew
    /// them; frames that move the text by fractions of a pixel, clip it differently, change its
    /// colour or draw other texts in between give exactly the pixels a fresh renderer gives.
    @Test func keptRunsAndMasksDrawWhatAFreshRendererDraws() throws {
        let size = CGSize(width: 240, height: 60)
        func frame(_ k: Int) -> AnyView {
            let dx = [0, 0.3, 0.3, 10.55, 0][k % 5], width = [240.0, 240, 70, 240, 240][k % 5]
            let color: Color = k % 3 == 0 ? .blue : .red
            return AnyView(ZStack(alignment: .topLeading) {
                Text(k % 4 == 3 ? "Another text" : "Kept runs, moved").foregroundStyle(color).offset(x: dx, y: dx / 2)
            }.frame(width: width, height: 60, alignment: .topLeading).clipped().frame(width: 240, height: 60, alignment: .topLeading))
        }
        let kept = Renderer()
        for k in 0..<10 {
            let reused = try kept.render(frame(k), size: size, scale: 2, background: nil)
            let fresh = try Renderer().render(frame(k), size: size, scale: 2, background: nil)
            #expect(try reused.compare(to: fresh).maxChannelDifference == 0, "frame \(k)")
        }
    }

    /// The second render of the same text hits the cache for every glyph; a drawing group
    /// holding text is stored and reused.
    @Test func aSecondRenderReusesEveryMask() throws {
        let text = Text("Cache reuse, 2nd render").font(.system(size: 23.7)).foregroundStyle(.blue)
        let size = CGSize(width: 300, height: 40)
        let renderer = Renderer()
        _ = try renderer.render(text, size: size)
        _ = try renderer.render(text, size: size)
        let second = renderer.lastStats
        #expect(second.glyphs > 15 && second.glyphCache.hits == second.glyphs && second.glyphCache.misses == 0)
        // Another renderer shares the cache.
        let other = Renderer()
        _ = try other.render(text, size: size)
        #expect(other.lastStats.glyphCache.misses == 0)
        // In a drawing group: the second render composites the stored image.
        let grouped = text.drawingGroup()
        _ = try renderer.render(grouped, size: size)
        _ = try renderer.render(grouped, size: size)
        #expect(renderer.lastStats.cache.hits == 1 && renderer.lastStats.glyphs == 0)
    }

    /// Rotated text, shadowed text and joined scripts take the outline path (no glyph masks).
    @Test func outlinesWhereMasksWouldBeWrong() throws {
        let size = CGSize(width: 200, height: 60)
        for view in [AnyView(Text("Rotated").rotationEffect(.degrees(10))), AnyView(Text("Shadow").shadow(radius: 2)),
                     AnyView(Text("العربية")), AnyView(Text("नमस्ते"))] {
            let (_, stats) = try render(view, size: size, masks: true)
            #expect(stats.glyphs == 0 && stats.leafDraws >= 1)
        }
        let (_, latin) = try render(Text("Plain"), size: size, masks: true)
        #expect(latin.glyphs == 5)
    }

    /// `explain` names each text leaf's string, fonts (files), sizes and glyph counts, and warns
    /// of characters no font draws.
    @Test func explainListsTextLeaves() throws {
        let view = VStack { Text("Disponible").font(.headline); Text("ab العربية"); Text("x\u{10FFFD}") }
        let text = try Explanation(view, size: CGSize(width: 300, height: 200), scale: 1).text
        #expect(text.contains("leaf text “Disponible”, 10 glyphs from cached masks: Inter-roman.var.ttf wght 600 17 pt × 10"))
        #expect(text.contains("from outlines: NotoSansArabic-Regular.ttf 17 pt × 7, Inter-roman.var.ttf wght 400 17 pt × 3"))
        #expect(text.contains("has 1 character that no installed font draws"))
        // A character only fontconfig found a font for is drawn, with a warning naming the file.
        if FileManager.default.fileExists(atPath: "/usr/share/fonts/truetype/noto/NotoMusic-Regular.ttf") {
            let clef = try Explanation(Text("G \u{1D11E}"), size: CGSize(width: 300, height: 200), scale: 1).text
            #expect(clef.contains("NotoMusic-Regular.ttf, which fontconfig picked"))
            #expect(!clef.contains("no installed font draws"))
        } else {
            print("skipped the fontconfig half: Noto Music (fonts-noto-core) is not installed")
        }
    }

    /// `.rounded` draws Quicksand (`fonts-quicksand`, which `make deps` installs) at the nearest
    /// of its weights, upright even when italic (it has none), with its own line height.
    @Test func theRoundedDesignIsQuicksand() throws {
        func file(_ font: Font) throws -> String { (try font.instance().0.face.path as NSString).lastPathComponent }
        #expect(try file(.system(size: 17, design: .rounded)) == "Quicksand-Regular.ttf")
        #expect(try file(.system(size: 17, weight: .semibold, design: .rounded)) == "Quicksand-Bold.ttf")
        #expect(try file(.system(.body, design: .rounded).weight(.medium)) == "Quicksand-Medium.ttf")
        #expect(try file(.system(size: 17, weight: .ultraLight, design: .rounded).italic()) == "Quicksand-Light.ttf")
        // Laid out with Quicksand's own line height (ascender plus descender, per em), not SF's.
        let rounded = try Font.system(size: 17, design: .rounded).instance().0
        #expect(rounded.ascender != SystemFont.ascender)
        let laid = layOut([TextRun(text: "Rounded", font: rounded, size: 17)])
        #expect(abs(laid.size.height - 17 * (rounded.ascender + rounded.descender)) < 1e-9)
    }
}
