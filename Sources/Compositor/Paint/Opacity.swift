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

    /// Both opacities at once (stays in [0, 1]).
    public static func * (a: Opacity, b: Opacity) -> Opacity { Opacity(a.value * b.value) }
    public static func < (a: Opacity, b: Opacity) -> Bool { a.value < b.value }

    public var description: String { String(format: "%.3f", value) }
}
