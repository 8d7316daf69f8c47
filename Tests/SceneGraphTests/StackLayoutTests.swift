import Foundation
import Testing
import SceneGraph

/// Device bounds of each leaf in a view's display list (scale 1).
func leafBounds<V: View>(_ view: V, _ size: CGSize) -> [CGRect] {
    ((try? Renderer().displayList(for: view, size: size))?.items ?? []).compactMap {
        $0.leaf?.path.boundingRect
    }
}

@Suite struct StackLayoutTests {
    @Test func hstackServesTheLeastFlexibleChildFirst() throws {
        // 100 × 50: the fixed 20 × 10 frame first; the rectangle gets 100 − 8 − 20 = 72 and the
        // full height. The fixed child is centred vertically: y = (50 − 10)/2 = 20.
        let view = HStack {
            Rectangle().fill(.red).frame(width: 20, height: 10)
            Rectangle().fill(.blue)
        }
        #expect(leafBounds(view, CGSize(width: 100, height: 50))
                == [CGRect(x: 0, y: 20, width: 20, height: 10), CGRect(x: 28, y: 0, width: 72, height: 50)])
    }

    @Test func vstackSharesEquallyWithDefaultSpacing() throws {
        // Two colours in 100 × 100: (100 − 8)/2 = 46 each, at y 0 and 54.
        let view = VStack { Color.red; Color.blue }
        #expect(leafBounds(view, CGSize(width: 100, height: 100))
                == [CGRect(x: 0, y: 0, width: 100, height: 46), CGRect(x: 0, y: 54, width: 100, height: 46)])
    }

    @Test func alignmentAndExplicitSpacing() throws {
        // Circles take min(w, h): three in 300 × 100 with no spacing are 100 each.
        let row = HStack(spacing: 0) { Circle().fill(.red); Circle().fill(.green); Circle().fill(.blue) }
        #expect(leafBounds(row, CGSize(width: 300, height: 100)).map(\.minX) == [0, 100, 200])
        // A leading-aligned VStack of two fixed frames in 100 × 100: the stack is 40 wide
        // (its widest child) and 10 + 8 + 10 tall, centred: x 30, y 36; the 20-wide child sits
        // at the stack's leading edge.
        let column = VStack(alignment: .leading) {
            Rectangle().fill(.red).frame(width: 20, height: 10)
            Rectangle().fill(.red).frame(width: 40, height: 10)
        }
        #expect(leafBounds(column, CGSize(width: 100, height: 100))
                == [CGRect(x: 30, y: 36, width: 20, height: 10), CGRect(x: 30, y: 54, width: 40, height: 10)])
    }

    @Test func paddingInsets() throws {
        #expect(leafBounds(Color.red.padding(10), CGSize(width: 100, height: 100)) == [CGRect(x: 10, y: 10, width: 80, height: 80)])
        #expect(leafBounds(Color.red.padding(.horizontal, 5), CGSize(width: 100, height: 100)) == [CGRect(x: 5, y: 0, width: 90, height: 100)])
        // A padded fixed frame: 20 + 2·16 = 52 wide, centred in 100: the frame at x 40.
        #expect(leafBounds(Rectangle().fill(.red).frame(width: 20, height: 20).padding(), CGSize(width: 100, height: 100))
                == [CGRect(x: 40, y: 40, width: 20, height: 20)])
    }
}

@Suite struct GroupModifierTests {
    /// A modifier on a `Group` (or a `ForEach`) applies to each member, as in SwiftUI: in an
    /// HStack, `Group { A; B }.frame(width: 10)` is two 10-point children 8 apart, not one.
    @Test func groupModifiersApplyToEachMember() throws {
        let row = HStack(spacing: 8) {
            Group {
                Color.red
                Color.blue
            }
            .frame(width: 10, height: 10)
        }
        let s = try Renderer().render(row, size: CGSize(width: 28, height: 10), background: nil)
        // Children at x 0…10 and 18…28; the gap 10…18 stays empty.
        #expect(s.pixel(x: 5, y: 5) == RGBA8(0xFF, 0x3B, 0x30, 255))
        #expect(s.pixel(x: 14, y: 5).a == 0)
        #expect(s.pixel(x: 23, y: 5) == RGBA8(0, 0x7A, 0xFF, 255))
        // The same through ForEach.
        let each = HStack(spacing: 8) {
            ForEach(0..<2, id: \.self) { i in i == 0 ? Color.red : Color.blue }.frame(width: 10, height: 10)
        }
        let t = try Renderer().render(each, size: CGSize(width: 28, height: 10), background: nil)
        #expect(try t.compare(to: s).differingPixels == 0)
    }
}

@Suite struct PositionAndFixedSizeTests {
    @Test func positionPlacesTheCentre() throws {
        // A 10 × 10 square centred at (20, 30) of a 100 × 100 canvas: x 15…25, y 25…35.
        let s = try Renderer().render(Color.red.frame(width: 10, height: 10).position(x: 20, y: 30), size: CGSize(width: 100, height: 100))
        #expect(s.pixel(x: 20, y: 30) == RGBA8(0xFF, 0x3B, 0x30, 255))
        #expect(s.pixel(x: 15, y: 25) == RGBA8(0xFF, 0x3B, 0x30, 255) && s.pixel(x: 14, y: 25) == RGBA8(255, 255, 255, 255))
        #expect(s.pixel(x: 26, y: 30) == RGBA8(255, 255, 255, 255))
    }

    @Test func fixedSizeTakesTheIdealSize() throws {
        // A shape's ideal size is 10 × 10: fixed, it ignores the 100 × 100 offered and sits centred
        // (x, y 45…55); fixed only horizontally, it is 10 wide and 100 tall.
        let both = try Renderer().render(Rectangle().fixedSize(), size: CGSize(width: 100, height: 100))
        #expect(both.pixel(x: 50, y: 50) == RGBA8(0, 0, 0, 255) && both.pixel(x: 44, y: 50) == RGBA8(255, 255, 255, 255))
        #expect(both.pixel(x: 50, y: 44) == RGBA8(255, 255, 255, 255))
        let wide = try Renderer().render(Rectangle().fixedSize(horizontal: true, vertical: false), size: CGSize(width: 100, height: 100))
        #expect(wide.pixel(x: 50, y: 2) == RGBA8(0, 0, 0, 255) && wide.pixel(x: 44, y: 50) == RGBA8(255, 255, 255, 255))
    }
}
