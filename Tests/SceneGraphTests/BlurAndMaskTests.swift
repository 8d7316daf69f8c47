import Foundation
import PixelTesting
import SceneGraph
import Testing

/// `blur(radius:opaque:)` and `mask(alignment:_:)`: boundaries that always isolate their content.
@Suite struct BlurAndMaskTests {
    @Test func blurIsAGaussianOfTheRadius() throws {
        // A black 40 × 40 square blurred with radius 4 (σ = 4 px at scale 1), centred in 80 × 60:
        // it spans x 20…60. Across its right edge at 60 the pixel centred at 60 + d + 0.5 is
        // Φ(−(d + 0.5)/4) black (premultiplied blur: colour spreads with coverage).
        let view = Color.black.frame(width: 40, height: 40).blur(radius: 4)
        let renderer = Renderer()
        let s = try renderer.render(view, size: CGSize(width: 80, height: 60))
        func phi(_ z: Double) -> Double { 0.5 * erfc(-z / 2.squareRoot()) }
        for d in [-6, -2, -1, 0, 1, 3, 6] {
            let black = 1 - Double(s.pixel(x: 60 + d, y: 30).r) / 255
            #expect(abs(black - phi(-(Double(d) + 0.5) / 4)) < 0.03, "d \(d): \(black)")
        }
        // One blur layer: the ink (20…60 × 10…50) spread by 3σ = 12 plus the 2 px margin, so
        // 6…74 × −4…64: past the canvas' top and bottom, since what lies within the blur's reach
        // outside the canvas still bleeds in.
        #expect(renderer.lastStats.layers.map(\.kind) == [.blur])
        #expect(renderer.lastStats.layers[0].bounds == [6, -4, 68, 68])
    }

    @Test func blurIsolatesItsContent() throws {
        // Two overlapping translucent squares blurred: one layer (the content composited first),
        // not one blur per leaf; the blend mode inside sees only the layer.
        let view = ZStack {
            Color.red.opacity(0.5).frame(width: 30, height: 30).offset(x: -8)
            Color.blue.opacity(0.5).frame(width: 30, height: 30).offset(x: 8).blendMode(.multiply)
        }.blur(radius: 2)
        let renderer = Renderer()
        _ = try renderer.render(view, size: CGSize(width: 80, height: 60))
        #expect(renderer.lastStats.layers.count == 1 && renderer.lastStats.leafDraws == 2)
    }

    @Test func anOpaqueBlurDoesNotFadeAtItsEdges() throws {
        // Red at the frame's edge stays red when opaque; a non-opaque blur fades it halfway.
        let view = { (opaque: Bool) in Color.red.frame(width: 40, height: 40).blur(radius: 4, opaque: opaque) }
        let opaque = try Renderer().render(view(true), size: CGSize(width: 60, height: 60))
        let faded = try Renderer().render(view(false), size: CGSize(width: 60, height: 60))
        #expect(opaque.pixel(x: 10, y: 30) == RGBA8(0xFF, 0x3B, 0x30, 255))
        #expect(opaque.pixel(x: 8, y: 30) == RGBA8(255, 255, 255, 255))
        #expect(faded.pixel(x: 10, y: 30).g > 120)
    }

    @Test func maskKeepsTheContentWhereTheMaskHasAlpha() throws {
        // A red square masked by a circle of the same frame: red in the middle, white in the
        // corners (outside the circle), and a 50 % mask colour's alpha halves the red:
        // 255 - 0.5 × (255 - (255, 59, 48)) = (255, 157, 151.5).
        let renderer = Renderer()
        let circle = try renderer.render(Color.red.frame(width: 40, height: 40).mask { Circle() }, size: CGSize(width: 40, height: 40))
        #expect(circle.pixel(x: 20, y: 20) == RGBA8(0xFF, 0x3B, 0x30, 255))
        #expect(circle.pixel(x: 1, y: 1) == RGBA8(255, 255, 255, 255))
        #expect(renderer.lastStats.layers.map(\.kind) == [.mask, .mask])
        let half = try Renderer().render(Color.red.mask { Color.blue.opacity(0.5) }, size: CGSize(width: 10, height: 10))
        let p = half.pixel(x: 5, y: 5)
        #expect(p.r == 255 && abs(Int(p.g) - 157) <= 1 && abs(Int(p.b) - 152) <= 1)
        // Aligned: a 10 × 10 mask at the top leading corner of a 40 × 40 view.
        let aligned = try Renderer().render(Color.red.frame(width: 40, height: 40)
            .mask(alignment: .topLeading) { Color.black.frame(width: 10, height: 10) }, size: CGSize(width: 40, height: 40))
        #expect(aligned.pixel(x: 5, y: 5) == RGBA8(0xFF, 0x3B, 0x30, 255) && aligned.pixel(x: 15, y: 5) == RGBA8(255, 255, 255, 255))
    }

    @Test func maskIsolatesItsContent() throws {
        // destinationOut inside a mask erases only the mask's own content, not the page behind.
        let view = ZStack {
            Color.yellow
            ZStack {
                Color.indigo
                Circle().frame(width: 20, height: 20).blendMode(.destinationOut)
            }
            .mask { Rectangle() }
        }
        let s = try Renderer().render(view, size: CGSize(width: 40, height: 40))
        #expect(s.pixel(x: 20, y: 20) == RGBA8(0xFF, 0xCC, 0x00, 255))
        #expect(s.pixel(x: 2, y: 2) == RGBA8(0x58, 0x56, 0xD6, 255))
    }
}
