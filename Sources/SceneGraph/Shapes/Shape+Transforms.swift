import Foundation

/// A shape moved by an offset (SwiftUI's `OffsetShape`).
public struct OffsetShape<Content: Shape>: Shape {
    public var shape: Content
    public var offset: CGSize
    public init(shape: Content, offset: CGSize) { self.shape = shape; self.offset = offset }
    public func path(in rect: CGRect) -> Path { shape.path(in: rect).offsetBy(dx: offset.width, dy: offset.height) }
    public var animatableData: AnimatablePair<AnimatablePair<CGFloat, CGFloat>, Content.AnimatableData> {
        get { AnimatablePair(AnimatablePair(offset.width, offset.height), shape.animatableData) }
        set { offset = CGSize(width: newValue.first.first, height: newValue.first.second); shape.animatableData = newValue.second }
    }
}

extension OffsetShape: InsettableShape where Content: InsettableShape {
    public func inset(by amount: CGFloat) -> OffsetShape<Content.InsetShape> {
        OffsetShape<Content.InsetShape>(shape: shape.inset(by: amount), offset: offset)
    }
}

/// A shape scaled about an anchor point of its frame (SwiftUI's `ScaledShape`).
public struct ScaledShape<Content: Shape>: Shape {
    public var shape: Content
    public var scale: CGSize
    public var anchor: UnitPoint
    public init(shape: Content, scale: CGSize, anchor: UnitPoint = .center) {
        self.shape = shape; self.scale = scale; self.anchor = anchor
    }
    public func path(in rect: CGRect) -> Path { shape.path(in: rect).applying(transform(in: rect)) }
    /// The scale about the anchor of `rect`.
    func transform(in rect: CGRect) -> CGAffineTransform {
        let a = anchor.point(in: rect)
        return CGAffineTransform(translationX: -a.x, y: -a.y)
            .concatenating(CGAffineTransform(scaleX: scale.width, y: scale.height))
            .concatenating(CGAffineTransform(translationX: a.x, y: a.y))
    }
    public var animatableData: AnimatablePair<AnimatablePair<CGFloat, CGFloat>, Content.AnimatableData> {
        get { AnimatablePair(AnimatablePair(scale.width, scale.height), shape.animatableData) }
        set { scale = CGSize(width: newValue.first.first, height: newValue.first.second); shape.animatableData = newValue.second }
    }
}

/// A shape rotated about an anchor point of its frame, clockwise on screen for positive angles
/// (SwiftUI's `RotatedShape`).
public struct RotatedShape<Content: Shape>: Shape {
    public var shape: Content
    public var angle: Angle
    public var anchor: UnitPoint
    public init(shape: Content, angle: Angle, anchor: UnitPoint = .center) {
        self.shape = shape; self.angle = angle; self.anchor = anchor
    }
    public func path(in rect: CGRect) -> Path { shape.path(in: rect).applying(transform(in: rect)) }
    /// The rotation about the anchor of `rect`.
    func transform(in rect: CGRect) -> CGAffineTransform {
        let a = anchor.point(in: rect)
        return CGAffineTransform(translationX: -a.x, y: -a.y)
            .concatenating(CGAffineTransform(rotationAngle: angle.radians))
            .concatenating(CGAffineTransform(translationX: a.x, y: a.y))
    }
    public var animatableData: AnimatablePair<Double, Content.AnimatableData> {
        get { AnimatablePair(angle.radians, shape.animatableData) }
        set { angle = .radians(newValue.first); shape.animatableData = newValue.second }
    }
}

/// A shape with an affine transform applied to its path (SwiftUI's `TransformedShape`).
public struct TransformedShape<Content: Shape>: Shape {
    public var shape: Content
    public var transform: CGAffineTransform
    public init(shape: Content, transform: CGAffineTransform) { self.shape = shape; self.transform = transform }
    public func path(in rect: CGRect) -> Path { shape.path(in: rect).applying(transform) }
}

/// A shape that builds its path in a rectangle of a fixed size at its frame's origin
/// (what SwiftUI's `size(_:)` returns).
public struct _SizedShape<Content: Shape>: Shape {
    public var shape: Content
    public var size: CGSize
    public func path(in rect: CGRect) -> Path { shape.path(in: CGRect(origin: rect.origin, size: size)) }
}

/// The part of a shape between two fractions of its length (what SwiftUI's `trim` returns).
public struct _TrimmedShape<Content: Shape>: Shape {
    public var shape: Content
    public var startFraction: CGFloat
    public var endFraction: CGFloat
    public func path(in rect: CGRect) -> Path {
        shape.path(in: rect).trimmedPath(from: startFraction, to: endFraction)
    }
    /// Both ends animate, as in SwiftUI, with the trimmed shape's own data.
    public var animatableData: AnimatablePair<AnimatablePair<CGFloat, CGFloat>, Content.AnimatableData> {
        get { AnimatablePair(AnimatablePair(startFraction, endFraction), shape.animatableData) }
        set {
            startFraction = newValue.first.first
            endFraction = newValue.first.second
            shape.animatableData = newValue.second
        }
    }
}

extension Shape {
    public func offset(_ offset: CGSize) -> OffsetShape<Self> { OffsetShape(shape: self, offset: offset) }
    public func offset(_ offset: CGPoint) -> OffsetShape<Self> {
        OffsetShape(shape: self, offset: CGSize(width: offset.x, height: offset.y))
    }
    public func offset(x: CGFloat = 0, y: CGFloat = 0) -> OffsetShape<Self> {
        OffsetShape(shape: self, offset: CGSize(width: x, height: y))
    }
    public func scale(x: CGFloat = 1, y: CGFloat = 1, anchor: UnitPoint = .center) -> ScaledShape<Self> {
        ScaledShape(shape: self, scale: CGSize(width: x, height: y), anchor: anchor)
    }
    public func scale(_ scale: CGFloat, anchor: UnitPoint = .center) -> ScaledShape<Self> {
        ScaledShape(shape: self, scale: CGSize(width: scale, height: scale), anchor: anchor)
    }
    public func rotation(_ angle: Angle, anchor: UnitPoint = .center) -> RotatedShape<Self> {
        RotatedShape(shape: self, angle: angle, anchor: anchor)
    }
    public func transform(_ transform: CGAffineTransform) -> TransformedShape<Self> {
        TransformedShape(shape: self, transform: transform)
    }
    public func size(_ size: CGSize) -> _SizedShape<Self> { _SizedShape(shape: self, size: size) }
    public func size(width: CGFloat, height: CGFloat) -> _SizedShape<Self> {
        _SizedShape(shape: self, size: CGSize(width: width, height: height))
    }
    /// The part between two fractions of the shape's length (see `Path.trimmedPath`).
    public func trim(from startFraction: CGFloat = 0, to endFraction: CGFloat = 1) -> _TrimmedShape<Self> {
        _TrimmedShape(shape: self, startFraction: startFraction, endFraction: endFraction)
    }
}

// Equal shapes make equal paths: what lets a renderer see that a frame did not change.
extension OffsetShape: Equatable where Content: Equatable {}
extension ScaledShape: Equatable where Content: Equatable {}
extension RotatedShape: Equatable where Content: Equatable {}
extension TransformedShape: Equatable where Content: Equatable {}
extension _SizedShape: Equatable where Content: Equatable {}
extension _TrimmedShape: Equatable where Content: Equatable {}
