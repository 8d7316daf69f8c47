import Foundation
import Testing
@testable import Typography

/// Shaping and layout with the system font (Inter, from Debian's fonts-inter-variable).
@Suite struct ShapingTests {
    let body: FontInstance
    init() throws { body = try SystemFont.instance(size: 17, weight: 400, italic: false) }

    /// One glyph a letter for plain Latin (no ligature in "Descargando"), clusters the letters'
    /// UTF-8 offsets.
    @Test func latinShapesOneGlyphALetter() {
        let glyphs = body.shape("Descargando")
        #expect(glyphs.count == 11)
        #expect(glyphs.map(\.cluster) == Array(0..<11))
        // "é" is two UTF-8 bytes: the next glyph's cluster skips one.
        #expect(body.shape("é a").map(\.cluster) == [0, 2, 3])
    }

    /// A text's width is the sum of HarfBuzz's advances at its size.
    @Test func widthIsTheSumOfAdvances() {
        let text = "Disponible"
        let advances = body.shape(text).reduce(0) { $0 + $1.advance }
        let expected = advances * 17 / Double(body.unitsPerEm)
        let laid = layOut([TextRun(text: text, font: body, size: 17)])
        #expect(abs(laid.size.width - expected) < 1e-9)
        #expect(laid.lines.count == 1)
    }

    /// The caches of shaped texts and layouts are bounded in bytes, not only in number: 100
    /// different pages of text (each about 0.8 MB shaped, as an animation typing a page
    /// makes) never hold more than the bound. Bounded by number alone (2,048 texts) they
    /// held all 100, about 80 MB of each.
    @Test func textCachesAreBoundedInBytes() {
        let page = String(repeating: "Typography on a screen is a compromise between shapes and pixels. ", count: 150)
        var largest = (shaped: 0, layouts: 0)
        for k in 0..<100 {
            _ = layOut([TextRun(text: page + String(k), font: body, size: 17)], width: 900)
            let now = textCacheBytes()
            largest = (max(largest.shaped, now.shaped), max(largest.layouts, now.layouts))
            #expect(now.shaped <= now.maximum && now.layouts <= now.maximum)
        }
        // They did fill (the bound was met), so the bound, not a small text, kept them small.
        #expect(largest.shaped > textCacheBytes().maximum / 2)
    }

    /// A line is SF Pro's ascender plus descender at the size: 17 × 2444 / 2048 = 20.287 pt
    /// for body text; the baseline is the ascender, 17 × 1950 / 2048 = 16.187 pt.
    @Test func lineHeightsAreSFPros() {
        let laid = layOut([TextRun(text: "Hg", font: body, size: 17)])
        #expect(abs(laid.size.height - 17 * 2444 / 2048) < 1e-9)
        #expect(abs(laid.lines[0].glyphs[0].baseline - 17 * 1950 / 2048) < 1e-9)
    }

    /// Inter Display from 20 pt (SF's Text/Display switch); the weight is the wght axis.
    @Test func displayFromTwentyPoints() throws {
        #expect(try SystemFont.instance(size: 19.9, weight: 400, italic: false).face.path.hasSuffix("Inter-roman.var.ttf"))
        #expect(try SystemFont.instance(size: 20, weight: 400, italic: false).face.path.hasSuffix("InterDisplay-roman.var.ttf"))
        let bold = try SystemFont.instance(size: 17, weight: 700, italic: false)
        // Bold is wider than regular for the same text.
        #expect(bold.shape("Bold").reduce(0) { $0 + $1.advance } > body.shape("Bold").reduce(0) { $0 + $1.advance })
        // Instances are interned: the same request gives the same instance.
        #expect(try SystemFont.instance(size: 17, weight: 700, italic: false) === bold)
    }

    /// Every glyph has an outline in font units (y up); a space has none.
    @Test func outlinesComeFromTheFont() {
        let o = body.shape("o")[0].glyph
        let outline = body.outline(of: o)
        #expect(!outline.isEmpty)
        let b = outline.boundingRect
        // An "o" sits on the baseline and reaches about the x-height (0.545 em in Inter).
        #expect(b.minY < 0.02 * Double(body.unitsPerEm) && b.maxY > 0.5 * Double(body.unitsPerEm))
        #expect(body.outline(of: body.shape(" ")[0].glyph).isEmpty)
    }

    /// Plain ASCII is classified from its bytes: the same whitespace, controls and grapheme
    /// starts as Unicode's properties and Swift's grapheme breaking give, on every ASCII byte
    /// and on CR LF pairs, tabs, DEL and runs of spaces.
    @Test func asciiCharacterFlagsEqualUnicodes() {
        var texts = ["", "a", "Hello, world.", "one\r\ntwo\rthree\nfour", "\t\u{0B}\u{0C} \u{7F}x", "\r\n\r\n\n\r"]
        texts.append(String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self))
        var state: UInt64 = 17
        for _ in 0..<50 {
            var bytes: [UInt8] = []
            for _ in 0..<40 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                // Mostly the interesting bytes: CR, LF, tab, space, DEL, and letters.
                let pick = [0x0D, 0x0A, 0x09, 0x20, 0x7F, 0x41, 0x00, 0x1F][Int(state >> 61)]
                bytes.append(UInt8(pick))
            }
            texts.append(String(decoding: bytes, as: UTF8.self))
        }
        for text in texts {
            let fast = characterFlags(text, ascii: true), general = characterFlags(text, ascii: false)
            #expect(fast.isSpace == general.isSpace && fast.isControl == general.isControl
                    && fast.graphemeStarts == general.graphemeStarts, "\(Array(text.utf8))")
        }
    }
}
