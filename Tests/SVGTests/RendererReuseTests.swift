import Foundation
import Testing
import Compositor
import SceneGraph
@testable import SVG

/// One renderer drawing many documents (what `compose render --output-dir` and every
/// long-lived user does) draws each exactly as a fresh renderer would.
struct RendererReuseTests {
    /// The suite's mix-blend-mode tests' shape: a gradient drawn with a blend mode over a rect.
    func blended(_ mode: String) -> String {
        svg("""
        <linearGradient id='g'><stop offset='0' stop-color='white' stop-opacity='0'/><stop offset='1' stop-color='yellow'/></linearGradient>
        <rect x='2' y='2' width='14' height='14' fill='green'/>
        <rect x='4' y='4' width='14' height='14' fill='url(#g)' style='mix-blend-mode:\(mode)'/>
        """)
    }

    @Test func blendModesAfterOtherBlendModes() throws {
        let modes = ["color", "overlay", "hue", "multiply", "saturation", "darken", "luminosity", "exclusion", "normal", "screen"]
        let shared = Renderer()
        for first in modes {
            for second in modes {
                for mode in [first, second] {
                    let doc = try document(blended(mode))
                    let reused = try shared.render(Image(drawing: doc).resizable(), size: doc.size, background: nil)
                    let fresh = try render(blended(mode))
                    #expect(try reused.compare(to: fresh).differingPixels == 0, "\(mode) after \(first)")
                }
            }
        }
    }
}
