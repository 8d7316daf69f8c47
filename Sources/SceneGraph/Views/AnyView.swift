import Foundation

/// A type-erased view (SwiftUI's `AnyView`): for views whose type is only known at run time,
/// such as those a scene file describes.
///
/// ```swift
/// let views: [AnyView] = [AnyView(Circle().fill(.blue)), AnyView(Color.orange)]
/// ```
public struct AnyView: View, PrimitiveView, Sendable {
    let node: ViewNode
    public init<V: View>(_ view: V) { node = resolve(view) }
    init(node: ViewNode) { self.node = node }
    /// Several views in order, laid out by the enclosing container as separate children.
    public init(sequence views: [AnyView]) { node = .container(.sequence(views.map(\.node))) }
    /// The view with a structural identity from where a scene file wrote it: animation matches
    /// views written at the same place in two states.
    public init(_ view: AnyView, sourceLine line: Int, column: Int) {
        node = .modified(.meta(.identity(ViewID(StructuralID.source(line: line, column: column)))), view.node)
    }
    public var body: Never { primitiveBody(of: Self.self) }
    func makeNode() -> ViewNode { node }
}

/// A type-erased shape style (SwiftUI's `AnyShapeStyle`).
public struct AnyShapeStyle: ShapeStyle {
    private let style: any ShapeStyle
    public init<S: ShapeStyle>(_ style: S) { self.style = (style as? AnyShapeStyle)?.style ?? style }
    public func _fill(in rect: CGRect) -> ShapeFill { style._fill(in: rect) }
    public var _readsEnvironment: Bool { style._readsEnvironment }
    var base: any ShapeStyle { style }
}

extension AnyShapeStyle: Equatable {
    /// Equal when the styles inside are of one type and equal.
    public static func == (a: AnyShapeStyle, b: AnyShapeStyle) -> Bool { stylesAreCertainlySame(a.style, b.style) }
}

/// Views made from each element of a collection (SwiftUI's `ForEach`); the container around it
/// lays each out as its own child. The views are made when the `ForEach` is.
///
/// ```swift
/// ForEach(0..<72, id: \.self) { index in
///     Capsule().fill(.blue).frame(width: 4, height: 20).offset(y: -60)
///         .rotationEffect(.degrees(Double(index) * 5))
/// }
/// ```
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: View, PrimitiveView {
    public let data: Data
    let node: ViewNode
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: (Data.Element) -> Content) {
        self.data = data
        node = .container(.sequence(data.map { .modified(.meta(.identity(ViewID(ExplicitID($0[keyPath: id])))), resolve(content($0))) }))
    }
    public var body: Never { primitiveBody(of: Self.self) }
    func makeNode() -> ViewNode { node }
}

extension ForEach: Sendable where Data: Sendable {}

extension ForEach where Data == Range<Int>, ID == Int {
    /// One view per integer of a constant range.
    public init(_ data: Range<Int>, @ViewBuilder content: (Int) -> Content) {
        self.init(data, id: \.self, content: content)
    }
}

extension ForEach where Data.Element: Identifiable, ID == Data.Element.ID {
    public init(_ data: Data, @ViewBuilder content: (Data.Element) -> Content) {
        self.init(data, id: \.id, content: content)
    }
}

/// Views grouped without a container of their own (SwiftUI's `Group`): the enclosing container
/// lays out each child, and a modifier written on the group applies to each.
public struct Group<Content: View>: View, PrimitiveView, Sendable {
    let node: ViewNode
    public init(@ViewBuilder content: () -> Content) { node = resolve(content()) }
    public var body: Never { primitiveBody(of: Self.self) }
    func makeNode() -> ViewNode { node }
}
