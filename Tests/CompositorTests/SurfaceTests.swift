import Foundation
import Testing
@testable import Compositor

@Suite struct SurfaceTests {
    /// Area averaging: a 4 × 2 surface, left half opaque red (premultiplied 0xFFFF0000), right
    /// half transparent, reduced to 2 × 1 keeps the halves apart; to 1 × 1 it is their mean,
    /// (255 + 0) / 2 = 127.5 → 128 in alpha and red. Reducing 3 → 2 weights the middle column
    /// half to each side: (255 + 0.5 × 255) / 1.5 = 170 red in the left pixel.
    @Test func downsamplingAveragesAreas() throws {
        let s = try Surface(width: 4, height: 2)
        s.fill(Color(red: 1, green: 0, blue: 0), in: PixelRect(x: 0, y: 0, width: 2, height: 2))
        let halves = try s.downsampled(toWidth: 2, height: 1)
        #expect(halves.storedARGB(x: 0, y: 0) == 0xFFFF_0000 && halves.storedARGB(x: 1, y: 0) == 0)
        #expect(try s.downsampled(toWidth: 1, height: 1).storedARGB(x: 0, y: 0) == 0x8080_0000)
        let three = try Surface(width: 3, height: 1)
        three.fill(Color(red: 1, green: 0, blue: 0), in: PixelRect(x: 0, y: 0, width: 1, height: 1))
        let two = try three.downsampled(toWidth: 2, height: 1)
        // Left: column 0 whole (weight 1 of 1.5) + half of column 1 (transparent): 255 / 1.5 = 170.
        #expect(two.storedARGB(x: 0, y: 0) == 0xAAAA_0000 && two.storedARGB(x: 1, y: 0) == 0)
        // Enlarging is not its job: a copy at the source's size.
        #expect(try s.downsampled(toWidth: 8, height: 8).width == 4)
    }

    @Test func newSurfacesAreTransparentAndFillReplaces() throws {
        let s = try Surface(width: 3, height: 2)
        #expect(s.pixel(x: 2, y: 1) == RGBA8(0, 0, 0, 0))
        s.fill(Color(rgb: 0x007AFF, alpha8: 128))
        // Stored premultiplied: 0x7A·128/255 = 61.2 → 61; un-premultiplied back: 61·255/128 = 121.5 → 122.
        #expect(s.storedARGB(x: 0, y: 0) == 0x8000_3D80)
        #expect(s.pixel(x: 0, y: 0) == RGBA8(0, 122, 255, 128))
        s.clear()
        #expect(s.pixel(x: 0, y: 0) == RGBA8(0, 0, 0, 0))
        let x = try Surface(width: 1, height: 1, format: .xrgb32)
        #expect(x.pixel(x: 0, y: 0) == RGBA8(0, 0, 0, 255))   // no alpha: opaque black
    }

    @Test func invalidAndOversizedSurfacesThrow() {
        #expect(throws: SurfaceError.invalidSize(width: 0, height: 5)) { try Surface(width: 0, height: 5) }
        #expect(throws: SurfaceError.tooLarge(width: 40000, height: 1)) { try Surface(width: 40000, height: 1) }
        #expect(throws: SurfaceError.tooLarge(width: 20000, height: 20000)) { try Surface(width: 20000, height: 20000) }
    }

    @Test func linearFormatBlendsInLinearLight() throws {
        // White at 50 % over black: in linear light 0.5, stored sRGB-encoded:
        // encode(0.5) = 1.055·0.5^(1/2.4) − 0.055 = 0.7354 → 187.5 → 188 (0xBC).
        let s = try Surface(width: 4, height: 4, format: .argb32Linear)
        s.fill(.black)
        try Canvas(s).fill(Path(CGRect(x: 0, y: 0, width: 4, height: 4)), with: .color(.white), opacity: 0.5)
        #expect(s.storedARGB(x: 1, y: 1) & 0xFF == 188)
        // The same over an encoded canvas blends the encoded values: 0.5·255 = 127.5 → 128.
        let e = try Surface(width: 4, height: 4)
        e.fill(.black)
        try Canvas(e).fill(Path(CGRect(x: 0, y: 0, width: 4, height: 4)), with: .color(.white), opacity: 0.5)
        #expect(e.storedARGB(x: 1, y: 1) & 0xFF == 128)
    }

    @Test func floatFormatKeepsExtendedValues() throws {
        let s = try Surface(width: 2, height: 1, format: .rgbaFloat)
        s.fill(Color(.sRGBLinear, red: 1.5, green: -0.25, blue: 0.5, opacity: 1))
        let (r, g, b, a) = s.storedFloat(x: 0, y: 0)
        #expect(abs(r - 1.5) < 1e-6 && abs(g + 0.25) < 1e-6 && abs(b - 0.5) < 1e-6 && a == 1)
    }

    @Test func conversionsKeepColour() throws {
        let s = try Surface(width: 16, height: 16)
        for y in 0..<16 { for x in 0..<16 {
            s.fill(Color(rgb: UInt32(x * 16) << 16 | UInt32(y * 16) << 8 | 0x40, alpha8: UInt8(15 + 15 * ((x + y) % 17))),
                   in: PixelRect(x: x, y: y, width: 1, height: 1))
        } }
        // Through float and back is exact for 8-bit values.
        let back = try s.converted(to: .rgbaFloat).converted(to: .argb32)
        for y in 0..<16 { for x in 0..<16 { #expect(back.storedARGB(x: x, y: y) == s.storedARGB(x: x, y: y)) } }
        // Through 8-bit linear loses precision in dark, translucent colours; opaque pixels stay
        // within 1 and every pixel within 8 (alpha 15 leaves few levels for premultiplied colour).
        let lin = try s.converted(to: .argb32Linear).converted(to: .argb32)
        for y in 0..<16 { for x in 0..<16 {
            let a = s.pixel(x: x, y: y), b = lin.pixel(x: x, y: y)
            let d = max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
            #expect(a.a == b.a)
            #expect(d <= (a.a == 255 ? 1 : 8), "pixel (\(x), \(y)): \(a) vs \(b)")
        } }
        // Pixel reads of a linear surface are encoded: a linear 0.5 grey reads as 188.
        let g = try Surface(width: 1, height: 1, format: .rgbaFloat)
        g.fill(Color(.sRGBLinear, white: 0.5))
        #expect(g.pixel(x: 0, y: 0) == RGBA8(188, 188, 188, 255))
    }

    @Test func compositeWithOpacity() throws {
        // S1b's group step: an opaque orange layer at A8 = 64 over white.
        // 255 − 64·(255 − c)/255 per channel: R 255, G 255 − 64·(255 − 149)/255 = 228.4 → 228,
        // B 255 − 64·255/255 = 191.
        let base = try Surface(width: 1, height: 1)
        base.fill(.white)
        let layer = try Surface(width: 1, height: 1)
        layer.fill(.orange)
        try base.composite(layer, opacity: 64.0 / 255)
        #expect(base.pixel(x: 0, y: 0) == RGBA8(255, 228, 191, 255))
    }
}

@Suite struct ColorTests {
    @Test func hexAndNamedColours() {
        #expect(Color(hex: "#007AFF") == .blue)
        #expect(Color(hex: "ff2d55") == .pink)
        #expect(Color(hex: "#F00") == Color(red: 1, green: 0, blue: 0))
        #expect(Color(hex: "#00000080")?.alpha == 128.0 / 255)
        #expect(Color(hex: "#12345") == nil && Color(hex: "#GG0000") == nil && Color(hex: "") == nil)
        #expect(Color.orange.hexString == "#FF9500")
        #expect(Color.mint.opacity(0.5).hexString == "#00C7BE80")
        #expect(Color.named.count == 18)
    }

    @Test func transferFunctionRoundTripsAndExtends() {
        for v in stride(from: -2.0, through: 2.0, by: 0.01) {
            #expect(abs(srgbDecode(srgbEncode(v)) - v) < 1e-12)
        }
        #expect(abs(srgbEncode(0.5) - 0.735357) < 1e-6)
        #expect(abs(srgbEncode(1.5) - 1.194177) < 1e-6)    // extended above 1: 1.055·1.5^(1/2.4) − 0.055
        #expect(srgbEncode(-0.5) == -srgbEncode(0.5))        // mirrored below 0
        let l = Color(.sRGBLinear, red: 0.5, green: 0, blue: 1)
        #expect(abs(l.red - 0.735357) < 1e-6 && abs(l.blue - 1) < 1e-12)
    }

    @Test func opacityClamps() {
        #expect(Color.red.opacity(2).alpha == 1)
        #expect(Color.red.opacity(-1).alpha == 0)
        #expect(Color.red.opacity(.nan).alpha == 0)
    }
}

@Suite struct PNGTests {
    /// Pixel (x, y) of the fixtures: red 60x, green 100y, blue 200 (see make_fixtures.py).
    func pattern(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) { (UInt8(60 * x), UInt8(100 * y), 200) }

    @Test func decodesRGBA() throws {
        let s = try PNG.read(path: fixture("rgba8.png"))
        #expect(s.width == 4 && s.height == 3)
        let (r, g, b) = pattern(3, 2)
        #expect(s.pixel(x: 3, y: 2) == RGBA8(r, g, b, 255))
        #expect(s.pixel(x: 2, y: 2) == RGBA8(0, 0, 0, 0))
        // (1, 1) = (60, 100, 200) at alpha 128, premultiplied on load and un-premultiplied on
        // read: within 1 of the file's values.
        let p = s.pixel(x: 1, y: 1)
        #expect(p.a == 128 && abs(Int(p.r) - 60) <= 1 && abs(Int(p.g) - 100) <= 1 && abs(Int(p.b) - 200) <= 1)
    }

    @Test(arguments: ["rgb16.png", "interlaced.png"])
    func decodesSixteenBitAndInterlacedRGB(name: String) throws {
        let s = try PNG.read(path: fixture(name))
        for y in 0..<3 { for x in 0..<4 {
            let (r, g, b) = pattern(x, y)
            #expect(s.pixel(x: x, y: y) == RGBA8(r, g, b, 255), "\(name) (\(x), \(y))")
        } }
    }

    @Test func decodesGreyAndPalette() throws {
        let grey = try PNG.read(path: fixture("grey8.png"))
        #expect(grey.pixel(x: 3, y: 2) == RGBA8(220, 220, 220, 255))   // 20·(3 + 4·2)
        let ga = try PNG.read(path: fixture("greyalpha16.png"))
        #expect(ga.pixel(x: 1, y: 0).a == 255 && ga.pixel(x: 0, y: 0).a == 128)
        let pal = try PNG.read(path: fixture("palette.png"))
        #expect(pal.pixel(x: 0, y: 0) == RGBA8(255, 0, 0, 255))   // index 0
        #expect(pal.pixel(x: 1, y: 0) == RGBA8(0, 255, 0, 255))   // index 1
        #expect(pal.pixel(x: 2, y: 0) == RGBA8(0, 0, 255, 64))    // index 2, tRNS alpha 64
    }

    @Test func roundTripIsExactForOpaqueAndTransparentPixels() throws {
        let s = try Surface(width: 5, height: 5)
        s.fill(.pink)
        s.fill(Color(rgb: 0x123456, alpha8: 0), in: PixelRect(x: 0, y: 0, width: 2, height: 2))
        s.fill(Color(rgb: 0x80FF00, alpha8: 51), in: PixelRect(x: 4, y: 4, width: 1, height: 1))
        let back = try PNG.decode(PNG.encode(s))
        for y in 0..<5 { for x in 0..<5 { #expect(back.storedARGB(x: x, y: y) == s.storedARGB(x: x, y: y)) } }
    }

    /// The PNG encoder's un-premultiplied bytes equal `pixel(x:y:)` for every alpha and
    /// random colours below it (premultiplied: each channel ≤ alpha), in every format.
    @Test(arguments: PixelFormat.allCases)
    func straightBytesMatchThePixels(format: PixelFormat) throws {
        let s = try Surface(width: 256, height: 3, format: format)
        var rng = SystemRandomNumberGenerator()
        for y in 0..<3 {
            for x in 0..<256 {
                let a = UInt32(x)
                let c = { UInt32.random(in: 0...a, using: &rng) }
                let v = a << 24 | c() << 16 | c() << 8 | c()
                if format.bytesPerPixel == 4 {
                    (s.data + y * s.stride).assumingMemoryBound(to: UInt32.self)[x] = v
                } else {
                    let f = { (shift: UInt32) in Double((v >> shift) & 0xFF) / 255 }
                    s.setEncodedPixel(x: x, y: y, EncodedPixel(r: f(16), g: f(8), b: f(0), a: f(24)))
                }
            }
        }
        let bytes = [UInt8](s.straightBGRA())
        for y in 0..<3 {
            for x in 0..<256 {
                let p = s.pixel(x: x, y: y), i = 4 * (y * 256 + x)
                #expect(bytes[i..<i + 4] == [p.b, p.g, p.r, p.a][...], "(\(x), \(y))")
            }
        }
    }

    /// `unitByte` rounds exactly as `rounded()` (half away from zero): at every half-level tie
    /// k/510, next to each, at random values, out of range and at NaN.
    @Test func unitByteRoundsAsTheLibraryDoes() {
        func reference(_ v: Double) -> UInt32 { UInt32((min(1, max(0, v)) * 255).rounded()) }
        var values: [Double] = [-1, 2, .nan, .infinity, -.infinity, 0, 1]
        for k in 0...510 {
            let t = Double(k) / 510
            values += [t, t.nextUp, t.nextDown]
        }
        var rng = SystemRandomNumberGenerator()
        values += (0..<10_000).map { _ in Double.random(in: -0.1...1.1, using: &rng) }
        for v in values { #expect(unitByte(v) == reference(v), "\(v)") }
    }

    @Test func badFilesGiveTypedErrorsWithThePath() throws {
        let missing = "/nonexistent/dir/x.png"
        #expect(throws: PNGError(path: missing, reason: "no such file")) { try PNG.read(path: missing) }
        for name in ["truncated.png", "not-a-png.png"] {
            do {
                _ = try PNG.read(path: fixture(name))
                Issue.record("\(name) decoded")
            } catch let e as PNGError {
                #expect(e.path == fixture(name))
                #expect(e.reason.contains("libpng") || e.reason.contains("damaged"), "\(e.reason)")
            }
        }
        #expect(throws: PNGError.self) { try PNG.decode(Data()) }
    }

    @Test func writeIsAtomicAndReportsUnwritablePaths() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("png-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let s = try Surface(width: 2, height: 2)
        s.fill(.green)
        let path = dir.appendingPathComponent("out.png").path
        try s.writePNG(to: path)
        #expect(try PNG.read(path: path).pixel(x: 1, y: 1) == RGBA8(0x34, 0xC7, 0x59, 255))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out.png"])
        #expect(throws: PNGError.self) { try s.writePNG(to: dir.appendingPathComponent("missing/out.png").path) }
    }
}
