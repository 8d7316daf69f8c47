import Foundation
import Testing
@testable import Compositor

@Suite struct CIEDE2000Tests {
    // Test pairs from Sharma, Wu & Dalal (2005), "The CIEDE2000 color-difference formula:
    // implementation notes, supplementary test data", table 1 (pairs 1, 2, 3, 4, 7, 17, 25).
    @Test(arguments: [
        (50.0, 2.6772, -79.7751, 50.0, 0.0, -82.7485, 2.0425),
        (50.0, 3.1571, -77.2803, 50.0, 0.0, -82.7485, 2.8615),
        (50.0, 2.8361, -74.0200, 50.0, 0.0, -82.7485, 3.4412),
        (50.0, -1.3802, -84.2814, 50.0, 0.0, -82.7485, 1.0000),
        (50.0, 0.0, 0.0, 50.0, -1.0, 2.0, 2.3669),
        (50.0, 2.5, 0.0, 73.0, 25.0, -18.0, 27.1492),
        (60.2574, -34.0099, 36.2677, 60.4626, -34.1751, 39.4387, 1.2644),
    ])
    func sharmaPairs(_ p: (Double, Double, Double, Double, Double, Double, Double)) {
        let d = ciede2000(Lab(l: p.0, a: p.1, b: p.2), Lab(l: p.3, a: p.4, b: p.5))
        #expect(abs(d - p.6) < 1e-4, "\(d) vs \(p.6)")
        // Symmetric.
        #expect(abs(ciede2000(Lab(l: p.3, a: p.4, b: p.5), Lab(l: p.0, a: p.1, b: p.2)) - d) < 1e-9)
    }

    @Test func srgbToLab() {
        let white = Lab(srgbRed: 1, green: 1, blue: 1), black = Lab(srgbRed: 0, green: 0, blue: 0)
        #expect(abs(white.l - 100) < 1e-3 && abs(white.a) < 1e-2 && abs(white.b) < 1e-2)
        #expect(abs(black.l) < 1e-9)
        // sRGB red: L* 53.24, a* 80.09, b* 67.20 (the standard values).
        let red = Lab(srgbRed: 1, green: 0, blue: 0)
        #expect(abs(red.l - 53.24) < 0.01 && abs(red.a - 80.09) < 0.02 && abs(red.b - 67.20) < 0.02)
    }
}

@Suite struct ImageComparisonTests {
    func image(_ fill: Color, _ w: Int = 10, _ h: Int = 10) throws -> Surface {
        let s = try Surface(width: w, height: h)
        s.fill(fill)
        return s
    }

    @Test func identicalImagesAreEqual() throws {
        let a = try image(.blue), b = try image(.blue)
        let r = try b.compare(to: a)
        #expect(r.passed && r.differingPixels == 0 && r.maxChannelDifference == 0 && r.worst == nil)
    }

    @Test func channelToleranceAndWorstPixel() throws {
        let a = try image(Color(rgb: 0x808080)), b = try image(Color(rgb: 0x808080))
        b.fill(Color(rgb: 0x838080), in: PixelRect(x: 7, y: 2, width: 1, height: 1))   // red + 3
        b.fill(Color(rgb: 0x818080), in: PixelRect(x: 1, y: 1, width: 1, height: 1))   // red + 1
        let exact = try b.compare(to: a)
        #expect(!exact.passed && exact.differingPixels == 2 && exact.maxChannelDifference == 3)
        #expect(exact.worst?.x == 7 && exact.worst?.y == 2 && exact.worst?.expected == RGBA8(128, 128, 128, 255)
                && exact.worst?.actual == RGBA8(131, 128, 128, 255))
        #expect(try b.compare(to: a, tolerance: .init(channel: 1)).differingPixels == 1)
        #expect(try b.compare(to: a, tolerance: .init(channel: 3)).passed)
        // 2 of 100 pixels differ: a 2 % allowance passes, 1.9 % does not.
        #expect(try b.compare(to: a, tolerance: .init(maxDifferingFraction: 0.02)).passed)
        #expect(try !b.compare(to: a, tolerance: .init(maxDifferingFraction: 0.019)).passed)
    }

    @Test func perceptualTolerance() throws {
        // (128, 128, 128) vs (131, 128, 128): ΔE₀₀ computed through Lab, about 1.5; a ΔE
        // allowance above it passes, below it fails.
        let a = try image(Color(rgb: 0x808080), 1, 1), b = try image(Color(rgb: 0x838080), 1, 1)
        let de = deltaE(RGBA8(128, 128, 128, 255), RGBA8(131, 128, 128, 255))
        #expect(de > 0.5 && de < 3)
        #expect(try b.compare(to: a, tolerance: .init(perceptual: de + 0.01)).passed)
        #expect(try !b.compare(to: a, tolerance: .init(perceptual: de - 0.01)).passed)
        #expect(abs(try b.compare(to: a).maxDeltaE - de) < 1e-12)
    }

    @Test func alphaHandling() throws {
        // Transparent in both: equal. Transparent against opaque: a 255 difference.
        let clear = try Surface(width: 2, height: 1), clear2 = try Surface(width: 2, height: 1)
        #expect(try clear.compare(to: clear2).passed)
        let opaque = try image(.black, 2, 1)
        let r = try opaque.compare(to: clear)
        #expect(r.differingPixels == 2 && r.maxChannelDifference == 255)
        // Half-transparent red vs opaque red differ in alpha only: 127.
        let half = try image(Color.red.opacity(0.5), 2, 1), full = try image(.red, 2, 1)
        #expect(try half.compare(to: full).maxChannelDifference == 127)
    }

    @Test func sizeMismatchIsAnError() throws {
        #expect(throws: ComparisonError.sizeMismatch(expected: (10, 10), actual: (10, 9))) {
            try self.image(.red, 10, 9).compare(to: self.image(.red))
        }
    }

    @Test func differenceImageMarksDifferingPixelsInRed() throws {
        let a = try image(.blue, 3, 1), b = try image(.blue, 3, 1)
        b.fill(.green, in: PixelRect(x: 1, y: 0, width: 1, height: 1))
        let d = try b.differenceImage(against: a)
        #expect(d.pixel(x: 1, y: 0) == RGBA8(255, 0, 0, 255))
        // Elsewhere: blue faded to 25 % over white: 255 − 0.25·255 = 191 for red/green
        // (0x00 → 191, 0x7A → 255 − 0.25·(255 − 122) = 221.75), blue 255.
        let p = d.pixel(x: 0, y: 0)
        #expect(p.r == 191 && abs(Int(p.g) - 222) <= 1 && p.b == 255)
    }
}
