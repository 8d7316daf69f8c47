import Foundation

/// The tint of the environment (SwiftUI's `TintShapeStyle`): SwiftUI's accent colour, blue
/// (#007AFF), unless a `tint(_:)` written above says otherwise.
///
/// ```swift
/// Capsule().strokeBorder(.tint, lineWidth: 6)   // blue
/// ```
public struct TintShapeStyle: ShapeStyle, Hashable {
    public init() {}
    public func _fill(in rect: CGRect) -> ShapeFill { .color(.accentColor) }
    public var _readsEnvironment: Bool { true }
}

extension ShapeStyle where Self == TintShapeStyle {
    public static var tint: TintShapeStyle { TintShapeStyle() }
}

extension Color {
    /// The accent colour: SwiftUI's default, system blue (#007AFF).
    public static var accentColor: Color { .blue }
}

/// The environment values a leaf's style resolves against: written by `foregroundStyle(_:)`
/// and `tint(_:)` above it, nearest first.
struct EnvironmentValues: Sendable {
    /// nil: black (`.primary`).
    var foregroundStyle: (any ShapeStyle)?
    /// nil: the accent colour.
    var tint: (any ShapeStyle)?

    /// The environment below `value`. A style that names the environment itself
    /// (`foregroundStyle(.foreground)`, `tint(nil)`) means the value written above; a
    /// foreground of `.tint` stays the tint of wherever a leaf uses it, as in SwiftUI.
    func setting(_ value: EnvironmentValue) -> EnvironmentValues {
        var copy = self
        switch value {
        case .foregroundStyle(let s): copy.foregroundStyle = replacing(s, foreground: true, tint: false)
        case .tint(let s): copy.tint = replacing(s, foreground: true, tint: true)
        case .font, .lineLimit, .multilineTextAlignment, .truncationMode, .lineSpacing, .imageScale, .symbolVariant, .labelStyle:
            // Read by layout (`TextEnvironment`), not by drawing.
            break
        }
        return copy
    }

    /// `style` as a leaf here draws it: the environment's styles (`ForegroundStyle`,
    /// `TintShapeStyle`) in it replaced by their values.
    func resolve(_ style: any ShapeStyle) -> any ShapeStyle {
        replacing(style, foreground: true, tint: true)
    }

    private func replacing(_ style: any ShapeStyle, foreground: Bool, tint: Bool) -> any ShapeStyle {
        guard style._readsEnvironment else { return style }
        switch style {
        case is ForegroundStyle where foreground:
            return foregroundStyle.map { replacing($0, foreground: false, tint: tint) } ?? ForegroundStyle()
        case is TintShapeStyle where tint:
            return self.tint ?? TintShapeStyle()
        case let mixed as InterpolatedStyle:
            return InterpolatedStyle(from: replacing(mixed.from, foreground: foreground, tint: tint),
                                     to: replacing(mixed.to, foreground: foreground, tint: tint), progress: mixed.progress)
        case let erased as AnyShapeStyle:
            return replacing(erased.base, foreground: foreground, tint: tint)
        default:
            return style
        }
    }
}
