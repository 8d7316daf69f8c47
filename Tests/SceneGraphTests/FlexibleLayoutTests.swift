import Foundation
import Testing
import SceneGraph

/// Flexible frames, `Spacer` and `layoutPriority`: SwiftUI's proposal model, with every
/// expected rectangle worked out from the rules in Layout.swift.
@Suite struct FlexibleLayoutTests {
    let canvas = CGSize(width: 200, height: 100)

    @Test func maxWidthInfinityFillsAndAligns() throws {
        // The frame takes the whole 200 offered; the 40 × 20 child sits at its trailing edge,
        // centred vertically in the 20-high frame (a fixed child's height: min/max unset).
        let badge = Rectangle().fill(.red).frame(width: 40, height: 20).frame(maxWidth: .infinity, alignment: .trailing)
        #expect(leafBounds(badge, canvas) == [CGRect(x: 160, y: 40, width: 40, height: 20)])
        let leading = Rectangle().fill(.red).frame(width: 40, height: 20).frame(maxWidth: .infinity, alignment: .leading)
        #expect(leafBounds(leading, canvas) == [CGRect(x: 0, y: 40, width: 40, height: 20)])
    }

    @Test func minAndMaxClampTheProposalForTheChild() throws {
        // A greedy child is offered the proposal clamped: 200 → max 120, so it is 120 wide,
        // centred: x = (200 − 120)/2 = 40. Height 100 → min 100 … unchanged.
        #expect(leafBounds(Color.red.frame(maxWidth: 120), canvas) == [CGRect(x: 40, y: 0, width: 120, height: 100)])
        // minWidth 300 over a 200 proposal: the child is offered 300 and the frame is 300 wide,
        // centred in 200: x = −50.
        #expect(leafBounds(Color.red.frame(minWidth: 300), canvas) == [CGRect(x: -50, y: 0, width: 300, height: 100)])
        // A small fixed child in minWidth 100: the frame is max(100, min(30, 200)) = 100 wide,
        // the child centred in it: frame at x 50, child at 50 + 35 = 85.
        #expect(leafBounds(Color.red.frame(width: 30, height: 30).frame(minWidth: 100), canvas)
                == [CGRect(x: 85, y: 35, width: 30, height: 30)])
    }

    @Test func idealSizeAnswersAnUnspecifiedProposal() throws {
        // fixedSize asks for the ideal: idealWidth 50 is offered to the greedy colour (50 wide);
        // the height is proposed normally (100).
        let view = Color.red.frame(idealWidth: 50).fixedSize(horizontal: true, vertical: false)
        #expect(leafBounds(view, canvas) == [CGRect(x: 75, y: 0, width: 50, height: 100)])
    }

    @Test func spacerPushesChildrenApartWithoutDefaultGaps() throws {
        // 200 wide: two 30-wide frames, and the spacer takes 200 − 60 = 140 (no 8-point gaps
        // beside a spacer with the default spacing).
        let row = HStack {
            Rectangle().fill(.red).frame(width: 30, height: 10)
            Spacer()
            Rectangle().fill(.blue).frame(width: 30, height: 10)
        }
        #expect(leafBounds(row, canvas) == [CGRect(x: 0, y: 45, width: 30, height: 10), CGRect(x: 170, y: 45, width: 30, height: 10)])
        // With explicit spacing 10 the gaps are kept: the spacer gets 200 − 60 − 20 = 120.
        let spaced = HStack(spacing: 10) {
            Rectangle().fill(.red).frame(width: 30, height: 10)
            Spacer()
            Rectangle().fill(.blue).frame(width: 30, height: 10)
        }
        #expect(leafBounds(spaced, canvas).map(\.minX) == [0, 170])
        // Asked its ideal size (fixedSize), a spacer is its minimum length: 30 + 8 + 30 = 68,
        // centred in 200: x = 66.
        #expect(leafBounds(row.fixedSize(), canvas).map(\.minX) == [66, 66 + 38])
    }

    @Test func spacerMinLengthAndVerticalStacks() throws {
        // Two greedy colours and a spacer of at least 40 in a 100-high VStack, no gaps beside
        // the spacer. All three are infinitely flexible, so they are served in written order:
        // red 100/3, the spacer max(40, (100 − 33.3)/2 = 33.3) = 40, blue 100 − 33.3 − 40.
        let column = VStack { Color.red; Spacer(minLength: 40); Color.blue }
        let bounds = leafBounds(column, canvas)
        #expect(abs(bounds[0].height - 100.0 / 3) < 1e-9)
        #expect(abs(bounds[1].minY - (100.0 / 3 + 40)) < 1e-9)
        #expect(abs(bounds[1].height - (100 - 100.0 / 3 - 40)) < 1e-9)
    }

    @Test func layoutPriorityServesFirst() throws {
        // Two greedy colours in 200: equal shares would be 96 each; with priority 1 the first
        // is offered 200 − 8 − 0 (the other's minimum) = 192 and takes it; the second gets 0.
        let row = HStack { Color.red.layoutPriority(1); Color.blue }
        #expect(leafBounds(row, canvas) == [CGRect(x: 0, y: 0, width: 192, height: 100), CGRect(x: 200, y: 0, width: 0, height: 100)])
        // The lower priority keeps what it needs at its smallest: a 50-wide frame keeps 50.
        let kept = HStack { Color.red.layoutPriority(1); Color.blue.frame(width: 50) }
        #expect(leafBounds(kept, canvas).map(\.width) == [142, 50])
    }

    @Test func idAndGeometryGroupDoNotChangeLayoutOrDrawing() throws {
        let plain = HStack { Circle().fill(.red); Capsule().fill(.blue) }
        let marked = HStack { Circle().fill(.red).id("dot"); Capsule().fill(.blue) }.geometryGroup()
        let renderer = Renderer()
        #expect(try renderer.displayList(for: plain, size: canvas) == renderer.displayList(for: marked, size: canvas))
        _ = try renderer.render(marked, size: canvas)
        #expect(renderer.lastStats.layers.isEmpty)
    }
}
