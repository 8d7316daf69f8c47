import Foundation
import Testing
@testable import Compositor
import ReferenceScenes

/// The reference scenes of shared/bench/SCENES.md, drawn with Compositor calls, against the
/// probe values given there (which every peer engine agrees on within ±1).
@Suite struct ReferenceSceneTests {
    func render(_ scene: ReferenceScene) throws -> Surface {
        let r = try ReferenceRenderer(width: scene.width, height: scene.height)
        try r.render(scene)
        return r.surface
    }

    func expect(_ p: RGBA8, _ r: Int, _ g: Int, _ b: Int, tolerance: Int = 1, _ where_: String) {
        #expect(abs(Int(p.r) - r) <= tolerance && abs(Int(p.g) - g) <= tolerance && abs(Int(p.b) - b) <= tolerance && p.a == 255,
                "\(where_): \(p), expected (\(r), \(g), \(b))")
    }

    @Test func s1aPerLeafOpacityMixesAllThreeColours() throws {
        let s = try render(.s1(group: false))
        // Blue only: 255 − 64·(255 − c)/255 → (191, 221.6, 255); peers give (191, 221, 255).
        expect(s.pixel(x: 186, y: 180), 191, 221, 255, "(186, 180)")
        // All three, each at A8 = 64 over the previous result: (219, 170, 159).
        expect(s.pixel(x: 260, y: 180), 219, 170, 159, "(260, 180)")
        expect(s.pixel(x: 300, y: 180), 219, 170, 159, "(300, 180)")
    }

    @Test func s1bGroupOpacityShowsOrangeAloneInTheOverlap() throws {
        let s = try render(.s1(group: true))
        expect(s.pixel(x: 186, y: 180), 191, 222, 255, "(186, 180)")
        // Opaque orange covers pink and blue inside the group; the group at 64/255 over white:
        // (255, 255 − 64·(255 − 149)/255, 255 − 64) = (255, 228, 191).
        expect(s.pixel(x: 260, y: 180), 255, 228, 191, "(260, 180)")
        expect(s.pixel(x: 300, y: 180), 255, 228, 191, "(300, 180)")
    }

    @Test func s3CheckValuesMatchTheSpecification() {
        // SCENES.md: the first shape is a circle at (490.232162330, 446.285790384),
        // r = 36.237553809, rgb 0x0CF06D, a8 126; the second a rounded rect at
        // (1487.544887960, 600.683656214) of size 17.847242400 × 87.595556457, rgb 0x401D90, a8 137.
        var lcg = SceneLCG()
        let x = lcg.u() * 1920, y = lcg.u() * 1080, w = 16 + lcg.u() * 112, h = 16 + lcg.u() * 112
        let rgb = lcg.next() >> 8, a8 = 51 + (((lcg.next() >> 24) * 205) >> 8)
        #expect(abs(x + w / 2 - 490.232162330) < 1e-8 && abs(y + h / 2 - 446.285790384) < 1e-8)
        #expect(abs(min(w, h) / 2 - 36.237553809) < 1e-8)
        #expect(rgb == 0x0CF06D && a8 == 126)
        let x2 = lcg.u() * 1920, y2 = lcg.u() * 1080, w2 = 16 + lcg.u() * 112, h2 = 16 + lcg.u() * 112
        let rgb2 = lcg.next() >> 8, a82 = 51 + (((lcg.next() >> 24) * 205) >> 8)
        #expect(abs(x2 - 1487.544887960) < 1e-8 && abs(y2 - 600.683656214) < 1e-8)
        #expect(abs(w2 - 17.847242400) < 1e-8 && abs(h2 - 87.595556457) < 1e-8)
        #expect(rgb2 == 0x401D90 && a82 == 137)
    }

    @Test func s3FirstShapeIsDrawnWhereSpecified() throws {
        // The first shape alone over white: its colour at 126/255, 255 − 126·(255 − c)/255 per
        // channel: 0x0C → 134.9, 0xF0 → 247.6, 0x6D → 182.9. (Later shapes may cover the
        // point in the full scene, so it is drawn on its own.)
        let scene = ReferenceScene.s3(count: 1000)
        let s = try render(ReferenceScene(name: "first", width: 1920, height: 1080, ops: Array(scene.ops.prefix(1))))
        expect(s.pixel(x: 490, y: 446), 135, 248, 183, "first circle centre")
        // Its edge: r = 36.24 from (490.23, 446.29); a pixel 40 px right of the centre is white.
        expect(s.pixel(x: 530, y: 446), 255, 255, 255, "outside the first circle")
        let full = try render(scene)
        #expect(full.width == 1920 && full.height == 1080)
    }

    @Test func s2NoShadowCapsulesAndDisc() throws {
        let s = try render(.s2NoShadow())
        // Capsule 0 stands upright at x 267…273, y 39…81, mint (0, 199, 190) at 230/255 over
        // white: 255 − 230·(255 − c)/255 → (25, 204.5, 196.4).
        expect(s.pixel(x: 270, y: 60), 25, 204, 196, "capsule 0")
        // Capsule 1 (5°, alpha 89) is to the right of capsule 0: 255 − 89·(255 − c)/255
        // → (166, 235.5, 232.3); its centre is C + 210·(sin 5°, −cos 5°) = (288.3, 60.8).
        expect(s.pixel(x: 288, y: 60), 166, 235, 232, tolerance: 2, "capsule 1")
        // The disc's centre row is halfway down the #333333 → #000000 gradient: 25.5.
        expect(s.pixel(x: 270, y: 270), 25, 25, 25, "disc centre")
        // Between capsules and disc: white.
        expect(s.pixel(x: 270, y: 95), 255, 255, 255, "gap")
    }
}
