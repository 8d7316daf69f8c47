import Foundation
import Testing
@testable import SceneGraph

/// Layout is a phase with a product: each node's size is computed once per distinct
/// proposal, so a layout costs a bounded number of size computations per view whatever the
/// nesting. (Before the memo, nested stacks asked each child three times a level: about
/// 3^depth computations, minutes at depth 16.)
@Suite struct LayoutPassTests {
    /// Stacks nested `depth` levels, HStack and VStack alternating (or HStacks only), each
    /// level a fixed-size shape beside the next level.
    static func nest(depth: Int, alternating: Bool) -> AnyView {
        var inner = AnyView(Circle().frame(width: 4, height: 4))
        for level in 0..<depth {
            let next = inner
            inner = alternating && level % 2 == 1
                ? AnyView(VStack { Rectangle().frame(width: 3, height: 3); next })
                : AnyView(HStack { Rectangle().frame(width: 3, height: 3); next })
        }
        return inner
    }

    /// A whole layout, measured and placed, as a render does it.
    static func pass(_ view: AnyView) -> LayoutPass {
        let pass = LayoutPass(resolve(view))
        _ = pass.place(0, in: CGRect(origin: .zero, size: pass.size(of: 0, ProposedSize(width: 400, height: 300))))
        return pass
    }

    /// At most 12 sizes a node, measuring and placing together: a node meets few distinct
    /// proposals (0, ∞ and its share along each axis, the size it is placed at: 9 at most,
    /// measured on a 30-deep alternating nest), and the count per node does not grow with the
    /// depth.
    @Test(arguments: [false, true])
    func sizesPerNodeStayBoundedWithDepth(alternating: Bool) {
        var perNode: [Double] = []
        for depth in [10, 30, 60] {
            let pass = Self.pass(Self.nest(depth: depth, alternating: alternating))
            let ratio = Double(pass.measurements) / Double(pass.nodeCount)
            #expect(ratio <= 12, "depth \(depth): \(pass.measurements) sizes for \(pass.nodeCount) nodes")
            perNode.append(ratio)
        }
        // Linear: sizes per node at depth 60 no more than 1.5 × those at depth 10.
        #expect(perNode[2] <= 1.5 * perNode[0], "\(perNode)")
    }

    /// The layout tree places a 30-deep nest exactly as stacks place: each level's shape first,
    /// 8 pt from the next level, every level centred across the axis.
    @Test func aDeepNestIsPlacedAsStacksPlace() throws {
        let tree = try PlacedNode(laying: resolve(Self.nest(depth: 2, alternating: false)), inCanvas: CGSize(width: 100, height: 100))
        // HStack { shape 3; HStack { shape 3; circle 4 } }: widths 3 + 8 + (3 + 8 + 4) = 26,
        // height 4; centred in 100 × 100 at x 37, y 48.
        #expect(tree.rect == CGRect(x: 37, y: 48, width: 26, height: 4))
    }

    /// A Text asked its size under many proposals gets, for each, the very layout `layOut`
    /// makes for that width and height, though the pass makes one layout per width and reuses
    /// it for heights that drop no line: one-line and wrapped texts, a line limit, heights of
    /// 0, below, at and above the text's height, and none.
    /// A Text laid out at one width and then proposed the width it chose (as a frame wider
    /// than its label places it) reuses the first layout, and that is the very layout
    /// `layOut` makes for the narrower width: wrapped, centred and trailing lines, right-to-left
    /// and mixed lines, CJK, a word broken between characters, hanging spaces and newlines. A
    /// truncated layout is not reused (its ellipsis depends on the width), nor one whose lines
    /// measured wider than they draw (`fitWidth`: a bidi override; the text fuzz target found
    /// it).
    @Test(arguments: [TextAlignment.leading, .center, .trailing])
    func aTextPlacedAtItsOwnWidthReusesItsLayout(alignment: TextAlignment) throws {
        let font = try SystemFont.instance(size: 17, weight: 400, italic: false)
        let strings = ["Disponible", "one two three four five six seven eight", "trailing spaces   \nand a second paragraph",
                       "abcdefghijklmnopqrstuvwxyz", "שלום עולם and English mixed in one line", "مرحبا بالعالم كيف حالك اليوم",
                       "日本語の文章は単語の間に空白がありません", "a\n\nb", "\u{1}\u{1}\u{FFFD}",
                       // A right-to-left override: the line draws narrower than it measured.
                       "'W&ul\u{600} \u{202E}evil\u{600}\u{FFFD}"]
        var reused = 0
        for string in strings {
            // (At 1 pt a character is wider than the line: the text is wider than its proposal,
            // and placed at its own width it must be laid out again, on one line.)
            for (width, limit) in [(nil, nil), (1, nil), (30, nil), (60, nil), (95, nil), (140, nil), (1000, nil), (60, 1)] as [(CGFloat?, Int?)] {
                let pass = LayoutPass(resolve(Text(string).lineLimit(limit).multilineTextAlignment(alignment)))
                let text = try #require((0..<pass.nodeCount).first { if case .leaf(.text) = pass.node($0) { true } else { false } })
                let first = pass.textLayout(text, ProposedSize(width: width, height: nil))
                let own = first.size.width
                let runs = [TextRun(text: string, font: font, size: 17)]
                let paragraph = ParagraphStyle(lineLimit: limit, alignment: alignment)
                // Its own width, then narrower ones (which must lay it out anew).
                for (narrower, height) in [(own, nil), (own, first.size.height), (own - 0.5, nil), (own * 0.7, nil)] as [(CGFloat, CGFloat?)] {
                    let got = pass.textLayout(text, ProposedSize(width: narrower, height: height))
                    let want = layOut(runs, paragraph: paragraph, width: Double(narrower), height: height.map(Double.init))
                    #expect(got.size == want.size && got.truncated == want.truncated
                            && got.lines.map(\.glyphs) == want.lines.map(\.glyphs),
                            "\(string) \(String(describing: width)) \(String(describing: limit)) at \(narrower)")
                    if got.id == first.id { reused += 1 }
                    #expect(!first.truncated || got.id != first.id)
                }
            }
        }
        // The untruncated first layouts, at their own width, with and without a height.
        #expect(reused > 50, "\(reused)")
    }

    @Test func textLayoutsIgnoreHeightsThatDropNothing() throws {
        let font = try SystemFont.instance(size: 17, weight: 400, italic: false)
        for (string, limit) in [("Disponible", nil), ("one two three four five six seven", nil), ("one two three four five six", 2)] as [(String, Int?)] {
            let pass = LayoutPass(resolve(Text(string).lineLimit(limit)))
            let text = try #require((0..<pass.nodeCount).first { if case .leaf(.text) = pass.node($0) { true } else { false } })
            let runs = [TextRun(text: string, font: font, size: 17)]
            let paragraph = ParagraphStyle(lineLimit: limit)
            for width in [nil, 0, 60, 120, 1000] as [CGFloat?] {
                let natural = layOut(runs, paragraph: paragraph, width: width.map(Double.init)).size.height
                for height in [nil, 0, natural / 2, natural - 0.001, natural, natural + 5] as [CGFloat?] {
                    let got = pass.textLayout(text, ProposedSize(width: width, height: height))
                    let want = layOut(runs, paragraph: paragraph, width: width.map(Double.init), height: height.map(Double.init))
                    #expect(got.size == want.size && got.truncated == want.truncated && got.lines.map(\.glyphs) == want.lines.map(\.glyphs),
                            "\(string) \(String(describing: width)) \(String(describing: height))")
                }
            }
        }
    }
}
