import Foundation
import Typography

extension View {
    /// The font of every `Text` inside that sets none of its own.
    public func font(_ font: Font?) -> _ModifiedView<Self> {
        modified(.meta(.environment(.font(font))))
    }
    /// The most lines each `Text` inside shows (nil: no limit); the last kept line ends with
    /// "…" when text is cut.
    public func lineLimit(_ number: Int?) -> _ModifiedView<Self> {
        modified(.meta(.environment(.lineLimit(number.map { max(1, $0) }))))
    }
    /// How the lines of each `Text` inside sit within its width.
    public func multilineTextAlignment(_ alignment: TextAlignment) -> _ModifiedView<Self> {
        modified(.meta(.environment(.multilineTextAlignment(alignment))))
    }
    /// Where a truncated line gives way to "…".
    public func truncationMode(_ mode: Text.TruncationMode) -> _ModifiedView<Self> {
        modified(.meta(.environment(.truncationMode(mode))))
    }
    /// Points added between the lines of each `Text` inside.
    public func lineSpacing(_ spacing: CGFloat) -> _ModifiedView<Self> {
        modified(.meta(.environment(.lineSpacing(spacing.isFinite ? spacing : 0))))
    }
}

extension Text {
    /// Which end of a truncated line gives way to "…" (SwiftUI's `Text.TruncationMode`).
    public typealias TruncationMode = Typography.TruncationMode
}

extension TextEnvironment {
    /// The environment below `value`.
    func setting(_ value: EnvironmentValue) -> TextEnvironment {
        var copy = self
        switch value {
        case .font(let font): copy.font = font
        case .lineLimit(let limit): copy.paragraph.lineLimit = limit
        case .multilineTextAlignment(let alignment): copy.paragraph.alignment = alignment
        case .truncationMode(let mode): copy.paragraph.truncation = mode
        case .lineSpacing(let spacing): copy.paragraph.lineSpacing = Double(spacing)
        case .imageScale(let scale): copy.imageScale = scale
        case .symbolVariant(let variant): copy.symbolVariant = variant
        case .labelStyle(let style): copy.labelStyle = style
        case .foregroundStyle, .tint: break
        }
        return copy
    }
}
