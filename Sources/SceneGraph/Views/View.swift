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

/// Views the engine draws itself: their `Body` is `Never` (as in SwiftUI), and the resolver
/// asks them for their node instead.
protocol PrimitiveView {
    func makeNode() -> ViewNode
}

/// The body of a primitive view, which has none: the renderer draws such views directly and
/// never asks. Reaching it means calling `body` on a primitive by hand, a programming error,
/// as in SwiftUI.
func primitiveBody<V>(of _: V.Type) -> Never {
    preconditionFailure("\(V.self) is a primitive view: it has no body (the renderer draws it directly)")
}

extension Never: View {
    public typealias Body = Never
    public var body: Never { self }
}

/// Resolves a view to its node: primitives directly, compositions through their body.
func resolve<V: View>(_ view: V) -> ViewNode {
    if let primitive = view as? PrimitiveView { return primitive.makeNode() }
    return resolve(view.body)
}

/// A view that draws nothing and takes no space.
public struct EmptyView: View, PrimitiveView, Sendable {
    public init() {}
    public var body: Never { primitiveBody(of: Self.self) }
    func makeNode() -> ViewNode { .empty }
}

/// Several views in order (what `@ViewBuilder` makes of a block).
public struct TupleView<each Content: View>: View, PrimitiveView {
    let content: (repeat each Content)
    public init(_ content: repeat each Content) { self.content = (repeat each content) }
    public var body: Never { primitiveBody(of: Self.self) }
    func makeNode() -> ViewNode {
        var nodes: [ViewNode] = []
        for view in repeat each content {
            nodes.append(.modified(.meta(.identity(ViewID(StructuralID.position(nodes.count)))), resolve(view)))
        }
        return .container(.sequence(nodes))
    }
}

extension TupleView: Sendable where repeat each Content: Sendable {}

/// One of two views (`if`/`else` in a builder).
public enum _ConditionalContent<TrueContent: View, FalseContent: View>: View, PrimitiveView {
    case first(TrueContent)
    case second(FalseContent)
    public var body: Never { primitiveBody(of: Self.self) }
    func makeNode() -> ViewNode {
        switch self {
        case .first(let v): .modified(.meta(.identity(ViewID(StructuralID.branch(true)))), resolve(v))
        case .second(let v): .modified(.meta(.identity(ViewID(StructuralID.branch(false)))), resolve(v))
        }
    }
}

extension _ConditionalContent: Sendable where TrueContent: Sendable, FalseContent: Sendable {}

/// An optional view (`if` without `else`), and a list of views (`for` loops).
extension Optional: View where Wrapped: View {
    public var body: Never { primitiveBody(of: Self.self) }
}
extension Optional: PrimitiveView where Wrapped: View {
    func makeNode() -> ViewNode { map(resolve) ?? .empty }
}

public struct _ViewList<Content: View>: View, PrimitiveView {
    let views: [Content]
    public var body: Never { primitiveBody(of: Self.self) }
    func makeNode() -> ViewNode { .container(.sequence(views.map(resolve))) }
}

extension _ViewList: Sendable where Content: Sendable {}

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
