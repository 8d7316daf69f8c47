import Foundation
import Testing
import SceneGraph

/// `Text` as a view: sized by its layout, drawn from its glyph outlines, one leaf per paint,
/// with the per-leaf and group semantics of any shape.
@Suite struct TextViewTests {
    /// A Text takes its natural size when nothing constrains it (one line, as wide as its
    /// advances, as tall as SF's line), and wraps to a proposed width.
    @Test func sizeIsTheLayoutsSize() throws {
        let body = try SystemFont.instance(size: 17, weight: 400, italic: false)
        let natural = layOut([TextRun(text: "Disponible", font: body, size: 17)]).size
        let list = try Renderer().displayList(for: Text("Disponible").fixedSize(), size: CGSize(width: 300, height: 100))
        let bounds = try #require(list.items.first?.leaf).path.boundingRect
        // The ink sits inside the text's frame, centred in the canvas: (300 − w) / 2 …
        let frame = CGRect(x: (300 - natural.width) / 2, y: (100 - natural.height) / 2, width: natural.width, height: natural.height)
        #expect(bounds.minX >= frame.minX - 1 && bounds.maxX <= frame.maxX + 1 && bounds.minY >= frame.minY - 1 && bounds.maxY <= frame.maxY + 1)
        #expect(abs(natural.height - 17 * 2444 / 2048) < 1e-9)
        // Proposed 60 pt, "one two three" wraps and the Text is as wide as its widest line.
        let wrapped = Text("one two three").frame(width: 60)
        let drawn = try Renderer().displayList(for: wrapped, size: CGSize(width: 60, height: 200))
        #expect(try #require(drawn.items.first?.leaf).path.boundingRect.height > 2 * 17 * 2444 / 2048)
    }

    /// The stem of a 200 pt "l" covers whole pixels: two Texts there at opacity 0.5 each blend
    /// on their own (per leaf: 255 × 0.5 × 0.5 = 63.75 → 64 left of white), and composited
    /// first they show once (127.5 → 128, ±1 for pixman's rounding).
    @Test func opacityDistributesToTextAsToShapes() throws {
        let l = Text("l").font(.system(size: 200, weight: .black)).foregroundStyle(.black)
        let size = CGSize(width: 120, height: 260)
        let perLeaf = try Renderer().render(ZStack { l; l }.opacity(0.5), size: size)
        let grouped = try Renderer().render(ZStack { l; l }.compositingGroup().opacity(0.5), size: size)
        let centre = try stemCentre(Renderer().render(l, size: size))
        #expect(abs(Int(perLeaf.pixel(x: centre.x, y: centre.y).r) - 64) <= 1)
        #expect(abs(Int(grouped.pixel(x: centre.x, y: centre.y).r) - 128) <= 1)
    }

    /// The middle of the black stem in a render of `l`.
    func stemCentre(_ s: Surface) throws -> (x: Int, y: Int) {
        let y = s.height / 2
        let black = (0..<s.width).filter { s.pixel(x: $0, y: y).r == 0 }
        let x = try #require(black.isEmpty ? nil : black[black.count / 2])
        return (x, y)
    }

    /// Glyph edges against a 16×16 supersampled render of the same text (the same engine at
    /// 16 × the scale, averaged over 16 × 16 blocks: its flattening error is 1/16 of a pixel's
    /// 0.02): mean within 0.5 level and at most 4 (TEXT.md's accuracy target). Both from the
    /// outlines, at their exact positions: the rasterizer's accuracy. Masks equal the outlines
    /// where origins fall on their quarter-pixel bins (GlyphMaskTests), so this holds for them
    /// there; elsewhere they add the bin's error.
    @Test func glyphsAreWithinFourLevelsOfASupersampledReference() throws {
        let text = Text("Regarding 17 pt").foregroundStyle(.black)
        let size = CGSize(width: 130, height: 24)
        let renderer = Renderer()
        renderer.drawsGlyphsFromMasks = false
        let plain = try renderer.render(text, size: size, scale: 1, background: nil)
        let fine = try renderer.render(text, size: size, scale: 16, background: nil)
        var total = 0, worst = 0
        for y in 0..<plain.height {
            for x in 0..<plain.width {
                var sum = 0
                for dy in 0..<16 { for dx in 0..<16 { sum += Int(fine.pixel(x: x * 16 + dx, y: y * 16 + dy).a) } }
                let reference = Int((Double(sum) / 256).rounded())
                let d = abs(Int(plain.pixel(x: x, y: y).a) - reference)
                total += d
                worst = max(worst, d)
            }
        }
        let mean = Double(total) / Double(plain.width * plain.height)
        #expect(mean <= 0.5 && worst <= 4, "mean \(mean), max \(worst)")
    }

    /// A gradient spans the Text's frame, shared by every glyph; a run's own colour wins.
    @Test func stylesPaintRuns() throws {
        let list = try Renderer().displayList(for: (Text("Hola, ") + Text("mundo").foregroundStyle(.pink)).foregroundStyle(.blue),
                                              size: CGSize(width: 200, height: 40))
        let fills = list.leaves.map(\.fill)
        #expect(fills == [.color(.blue), .color(.pink)])
        // Without a style, the environment's foreground style.
        let plain = try Renderer().displayList(for: Text("Hola").foregroundStyle(.orange).foregroundStyle(.green),
                                               size: CGSize(width: 200, height: 40))
        #expect(plain.leaves.map(\.fill) == [.color(.orange)])
        let environment = try Renderer().displayList(for: VStack { Text("Hola") }.foregroundStyle(.mint), size: CGSize(width: 200, height: 40))
        #expect(environment.leaves.map(\.fill) == [.color(.mint)])
    }

    /// The font is an environment value: the nearest `.font` written above a Text without one.
    @Test func fontsComeFromTheEnvironment() throws {
        func height<V: View>(_ v: V) throws -> CGFloat {
            try #require(try Renderer().displayList(for: v.fixedSize(), size: CGSize(width: 400, height: 200)).leaves.first).path.boundingRect.height
        }
        let title = try height(VStack { Text("H") }.font(.largeTitle))
        let caption = try height(VStack { Text("H") }.font(.caption))
        // A capital's height scales with the size: 34 / 12.
        #expect(abs(title / caption - 34.0 / 12) < 0.05)
        // Its own font wins over the environment's.
        #expect(abs(try height(VStack { Text("H").font(.caption) }.font(.largeTitle)) - caption) < 1e-9)
    }

    /// A drawing group holding text is cached like any other: the second render is a hit,
    /// and the pixels equal the render without a group.
    @Test func drawingGroupsCacheText() throws {
        // Framed to the canvas, so the group's image lands on whole pixels (not resampled).
        let view = Text("Cached").font(.title).frame(width: 160, height: 60).drawingGroup()
        let renderer = Renderer()
        let size = CGSize(width: 160, height: 60)
        let first = try renderer.render(view, size: size, scale: 2)
        let second = try renderer.render(view, size: size, scale: 2)
        #expect(renderer.lastStats.cache.hits == 1)
        #expect(try first.compare(to: second).differingPixels == 0)
        let plain = try Renderer().render(Text("Cached").font(.title), size: size, scale: 2)
        #expect(try first.compare(to: plain, tolerance: .init(channel: 1)).passed)
    }

    /// The emoji pixel probe (TEXT.md §6.12): 😀 at 40 pt keeps its own yellow face whatever
    /// the foreground style (red here), and `.opacity(0.5)` fades it like any leaf: its alpha
    /// over a transparent canvas halves (within 1 level of rounding).
    @Test func emojiKeepTheirColoursAndTakeOpacity() throws {
        let size = CGSize(width: 60, height: 60)
        let face = Text("😀").font(.system(size: 40)).foregroundStyle(.red)
        let drawn = try Renderer().render(face, size: size, background: nil)
        let faded = try Renderer().render(face.opacity(0.5), size: size, background: nil)
        // The face's yellow (Noto's #FCC21B family): strong red and green, little blue; a point
        // on the cheek, left of the centre, clear of the eyes and the mouth.
        var probe: (x: Int, y: Int)?
        for y in 20..<40 { for x in 12..<30 where probe == nil {
            let p = drawn.pixel(x: x, y: y)
            if p.a == 255, p.r > 230, p.g > 150, p.b < 90 { probe = (x, y) }
        } }
        let at = try #require(probe, "no opaque yellow pixel in the emoji")
        let half = faded.pixel(x: at.x, y: at.y)
        #expect(abs(Int(half.a) - 128) <= 1)
        // Not the text colour: red's green is 59.
        #expect(drawn.pixel(x: at.x, y: at.y).g > 150)
    }

    /// Bad input in Swift: a NaN, negative or infinite size draws at the body size (as
    /// `Font.system` documents), an absurd one is drawn from outlines without trapping, and a
    /// 10-million-character string is an error when laid out, not minutes of shaping.
    @Test func badTextInputIsHandled() throws {
        let size = CGSize(width: 100, height: 40)
        let body = try Renderer().displayList(for: Text("Aa").font(.body), size: size)
        for bad in [CGFloat.nan, -3, .infinity] {
            #expect(try Renderer().displayList(for: Text("Aa").font(.system(size: bad)), size: size) == body)
        }
        _ = try Renderer().render(Text("W").font(.system(size: 5000)), size: size)
        let huge = Text(String(repeating: "a", count: 10_000_000))
        #expect(throws: TypographyError.textTooLong(bytes: 10_000_000, limit: 1 << 20)) {
            try Renderer().render(huge, size: size)
        }
    }
}
