import Foundation
import Testing
@testable import Compositor

/// The filter graph's primitives on small surfaces, with expected pixels from each
/// primitive's formula.
struct FilterGraphTests {
    /// A 10 × 10 transparent layer with an opaque white 2 × 2 square at (4, 4).
    func layer() throws -> Surface {
        let s = try Surface(width: 10, height: 10)
        s.fill(.white, in: PixelRect(x: 4, y: 4, width: 2, height: 2))
        return s
    }

    let whole = CGRect(x: 0, y: 0, width: 10, height: 10)

    func run(_ kinds: [(FilterPrimitive.Kind, [FilterPrimitive.Input])], linear: Bool = false, region: CGRect? = nil,
             subregion: CGRect? = nil, on surface: Surface? = nil, origin: (x: Int, y: Int) = (0, 0)) throws -> Surface {
        let s = try surface ?? layer()
        let graph = FilterGraph(region: region ?? whole, primitives: kinds.map {
            FilterPrimitive($0.0, inputs: $0.1, subregion: subregion ?? whole, linearRGB: linear)
        })
        try graph.apply(to: s, origin: origin)
        return s
    }

    /// The interpolated transfer tables stay within 2·10⁻⁵ of the exact functions (the bound
    /// derived in `SRGBCurve`), checked at 100,001 points including both ends and the knees.
    @Test func srgbTablesMatchTheExactTransferFunctions() {
        var worst: (decode: Float, encode: Float) = (0, 0)
        SRGBCurve.decoding.withUnsafeBufferPointer { dec in
            SRGBCurve.encoding.withUnsafeBufferPointer { enc in
                for k in 0...100_000 {
                    let v = Float(k) / 100_000
                    worst.decode = max(worst.decode, abs(SRGBCurve.sample(dec, v) - srgbDecodeF(v)))
                    worst.encode = max(worst.encode, abs(SRGBCurve.sample(enc, v) - srgbEncodeF(v)))
                }
                #expect(SRGBCurve.sample(dec, 0) == 0 && SRGBCurve.sample(enc, 0) == 0)
                #expect(abs(SRGBCurve.sample(dec, 1) - 1) < 1e-6 && abs(SRGBCurve.sample(enc, 1) - 1) < 1e-6)
                // Inputs out of range clamp to the ends; NaN reads as 0.
                #expect(SRGBCurve.sample(enc, -3) == 0 && abs(SRGBCurve.sample(enc, 7) - 1) < 1e-6)
                #expect(SRGBCurve.sample(enc, .nan) == 0 && abs(SRGBCurve.sample(dec, .infinity) - 1) < 1e-6)
            }
        }
        #expect(worst.decode < 2e-5, "decoding off by \(worst.decode)")
        #expect(worst.encode < 2e-5, "encoding off by \(worst.encode)")
    }

    /// The filter result's direct store into an `argb32` layer gives the bytes the general
    /// per-pixel path (`setEncodedPixel`) gives, on random premultiplied planes with exact
    /// 8-bit values (rounding ties), out-of-range values and NaN.
    @Test func directStoreMatchesThePerPixelPath() throws {
        var rng = SystemRandomNumberGenerator()
        let plane = FilterPlane(width: 64, height: 64, linear: false, area: PixelRect(x: 0, y: 0, width: 64, height: 64))
        for i in 0..<plane.count {
            let p = plane.pixels + 4 * i
            let a: Float = [0, 1, Float(Int.random(in: 0...255, using: &rng)) / 255, Float.random(in: -0.1...1.1, using: &rng)][i % 4]
            for c in 0..<3 {
                p[c] = i % 7 == 0 ? Float(Int.random(in: 0...510, using: &rng)) / 510 * a : Float.random(in: -0.05...1.05, using: &rng) * a
            }
            p[3] = a
            if i % 97 == 0 { p[i % 3] = .nan }
        }
        let direct = try Surface(width: 64, height: 64), general = try Surface(width: 64, height: 64)
        plane.store(into: direct)
        for y in 0..<64 {
            for x in 0..<64 {
                let p = plane.pixels + 4 * (y * 64 + x)
                let a = Double(min(1, max(0, p[3])))
                general.setEncodedPixel(x: x, y: y, a > 0 ? EncodedPixel(r: Double(p[0]) / a, g: Double(p[1]) / a, b: Double(p[2]) / a, a: a)
                                                          : EncodedPixel(r: 0, g: 0, b: 0, a: 0))
                #expect(direct.storedARGB(x: x, y: y) == general.storedARGB(x: x, y: y), "(\(x), \(y))")
            }
        }
    }

    @Test func floodFillsItsSubregionOnly() throws {
        // Red at 50 %: premultiplied (0.5 × 255 = 127.5 → 128, 0, 0, 128) inside (2, 3, 4, 2).
        let s = try run([(.flood(Color(red: 1, green: 0, blue: 0, opacity: 0.5)), [])], subregion: CGRect(x: 2, y: 3, width: 4, height: 2))
        #expect(s.pixel(x: 3, y: 3) == RGBA8(255, 0, 0, 128))
        #expect(s.pixel(x: 5, y: 4) == RGBA8(255, 0, 0, 128))
        #expect(s.pixel(x: 1, y: 3).a == 0)
        #expect(s.pixel(x: 3, y: 5).a == 0)
    }

    @Test func floodInLinearLightComesBackAsTheSameColour() throws {
        // sRGB grey 0.5 decoded to linear (0.214) for the primitive and encoded again: 128 ± 1.
        let s = try run([(.flood(Color(red: 0.5, green: 0.5, blue: 0.5)), [])], linear: true)
        let p = s.pixel(x: 0, y: 0)
        #expect(abs(Int(p.r) - 128) <= 1 && p.a == 255)
    }

    @Test func offsetMovesByWholePixels() throws {
        let s = try run([(.offset(dx: 3, dy: -2), [.sourceGraphic])])
        #expect(s.pixel(x: 7, y: 2).a == 255 && s.pixel(x: 8, y: 3).a == 255)
        #expect(s.pixel(x: 4, y: 4).a == 0)
    }

    @Test func regionCutsTheSourceAndTheResult() throws {
        // The region (0, 0, 5, 10) holds only the square's left column; moved right by 2 it
        // would land at x = 6, outside the region, so nothing remains.
        let s = try run([(.offset(dx: 2, dy: 0), [.sourceGraphic])], region: CGRect(x: 0, y: 0, width: 5, height: 10))
        for x in 0..<10 { #expect(s.pixel(x: x, y: 4).a == 0) }
    }

    @Test func regionIsInDevicePixelsFromTheLayerOrigin() throws {
        // The layer's pixel (0, 0) is device (100, 50): a region at device (104, 54, 1, 1) keeps
        // only the square's top-left pixel.
        let s = try run([(.offset(dx: 0, dy: 0), [.sourceGraphic])], region: CGRect(x: 104, y: 54, width: 1, height: 1),
                        subregion: CGRect(x: 0, y: 0, width: 1000, height: 1000), origin: (100, 50))
        #expect(s.pixel(x: 4, y: 4).a == 255)
        #expect(s.pixel(x: 5, y: 4).a == 0 && s.pixel(x: 4, y: 5).a == 0)
    }

    @Test func blurKeepsTheTotalAlpha() throws {
        // A Gaussian's weights sum to 1: the 4 opaque pixels (alpha 4 × 255) spread but keep
        // their sum, within rounding (100 pixels × 0.5).
        let s = try run([(.gaussianBlur(sigmaX: 1, sigmaY: 1), [.sourceGraphic])])
        var sum = 0
        for y in 0..<10 { for x in 0..<10 { sum += Int(s.pixel(x: x, y: y).a) } }
        #expect(abs(sum - 4 * 255) <= 50)
        #expect(s.pixel(x: 4, y: 4).a < 255 && s.pixel(x: 3, y: 4).a > 0)
        // Symmetric about the square's centre (5, 5).
        #expect(s.pixel(x: 3, y: 4).a == s.pixel(x: 6, y: 4).a)
    }

    @Test func blurAlongOneAxisOnly() throws {
        let s = try run([(.gaussianBlur(sigmaX: 1, sigmaY: 0), [.sourceGraphic])])
        #expect(s.pixel(x: 3, y: 4).a > 0)
        #expect(s.pixel(x: 4, y: 3).a == 0)
    }

    @Test func arithmeticCombinesPremultipliedChannels() throws {
        // k2 = 0.5 of opaque white, k4 = 0.1 everywhere: inside 0.5 + 0.1 = 0.6 (153);
        // outside 0.1 (25.5 → alpha 26, colour clamped to it).
        let s = try run([(.arithmetic(k1: 0, k2: 0.5, k3: 0, k4: 0.1), [.sourceGraphic, .sourceGraphic])])
        #expect(s.pixel(x: 4, y: 4) == RGBA8(255, 255, 255, 153))
        let outside = s.pixel(x: 0, y: 0)
        #expect(outside.a == 26 && outside.r == 255)
    }

    @Test func luminanceToAlphaOfWhiteIsOpaqueBlack() throws {
        // 0.2125 + 0.7154 + 0.0721 = 1: alpha 255, colour 0.
        let m = ColorMatrix(red: .zero, green: .zero, blue: .zero, alpha: SIMD4(0.2125, 0.7154, 0.0721, 0))
        let s = try run([(.colorMatrix(m), [.sourceGraphic])])
        #expect(s.pixel(x: 4, y: 4) == RGBA8(0, 0, 0, 255))
    }

    @Test func componentTransferTablesInvert() throws {
        // table [1, 0] maps c to 1 − c: white becomes black, alpha kept.
        let f = FilterPrimitive.TransferFunction.table([1, 0])
        let s = try run([(.componentTransfer(red: f, green: f, blue: f, alpha: .identity), [.sourceGraphic])])
        #expect(s.pixel(x: 4, y: 4) == RGBA8(0, 0, 0, 255))
        #expect(f(0.25) == 0.75)
        #expect(FilterPrimitive.TransferFunction.discrete([0.2, 0.8])(0.6) == 0.8)
        #expect(FilterPrimitive.TransferFunction.gamma(amplitude: 2, exponent: 2, offset: 0.1)(0.5) == 0.6)
    }

    @Test func compositeOperatorsFollowPorterDuff() throws {
        // A red flood `in` the source: red where the square is, nothing elsewhere.
        let s = try run([(.flood(Color(red: 1, green: 0, blue: 0)), []), (.composite(.in), [.result(0), .sourceGraphic])])
        #expect(s.pixel(x: 4, y: 4) == RGBA8(255, 0, 0, 255))
        #expect(s.pixel(x: 0, y: 0).a == 0)
        // `out`: red everywhere but the square.
        let o = try run([(.flood(Color(red: 1, green: 0, blue: 0)), []), (.composite(.out), [.result(0), .sourceGraphic])])
        #expect(o.pixel(x: 4, y: 4).a == 0 && o.pixel(x: 0, y: 0) == RGBA8(255, 0, 0, 255))
    }

    @Test func mergeStacksInOrder() throws {
        // Blue flood, then the white source over it.
        let s = try run([(.flood(Color(red: 0, green: 0, blue: 1)), []), (.merge, [.result(0), .sourceGraphic])])
        #expect(s.pixel(x: 4, y: 4) == RGBA8(255, 255, 255, 255))
        #expect(s.pixel(x: 0, y: 0) == RGBA8(0, 0, 255, 255))
    }

    @Test func dropShadowLiesUnderTheSource() throws {
        // Unblurred black shadow moved by (2, 2): black at (6, 6), white source kept.
        let s = try run([(.dropShadow(sigmaX: 0, sigmaY: 0, dx: 2, dy: 2, color: .black), [.sourceGraphic])])
        #expect(s.pixel(x: 7, y: 7) == RGBA8(0, 0, 0, 255))
        #expect(s.pixel(x: 5, y: 5) == RGBA8(255, 255, 255, 255))
    }

    @Test func tileRepeatsTheInputsSubregion() throws {
        // The square's 2 × 2 subregion (4, 4) tiled over the whole layer: every pixel opaque.
        let square = CGRect(x: 4, y: 4, width: 2, height: 2)
        let s = try layer()
        let graph = FilterGraph(region: whole, primitives: [
            FilterPrimitive(.offset(dx: 0, dy: 0), inputs: [.sourceGraphic], subregion: square, linearRGB: false),
            FilterPrimitive(.tile, inputs: [.result(0)], subregion: whole, linearRGB: false),
        ])
        try graph.apply(to: s, origin: (0, 0))
        #expect(s.pixel(x: 0, y: 0).a == 255 && s.pixel(x: 9, y: 7).a == 255)
    }

    @Test func dilateGrowsByTheRadius() throws {
        // The 2 × 2 square dilated by 1: a 4 × 4 square from (3, 3).
        let s = try run([(.morphology(dilate: true, radiusX: 1, radiusY: 1), [.sourceGraphic])])
        #expect(s.pixel(x: 3, y: 3).a == 255 && s.pixel(x: 6, y: 6).a == 255)
        #expect(s.pixel(x: 2, y: 3).a == 0)
        let e = try run([(.morphology(dilate: false, radiusX: 1, radiusY: 1), [.sourceGraphic])])
        #expect(e.pixel(x: 4, y: 4).a == 0)
    }

    @Test func sourceAlphaIsBlack() throws {
        let s = try run([(.offset(dx: 0, dy: 0), [.sourceAlpha])])
        #expect(s.pixel(x: 4, y: 4) == RGBA8(0, 0, 0, 255))
    }

    @Test func badReferencesThrowInsteadOfTrapping() throws {
        #expect(throws: FilterError.inputOutOfOrder(primitive: 0)) { try run([(.offset(dx: 0, dy: 0), [.result(3)])]) }
        #expect(throws: FilterError.imageMissing(index: 2)) { try run([(.image(2), [])]) }
    }

    @Test func nonFiniteValuesDoNotTrap() throws {
        let s = try run([(.offset(dx: .infinity, dy: .nan), [.sourceGraphic]), (.gaussianBlur(sigmaX: .nan, sigmaY: -1), [.result(0)]),
                         (.gaussianBlur(sigmaX: 1e300, sigmaY: .infinity), [.result(0)]),
                         (.morphology(dilate: true, radiusX: .infinity, radiusY: 1e300), [.result(2)])],
                        region: CGRect(x: -.infinity, y: 0, width: .infinity, height: 10))
        _ = s.pixel(x: 0, y: 0)
    }
}
