import Foundation

extension Color: View, PrimitiveView {
    public var body: Never { primitiveBody(of: Self.self) }
    func makeNode() -> ViewNode { .leaf(.shape(ShapeGeometry(Rectangle()), style: self, fillRule: .nonZero)) }
}

/// A shape filled with a style, a colour or a gradient (what `Shape.fill(_:style:)` returns).
public struct _ShapeView<Content: Shape, Style: ShapeStyle>: View, PrimitiveView, Sendable {
    public var shape: Content
    public var style: Style
    public var fillRule: FillRule
    public var body: Never { primitiveBody(of: Self.self) }
    func makeNode() -> ViewNode {
        .leaf(.shape(ShapeGeometry(shape), style: style, fillRule: fillRule))
    }
}

extension Shape {
    /// The shape filled with the environment's foreground style (black unless a
    /// `foregroundStyle(_:)` above says otherwise).
    public var body: _ShapeView<Self, ForegroundStyle> { _ShapeView(shape: self, style: ForegroundStyle(), fillRule: .nonZero) }

    /// The shape filled with `content`, a colour or a gradient laid out in the shape's frame
    /// (SwiftUI's `fill(_:style:)`).
    public func fill<S: ShapeStyle>(_ content: S, style: FillStyle = FillStyle()) -> _ShapeView<Self, S> {
        _ShapeView(shape: self, style: content, fillRule: style.isEOFilled ? .evenOdd : .nonZero)
    }
}

/// How a shape is filled (SwiftUI's `FillStyle`). `isAntialiased` is kept for SwiftUI's
/// signature; every edge is drawn anti-aliased.
public struct FillStyle: Hashable, Sendable {
    public var isEOFilled: Bool
    public var isAntialiased: Bool
    public init(eoFill: Bool = false, antialiased: Bool = true) {
        isEOFilled = eoFill
        isAntialiased = antialiased
    }
}
