import Foundation

/// A modifier you write once and apply to any view (SwiftUI's `ViewModifier`): `body(content:)`
/// returns the view with the modification, built from the content placeholder.
///
/// ```swift
/// struct Badge: ViewModifier {
///     var color: Color
///     func body(content: Content) -> some View {
///         content.padding(8).background(color.opacity(0.15), in: .capsule)
///     }
/// }
/// Circle().frame(width: 20, height: 20).modifier(Badge(color: .mint))
/// ```
public protocol ViewModifier {
    associatedtype Body: View
    /// The view being modified, as `body(content:)` receives it.
    typealias Content = _ViewModifier_Content<Self>
    @ViewBuilder func body(content: Content) -> Body
}

/// The view a `ViewModifier` modifies, standing in for it inside `body(content:)`.
public struct _ViewModifier_Content<Modifier: ViewModifier>: View, PrimitiveView, Sendable {
    let node: ViewNode
    public var body: Never { primitiveBody(of: Self.self) }
    func makeNode() -> ViewNode { node }
}

/// A view with a modifier applied (SwiftUI's `ModifiedContent`): what `.modifier(_:)` and every
/// built-in modifier return.
public struct ModifiedContent<Content, Modifier> {
    public var content: Content
    public var modifier: Modifier
    public init(content: Content, modifier: Modifier) {
        self.content = content
        self.modifier = modifier
    }
}

extension ModifiedContent: Sendable where Content: Sendable, Modifier: Sendable {}

extension ModifiedContent: View, PrimitiveView where Content: View, Modifier: ViewModifier {
    public var body: Never { primitiveBody(of: Self.self) }
    func makeNode() -> ViewNode {
        let inner = resolve(content)
        if let engine = modifier as? _EngineModifier { return .modified(engine.modifier, inner) }
        return resolve(modifier.body(content: _ViewModifier_Content(node: inner)))
    }
}

extension ModifiedContent: ViewModifier where Content: ViewModifier, Modifier: ViewModifier {
    /// Two modifiers in a row (`first.concat(second)`): the first applied, then the second.
    public func body(content: _ViewModifier_Content<Self>) -> some View {
        let first = _ViewModifier_Content<Content>(node: content.node)
        return AnyView(node: resolve(modifier.body(content: _ViewModifier_Content(node: resolve(self.content.body(content: first))))))
    }
}

extension ViewModifier {
    /// This modifier followed by `modifier`.
    public func concat<T: ViewModifier>(_ modifier: T) -> ModifiedContent<Self, T> {
        ModifiedContent(content: self, modifier: modifier)
    }
}

extension View {
    /// The view modified by `modifier` (SwiftUI's `modifier(_:)`).
    public func modifier<T: ViewModifier>(_ modifier: T) -> ModifiedContent<Self, T> {
        ModifiedContent(content: self, modifier: modifier)
    }
}

/// One of the engine's own modifiers (`opacity`, `frame`, `compositingGroup` …), applied by
/// layout and lowering rather than through a body.
public struct _EngineModifier: ViewModifier, Sendable {
    let modifier: Modifier
    public func body(content: Content) -> Never { primitiveBody(of: Self.self) }
}

/// What the engine's modifiers return.
public typealias _ModifiedView<Content: View> = ModifiedContent<Content, _EngineModifier>

extension View {
    /// This view wrapped by one of the engine's modifiers.
    func modified(_ modifier: Modifier) -> _ModifiedView<Self> {
        ModifiedContent(content: self, modifier: _EngineModifier(modifier: modifier))
    }
}
