import Foundation
import SceneGraph
import Testing
import _TestSupport

/// Colour effects: a colour matrix on un-premultiplied sRGB-encoded colour, per leaf unless a
/// boundary comes first.
@Suite struct ColorEffectTests {
    func pixel<V: View>(_ view: V, background: Color? = .white) throws -> RGBA8 {
        try Renderer().render(view, size: CGSize(width: 10, height: 10), background: background).pixel(x: 5, y: 5)
    }

    @Test func eachEffectFollowsItsFormula() throws {
        // Red is (255, 59, 48) = (1, 0.2314, 0.1882).
        // grayscale(1): Rec. 709 luminance 0.2126 + 0.7152 · 0.2314 + 0.0722 · 0.1882 = 0.3917 → 99.9.
        #expect(isNear(try pixel(Color.red.grayscale(1)), 100, 100, 100))
        // colorInvert: 255 − (255, 59, 48).
        #expect(try pixel(Color.red.colorInvert()) == RGBA8(0, 196, 207, 255))
        // brightness(0.2) on 50 % grey: 0.5 + 0.2 = 0.7 → 178.5.
        #expect(isNear(try pixel(Color(white: 0.5).brightness(0.2)), 178, 178, 178))
        // contrast(0): everything mid-grey, 127.5.
        #expect(isNear(try pixel(Color.red.contrast(0)), 128, 128, 128))
        // colorMultiply(blue) on white: blue (0, 122, 255).
        #expect(try pixel(Color.white.colorMultiply(.blue)) == RGBA8(0, 0x7A, 0xFF, 255))
        // Identities: saturation(1), hueRotation(0°); a half turn of hue keeps luminance.
        #expect(try pixel(Color.red.saturation(1)) == RGBA8(255, 59, 48, 255))
        #expect(try pixel(Color.red.hueRotation(.zero)) == RGBA8(255, 59, 48, 255))
        // Gradients: every stop goes through the effect.
        let ramp = Rectangle().fill(LinearGradient(colors: [.red, .red], startPoint: .leading, endPoint: .trailing)).colorInvert()
        #expect(try pixel(ramp) == RGBA8(0, 196, 207, 255))
    }

    /// Per leaf, a blend inside sees the leaves' inverted colours; after a compositing group,
    /// the blended result is inverted once.
    @Test func aBoundaryAppliesTheEffectOnceToItsResult() throws {
        let pair = ZStack { Color.red; Color.blue.blendMode(.multiply) }
        // Per leaf: red → (0, 196, 207), blue (0, 122, 255) → (255, 133, 0); multiplied:
        // (0, 196 · 133 / 255 = 102.2, 0).
        #expect(isNear(try pixel(pair.colorInvert()), 0, 102, 0, within: 2))
        // Once: red × blue = (0, 59 · 122 / 255 = 28.2, 48), inverted (255, 227, 207).
        #expect(isNear(try pixel(pair.compositingGroup().colorInvert()), 255, 227, 207, within: 2))
    }

    /// A shadow written inside a colour effect is coloured by it; one written outside is not.
    @Test func shadowsInsideAreAffectedOutsideNot() throws {
        let square = Color.gray.frame(width: 4, height: 4)
        func shadowPixel<V: View>(_ v: V) throws -> RGBA8 {
            try Renderer().render(v, size: CGSize(width: 10, height: 10), background: .gray).pixel(x: 7, y: 5)
        }
        // Offset 3 to the right, σ 0: the shadow covers x 6…9.
        #expect(try shadowPixel(square.shadow(color: .black, radius: 0, x: 3).colorInvert()) == RGBA8(255, 255, 255, 255))
        #expect(try shadowPixel(square.colorInvert().shadow(color: .black, radius: 0, x: 3)) == RGBA8(0, 0, 0, 255))
    }
}
