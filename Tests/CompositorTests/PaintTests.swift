import Foundation
import Testing
import _TestSupport
@testable import Compositor

@Suite struct PaintTests {
    func draw(_ paint: Paint, size: Int = 100, format: PixelFormat = .argb32) throws -> Surface {
        let s = try Surface(width: size, height: size, format: format)
        try Canvas(s).fill(Path(CGRect(x: 0, y: 0, width: size, height: size)), with: paint)
        return s
    }

    @Test func linearGradientSamplesPixelCentres() throws {
        // Black → white from x = 0 to x = 100: pixel 49's centre is x = 49.5, t = 0.495,
        // 0.495·255 = 126.2 → 126 (±1 for pixman's fixed-point walker). Padded beyond the ends.
        let s = try draw(.linearGradient(Gradient(colors: [.black, .white]), start: .zero, end: CGPoint(x: 100, y: 0)))
        #expect(abs(Int(s.pixel(x: 49, y: 10).r) - 126) <= 1)
        #expect(s.pixel(x: 0, y: 0).r <= 2 && s.pixel(x: 99, y: 0).r >= 253)
        let padded = try draw(.linearGradient(Gradient(colors: [.black, .white]), start: CGPoint(x: 40, y: 0), end: CGPoint(x: 60, y: 0)))
        #expect(padded.pixel(x: 5, y: 5).r == 0 && padded.pixel(x: 95, y: 5).r == 255)
    }

    @Test func gradientsInterpolateUnpremultipliedColour() throws {
        // Probe of pixman 0.42: stops are interpolated un-premultiplied, then premultiplied.
        // Opaque red → transparent blue, halfway: colour (½, 0, ½) at alpha ½, which reads
        // back as (128, 0, 128, 128) (premultiplied interpolation would give pure red).
        let g = Gradient(stops: [.init(color: .init(red: 1, green: 0, blue: 0), location: 0),
                                 .init(color: .init(red: 0, green: 0, blue: 1, opacity: 0), location: 1)])
        let s = try draw(.linearGradient(g, start: CGPoint(x: 0.5, y: 0), end: CGPoint(x: 98.5, y: 0)))
        let p = s.pixel(x: 49, y: 0)
        #expect(abs(Int(p.a) - 128) <= 1 && abs(Int(p.r) - 128) <= 2 && abs(Int(p.b) - 128) <= 2 && p.g == 0, "\(p)")
    }

    @Test func radialGradientRunsFromCentreOutwards() throws {
        let s = try draw(.radialGradient(Gradient(colors: [.white, .black]), center: CGPoint(x: 50, y: 50),
                                         startRadius: 0, endRadius: 40))
        #expect(s.pixel(x: 50, y: 50).r >= 250)
        // Pixel (70, 49)'s centre (70.5, 49.5) is √(20.5² + 0.5²) = 20.506 px out: t = 0.5127,
        // 255·(1 − 0.5127) = 124.3 → 124 (±1 for pixman's fixed point).
        #expect(abs(Int(s.pixel(x: 70, y: 49).r) - 124) <= 1)
        #expect(s.pixel(x: 95, y: 50).r == 0)
    }

    @Test func angularGradientTurnsClockwiseOnScreenFromItsStartAngle() throws {
        // Red → blue over a full turn starting at 0° (pointing right). SwiftUI's angles grow
        // clockwise on screen, so straight below the centre (90°) is a quarter of the way:
        // 75 % red; straight above (270°) three quarters: 25 % red.
        let g = Gradient(colors: [Color(red: 1, green: 0, blue: 0), Color(red: 0, green: 0, blue: 1)])
        let s = try draw(.angularGradient(g, center: CGPoint(x: 50, y: 50), startAngle: .zero, endAngle: .degrees(360)))
        let below = s.pixel(x: 50, y: 90), above = s.pixel(x: 50, y: 10)
        #expect(abs(Int(below.r) - 191) <= 3 && abs(Int(below.b) - 64) <= 3, "below \(below)")
        #expect(abs(Int(above.r) - 64) <= 3 && abs(Int(above.b) - 191) <= 3, "above \(above)")
        // A half-turn gradient from 180° to 360°: the lower half of the turn (0°…180°) is past
        // its end and padded with the end colour.
        let half = try draw(.angularGradient(g, center: CGPoint(x: 50, y: 50), startAngle: .degrees(180), endAngle: .degrees(360)))
        #expect(half.pixel(x: 50, y: 10).r > 120 && half.pixel(x: 50, y: 10).r < 136)   // 270°: halfway
        #expect(half.pixel(x: 50, y: 90).b == 255)                                      // 90°: padded end
    }

    /// A 2 × 1 image: black, then white.
    func blackWhite() throws -> Surface {
        let img = try Surface(width: 2, height: 1)
        img.fill(.black, in: PixelRect(x: 0, y: 0, width: 1, height: 1))
        img.fill(.white, in: PixelRect(x: 1, y: 0, width: 1, height: 1))
        return img
    }

    @Test func imagePaintCopiesAndResamples() throws {
        let img = try blackWhite()
        // Identity, nearest: an exact copy.
        let s = try Surface(width: 2, height: 1)
        try Canvas(s).fill(Path(CGRect(x: 0, y: 0, width: 2, height: 1)), with: .image(img, transform: .identity, filter: .nearest))
        #expect(s.pixel(x: 0, y: 0) == RGBA8(0, 0, 0, 255) && s.pixel(x: 1, y: 0) == RGBA8(255, 255, 255, 255))
        // Scaled ×4 horizontally, bilinear: device pixel 3's centre (3.5) maps to image x 0.875,
        // which lies 0.375 past texel 0's centre: 0.375·255 = 95.6 (±1 for 16.16 fixed point).
        let big = try Surface(width: 8, height: 1)
        try Canvas(big).fill(Path(CGRect(x: 0, y: 0, width: 8, height: 1)),
                             with: .image(img, transform: CGAffineTransform(scaleX: 4, y: 1), filter: .bilinear))
        #expect(abs(Int(big.pixel(x: 3, y: 0).r) - 96) <= 1)
        // Outside the image is transparent.
        let shifted = try Surface(width: 4, height: 1)
        try Canvas(shifted).fill(Path(CGRect(x: 0, y: 0, width: 4, height: 1)),
                                 with: .image(img, transform: CGAffineTransform(translationX: 2, y: 0), filter: .nearest))
        #expect(shifted.pixel(x: 0, y: 0).a == 0 && shifted.pixel(x: 2, y: 0) == RGBA8(0, 0, 0, 255))
    }

    /// Drawing a surface as an image paint (moved, filtered) leaves the surface as it
    /// was: composited or painted later without a transform, it is read in place. (The paint
    /// once set its transform on the surface's own pixman image; a pooled layer reused by the
    /// next render was read shifted.)
    @Test func anImagePaintLeavesItsSurfaceAsItWas() throws {
        let img = try blackWhite()
        let moved = try Surface(width: 4, height: 1)
        try Canvas(moved).fill(Path(CGRect(x: 0, y: 0, width: 4, height: 1)),
                               with: .image(img, transform: CGAffineTransform(translationX: 1, y: 0), filter: .bilinear))
        for check in 0..<2 {
            let plain = try Surface(width: 2, height: 1)
            if check == 0 {
                try plain.composite(img)
            } else {
                try Canvas(plain).fill(Path(CGRect(x: 0, y: 0, width: 2, height: 1)), with: .image(img, transform: .identity, filter: .nearest))
            }
            #expect(plain.pixel(x: 0, y: 0) == RGBA8(0, 0, 0, 255) && plain.pixel(x: 1, y: 0) == RGBA8(255, 255, 255, 255))
        }
    }

    @Test func bicubicEnlargesSmoothlyAndClampsEdges() throws {
        // Black | white, enlarged ×8 with the Mitchell–Netravali cubic and edges clamped.
        let img = try blackWhite()
        let big = try Surface(width: 16, height: 1)
        try Canvas(big).fill(Path(CGRect(x: 0, y: 0, width: 16, height: 1)),
                             with: .image(img, transform: CGAffineTransform(scaleX: 8, y: 1), filter: .bicubic, clampToEdge: true))
        let v = (0..<16).map { Int(big.pixel(x: $0, y: 0).r) }
        // Opaque to the edges (clamped), rising monotonically, symmetric about the middle
        // (v[k] + v[15 − k] = 255 within 2 levels of fixed-point rounding).
        #expect((0..<16).allSatisfy { big.pixel(x: $0, y: 0).a == 255 })
        #expect(zip(v, v.dropFirst()).allSatisfy { $0 <= $1 })
        for k in 0..<8 { #expect(abs(v[k] + v[15 - k] - 255) <= 2, "\(v)") }
        // Mitchell's cubic is not interpolating: next to texel 0's centre the white texel
        // still weighs about B/6 = 1/18 (14 levels), where bilinear gives 0.
        #expect(v[3] > 4 && v[3] < 30, "\(v)")
        // Shrunk ×1/4 (a box over the source pixels each device pixel covers), a 4 × 1 stripe
        // of alternating black and white averages to grey.
        let stripes = try Surface(width: 8, height: 1)
        for x in stride(from: 1, to: 8, by: 2) { stripes.fill(.white, in: PixelRect(x: x, y: 0, width: 1, height: 1)) }
        stripes.fill(.black, in: PixelRect(x: 0, y: 0, width: 1, height: 1))
        for x in stride(from: 2, to: 8, by: 2) { stripes.fill(.black, in: PixelRect(x: x, y: 0, width: 1, height: 1)) }
        let small = try Surface(width: 2, height: 1)
        try Canvas(small).fill(Path(CGRect(x: 0, y: 0, width: 2, height: 1)),
                               with: .image(stripes, transform: CGAffineTransform(scaleX: 0.25, y: 1), filter: .bicubic, clampToEdge: true))
        #expect(abs(Int(small.pixel(x: 0, y: 0).r) - 128) <= 24, "\(small.pixel(x: 0, y: 0))")
    }

    @Test func gradientsInALinearSurfaceInterpolateInLinearLight() throws {
        // In a linear surface the stops are converted to linear values before pixman sees them:
        // black → white halfway is linear 0.5, which reads back encoded as 188.
        let s = try draw(.linearGradient(Gradient(colors: [.black, .white]), start: CGPoint(x: 0.5, y: 0), end: CGPoint(x: 98.5, y: 0)),
                         format: .argb32Linear)
        #expect(abs(Int(s.pixel(x: 49, y: 0).r) - 188) <= 1)
    }
}

@Suite struct BlendModeTests {
    /// Draws `source` with `mode` at `opacity` over an opaque `backdrop`, returning the pixel.
    func blend(_ source: Color, over backdrop: Color, _ mode: BlendMode, opacity: Double = 1) throws -> RGBA8 {
        let s = try Surface(width: 4, height: 4)
        s.fill(backdrop)
        try Canvas(s).fill(Path(CGRect(x: 0, y: 0, width: 4, height: 4)), with: .color(source), opacity: opacity, blendMode: mode)
        return s.pixel(x: 1, y: 1)
    }

    @Test func separableModesMatchTheirFormulas() throws {
        let s = Color(rgb: 0xC86432), d = Color(rgb: 0x64C8FA)   // (200,100,50) over (100,200,250)
        // multiply: s·d/255 → (78, 78, 49); screen: s + d − s·d/255 → (222, 222, 251)
        #expect(isNear(try blend(s, over: d, .multiply), RGBA8(78, 78, 49, 255)))
        #expect(isNear(try blend(s, over: d, .screen), RGBA8(222, 222, 251, 255)))
        // darken/lighten: per-channel min/max; difference |s − d|
        #expect(isNear(try blend(s, over: d, .darken), RGBA8(100, 100, 50, 255)))
        #expect(isNear(try blend(s, over: d, .lighten), RGBA8(200, 200, 250, 255)))
        #expect(isNear(try blend(s, over: d, .difference), RGBA8(100, 100, 200, 255)))
        // plusLighter: min(255, s + d) → (255, 255, 255); plusDarker: max(0, s + d − 255) → (45, 45, 45)
        #expect(isNear(try blend(s, over: d, .plusLighter), RGBA8(255, 255, 255, 255)))
        #expect(isNear(try blend(s, over: d, .plusDarker), RGBA8(45, 45, 45, 255)))
    }

    @Test func plusDarkerWithTranslucentSource() throws {
        // Sa = 0.5 (opacity), opaque backdrop: R = D·(1 − Sa) + max(0, S·Da + D·Sa − Sa·Da) with
        // S premultiplied (0.5·s): red channel s = 200/255, d = 100/255:
        // 0.3922·0.5 + max(0, 0.3922 + 0.1961 − 0.5) = 0.1961 + 0.0882 = 0.2843 → 72.5.
        let p = try blend(Color(rgb: 0xC86432), over: Color(rgb: 0x64C8FA), .plusDarker, opacity: 0.5)
        #expect(abs(Int(p.r) - 72) <= 1 && p.a == 255, "\(p)")
        // Over a transparent backdrop the source is unchanged.
        let s = try Surface(width: 2, height: 2)
        try Canvas(s).fill(Path(CGRect(x: 0, y: 0, width: 2, height: 2)), with: .color(Color(rgb: 0xC86432)), blendMode: .plusDarker)
        #expect(s.pixel(x: 0, y: 0) == RGBA8(200, 100, 50, 255))
    }

    @Test(arguments: [BlendMode.hue, .saturation, .color, .luminosity])
    func nonSeparableModesWithPartialCoverageLerpTowardsTheFullBlend(_ mode: BlendMode) throws {
        // With an opaque backdrop, (S·m) OP D = D·(1 − Sa·m) + Sa·m·B(s, d): a source at
        // opacity 0.5 must land halfway between the backdrop and the full-opacity blend.
        // pixman 0.42 gets this wrong when the 0.5 comes through a mask; we pre-multiply.
        let s = Color(rgb: 0x3366CC), d = Color(rgb: 0xE0A040)
        let full = try blend(s, over: d, mode)
        let half = try blend(s, over: d, mode, opacity: 0.5)
        func mid(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Double(a) + Double(b)) / 2 + 0.5) }
        let expected = RGBA8(mid(full.r, 0xE0), mid(full.g, 0xA0), mid(full.b, 0x40), 255)
        #expect(isNear(half, expected, within: 2), "\(mode): \(half) vs \(expected)")
    }

    @Test func destinationOutAndSourceAtopAndDestinationOver() throws {
        // destinationOut at opacity 0.5: coverage 0.5·255 = 127.5 → 128, so the backdrop keeps
        // 255·(1 − 128/255) = 127 of its alpha.
        let s = try Surface(width: 2, height: 2)
        s.fill(.blue)
        try Canvas(s).fill(Path(CGRect(x: 0, y: 0, width: 2, height: 2)), with: .color(.black), opacity: 0.5, blendMode: .destinationOut)
        #expect(s.pixel(x: 0, y: 0).a == 127)
        // sourceAtop on a transparent backdrop draws nothing; destinationOver goes behind.
        let t = try Surface(width: 2, height: 2)
        try Canvas(t).fill(Path(CGRect(x: 0, y: 0, width: 2, height: 2)), with: .color(.red), blendMode: .sourceAtop)
        #expect(t.pixel(x: 0, y: 0).a == 0)
        t.fill(Color.green.opacity(0.5))
        try Canvas(t).fill(Path(CGRect(x: 0, y: 0, width: 2, height: 2)), with: .color(.red), blendMode: .destinationOver)
        // green·0.5 over red: R = 0.5·0x34 + 0.5·0xFF
        #expect(abs(Int(t.pixel(x: 0, y: 0).r) - 154) <= 1 && t.pixel(x: 0, y: 0).a == 255)
    }
}
