import Foundation

/// The outline of a shape's stroke, itself a shape that fills with the non-zero rule.
///
/// Drawn in a view, the outline is built for the device resolution: curves flattened within
/// 0.1 device pixel whatever the render's scale and transforms (`path(in:)` alone, outside a
/// render, uses 0.1 of the shape's units). `antialiased: false` is accepted for SwiftUI's
/// signature and ignored: every edge is anti-aliased.
public struct _StrokedShape<Content: Shape>: Shape {
    public var shape: Content
    public var style: StrokeStyle
    public func path(in rect: CGRect) -> Path { shape.path(in: rect).strokedPath(style) }
    /// The stroked shape's own data, then the line width and dash phase (what SwiftUI's
    /// `StrokeStyle` animates).
    public var animatableData: AnimatablePair<Content.AnimatableData, AnimatablePair<CGFloat, CGFloat>> {
        get { AnimatablePair(shape.animatableData, AnimatablePair(style.lineWidth, style.dashPhase)) }
        set {
            shape.animatableData = newValue.first
            style.lineWidth = max(0, newValue.second.first)
            style.dashPhase = newValue.second.second
        }
    }
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

extension Shape {
    /// The shape's outline painted with `content`, a colour or a gradient laid out in the
    /// shape's frame (SwiftUI's `stroke(_:style:)`); the stroke straddles the outline.
    ///
    /// ```swift
    /// Circle().stroke(.red, style: StrokeStyle(lineWidth: 4, dash: [8, 4]))
    /// ```
    public func stroke<S: ShapeStyle>(_ content: S, style: StrokeStyle, antialiased: Bool = true) -> _ShapeView<_StrokedShape<Self>, S> {
        stroke(style: style, antialiased: antialiased).fill(content)
    }
    /// The shape's outline `lineWidth` wide, painted with `content` (SwiftUI's `stroke(_:lineWidth:)`).
    public func stroke<S: ShapeStyle>(_ content: S, lineWidth: CGFloat = 1, antialiased: Bool = true) -> _ShapeView<_StrokedShape<Self>, S> {
        stroke(content, style: StrokeStyle(lineWidth: lineWidth), antialiased: antialiased)
    }
}

extension InsettableShape {
    /// The outline drawn entirely inside the frame, painted with `content` (SwiftUI's
    /// `strokeBorder(_:style:)`).
    public func strokeBorder<S: ShapeStyle>(_ content: S, style: StrokeStyle, antialiased: Bool = true)
        -> _ShapeView<_StrokedShape<InsetShape>, S> {
        strokeBorder(style: style, antialiased: antialiased).fill(content)
    }
    /// The outline `lineWidth` wide, entirely inside the frame, painted with `content`.
    public func strokeBorder<S: ShapeStyle>(_ content: S, lineWidth: CGFloat = 1, antialiased: Bool = true)
        -> _ShapeView<_StrokedShape<InsetShape>, S> {
        strokeBorder(content, style: StrokeStyle(lineWidth: lineWidth), antialiased: antialiased)
    }
}

extension _StrokedShape: Equatable where Content: Equatable {}
