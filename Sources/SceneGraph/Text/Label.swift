import Foundation

/// A title with an icon (SwiftUI's `Label`): by default the icon, then the title, side by side
/// and centred on each other, the icon sized by the same font. `labelStyle(_:)` around it shows
/// both, only the icon or only the title.
///
/// ```swift
/// Label("Descargando", systemImage: "arrow.down").font(.headline).foregroundStyle(.blue)
/// Label { Text("Radar") } icon: { Circle().frame(width: 12, height: 12) }
/// ```
public struct Label<Title: View, Icon: View>: View, PrimitiveView, Sendable {
    let title: ViewNode
    let icon: ViewNode

    public init(@ViewBuilder title: () -> Title, @ViewBuilder icon: () -> Icon) {
        self.title = resolve(title())
        self.icon = resolve(icon())
    }

    public var body: Never { primitiveBody(of: Self.self) }
    func makeNode() -> ViewNode { .leaf(.label(icon: icon, title: title)) }
}

extension Label where Title == Text, Icon == Image {
    /// `title` beside the symbol `systemImage` (an SF Symbols name, see `SymbolSet`).
    public init<S: StringProtocol>(_ title: S, systemImage: String) {
        self.init(title: { Text(title) }, icon: { Image(systemName: systemImage) })
    }
}

/// How labels show their parts (SwiftUI's label styles).
public enum LabelStyle: String, Hashable, Sendable {
    /// The platform's choice: on iOS in a plain container, the title and the icon.
    case automatic
    case titleAndIcon
    case iconOnly
    case titleOnly
}

extension View {
    /// How every `Label` inside shows its title and icon.
    public func labelStyle(_ style: LabelStyle) -> _ModifiedView<Self> {
        modified(.meta(.environment(.labelStyle(style))))
    }
}

/// The space between a label's icon and its title. SwiftUI does not document it; 8 points is
/// the gap commonly reproduced from iOS screenshots (not verified here against an iPhone).
public let labelSpacing: CGFloat = 8

extension TextEnvironment {
    /// A label as its style shows it here: icon and title in a centred row, or one of them.
    func label(icon: ViewNode, title: ViewNode) -> ViewNode {
        switch labelStyle {
        case .automatic, .titleAndIcon: .container(.stack(.horizontal, alignment: 0.5, spacing: labelSpacing, [icon, title]))
        case .iconOnly: icon
        case .titleOnly: title
        }
    }
}
