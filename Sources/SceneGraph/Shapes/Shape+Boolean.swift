import Foundation

/// Which boolean a `_BooleanShape` computes.
public enum _ShapeBooleanOperation: Hashable, Sendable {
    case union, intersection, subtracting, symmetricDifference, lineIntersection, lineSubtraction
}

/// Two shapes combined by a set operation in the same rectangle: a real path, which can be
/// stroked, trimmed, transformed and combined again (SwiftUI's shape booleans).
public struct _BooleanShape<First: Shape, Second: Shape>: Shape {
    public var first: First
    public var second: Second
    public var operation: _ShapeBooleanOperation
    public var eoFill: Bool

    public func path(in rect: CGRect) -> Path { combine(first.path(in: rect), second.path(in: rect)) }

    func combine(_ a: Path, _ b: Path) -> Path {
        switch operation {
        case .union: return a.union(b, eoFill: eoFill)
        case .intersection: return a.intersection(b, eoFill: eoFill)
        case .subtracting: return a.subtracting(b, eoFill: eoFill)
        case .symmetricDifference: return a.symmetricDifference(b, eoFill: eoFill)
        case .lineIntersection: return a.lineIntersection(b, eoFill: eoFill)
        case .lineSubtraction: return a.lineSubtraction(b, eoFill: eoFill)
        }
    }
}

extension Shape {
    /// The area of this shape or `other`.
    ///
    /// ```swift
    /// let plate = RoundedRectangle(cornerRadius: 24)
    ///     .subtracting(Circle().size(width: 40, height: 40).offset(x: 12, y: 12))
    /// ```
    public func union<S: Shape>(_ other: S, eoFill: Bool = false) -> _BooleanShape<Self, S> {
        _BooleanShape(first: self, second: other, operation: .union, eoFill: eoFill)
    }
    /// The area of both this shape and `other`.
    public func intersection<S: Shape>(_ other: S, eoFill: Bool = false) -> _BooleanShape<Self, S> {
        _BooleanShape(first: self, second: other, operation: .intersection, eoFill: eoFill)
    }
    /// The area of this shape outside `other`.
    public func subtracting<S: Shape>(_ other: S, eoFill: Bool = false) -> _BooleanShape<Self, S> {
        _BooleanShape(first: self, second: other, operation: .subtracting, eoFill: eoFill)
    }
    /// The area of exactly one of this shape and `other`.
    public func symmetricDifference<S: Shape>(_ other: S, eoFill: Bool = false) -> _BooleanShape<Self, S> {
        _BooleanShape(first: self, second: other, operation: .symmetricDifference, eoFill: eoFill)
    }
    /// This shape's lines inside `other` (to stroke).
    public func lineIntersection<S: Shape>(_ other: S, eoFill: Bool = false) -> _BooleanShape<Self, S> {
        _BooleanShape(first: self, second: other, operation: .lineIntersection, eoFill: eoFill)
    }
    /// This shape's lines outside `other` (to stroke).
    public func lineSubtraction<S: Shape>(_ other: S, eoFill: Bool = false) -> _BooleanShape<Self, S> {
        _BooleanShape(first: self, second: other, operation: .lineSubtraction, eoFill: eoFill)
    }
}

extension _BooleanShape: Equatable where First: Equatable, Second: Equatable {}
