import Foundation

/// The default space between stack children, 8 points (what SwiftUI puts between shapes).
public let defaultStackSpacing: CGFloat = 8

/// Overlays its children, each sized by the stack's proposal and aligned in the stack's frame
/// (SwiftUI's `ZStack`).
public struct ZStack<Content: View>: View, PrimitiveView, Sendable {
    public var alignment: Alignment
    let content: ViewNode
    public init(alignment: Alignment = .center, @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.content = resolve(content())
    }
    public var body: Never { primitiveBody(of: Self.self) }
    func makeNode() -> ViewNode { .container(.zstack(alignment, ViewNode.children(content))) }
}

/// Children side by side, least flexible first served (SwiftUI's `HStack`).
public struct HStack<Content: View>: View, PrimitiveView, Sendable {
    public var alignment: VerticalAlignment
    public var spacing: CGFloat?
    let content: ViewNode
    public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.spacing = spacing
        self.content = resolve(content())
    }
    public var body: Never { primitiveBody(of: Self.self) }
    func makeNode() -> ViewNode {
        .container(.stack(.horizontal, alignment: alignment.fraction, spacing: spacing, ViewNode.children(content)))
    }
}

/// Children one above another (SwiftUI's `VStack`).
public struct VStack<Content: View>: View, PrimitiveView, Sendable {
    public var alignment: HorizontalAlignment
    public var spacing: CGFloat?
    let content: ViewNode
    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.spacing = spacing
        self.content = resolve(content())
    }
    public var body: Never { primitiveBody(of: Self.self) }
    func makeNode() -> ViewNode {
        .container(.stack(.vertical, alignment: alignment.fraction, spacing: spacing, ViewNode.children(content)))
    }
}
