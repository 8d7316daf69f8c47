import Foundation

/// A colour transform on un-premultiplied, sRGB-encoded RGBA (what SwiftUI's colour effects
/// do): out = M · (r, g, b, a, 1), clamped to [0, 1]. Rows are red, green, blue, alpha; the
/// fifth column is the offset.
public struct ColorMatrix: Hashable, Sendable {
    public var rows: [Double]

    public init(_ rows: [Double]) {
        precondition(rows.count == 20, "a colour matrix has 4 rows of 5")
        self.rows = rows
    }

    public static let identity = ColorMatrix([1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0])

    /// Luminance weights of sRGB (Rec. 709), for saturation and hue rotation.
    static let luma = (r: 0.2126, g: 0.7152, b: 0.0722)

    /// Each channel multiplied by `color`'s (SwiftUI's `colorMultiply`).
    public static func multiply(_ color: Color) -> ColorMatrix {
        ColorMatrix([color.red, 0, 0, 0, 0, 0, color.green, 0, 0, 0, 0, 0, color.blue, 0, 0, 0, 0, 0, color.alpha, 0])
    }
    /// `amount` added to red, green and blue (SwiftUI's `brightness`, −1…1).
    public static func brightness(_ amount: Double) -> ColorMatrix {
        ColorMatrix([1, 0, 0, 0, amount, 0, 1, 0, 0, amount, 0, 0, 1, 0, amount, 0, 0, 0, 1, 0])
    }
    /// Distances from mid-grey scaled by `amount` (SwiftUI's `contrast`: 0 grey, 1 unchanged).
    public static func contrast(_ amount: Double) -> ColorMatrix {
        let o = 0.5 * (1 - amount)
        return ColorMatrix([amount, 0, 0, 0, o, 0, amount, 0, 0, o, 0, 0, amount, 0, o, 0, 0, 0, 1, 0])
    }
    /// Between the colour's luminance grey (0) and the colour (1) and beyond (SwiftUI's
    /// `saturation`).
    public static func saturation(_ amount: Double) -> ColorMatrix {
        let (lr, lg, lb) = luma, s = amount
        return ColorMatrix([lr + (1 - lr) * s, lg - lg * s, lb - lb * s, 0, 0,
                            lr - lr * s, lg + (1 - lg) * s, lb - lb * s, 0, 0,
                            lr - lr * s, lg - lg * s, lb + (1 - lb) * s, 0, 0,
                            0, 0, 0, 1, 0])
    }
    /// `amount` of the way to luminance grey (SwiftUI's `grayscale`).
    public static func grayscale(_ amount: Double) -> ColorMatrix { saturation(1 - amount) }
    /// Hues turned by `angle` keeping luminance (SVG's `hueRotate`, SwiftUI's `hueRotation`).
    public static func hueRotation(_ angle: Angle) -> ColorMatrix {
        let c = cos(angle.radians), s = sin(angle.radians)
        let (lr, lg, lb) = luma
        return ColorMatrix([lr + c * (1 - lr) - s * lr, lg - c * lg - s * lg, lb - c * lb + s * (1 - lb), 0, 0,
                            lr - c * lr + s * 0.143, lg + c * (1 - lg) + s * 0.140, lb - c * lb - s * 0.283, 0, 0,
                            lr - c * lr - s * (1 - lr), lg - c * lg + s * lg, lb + c * (1 - lb) + s * lb, 0, 0,
                            0, 0, 0, 1, 0])
    }
    /// Each colour channel c becomes 1 − c (SwiftUI's `colorInvert`).
    public static let invert = ColorMatrix([-1, 0, 0, 0, 1, 0, -1, 0, 0, 1, 0, 0, -1, 0, 1, 0, 0, 0, 1, 0])

    /// This matrix, then `outer`.
    public func followed(by outer: ColorMatrix) -> ColorMatrix {
        var out = [Double](repeating: 0, count: 20)
        for i in 0..<4 {
            for j in 0..<5 {
                var v = j == 4 ? outer.rows[i * 5 + 4] : 0
                for k in 0..<4 { v += outer.rows[i * 5 + k] * rows[k * 5 + j] }
                out[i * 5 + j] = v
            }
        }
        return ColorMatrix(out)
    }

    /// Un-premultiplied components through the matrix, clamped.
    @inline(__always)
    func apply(_ r: Double, _ g: Double, _ b: Double, _ a: Double) -> (Double, Double, Double, Double) {
        let m = rows
        func ch(_ i: Int) -> Double { min(1, max(0, m[i] * r + m[i + 1] * g + m[i + 2] * b + m[i + 3] * a + m[i + 4])) }
        return (ch(0), ch(5), ch(10), ch(15))
    }

    public func apply(to color: Color) -> Color {
        let (r, g, b, a) = apply(color.red, color.green, color.blue, color.alpha)
        return Color(red: r, green: g, blue: b, opacity: a)
    }
}

extension Surface {
    /// Every pixel of an 8-bit ARGB surface through `matrix`, on its un-premultiplied colour.
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
