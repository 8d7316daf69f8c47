import Foundation

/// A colour with sRGB-encoded components and an opacity, as SwiftUI's `Color` stores them.
///
/// Components may leave [0, 1] (extended range); they are clamped only where an 8-bit surface
/// stores them. The named colours are SwiftUI's light-mode system colours.
///
/// ```swift
/// let c = Color(red: 1, green: 0.5, blue: 0).opacity(0.25)
/// let d = Color(hex: "#007AFF")   // == .blue
/// ```
public struct Color: Hashable, Sendable {
    /// sRGB-encoded red, green and blue, and the opacity (alpha) in [0, 1].
    public var red: Double, green: Double, blue: Double, alpha: Double

    /// Colour spaces a colour can be given in, as SwiftUI's `Color.RGBColorSpace`.
    public enum RGBColorSpace: Hashable, Sendable {
        /// Components are sRGB-encoded (the default).
        case sRGB
        /// Components are linear-light sRGB primaries; stored encoded.
        case sRGBLinear
    }

    public init(red: Double, green: Double, blue: Double, opacity: Double = 1) {
        self.init(.sRGB, red: red, green: green, blue: blue, opacity: opacity)
    }

    public init(_ colorSpace: RGBColorSpace = .sRGB, red: Double, green: Double, blue: Double, opacity: Double = 1) {
        switch colorSpace {
        case .sRGB: (self.red, self.green, self.blue) = (red, green, blue)
        case .sRGBLinear: (self.red, self.green, self.blue) = (srgbEncode(red), srgbEncode(green), srgbEncode(blue))
        }
        alpha = Opacity(opacity).value
    }

    public init(white: Double, opacity: Double = 1) {
        self.init(red: white, green: white, blue: white, opacity: opacity)
    }

    public init(_ colorSpace: RGBColorSpace, white: Double, opacity: Double = 1) {
        self.init(colorSpace, red: white, green: white, blue: white, opacity: opacity)
    }

    /// Parses `#RGB`, `#RRGGBB` or `#RRGGBBAA` (the `#` is optional); `nil` for anything else.
    public init?(hex: String) {
        var digits = Substring(hex)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.allSatisfy(\.isHexDigit), let value = UInt64(digits, radix: 16) else { return nil }
        switch digits.count {
        case 3:
            let r = Double((value >> 8) & 0xF), g = Double((value >> 4) & 0xF), b = Double(value & 0xF)
            self.init(red: r / 15, green: g / 15, blue: b / 15)
        case 6:
            self.init(rgb: UInt32(value))
        case 8:
            self.init(rgb: UInt32(value >> 8), alpha8: UInt8(value & 0xFF))
        default:
            return nil
        }
    }

    /// A colour from a packed `0xRRGGBB` and an 8-bit alpha (A8/255, as the reference scenes give).
    public init(rgb: UInt32, alpha8: UInt8 = 255) {
        self.init(red: Double((rgb >> 16) & 0xFF) / 255, green: Double((rgb >> 8) & 0xFF) / 255,
                  blue: Double(rgb & 0xFF) / 255, opacity: Double(alpha8) / 255)
    }

    /// The same colour with its opacity multiplied by `opacity` (SwiftUI's `Color.opacity(_:)`).
    public func opacity(_ opacity: Double) -> Color {
        var c = self
        c.alpha = Opacity(alpha * opacity).value
        return c
    }

    /// Linear-light components (the sRGB transfer function inverted, mirrored below 0).
    public var linearComponents: (red: Double, green: Double, blue: Double) {
        (srgbDecode(red), srgbDecode(green), srgbDecode(blue))
    }

    /// `#RRGGBB` or `#RRGGBBAA` when translucent, from the clamped 8-bit components.
    public var hexString: String {
        func byte(_ v: Double) -> Int { Int((min(1, max(0, v)) * 255).rounded()) }
        let rgb = String(format: "#%02X%02X%02X", byte(red), byte(green), byte(blue))
        return alpha >= 1 ? rgb : rgb + String(format: "%02X", byte(alpha))
    }
}

extension Color: CustomStringConvertible {
    public var description: String { hexString }
}

// MARK: - Named colours

extension Color {
    // SwiftUI's light-mode system colours (Apple's Human Interface Guidelines, iOS 17 values).
    public static let red = Color(rgb: 0xFF3B30)
    public static let orange = Color(rgb: 0xFF9500)
    public static let yellow = Color(rgb: 0xFFCC00)
    public static let green = Color(rgb: 0x34C759)
    public static let mint = Color(rgb: 0x00C7BE)
    public static let teal = Color(rgb: 0x30B0C7)
    public static let cyan = Color(rgb: 0x32ADE6)
    public static let blue = Color(rgb: 0x007AFF)
    public static let indigo = Color(rgb: 0x5856D6)
    public static let purple = Color(rgb: 0xAF52DE)
    public static let pink = Color(rgb: 0xFF2D55)
    public static let brown = Color(rgb: 0xA2845E)
    public static let gray = Color(rgb: 0x8E8E93)
    public static let black = Color(rgb: 0x000000)
    public static let white = Color(rgb: 0xFFFFFF)
    public static let clear = Color(red: 0, green: 0, blue: 0, opacity: 0)
    /// The primary label colour in light mode: black.
    public static let primary = Color(rgb: 0x000000)
    /// The secondary label colour in light mode: #3C3C43 at 60 %.
    public static let secondary = Color(rgb: 0x3C3C43, alpha8: 153)

    /// Every named colour, by its SwiftUI name (used by the scene language and the docs).
    public static let named: [(name: String, color: Color)] = [
        ("red", .red), ("orange", .orange), ("yellow", .yellow), ("green", .green), ("mint", .mint),
        ("teal", .teal), ("cyan", .cyan), ("blue", .blue), ("indigo", .indigo), ("purple", .purple),
        ("pink", .pink), ("brown", .brown), ("gray", .gray), ("black", .black), ("white", .white),
        ("clear", .clear), ("primary", .primary), ("secondary", .secondary),
    ]
}

// MARK: - The sRGB transfer function

/// sRGB encoding (IEC 61966-2-1), extended above 1 and mirrored below 0 as Core Graphics'
/// extended sRGB does, so out-of-range linear values survive a round trip.
@inlinable
public func srgbEncode(_ linear: Double) -> Double {
    let v = abs(linear)
    let e = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055
    return linear < 0 ? -e : e
}

/// The inverse of `srgbEncode`.
@inlinable
public func srgbDecode(_ encoded: Double) -> Double {
    let v = abs(encoded)
    let l = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    return encoded < 0 ? -l : l
}
