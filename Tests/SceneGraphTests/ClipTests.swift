import Foundation
import Testing
import SceneGraph

@Suite struct ClipTests {
    let size = CGSize(width: 40, height: 40)

    @Test func perLeafClipsShowTheFringeAndGroupsDoNot() throws {
        // Red under blue, clipped to a circle. Per leaf, each layer gets the edge pixel's clip
        // coverage c: green = (255(1 − c) + 59c)(1 − c) + 122c (red shows through). Clipped once
        // after compositingGroup(): green = 255(1 − c) + 122c (blue over white only).
        let layered = ZStack { Color.red; Color.blue }
        let perLeaf = try Renderer().render(layered.clipShape(Circle()), size: size)
        let grouped = try Renderer().render(layered.compositingGroup().clipShape(Circle()), size: size)
        var checked = 0
        for y in 0..<40 {
            for x in 0..<40 {
                let g = grouped.pixel(x: x, y: y)
                let c = (255 - Double(g.g)) / 133
                guard c > 0.2, c < 0.8 else { continue }
                let expected = (255 * (1 - c) + 59 * c) * (1 - c) + 122 * c
                let p = perLeaf.pixel(x: x, y: y)
                #expect(abs(Double(p.g) - expected) <= 2.5, "(\(x), \(y)): c \(c), \(p) vs \(expected)")
                #expect(Double(p.g) < Double(g.g) - 10 * c * (1 - c), "(\(x), \(y)): no fringe")
                checked += 1
            }
        }
        #expect(checked >= 8)
        // Inside, blue; outside, the white page; no layer without a group.
        #expect(perLeaf.pixel(x: 20, y: 20) == RGBA8(0, 0x7A, 0xFF, 255))
        #expect(perLeaf.pixel(x: 1, y: 1) == RGBA8(255, 255, 255, 255))
    }

    @Test func clippedCutsAtTheFrame() throws {
        // A 20 × 20 frame at (10, 10) whose red content is offset 15 to the right: clipped to the
        // frame, only x 25…30 stays red.
        let view = Color.red.frame(width: 20, height: 20).offset(x: 15).frame(width: 20, height: 20).clipped()
        let s = try Renderer().render(view, size: size)
        #expect(s.pixel(x: 27, y: 20) == RGBA8(0xFF, 0x3B, 0x30, 255))
        #expect(s.pixel(x: 32, y: 20) == RGBA8(255, 255, 255, 255))
        #expect(s.pixel(x: 20, y: 20) == RGBA8(255, 255, 255, 255))
    }
}
