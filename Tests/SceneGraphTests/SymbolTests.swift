import Foundation
import Testing
@testable import SceneGraph

/// `Image(systemName:)` and `Label`: Phosphor's drawings under SF Symbols' names, sized and
/// weighted by the font, arranged by the label style.
@Suite struct SymbolTests {
    /// Every name at every weight, upright and filled, has a drawing inside its unit square
    /// (Phosphor draws within its 256-unit view box; the hand-drawn waves too).
    @Test func everyNameHasADrawingInItsSquare() throws {
        #expect(SymbolSet.names.count >= 160)
        for name in SymbolSet.names {
            for weight in [100.0, 300, 400, 700] {
                let path = try #require(SymbolSet.path(name, weight: weight, filled: false), "\(name)")
                let box = path.boundingRect
                // Some are thin (a minus sign is 4 units tall at the thin weight) but none is a dot.
                #expect(!path.isEmpty && min(box.width, box.height) > 0.01 && max(box.width, box.height) > 0.3, "\(name) at \(weight)")
                #expect(box.minX >= -0.01 && box.minY >= -0.01 && box.maxX <= 1.01 && box.maxY <= 1.01, "\(name): \(box)")
            }
            #expect(SymbolSet.path(name, weight: 400, filled: true) != nil)
        }
        // The names of the seed examples and of TEXT.md's table.
        for name in ["checkmark", "arrow.down", "wave.3.right", "heart.fill", "star.fill", "xmark", "gearshape", "bell", "globe"] {
            #expect(SymbolSet.contains(name), "\(name)")
        }
    }

    /// Font weights choose the line weight: semibold draws Phosphor's bold, regular its
    /// regular; `.fill` names and `symbolVariant(.fill)` the filled drawing.
    @Test func weightsAndFillsChooseTheDrawing() throws {
        let regular = try #require(SymbolSet.path("heart", weight: 400, filled: false))
        let semibold = try #require(SymbolSet.path("heart", weight: 600, filled: false))
        let filled = try #require(SymbolSet.path("heart.fill", weight: 400, filled: false))
        #expect(regular != semibold && regular != filled)
        #expect(SymbolSet.path("heart", weight: 400, filled: true) == filled)
        let size = CGSize(width: 40, height: 40)
        let a = try Renderer().displayList(for: Image(systemName: "heart").symbolVariant(.fill), size: size)
        let b = try Renderer().displayList(for: Image(systemName: "heart.fill"), size: size)
        #expect(a == b && a.leaves.count == 1)
    }

    /// A symbol's frame is a square of its font's size times the image scale: 38 pt for
    /// `.system(size: 38)`, 17 × 1.29 = 21.93 pt for a large body symbol; resizable, the frame
    /// it is given.
    @Test func theFontSizesTheSymbol() throws {
        func frame(_ view: some View) throws -> CGSize {
            try PlacedNode(laying: resolve(view), inCanvas: CGSize(width: 200, height: 200)).rect.size
        }
        #expect(try frame(Image(systemName: "wave.3.right").font(.system(size: 38, weight: .semibold))) == CGSize(width: 38, height: 38))
        let large = try frame(Image(systemName: "star").imageScale(.large))
        #expect(abs(large.width - 17 * 1.29) < 1e-9 && large.width == large.height)
        #expect(try frame(Image(systemName: "star").resizable().frame(width: 50, height: 30)) == CGSize(width: 50, height: 30))
    }

    /// An unknown name draws nothing and takes no room (SwiftUI logs and shows nothing).
    @Test func anUnknownNameDrawsNothing() throws {
        let list = try Renderer().displayList(for: HStack { Image(systemName: "no.such.symbol") }, size: CGSize(width: 40, height: 40))
        #expect(list.leaves.isEmpty)
        #expect(SymbolSet.suggestion(for: "chekmark") == "checkmark")
        #expect(SymbolSet.suggestion(for: "zzzzzzzzzzzzzzzz") == nil)
    }

    /// A Label is its icon and title in a centred row 8 points apart (`labelSpacing`), the icon
    /// sized by the same font; `labelStyle` shows only one part.
    @Test func aLabelIsIconThenTitle() throws {
        let label = Label("Descargando", systemImage: "arrow.down").font(.headline)
        let row = HStack(spacing: labelSpacing) { Image(systemName: "arrow.down"); Text("Descargando") }.font(.headline)
        let size = CGSize(width: 200, height: 60)
        #expect(try Renderer().displayList(for: label, size: size) == Renderer().displayList(for: row, size: size))
        let iconOnly = try Renderer().displayList(for: label.labelStyle(.iconOnly), size: size)
        #expect(iconOnly == (try Renderer().displayList(for: Image(systemName: "arrow.down").font(.headline), size: size)))
        let titleOnly = try Renderer().displayList(for: label.labelStyle(.titleOnly), size: size)
        #expect(titleOnly == (try Renderer().displayList(for: Text("Descargando").font(.headline), size: size)))
    }

    /// The symbol is painted by the foreground style like a shape: the middle of a filled
    /// circle symbol at 40 pt is the style's colour, exactly.
    @Test func theForegroundStylePaintsTheSymbol() throws {
        let surface = try Renderer().render(Image(systemName: "circle.fill").font(.system(size: 40)).foregroundStyle(.red),
                                            size: CGSize(width: 40, height: 40))
        let centre = surface.pixel(x: 20, y: 20)
        #expect(centre.r == 255 && centre.g == 59 && centre.b == 48)
    }

    /// Absurd font sizes give symbols absurd frames, which render or fail with an error, never
    /// trap.
    @Test func absurdSizesDoNotTrap() {
        for size in [1e300, 1e-300, 5000] {
            _ = try? Renderer().render(Label("x", systemImage: "star").font(.system(size: size)), size: CGSize(width: 40, height: 40))
        }
    }
}
