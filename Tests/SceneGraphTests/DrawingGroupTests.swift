import Foundation
import Testing
import SceneGraph

@Suite struct DrawingGroupTests {
    let size = CGSize(width: 20, height: 20)

    /// White at 50 % over black, inside a drawing group of `mode`.
    func halfWhiteOverBlack(_ mode: ColorRenderingMode) throws -> RGBA8 {
        let view = ZStack { Color.black; Color.white.opacity(0.5) }.drawingGroup(colorMode: mode)
        return try Renderer().render(view, size: size).pixel(x: 10, y: 10)
    }

    @Test func linearGroupsBlendInLinearLight() throws {
        // Linear: 0.5 of white in linear light, encoded on the way out: encode(0.5) = 0.7354
        // → 187.5 → 188 (0xBC). Non-linear: the encoded values blend: 127.5 → 128.
        #expect(try halfWhiteOverBlack(.linear) == RGBA8(188, 188, 188, 255))
        #expect(try halfWhiteOverBlack(.nonLinear) == RGBA8(128, 128, 128, 255))
    }

    /// Two overlapping white squares at 0.75, the second plus-lighter, in a group of `mode`,
    /// then opacity 0.5, over black.
    func plusLighterPair(_ mode: ColorRenderingMode) throws -> RGBA8 {
        let view = ZStack {
            Color.black
            ZStack {
                Color.white.opacity(0.75).frame(width: 12, height: 12).offset(x: -3)
                Color.white.opacity(0.75).frame(width: 12, height: 12).offset(x: 3).blendMode(.plusLighter)
            }
            .drawingGroup(colorMode: mode)
            .opacity(0.5)
        }
        return try Renderer().render(view, size: size).pixel(x: 10, y: 10)
    }

    @Test func extendedLinearKeepsValuesAboveOne() throws {
        // In the overlap the group holds 0.75 + 0.75 = 1.5 (linear, alpha clamped to 1). Leaving
        // it, encode(1.5) = 1.1942 survives until the opacity: 0.5 × 1.1942 = 0.597 → 152.
        // A linear (8-bit) group clamps the sum to 1 first: 0.5 × 1 → 127.5 → 128.
        #expect(try plusLighterPair(.extendedLinear) == RGBA8(152, 152, 152, 255))
        #expect(try plusLighterPair(.linear) == RGBA8(128, 128, 128, 255))
    }

    /// A default group draws its content into its own image, which is composited once more:
    /// the same picture as no group, up to the rounding of that one extra 8-bit composite
    /// (premultiplied source-over rounds each channel to the nearest of 255 steps), so within 1.
    @Test func defaultDrawingGroupMatchesNoGroupWithinOneUnit() throws {
        let view = ZStack {
            Circle().fill(.blue).frame(width: 64, height: 64).offset(x: -18)
            Circle().fill(.pink).frame(width: 64, height: 64)
            Circle().fill(.orange).frame(width: 64, height: 64).offset(x: 18)
        }.opacity(0.25)
        // Framed to hold the offset circles' ink: a drawing group clips to its frame.
        .frame(width: 100, height: 64)
        let size = CGSize(width: 200, height: 120)
        let plain = try Renderer().render(view, size: size, scale: 3)
        let grouped = try Renderer().render(view.drawingGroup(), size: size, scale: 3)
        let result = try grouped.compare(to: plain)
        #expect(result.maxChannelDifference <= 1, "\(result)")
    }

    @Test func opaqueGroupsStartBlackAcrossTheirFrame() throws {
        // A 10 × 10 frame in 20 × 20 whose content covers only its left half: the right half of
        // the frame comes out black, outside the frame the white background stays.
        let view = Color.red.frame(width: 5, height: 10).frame(width: 10, height: 10, alignment: .leading)
            .drawingGroup(opaque: true)
        let renderer = Renderer()
        let s = try renderer.render(view, size: size)
        #expect(s.pixel(x: 7, y: 10) == RGBA8(0xFF, 0x3B, 0x30, 255))
        #expect(s.pixel(x: 12, y: 10) == RGBA8(0, 0, 0, 255))
        #expect(s.pixel(x: 2, y: 2) == RGBA8(255, 255, 255, 255))
        #expect(renderer.lastLayers == [PixelRect(x: 5, y: 5, width: 10, height: 10)])
    }
}
