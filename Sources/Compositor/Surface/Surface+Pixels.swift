import CPixman
import Foundation

/// sRGB-encoded byte → linear light, for every byte value.
let srgbToLinearTable: [Double] = (0..<256).map { srgbDecode(Double($0) / 255) }

/// One pixel un-premultiplied, with sRGB-encoded colour (extended range kept) and alpha in [0, 1].
struct EncodedPixel {
    var r: Double, g: Double, b: Double, a: Double
}

extension Surface {
    /// The pixel at (`x`, `y`) as un-premultiplied, sRGB-encoded 8-bit RGBA, whatever the format
    /// (linear formats are encoded, extended values clamped). Rounds to nearest.
    public func pixel(x: Int, y: Int) -> RGBA8 {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)×\(height)")
        if format == .argb32 {
            // Exact integer un-premultiplication, the same as the PNG encoder uses.
            return unpremultiply(argb: (data + y * stride).assumingMemoryBound(to: UInt32.self)[x])
        }
        let p = encodedPixel(x: x, y: y)
        return RGBA8(UInt8(unitByte(p.r)), UInt8(unitByte(p.g)), UInt8(unitByte(p.b)), UInt8(unitByte(p.a)))
    }

    /// The stored premultiplied 8-bit value of an `argb32`/`xrgb32`/`argb32Linear` pixel as
    /// 0xAARRGGBB (for tests that pin stored values, like the linear group's 188).
    public func storedARGB(x: Int, y: Int) -> UInt32 {
        precondition(format.bytesPerPixel == 4)
        return (data + y * stride).assumingMemoryBound(to: UInt32.self)[x]
    }

    /// The stored premultiplied float components (r, g, b, a) of an `rgbaFloat` pixel.
    public func storedFloat(x: Int, y: Int) -> (Float, Float, Float, Float) {
        precondition(format == .rgbaFloat)
        let p = (data + y * stride).assumingMemoryBound(to: Float.self) + 4 * x
        return (p[0], p[1], p[2], p[3])
    }

    func encodedPixel(x: Int, y: Int) -> EncodedPixel {
        let row = data + y * stride
        switch format {
        case .argb32, .xrgb32:
            let v = row.assumingMemoryBound(to: UInt32.self)[x]
            let a = format == .xrgb32 ? 255 : Double(v >> 24)
            guard a > 0 else { return EncodedPixel(r: 0, g: 0, b: 0, a: 0) }
            return EncodedPixel(r: Double((v >> 16) & 0xFF) / a, g: Double((v >> 8) & 0xFF) / a,
                                b: Double(v & 0xFF) / a, a: a / 255)
        case .a8:
            return EncodedPixel(r: 0, g: 0, b: 0, a: Double(row.assumingMemoryBound(to: UInt8.self)[x]) / 255)
        case .argb32Linear:
            let v = row.assumingMemoryBound(to: UInt32.self)[x]
            let a = Double(v >> 24) / 255
            guard a > 0 else { return EncodedPixel(r: 0, g: 0, b: 0, a: 0) }
            return EncodedPixel(r: srgbEncode(srgbToLinearTable[Int((v >> 16) & 0xFF)] / a),
                                g: srgbEncode(srgbToLinearTable[Int((v >> 8) & 0xFF)] / a),
                                b: srgbEncode(srgbToLinearTable[Int(v & 0xFF)] / a), a: a)
        case .rgbaFloat:
            let p = row.assumingMemoryBound(to: Float.self) + 4 * x
            let a = Double(min(1, max(0, p[3])))
            guard a > 0 else { return EncodedPixel(r: 0, g: 0, b: 0, a: 0) }
            return EncodedPixel(r: srgbEncode(Double(p[0]) / a), g: srgbEncode(Double(p[1]) / a),
                                b: srgbEncode(Double(p[2]) / a), a: a)
        }
    }

    func setEncodedPixel(x: Int, y: Int, _ p: EncodedPixel) {
        let row = data + y * stride
        let a = min(1, max(0, p.a))
        let byte = unitByte
        switch format {
        case .argb32:
            row.assumingMemoryBound(to: UInt32.self)[x] = premultipliedARGB(r: p.r, g: p.g, b: p.b, alpha: a)
        case .xrgb32:
            row.assumingMemoryBound(to: UInt32.self)[x] = 0xFF00_0000 | byte(p.r) << 16 | byte(p.g) << 8 | byte(p.b)
        case .a8:
            row.assumingMemoryBound(to: UInt8.self)[x] = UInt8(byte(a))
        case .argb32Linear:
            let a8 = byte(a), af = Double(a8) / 255
            func channel(_ e: Double) -> UInt32 { byte(srgbEncode(min(1, max(0, srgbDecode(e))) * af)) }
            row.assumingMemoryBound(to: UInt32.self)[x] = a8 << 24 | channel(p.r) << 16 | channel(p.g) << 8 | channel(p.b)
        case .rgbaFloat:
            let q = row.assumingMemoryBound(to: Float.self) + 4 * x
            q[0] = Float(srgbDecode(p.r) * a); q[1] = Float(srgbDecode(p.g) * a)
            q[2] = Float(srgbDecode(p.b) * a); q[3] = Float(a)
        }
    }

    /// A copy in another format, converting colour encoding and premultiplication per pixel so
    /// each pixel keeps its colour (e.g. an sRGB canvas becomes linear-light floats). Converting
    /// to `xrgb32` drops alpha; to `a8` keeps only alpha.
    public func converted(to target: PixelFormat) throws -> Surface {
        if target == format { return try copy() }
        let out = try Surface(width: width, height: height, format: target)
        for y in 0..<height {
            for x in 0..<width { out.setEncodedPixel(x: x, y: y, encodedPixel(x: x, y: y)) }
        }
        return out
    }
}

/// `v` clamped to 0…1 as a byte 0…255, rounded half away from zero (as `rounded()` does, without
/// its library call: for x ≥ 0, x − ⌊x⌋ is exact).
@inline(__always)
func unitByte(_ v: Double) -> UInt32 {
    let x = min(1, max(0, v)) * 255, f = x.rounded(.down)
    return UInt32(x - f >= 0.5 ? f + 1 : f)
}

/// An un-premultiplied colour (channels and `alpha` in 0…1) as the premultiplied 8-bit word
/// `argb32` stores: the alpha rounded first and each channel multiplied by that rounded alpha,
/// so an 8-bit round trip is exact.
@inline(__always)
func premultipliedARGB(r: Double, g: Double, b: Double, alpha: Double) -> UInt32 {
    let a8 = unitByte(alpha), af = Double(a8) / 255
    return a8 << 24 | unitByte(r * af) << 16 | unitByte(g * af) << 8 | unitByte(b * af)
}

/// Un-premultiplies one 8-bit premultiplied ARGB value, rounding to nearest.
@inline(__always)
func unpremultiply(argb v: UInt32) -> RGBA8 {
    let a = v >> 24
    if a == 255 { return RGBA8(UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF), 255) }
    if a == 0 { return RGBA8(0, 0, 0, 0) }
    @inline(__always) func c(_ x: UInt32) -> UInt8 { UInt8(min(255, (x * 255 + a / 2) / a)) }
    return RGBA8(c((v >> 16) & 0xFF), c((v >> 8) & 0xFF), c(v & 0xFF), UInt8(a))
}

extension Surface {
    /// The pixels as un-premultiplied 8-bit B, G, R, A bytes, row after row with no padding:
    /// what `ffmpeg -f rawvideo -pix_fmt bgra` reads. Opaque pixels are copied as stored (a
    /// little-endian `a8r8g8b8` word is already B, G, R, A in memory).
    public func straightBGRA() -> Data {
        var out = Data(count: width * height * 4)
        out.withUnsafeMutableBytes { raw in
            let dst = raw.baseAddress!
            for y in 0..<height {
                let row = data + y * stride
                let base = dst + y * width * 4
                guard format == .argb32 else {
                    let bytes = base.assumingMemoryBound(to: UInt8.self)
                    for x in 0..<width {
                        let p = pixel(x: x, y: y)
                        bytes[4 * x] = p.b; bytes[4 * x + 1] = p.g; bytes[4 * x + 2] = p.r; bytes[4 * x + 3] = p.a
                    }
                    continue
                }
                // Words in, words out: an opaque or transparent pixel is copied as it is (a
                // transparent premultiplied pixel is all zero), others are un-premultiplied.
                let source = row.assumingMemoryBound(to: UInt32.self)
                let target = base.assumingMemoryBound(to: UInt32.self)
                for x in 0..<width {
                    let v = source[x], a = v >> 24
                    if a == 255 || v == 0 { target[x] = v; continue }
                    let p = unpremultiply(argb: v)
                    target[x] = UInt32(p.a) << 24 | UInt32(p.r) << 16 | UInt32(p.g) << 8 | UInt32(p.b)
                }
            }
        }
        return out
    }
}
