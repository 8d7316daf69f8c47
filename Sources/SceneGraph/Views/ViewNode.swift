import Foundation

/// A view resolved to what layout and lowering need: primitives, containers and modifiers,
/// with user views' bodies expanded.
indirect enum ViewNode {
    case empty
    /// Several children that the enclosing container lays out (a builder block, a list).
    case sequence([ViewNode])
    case shape((CGRect) -> Path, ShapePaint, fillRule: FillRule)
    case zstack(Alignment, [ViewNode])
    case frame(width: CGFloat?, height: CGFloat?, alignment: Alignment, ViewNode)
    case offset(CGSize, ViewNode)
    case opacity(Double, ViewNode)
    case compositingGroup(ViewNode)

    /// The children a container lays out: sequences flattened, empty views dropped.
    static func children(_ node: ViewNode) -> [ViewNode] {
        switch node {
        case .empty: []
        case .sequence(let nodes): nodes.flatMap(children)
        default: [node]
        }
    }
}

/// What fills a shape view.
enum ShapePaint {
    case color(Color)
}

/// Where a child sits in a larger space, as fractions of the free room (SwiftUI's `Alignment`).
public struct Alignment: Hashable, Sendable {
    public var horizontal: Double
    public var vertical: Double
    public init(horizontal: Double, vertical: Double) { self.horizontal = horizontal; self.vertical = vertical }

    public static let center = Alignment(horizontal: 0.5, vertical: 0.5)
    public static let leading = Alignment(horizontal: 0, vertical: 0.5)
    public static let trailing = Alignment(horizontal: 1, vertical: 0.5)
    public static let top = Alignment(horizontal: 0.5, vertical: 0)
    public static let bottom = Alignment(horizontal: 0.5, vertical: 1)
    public static let topLeading = Alignment(horizontal: 0, vertical: 0)
    public static let topTrailing = Alignment(horizontal: 1, vertical: 0)
    public static let bottomLeading = Alignment(horizontal: 0, vertical: 1)
    public static let bottomTrailing = Alignment(horizontal: 1, vertical: 1)

    /// The rectangle of `size` placed in `rect` by this alignment.
    func place(_ size: CGSize, in rect: CGRect) -> CGRect {
        CGRect(x: rect.minX + (rect.width - size.width) * horizontal,
               y: rect.minY + (rect.height - size.height) * vertical, width: size.width, height: size.height)
    }
}

/// Overlays its children, each sized by the stack's proposal and aligned in the stack's frame
/// (SwiftUI's `ZStack`).
public struct ZStack<Content: View>: View, PrimitiveView {
    public var alignment: Alignment
    let content: Content
    public init(alignment: Alignment = .center, @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.content = content()
    }
    public var body: EmptyView { EmptyView() }
    func makeNode() -> ViewNode { .zstack(alignment, ViewNode.children(resolve(content))) }
}

/// A view with a modifier applied (the engine's equivalent of SwiftUI's `ModifiedContent`).
public struct _ModifiedView<Content: View>: View, PrimitiveView {
    let content: Content
    let wrap: (ViewNode) -> ViewNode
    public var body: EmptyView { EmptyView() }
    func makeNode() -> ViewNode { wrap(resolve(content)) }
}

extension View {
    /// A fixed width and/or height; the child is proposed that size and aligned in it.
    public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center) -> _ModifiedView<Self> {
        _ModifiedView(content: self) { .frame(width: width, height: height, alignment: alignment, $0) }
    }
    /// Moves the drawing without changing layout.
    public func offset(x: CGFloat = 0, y: CGFloat = 0) -> _ModifiedView<Self> {
        _ModifiedView(content: self) { .offset(CGSize(width: x, height: y), $0) }
    }
    public func offset(_ offset: CGSize) -> _ModifiedView<Self> {
        _ModifiedView(content: self) { .offset(offset, $0) }
    }
    /// Multiplies into every leaf's opacity (each leaf blends on its own, overlaps show through),
    /// or into a compositing group's single composite when written after `compositingGroup()`.
    public func opacity(_ opacity: Double) -> _ModifiedView<Self> {
        _ModifiedView(content: self) { .opacity(min(1, max(0, opacity.isNaN ? 0 : opacity)), $0) }
    }
    /// Composites the content into an offscreen layer first; modifiers written after this apply
    /// once to the result.
    public func compositingGroup() -> _ModifiedView<Self> {
        _ModifiedView(content: self) { .compositingGroup($0) }
    }
}
