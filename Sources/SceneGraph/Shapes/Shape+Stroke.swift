import Foundation

/// The outline of a shape's stroke, itself a shape that fills with the non-zero rule.
///
/// The outline is built in the shape's own units with `flatteningTolerance` (0.1 point); the
/// renderer of the scene-graph issue will pass the device scale.
public struct _StrokedShape<Content: Shape>: Shape {
    public var shape: Content
    public var style: StrokeStyle
    public func path(in rect: CGRect) -> Path { shape.path(in: rect).strokedPath(style) }
}

extension Shape {
    /// The stroke centred on the shape's outline: half the width spills outside the frame.
    public func stroke(style: StrokeStyle, antialiased: Bool = true) -> _StrokedShape<Self> {
        _StrokedShape(shape: self, style: style)
    }
    public func stroke(lineWidth: CGFloat = 1, antialiased: Bool = true) -> _StrokedShape<Self> {
        stroke(style: StrokeStyle(lineWidth: lineWidth), antialiased: antialiased)
    }
}

extension InsettableShape {
    /// The stroke of the shape inset by half the line width, so it stays inside the frame.
    public func strokeBorder(style: StrokeStyle, antialiased: Bool = true) -> _StrokedShape<InsetShape> {
        inset(by: style.lineWidth / 2).stroke(style: style, antialiased: antialiased)
    }
    public func strokeBorder(lineWidth: CGFloat = 1, antialiased: Bool = true) -> _StrokedShape<InsetShape> {
        strokeBorder(style: StrokeStyle(lineWidth: lineWidth), antialiased: antialiased)
    }
}
