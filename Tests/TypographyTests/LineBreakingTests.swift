import Foundation
import Testing
@testable import Typography

/// Line breaking and truncation: greedy at Unicode's break opportunities, as SwiftUI's Text.
@Suite struct LineBreakingTests {
    let font: FontInstance
    init() throws { font = try SystemFont.instance(size: 17, weight: 400, italic: false) }
    func width(_ s: String) -> Double { font.shape(s).reduce(0) { $0 + $1.advance } * 17 / Double(font.unitsPerEm) }

    @Test func breakOpportunitiesAreICUs() {
        let b = lineBreakOpportunities("one two-three\nfour")
        // After "one ", "two-", "three\n" (hard) and at the end.
        #expect(b.map(\.offset) == [4, 8, 14, 18])
        #expect(b.map(\.hard) == [false, false, true, false])
    }

    /// "one two three" in a width that holds "one two" but not "one two three": two lines, the
    /// first as wide as "one two" (its trailing space hangs), the text as wide as its widest line.
    @Test func wrapsGreedilyAndTrailingSpacesHang() {
        let w = width("one two") + 1
        let laid = layOut([TextRun(text: "one two three", font: font, size: 17)], width: w)
        #expect(laid.lines.count == 2)
        #expect(abs(laid.lines[0].width - width("one two")) < 1e-9)
        #expect(abs(laid.lines[1].width - width("three")) < 1e-9)
        #expect(abs(laid.size.width - width("one two")) < 1e-9)
        #expect(abs(laid.size.height - 2 * 17 * 2444 / 2048) < 1e-9)
        // Unlimited width: one line, its natural width.
        #expect(layOut([TextRun(text: "one two three", font: font, size: 17)]).lines.count == 1)
    }

    /// Characters that draw nothing take no room: after a line's hanging space, a control
    /// character (U+0017, which UAX #14 lets stand alone after a space) stays on the line even
    /// where the line is full, so a text laid out at its own width keeps one line. (It began a
    /// second, empty line: the text fuzz target found it, checking that a text laid out again
    /// at the width it chose keeps its lines.)
    @Test func invisibleCharactersNeverStartALine() {
        let runs = [TextRun(text: "one two \u{17}", font: font, size: 17)]
        let free = layOut(runs)
        let own = layOut(runs, width: free.size.width)
        #expect(free.lines.count == 1 && own.lines.count == 1)
        #expect(own.size == free.size)
        #expect(abs(free.size.width - width("one two")) < 1e-9)
        // A visible character there still breaks.
        #expect(layOut([TextRun(text: "one two x", font: font, size: 17)], width: free.size.width).lines.count == 2)
    }

    /// A word wider than the line breaks between characters.
    @Test func aLongWordBreaksBetweenCharacters() {
        let laid = layOut([TextRun(text: "abcdefgh", font: font, size: 17)], width: width("abcd") + 0.01)
        #expect(laid.lines.map(\.glyphs.count) == [4, 4])
    }

    /// Newlines end paragraphs and draw nothing.
    @Test func newlinesEndParagraphs() {
        let laid = layOut([TextRun(text: "a\nbc", font: font, size: 17)])
        #expect(laid.lines.map(\.glyphs.count) == [1, 2])
    }

    /// With a line limit, the last kept line takes as much of the rest as fits with "…".
    @Test func lineLimitTruncatesTheTail() {
        let w = width("one two") + 1
        let laid = layOut([TextRun(text: "one two three four", font: font, size: 17)], paragraph: ParagraphStyle(lineLimit: 1), width: w)
        #expect(laid.truncated && laid.lines.count == 1)
        #expect(laid.lines[0].width <= w + 1e-9)
        // The ellipsis is the last glyph.
        let ellipsis = font.shape("\u{2026}")[0].glyph
        #expect(laid.lines[0].glyphs.last?.glyph == ellipsis)
        // Head truncation puts it first.
        let head = layOut([TextRun(text: "one two three four", font: font, size: 17)],
                          paragraph: ParagraphStyle(lineLimit: 1, truncation: .head), width: w)
        #expect(head.lines[0].glyphs.min { $0.x < $1.x }?.glyph == ellipsis)
    }

    /// A right-to-left paragraph ends on the left: a tail ellipsis stands left of every glyph,
    /// a head ellipsis right of every glyph, as SwiftUI draws them. Hebrew, whose letters sit
    /// apart, in the fallback chain's Noto Sans Hebrew; the ellipsis is the text font's.
    @Test func rightToLeftEllipsisStandsAtTheLogicalEnd() throws {
        let text = "שלום עולם ומה שלומך היום"
        let ellipsis = font.shape("\u{2026}")[0].glyph
        let full = layOut([TextRun(text: text, font: font, size: 17)])
        let w = full.size.width * 0.6
        for (mode, leftmost) in [(TruncationMode.tail, true), (.head, false)] {
            let laid = layOut([TextRun(text: text, font: font, size: 17)], paragraph: ParagraphStyle(lineLimit: 1, truncation: mode), width: w)
            #expect(laid.truncated && laid.lines[0].rightToLeft)
            let glyphs = laid.lines[0].glyphs
            let dots = try #require(glyphs.first { $0.glyph == ellipsis && $0.font === font })
            let others = glyphs.filter { $0.font !== font }
            #expect(!others.isEmpty)
            if leftmost {
                #expect(others.allSatisfy { $0.x > dots.x }, "\(mode)")
            } else {
                #expect(others.allSatisfy { $0.x < dots.x }, "\(mode)")
            }
            #expect(laid.lines[0].width <= w + 1e-9)
        }
    }

    /// A finite height keeps the lines that fit, at least one.
    @Test func heightKeepsWholeLines() {
        let lineHeight = 17.0 * 2444 / 2048
        let laid = layOut([TextRun(text: "one two three four five six", font: font, size: 17)], width: width("one two") + 1,
                          height: 2.5 * lineHeight)
        #expect(laid.lines.count == 2 && laid.truncated)
        let tiny = layOut([TextRun(text: "one two three", font: font, size: 17)], width: width("one two") + 1, height: 1)
        #expect(tiny.lines.count == 1)
    }

    /// Centred and trailing lines sit within the text's width.
    @Test func alignmentPlacesLinesInTheWidestLine() {
        let w = width("one two") + 1
        let text = "one two three"
        let centre = layOut([TextRun(text: text, font: font, size: 17)], paragraph: ParagraphStyle(alignment: .center), width: w)
        let shift = (width("one two") - width("three")) / 2
        #expect(abs(centre.lines[1].glyphs[0].x - shift) < 1e-6)
        let trailing = layOut([TextRun(text: text, font: font, size: 17)], paragraph: ParagraphStyle(alignment: .trailing), width: w)
        #expect(abs(trailing.lines[1].glyphs[0].x - 2 * shift) < 1e-6)
    }

    /// Tracking adds its points after every character.
    @Test func trackingWidens() {
        let plain = layOut([TextRun(text: "abc", font: font, size: 17)]).size.width
        let tracked = layOut([TextRun(text: "abc", font: font, size: 17, tracking: 2)]).size.width
        #expect(abs(tracked - plain - 6) < 1e-9)
    }
}
