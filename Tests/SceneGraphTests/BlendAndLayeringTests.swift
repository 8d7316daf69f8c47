import Foundation
import Testing
import SceneGraph

@Suite struct BlendAndLayeringTests {
    /// An orange square with a black circle punched out of its middle by destinationOut.
    struct PunchOut: View {
        var body: some View {
            ZStack {
                Rectangle().fill(.orange).frame(width: 80, height: 80)
                Circle().fill(.black).frame(width: 40, height: 40).blendMode(.destinationOut)
            }
        }
    }

    @Test func destinationOutErasesTheBackdropUnlessGrouped() throws {
        let size = CGSize(width: 100, height: 100)
        // Without a group the circle erases everything drawn before it, the white canvas
        // included: the centre becomes transparent.
        let bare = try Renderer().render(PunchOut(), size: size)
        #expect(bare.pixel(x: 50, y: 50).a == 0)
        #expect(bare.pixel(x: 15, y: 50) == RGBA8(0xFF, 0x95, 0x00, 255))   // orange, left of the hole
        // Inside compositingGroup() it erases only the group's own content: the white shows
        // through the hole.
        let grouped = try Renderer().render(PunchOut().compositingGroup(), size: size)
        #expect(grouped.pixel(x: 50, y: 50) == RGBA8(255, 255, 255, 255))
        #expect(grouped.pixel(x: 15, y: 50) == RGBA8(0xFF, 0x95, 0x00, 255))
    }

    @Test func blendModeDistributesAndTheInnermostWins() throws {
        let view = ZStack {
            Color.red
            Color.blue.blendMode(.screen)
        }.blendMode(.multiply)
        let items = try Renderer().displayList(for: view, size: CGSize(width: 10, height: 10)).items
        let modes = items.compactMap { $0.leaf?.blendMode }
        #expect(modes == [.multiply, .screen])
        // After a compositing group the mode applies once, to the group.
        let grouped = try Renderer().displayList(for: ZStack { Color.red; Color.blue }.compositingGroup().blendMode(.multiply),
                                             size: CGSize(width: 10, height: 10))
        if let group = grouped.items.first?.group {
            let (mode, children) = (group.composite.blendMode, group.children)
            #expect(mode == .multiply)
            #expect(children.allSatisfy { $0.leaf?.blendMode == .normal })
        } else { Issue.record("\(grouped)") }
    }

    @Test func multiplyOverABackdropMatchesTheFormula() throws {
        // Multiply over white leaves the colour; over the red (255, 59, 48) square a blue
        // (0, 122, 255) circle gives (0, 59·122/255, 48) = (0, 28.2, 48).
        let view = ZStack {
            Color.red.frame(width: 40, height: 40)
            Circle().fill(.blue).frame(width: 20, height: 20).blendMode(.multiply)
        }
        let s = try Renderer().render(view, size: CGSize(width: 40, height: 40))
        let p = s.pixel(x: 20, y: 20)
        #expect(p.r == 0 && abs(Int(p.g) - 28) <= 1 && abs(Int(p.b) - 48) <= 1, "\(p)")
    }

    @Test func backgroundAndOverlayUseTheViewsFrame() throws {
        // A 40 × 40 red frame centred in 100 × 100 at (30, 30); the blue background fills the same
        // frame behind it; the 10 × 10 overlay sits at its top-leading corner, in front.
        let view = Color.red.frame(width: 40, height: 40)
            .background(Color.blue)
            .overlay(alignment: .topLeading) { Color.white.frame(width: 10, height: 10) }
        let items = try Renderer().displayList(for: view, size: CGSize(width: 100, height: 100)).items
        let fills = items.compactMap { item -> (ShapeFill, CGRect)? in
            item.leaf.map { ($0.fill, $0.path.boundingRect) }
        }
        #expect(fills.map(\.0) == [.color(.blue), .color(.red), .color(.white)])
        #expect(fills.map(\.1) == [CGRect(x: 30, y: 30, width: 40, height: 40), CGRect(x: 30, y: 30, width: 40, height: 40),
                                   CGRect(x: 30, y: 30, width: 10, height: 10)])
    }
}
