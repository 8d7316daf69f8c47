import Foundation

/// A colour transform on un-premultiplied, sRGB-encoded RGBA (what SwiftUI's colour effects
/// do): out = M · (r, g, b, a) + offset, clamped to [0, 1]. Four rows of four coefficients
/// (red, green, blue, alpha out) and an offset per channel: fixed storage, so no matrix can
/// have the wrong shape.
public struct ColorMatrix: Hashable, Sendable {
    public var red: SIMD4<Double>
    public var green: SIMD4<Double>
    public var blue: SIMD4<Double>
    public var alpha: SIMD4<Double>
    public var offset: SIMD4<Double>

    public init(red: SIMD4<Double>, green: SIMD4<Double>, blue: SIMD4<Double>, alpha: SIMD4<Double>,
                offset: SIMD4<Double> = .zero) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha; self.offset = offset
    }

    /// From 20 values, four rows of five (the fifth the offset), as SVG's `feColorMatrix`
    /// writes them; nil unless there are exactly 20.
    public init?(rows values: [Double]) {
        guard values.count == 20 else { return nil }
        func row(_ i: Int) -> SIMD4<Double> { SIMD4(values[i * 5], values[i * 5 + 1], values[i * 5 + 2], values[i * 5 + 3]) }
        self.init(red: row(0), green: row(1), blue: row(2), alpha: row(3),
                  offset: SIMD4(values[4], values[9], values[14], values[19]))
    }

    /// The 20 values, four rows of five.
    public var rows: [Double] {
        [red[0], red[1], red[2], red[3], offset[0], green[0], green[1], green[2], green[3], offset[1],
         blue[0], blue[1], blue[2], blue[3], offset[2], alpha[0], alpha[1], alpha[2], alpha[3], offset[3]]
    }

    public static let identity = ColorMatrix(red: SIMD4(1, 0, 0, 0), green: SIMD4(0, 1, 0, 0), blue: SIMD4(0, 0, 1, 0),
                                             alpha: SIMD4(0, 0, 0, 1))

    /// Luminance weights of sRGB (Rec. 709), for saturation and hue rotation.
    static let luma = (r: 0.2126, g: 0.7152, b: 0.0722)

    /// Each channel multiplied by `color`'s (SwiftUI's `colorMultiply`).
    public static func multiply(_ color: Color) -> ColorMatrix {
        ColorMatrix(red: SIMD4(color.red, 0, 0, 0), green: SIMD4(0, color.green, 0, 0), blue: SIMD4(0, 0, color.blue, 0),
                    alpha: SIMD4(0, 0, 0, color.alpha))
    }
    /// `amount` added to red, green and blue (SwiftUI's `brightness`, −1…1).
    public static func brightness(_ amount: Double) -> ColorMatrix {
        var m = identity
        m.offset = SIMD4(amount, amount, amount, 0)
        return m
    }
    /// Distances from mid-grey scaled by `amount` (SwiftUI's `contrast`: 0 grey, 1 unchanged).
    public static func contrast(_ amount: Double) -> ColorMatrix {
        let o = 0.5 * (1 - amount)
        return ColorMatrix(red: SIMD4(amount, 0, 0, 0), green: SIMD4(0, amount, 0, 0), blue: SIMD4(0, 0, amount, 0),
                           alpha: SIMD4(0, 0, 0, 1), offset: SIMD4(o, o, o, 0))
    }
    /// Between the colour's luminance grey (0) and the colour (1) and beyond (SwiftUI's
    /// `saturation`).
    public static func saturation(_ amount: Double) -> ColorMatrix {
        let (lr, lg, lb) = luma, s = amount
        return ColorMatrix(red: SIMD4(lr + (1 - lr) * s, lg - lg * s, lb - lb * s, 0),
                           green: SIMD4(lr - lr * s, lg + (1 - lg) * s, lb - lb * s, 0),
                           blue: SIMD4(lr - lr * s, lg - lg * s, lb + (1 - lb) * s, 0),
                           alpha: SIMD4(0, 0, 0, 1))
    }
    /// `amount` of the way to luminance grey (SwiftUI's `grayscale`).
    public static func grayscale(_ amount: Double) -> ColorMatrix { saturation(1 - amount) }
    /// Hues turned by `angle` keeping luminance (SVG's `hueRotate`, SwiftUI's `hueRotation`).
    public static func hueRotation(_ angle: Angle) -> ColorMatrix {
        let c = cos(angle.radians), s = sin(angle.radians)
        let (lr, lg, lb) = luma
        return ColorMatrix(red: SIMD4(lr + c * (1 - lr) - s * lr, lg - c * lg - s * lg, lb - c * lb + s * (1 - lb), 0),
                           green: SIMD4(lr - c * lr + s * 0.143, lg + c * (1 - lg) + s * 0.140, lb - c * lb - s * 0.283, 0),
                           blue: SIMD4(lr - c * lr - s * (1 - lr), lg - c * lg + s * lg, lb + c * (1 - lb) + s * lb, 0),
                           alpha: SIMD4(0, 0, 0, 1))
    }
    /// Each colour channel c becomes 1 − c (SwiftUI's `colorInvert`).
    public static let invert = ColorMatrix(red: SIMD4(-1, 0, 0, 0), green: SIMD4(0, -1, 0, 0), blue: SIMD4(0, 0, -1, 0),
                                           alpha: SIMD4(0, 0, 0, 1), offset: SIMD4(1, 1, 1, 0))

    /// This matrix, then `outer`.
    public func followed(by outer: ColorMatrix) -> ColorMatrix {
        // Row i of the product: Σ_k outer[i][k] · row k of self; offsets likewise plus outer's.
        let inner = [red, green, blue, alpha]
        func compose(_ o: SIMD4<Double>) -> SIMD4<Double> {
            o[0] * inner[0] + o[1] * inner[1] + o[2] * inner[2] + o[3] * inner[3]
        }
        func composeOffset(_ o: SIMD4<Double>, _ base: Double) -> Double {
            // Summed in this order so results match to the last bit whatever SIMD does.
            base + o[0] * offset[0] + o[1] * offset[1] + o[2] * offset[2] + o[3] * offset[3]
        }
        return ColorMatrix(red: compose(outer.red), green: compose(outer.green), blue: compose(outer.blue), alpha: compose(outer.alpha),
                           offset: SIMD4(composeOffset(outer.red, outer.offset[0]), composeOffset(outer.green, outer.offset[1]),
                                         composeOffset(outer.blue, outer.offset[2]), composeOffset(outer.alpha, outer.offset[3])))
    }

    /// `p` of the way to `other`, entry by entry (what animation does with colour effects).
    public func interpolated(to other: ColorMatrix, _ p: Double) -> ColorMatrix {
        func lerp(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> { a + (b - a) * p }
        return ColorMatrix(red: lerp(red, other.red), green: lerp(green, other.green), blue: lerp(blue, other.blue),
                           alpha: lerp(alpha, other.alpha), offset: lerp(offset, other.offset))
    }

    /// Un-premultiplied components through the matrix, clamped.
    @inline(__always)
    func apply(_ r: Double, _ g: Double, _ b: Double, _ a: Double) -> (Double, Double, Double, Double) {
        // Summed left to right (not `SIMD.sum()`, whose order is unspecified) so a colour
        // rounds the same way on every machine.
        func ch(_ m: SIMD4<Double>, _ o: Double) -> Double { min(1, max(0, m[0] * r + m[1] * g + m[2] * b + m[3] * a + o)) }
        return (ch(red, offset[0]), ch(green, offset[1]), ch(blue, offset[2]), ch(alpha, offset[3]))
    }

    public func apply(to color: Color) -> Color {
        let (r, g, b, a) = apply(color.red, color.green, color.blue, color.alpha)
        return Color(red: r, green: g, blue: b, opacity: a)
    }
}

extension Surface {
    /// Every pixel of an 8-bit ARGB surface through `matrix`, on its un-premultiplied colour.
    /// Each pixel's luminance becomes its alpha, its colour black: alpha = 0.2125 R + 0.7154 G
    /// + 0.0721 B of the premultiplied, sRGB-encoded colour (SVG's luminance mask, which weights
    /// a colour's luminance by its alpha; the coefficients are SVG's `luminanceToAlpha`).
    public func convertLuminanceToAlpha() {
        precondition(format == .argb32, "luminance to alpha applies to 8-bit ARGB layers")
        for y in 0..<height {
            let row = (data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let p = row[x]
                // Weights in 1/65536: 13926 + 46884 + 4725 = 65535, so white stays 255.
                let l = (13926 * ((p >> 16) & 0xFF) + 46884 * ((p >> 8) & 0xFF) + 4725 * (p & 0xFF) + 32768) >> 16
                row[x] = min(l, 255) << 24
            }
        }
    }

    public func apply(_ matrix: ColorMatrix) {
        precondition(format == .argb32, "colour matrices apply to 8-bit ARGB layers")
        for y in 0..<height {
            let row = (data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let p = row[x]
                let a = Double(p >> 24) / 255
                var r = 0.0, g = 0.0, b = 0.0
                if a > 0 {
                    r = Double((p >> 16) & 0xFF) / 255 / a
                    g = Double((p >> 8) & 0xFF) / 255 / a
                    b = Double(p & 0xFF) / 255 / a
                }
                let (nr, ng, nb, na) = matrix.apply(min(1, r), min(1, g), min(1, b), a)
                func byte(_ v: Double) -> UInt32 { UInt32((v * 255).rounded()) }
                row[x] = byte(na) << 24 | byte(nr * na) << 16 | byte(ng * na) << 8 | byte(nb * na)
            }
        }
    }
}
