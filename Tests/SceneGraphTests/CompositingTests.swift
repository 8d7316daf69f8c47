import Foundation
import Testing
import SceneGraph
import PixelTesting

/// The three circles of SwiftUI's compositing-group example. At 200 × 120 points and scale 3
/// this is exactly SCENES.md's S1 (64 pt circles → r = 96 px, centres at (82, 100, 118) pt
/// → (246, 300, 354) px, y = 60 pt → 180 px), so its probe values apply.
struct Circles: View {
    var body: some View {
        ZStack {
            Circle().fill(.blue).frame(width: 64, height: 64).offset(x: -18)
            Circle().fill(.pink).frame(width: 64, height: 64)
            Circle().fill(.orange).frame(width: 64, height: 64).offset(x: 18)
        }
    }
}

@Suite struct CompositingTests {
    let size = CGSize(width: 200, height: 120)

    /// The opaque device pixel (x, y) of `s` is (r, g, b) within 1 (PixelTesting's probe, which
    /// reports both values and the difference at the caller's line).
    func expect(_ s: Surface, _ x: Int, _ y: Int, _ r: Int, _ g: Int, _ b: Int,
                fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column) {
        let colour = Color(rgb: UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b))
        expectPixel(in: s, at: CGPoint(x: x, y: y), equals: colour, tolerance: 1,
                    fileID: fileID, filePath: filePath, line: line, column: column)
    }

    @Test func perLeafOpacityMixesAllThreeColours() throws {
        // .opacity(0.25) on the ZStack distributes to each circle (0.25·255 = 63.75 → 64, S1a's
        // A8): blue only (191, 221, 255); inside all three (219, 170, 159). No layer.
        let renderer = Renderer()
        let s = try renderer.render(Circles().opacity(0.25), size: size, scale: 3)
        expect(s, 186, 180, 191, 221, 255) // blue only
        expect(s, 260, 180, 219, 170, 159) // all three
        expect(s, 300, 180, 219, 170, 159) // all three
        #expect(renderer.lastLayers.isEmpty)
    }

    @Test func groupOpacityShowsOrangeAloneInTheOverlap() throws {
        // .compositingGroup().opacity(0.25): the opaque circles composite first (orange covers
        // the others), then the layer at 0.25: S1b's (255, 228, 191); blue only (191, 222, 255).
        let renderer = Renderer()
        let s = try renderer.render(Circles().compositingGroup().opacity(0.25), size: size, scale: 3)
        expect(s, 186, 180, 191, 222, 255) // blue only
        expect(s, 260, 180, 255, 228, 191) // all three
        expect(s, 300, 180, 255, 228, 191) // all three
        // One layer at the circles' ink bounds plus 2 px: the three circles span x (82 − 32)·3 =
        // 150 … (118 + 32)·3 = 450 and y (60 − 32)·3 = 84 … 276, so [148, 82, 304, 196]:
        // 304·196·4 = 238,336 bytes, not the canvas.
        #expect(renderer.lastLayers == [PixelRect(x: 148, y: 82, width: 304, height: 196)])
    }

    @Test func opacityInsideTheGroupStillDistributes() throws {
        // .opacity(0.25).compositingGroup(): the opacity is written inside the boundary, so it
        // still reaches each leaf: the per-leaf result, through one layer.
        let renderer = Renderer()
        let s = try renderer.render(Circles().opacity(0.25).compositingGroup(), size: size, scale: 3)
        expect(s, 260, 180, 219, 170, 159) // all three
        #expect(renderer.lastLayers.count == 1)
    }

    @Test func displayListShowsLeavesAndBoundaries() throws {
        let list = try Renderer().displayList(for: Circles().compositingGroup().opacity(0.25), size: size, scale: 3)
        guard let group = list.items.first?.group else {
            Issue.record("expected a group, got \(list)")
            return
        }
        #expect(list.items.count == 1 && group.composite.opacity == 0.25 && group.children.count == 3)
        if let leaf = group.children[0].leaf {
            #expect(leaf.fill == .color(.blue))
            let b = leaf.path.boundingRect
            #expect(abs(b.minX - 150) < 1e-9 && abs(b.width - 192) < 1e-9 && abs(b.minY - 84) < 1e-9)
        }
        #expect(list.description.hasPrefix("compositingGroup opacity 0.250\n  fill #007AFF nonZero bounds [150.0, 84.0, 192.0, 192.0]"))
    }

    @Test func buildersHandleConditionsAndLoops() throws {
        struct Rows: View {
            var count: Int
            var highlighted: Bool
            var body: some View {
                ZStack(alignment: .topLeading) {
                    for i in 0..<count {
                        Rectangle().fill(.gray).frame(width: 10, height: 10).offset(x: CGFloat(i) * 20)
                    }
                    if highlighted {
                        Circle().fill(.red).frame(width: 4, height: 4)
                    } else {
                        EmptyView()
                    }
                }
            }
        }
        let list = try Renderer().displayList(for: Rows(count: 3, highlighted: true), size: CGSize(width: 100, height: 40))
        #expect(list.items.count == 4)
        #expect(try Renderer().displayList(for: Rows(count: 2, highlighted: false), size: CGSize(width: 100, height: 40)).items.count == 2)
    }

    @Test func layoutCentresTheChosenSizeAndFramesAlign() throws {
        // A 40 × 20 frame in a 100 × 100 canvas sits at (30, 40); a shape proposed 40 × 20 fills it.
        let list = try Renderer().displayList(for: Rectangle().fill(.green).frame(width: 40, height: 20),
                                          size: CGSize(width: 100, height: 100))
        if let path = list.items.first?.leaf?.path {
            #expect(path.boundingRect == CGRect(x: 30, y: 40, width: 40, height: 20))
        } else { Issue.record("\(list)") }
        // Colour views fill what they are given; a circle takes min(w, h), centred.
        let circle = try Renderer().displayList(for: Circle().fill(.blue), size: CGSize(width: 100, height: 60))
        if let path = circle.items.first?.leaf?.path {
            #expect(path.boundingRect == CGRect(x: 20, y: 0, width: 60, height: 60))
        } else { Issue.record("\(circle)") }
    }
}

@Suite struct RenderCanvasTests {
    /// Sizes and scales that cannot make a surface are errors naming the canvas, never traps
    /// (a NaN or 1e300 converted to Int would trap).
    @Test(arguments: [
        (CGSize(width: Double.nan, height: 10), 1.0), (CGSize(width: 10, height: -1), 1.0),
        (CGSize(width: 10, height: 10), 0.0), (CGSize(width: 10, height: 10), -2.0),
        (CGSize(width: 10, height: 10), Double.infinity),
    ])
    func invalidCanvasesAreErrors(size: CGSize, scale: Double) {
        // Matched by description: a NaN in the payload never equals itself.
        let error = #expect(throws: RenderError.self) {
            try Renderer().render(Color.red, size: size, scale: scale)
        }
        #expect(error?.description == RenderError.invalidCanvas(size: size, scale: scale).description)
        #expect(error?.description.contains("at scale \(scale)") == true)
    }

    @Test func hugeAndEmptyCanvasesAreSurfaceErrors() throws {
        #expect(throws: SurfaceError.tooLarge(width: 1_000_000_000_000_000, height: 10)) {
            try Renderer().render(Color.red, size: CGSize(width: 1e300, height: 10))
        }
        #expect(throws: SurfaceError.tooLarge(width: 40000, height: 20)) {
            try Renderer().render(Color.red, size: CGSize(width: 20000, height: 10), scale: 2)
        }
        #expect(throws: SurfaceError.invalidSize(width: 0, height: 10)) {
            try Renderer().render(Color.red, size: CGSize(width: 0, height: 10))
        }
    }
}
