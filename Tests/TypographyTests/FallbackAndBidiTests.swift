import Foundation
import Testing
@testable import Typography
import Compositor

/// Characters the system font lacks, right-to-left text and colour emoji (TEXT.md §6.2, §6.4,
/// §6.12), with Debian's font packages (fonts-noto-core, fonts-noto-color-emoji,
/// fonts-droid-fallback, fonts-dejavu-core, fonts-jetbrains-mono).
@Suite struct FallbackAndBidiTests {
    let body: FontInstance
    init() throws { body = try SystemFont.instance(size: 17, weight: 400, italic: false) }

    func file(_ font: FontInstance) -> String { (font.face.path as NSString).lastPathComponent }

    /// Each grapheme goes to the first font of the chain that draws it: Arabic to Noto Sans
    /// Arabic, Han to Droid Sans Fallback, emoji to Noto Color Emoji, Latin stays in Inter.
    @Test func fallbackFollowsTheChain() throws {
        let laid = layOut([TextRun(text: "ab العربية 日本 👍🏽", font: body, size: 17)])
        let fonts = Set(laid.lines.flatMap(\.glyphs).map { file($0.font) })
        #expect(fonts == ["Inter-roman.var.ttf", "NotoSansArabic-Regular.ttf", "DroidSansFallbackFull.ttf", "NotoColorEmoji.ttf"])
        // Bold text falls back to bold faces where they exist.
        let bold = try SystemFont.instance(size: 17, weight: 700, italic: false)
        let boldFonts = Set(layOut([TextRun(text: "שלום", font: bold, size: 17)]).lines.flatMap(\.glyphs).map { file($0.font) })
        #expect(boldFonts == ["NotoSansHebrew-Bold.ttf"])
    }

    /// Arabic joins: "العربية" is 7 glyphs in contextual forms (not the 7 isolated letters'
    /// nominal glyphs), "لا" one ligature.
    @Test func arabicShapesJoined() throws {
        let arabic = try #require(FontLibrary.fallback(for: "ع", bold: false, italic: false))
        let shaped = arabic.shape("العربية", range: 0..<"العربية".utf8.count, rightToLeft: true)
        #expect(shaped.count == 7)
        // Logical order: clusters increase.
        #expect(shaped.map(\.cluster) == shaped.map(\.cluster).sorted())
        let nominal = "العربية".unicodeScalars.compactMap { arabic.glyph(for: $0) }
        #expect(shaped.map(\.glyph) != nominal)
        #expect(arabic.shape("لا", range: 0..<"لا".utf8.count, rightToLeft: true).count == 1)
    }

    /// HarfBuzz buffers are reused between calls: nothing of one call (its direction, script,
    /// length, features) carries into the next. Latin, Arabic right to left, a long text and
    /// a text with features, in turn and on several threads, each shape as it did first.
    @Test func reusedBuffersCarryNothingOver() async throws {
        let arabic = try #require(FontLibrary.fallback(for: "ع", bold: false, italic: false))
        let latin = try SystemFont.instance(size: 17, weight: 400, italic: false)
        let word = "العربية", long = String(repeating: "Descargando ", count: 500)
        let expected = (latin.shape("office 1/2"), arabic.shape(word, range: 0..<word.utf8.count, rightToLeft: true),
                        latin.shape(long), latin.shape("0123", features: ["tnum"]))
        func check() -> Bool {
            arabic.shape(word, range: 0..<word.utf8.count, rightToLeft: true) == expected.1
                && latin.shape("0123", features: ["tnum"]) == expected.3 && latin.shape("office 1/2") == expected.0
                && latin.shape(long) == expected.2
        }
        #expect(check())
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 { group.addTask { (0..<20).allSatisfy { _ in check() } } }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0 })
    }

    /// ICU's levels: in a left-to-right paragraph the Arabic word is laid right to left and
    /// the digits after it join its run ("123 العربية" reads left to right on screen as digits
    /// then Arabic, UAX #9 W2 + L2), everything else left to right.
    @Test func bidiPlacesRightToLeftRuns() {
        let text = "ab العربية 123 cd"
        let glyphs = layOut([TextRun(text: text, font: body, size: 17)]).lines[0].glyphs
        let arabic = glyphs.filter { file($0.font) == "NotoSansArabic-Regular.ttf" }
        // The Arabic glyphs come out right to left: drawn in visual order, the first placed is
        // the word's last letter (the leftmost on screen).
        #expect(arabic.count >= 7)
        let xs = arabic.map(\.x)
        #expect(xs == xs.sorted())
        let digits = glyphs.filter { g in "123".unicodeScalars.contains { body.glyph(for: $0) == g.glyph && file(g.font) == "Inter-roman.var.ttf" } }
        // "123" stands left of the Arabic word.
        #expect(digits.count == 3 && digits.map(\.x).max()! < xs.min()!)
    }

    /// A right-to-left paragraph puts its leading edge on the right: two lines of Hebrew,
    /// leading-aligned, end flush right; "(abc)" inside keeps its parentheses facing the text
    /// (HarfBuzz mirrors them in right-to-left runs).
    @Test func rightToLeftParagraphsAlignRight() {
        let laid = layOut([TextRun(text: "שלום עולם גדול מאוד", font: body, size: 17)], width: 80)
        #expect(laid.lines.count >= 2 && laid.lines.allSatisfy(\.rightToLeft))
        for line in laid.lines {
            let right = line.glyphs.map { $0.x + $0.font.advance(of: $0.glyph) * 17 / Double($0.font.unitsPerEm) }.max()!
            #expect(abs(right - laid.size.width) < 0.5, "\(right) vs \(laid.size.width)")
        }
        #expect(!layOut([TextRun(text: "abc", font: body, size: 17)]).lines[0].rightToLeft)
    }

    /// Emoji: the grapheme "👍🏽❤️‍🔥🇪🇸🧑‍💻" (11 scalars) is 4 glyphs of the colour font, whose
    /// bitmaps are PNGs; 😀's decodes to 136 × 128 pixels (Noto Color Emoji's strike).
    @Test func emojiAreColourBitmaps() throws {
        let laid = layOut([TextRun(text: "👍🏽❤️‍🔥🇪🇸🧑‍💻", font: body, size: 17)])
        let glyphs = laid.lines[0].glyphs
        #expect(glyphs.count == 4 && glyphs.allSatisfy { $0.font.hasColorBitmaps })
        let emoji = try #require(FontLibrary.fallback(for: "😀", bold: false, italic: false))
        let glyph = try #require(emoji.glyph(for: "😀"))
        let bitmap = try #require(emoji.colorBitmap(of: glyph))
        let png = try PNG.decode(Data(bitmap.png))
        #expect(png.width == 136 && png.height == 128)
        #expect(FontLibrary.isEmoji("😀") && FontLibrary.isEmoji("❤️") && !FontLibrary.isEmoji("❤") && !FontLibrary.isEmoji("a"))
    }

    /// The serif and monospaced designs, and their own line metrics (not SF's).
    @Test func designsHaveTheirFonts() throws {
        let serif = try #require(FontLibrary.serif(weight: 700, italic: true))
        #expect(file(serif) == "NotoSerif-BoldItalic.ttf")
        let mono = try #require(FontLibrary.monospaced(weight: 600, italic: false))
        #expect(file(mono) == "JetBrainsMono-SemiBold.ttf")
        #expect(file(try #require(FontLibrary.monospaced(weight: 400, italic: true))) == "JetBrainsMono-Italic.ttf")
        // Monospaced: every character the same advance.
        let advances = Set(mono.shape("il WM.").map(\.advance))
        #expect(advances.count == 1)
        // Noto Serif's own ascender and descender (1069 and 293 of 1000), not SF Pro's.
        #expect(abs(serif.ascender - 1.069) < 0.001 && abs(serif.descender - 0.293) < 0.001)
        #expect(body.ascender == SystemFont.ascender)
        // Rounded: Quicksand's four weights, ties to the bolder.
        let rounded = [250.0, 350, 450, 600, 900].map { FontLibrary.rounded(weight: $0).map(file) }
        #expect(rounded == ["Quicksand-Light.ttf", "Quicksand-Regular.ttf", "Quicksand-Medium.ttf", "Quicksand-Bold.ttf",
                            "Quicksand-Bold.ttf"])
    }

    /// A character no installed font draws is the primary font's missing-glyph box (glyph 0),
    /// not a trap: U+10FFFD is a private-use code point.
    @Test func unknownCharactersDrawTheMissingGlyph() {
        let laid = layOut([TextRun(text: "a\u{10FFFD}b", font: body, size: 17)])
        #expect(laid.lines[0].glyphs.map(\.glyph).contains(0))
    }

    /// The chain's last resort is fontconfig: U+1D11E (𝄞, musical G clef) is in no font of the
    /// chain, and of `make deps`'s fonts only Noto Music has it, which fontconfig finds and the
    /// library marks as fontconfig's pick. Chain fonts are never marked.
    @Test func fontconfigDrawsWhatTheChainCannot() throws {
        guard FileManager.default.fileExists(atPath: "/usr/share/fonts/truetype/noto/NotoMusic-Regular.ttf") else {
            print("skipped: Noto Music (fonts-noto-core) is not installed, so no font has U+1D11E")
            return
        }
        let clef = try #require(FontLibrary.fallback(for: "\u{1D11E}", bold: false, italic: false))
        #expect(clef.face.path.hasSuffix("NotoMusic-Regular.ttf"))
        #expect(FontLibrary.isFromFontconfig(clef))
        let arabic = try #require(FontLibrary.fallback(for: "ع", bold: false, italic: false))
        #expect(!FontLibrary.isFromFontconfig(arabic) && !FontLibrary.isFromFontconfig(body))
        let laid = layOut([TextRun(text: "a\u{1D11E}", font: body, size: 17)])
        #expect(laid.lines[0].glyphs.count == 2 && !laid.lines[0].glyphs.map(\.glyph).contains(0))
    }
}
