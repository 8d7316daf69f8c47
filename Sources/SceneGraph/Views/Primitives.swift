import Foundation

extension Color: View, PrimitiveView {
    public var body: EmptyView { EmptyView() }
    func makeNode() -> ViewNode { .shape({ Path($0) }, .color(self), fillRule: .nonZero) }
}

/// A shape filled with a colour (what `Shape.fill(_:)` returns).
public struct _ShapeView<Content: Shape>: View, PrimitiveView {
    public var shape: Content
    public var color: Color
    public var fillRule: FillRule
    public var body: EmptyView { EmptyView() }
    func makeNode() -> ViewNode {
        let shape = self.shape
        return .shape({ shape.path(in: $0) }, .color(color), fillRule: fillRule)
    }
}

extension Shape {
    /// The shape filled with the foreground colour (black in light mode).
    public var body: _ShapeView<Self> { _ShapeView(shape: self, color: .primary, fillRule: .nonZero) }

    /// The shape filled with `color` (SwiftUI's `fill(_:style:)`, colours for now).
    public func fill(_ color: Color, style: FillStyle = FillStyle()) -> _ShapeView<Self> {
        _ShapeView(shape: self, color: color, fillRule: style.isEOFilled ? .evenOdd : .nonZero)
    }
}

/// How a shape is filled (SwiftUI's `FillStyle`).
public struct FillStyle: Hashable, Sendable {
    public var isEOFilled: Bool
    public var isAntialiased: Bool
    public init(eoFill: Bool = false, antialiased: Bool = true) {
        isEOFilled = eoFill
        isAntialiased = antialiased
    }
}
