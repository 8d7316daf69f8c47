import Foundation
import Testing
import Compositor
@testable import SVG

/// Which properties an element's attributes may set, and which only CSS may.
@Suite struct CascadeTests {
    /// A red square under a blue one blended by `blend` (written as given): the overlap's
    /// colour at pixel (10, 10).
    func overlap(_ blend: String) throws -> RGBA8 {
        let s = try render(svg("""
            <rect width='15' height='15' fill='#f00'/>
            <rect x='5' y='5' width='15' height='15' fill='#00f' \(blend)/>
            """))
        return s.pixel(x: 10, y: 10)
    }

    /// `mix-blend-mode` (and `isolation`) are CSS properties without presentation attributes
    /// (CSS Compositing; SVG 2's list has neither): written as an attribute the blend is
    /// ignored, and blue lies over red; in `style` or a style sheet, multiply makes the
    /// overlap black (1, 0, 0) × (0, 0, 1).
    @Test func mixBlendModeIsSetOnlyByCSS() throws {
        #expect(try overlap("mix-blend-mode='multiply'") == RGBA8(0, 0, 255, 255))
        #expect(try overlap("style='mix-blend-mode: multiply'") == RGBA8(0, 0, 0, 255))
        let sheet = try render(svg("""
            <style>.m { mix-blend-mode: multiply }</style>
            <rect width='15' height='15' fill='#f00'/>
            <rect class='m' x='5' y='5' width='15' height='15' fill='#00f'/>
            """))
        #expect(sheet.pixel(x: 10, y: 10) == RGBA8(0, 0, 0, 255))
        let tree = try XMLTree(data: Data(svg("<g isolation='isolate' style='opacity: 0.5'/>").utf8), path: "test.svg")
        let g = try #require(tree.elements.firstIndex { $0.name == "g" })
        #expect(Cascade(tree).specified[g]["isolation"] == nil)
        #expect(Cascade(tree).specified[g]["opacity"] == "0.5")
    }
}
