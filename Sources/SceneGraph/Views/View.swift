import Foundation

/// A piece of user interface described as a value (SwiftUI's `View`): either a primitive the
/// engine draws, or a composition given by `body`.
///
/// ```swift
/// struct Orbit: View {
///     var body: some View {
///         ZStack {
///             Circle().fill(.blue).frame(width: 64, height: 64).offset(x: -18)
///             Circle().fill(.orange).frame(width: 64, height: 64).offset(x: 18)
///         }
///         .compositingGroup()
///         .opacity(0.25)
///     }
/// }
/// ```
public protocol View {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }
}

/// Views the engine draws itself. Their `body` is empty; the resolver asks them for their node.
protocol PrimitiveView {
    func makeNode() -> ViewNode
}

/// Resolves a view to its node: primitives directly, compositions through their body.
func resolve<V: View>(_ view: V) -> ViewNode {
    if let primitive = view as? PrimitiveView { return primitive.makeNode() }
    return resolve(view.body)
}

/// A view that draws nothing and takes no space.
public struct EmptyView: View, PrimitiveView {
    public init() {}
    public var body: EmptyView { self }
    func makeNode() -> ViewNode { .empty }
}

/// Several views in order (what `@ViewBuilder` makes of a block).
public struct TupleView<each Content: View>: View, PrimitiveView {
    let content: (repeat each Content)
    public init(_ content: repeat each Content) { self.content = (repeat each content) }
    public var body: EmptyView { EmptyView() }
    func makeNode() -> ViewNode {
        var nodes: [ViewNode] = []
        for view in repeat each content {
            nodes.append(.identity(StructuralID.position(nodes.count), resolve(view)))
        }
        return .sequence(nodes)
    }
}

/// One of two views (`if`/`else` in a builder).
public enum _ConditionalContent<TrueContent: View, FalseContent: View>: View, PrimitiveView {
    case first(TrueContent)
    case second(FalseContent)
    public var body: EmptyView { EmptyView() }
    func makeNode() -> ViewNode {
        switch self {
        case .first(let v): .identity(StructuralID.branch(true), resolve(v))
        case .second(let v): .identity(StructuralID.branch(false), resolve(v))
        }
    }
}

/// An optional view (`if` without `else`), and a list of views (`for` loops).
extension Optional: View where Wrapped: View {
    public var body: EmptyView { EmptyView() }
}
extension Optional: PrimitiveView where Wrapped: View {
    func makeNode() -> ViewNode { map(resolve) ?? .empty }
}

public struct _ViewList<Content: View>: View, PrimitiveView {
    let views: [Content]
    public var body: EmptyView { EmptyView() }
    func makeNode() -> ViewNode { .sequence(views.map(resolve)) }
}

/// Builds views from blocks, as SwiftUI's `@ViewBuilder`: any number of children, `if`/`else`,
/// optionals and `for` loops.
@resultBuilder
public enum ViewBuilder {
    public static func buildBlock() -> EmptyView { EmptyView() }
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<repeat each Content> {
        TupleView(repeat each content)
    }
    public static func buildOptional<Content: View>(_ content: Content?) -> Content? { content }
    public static func buildEither<T: View, F: View>(first: T) -> _ConditionalContent<T, F> { .first(first) }
    public static func buildEither<T: View, F: View>(second: F) -> _ConditionalContent<T, F> { .second(second) }
    public static func buildArray<Content: View>(_ components: [Content]) -> _ViewList<Content> { _ViewList(views: components) }
    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> Content { content }
}
