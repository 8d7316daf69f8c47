import Foundation

/// An opacity: a fraction in [0, 1]. Values outside are clamped and NaN counts as 0 (nothing
/// drawn), once, where a value enters the engine, so nothing downstream has to clamp again.
///
/// ```swift
/// Opacity(1.5).value    // 1
/// Opacity(.nan).value   // 0
/// ```
public struct Opacity: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let value: Double

    public init(_ value: Double) {
        self.value = value.isNaN ? 0 : min(1, max(0, value))
    }

    public static let opaque = Opacity(1)
    public static let transparent = Opacity(0)

    public var isOpaque: Bool { value == 1 }
    public var isTransparent: Bool { value == 0 }

    /// The 8-bit alpha a layer composited with this opacity is multiplied by: pixman takes the
    /// top byte of the opacity's 16-bit solid alpha (`Surface.composite`), so 0.9 is 230/255,
    /// not the 229.5 that rounding 0.9 × 255 would tie on.
    public var layerAlpha8: UInt32 { UInt32(UInt16((value * 65535).rounded()) >> 8) }

    /// Both opacities at once (stays in [0, 1]).
    public static func * (a: Opacity, b: Opacity) -> Opacity { Opacity(a.value * b.value) }
    public static func < (a: Opacity, b: Opacity) -> Bool { a.value < b.value }

    public var description: String { String(format: "%.3f", value) }
}
