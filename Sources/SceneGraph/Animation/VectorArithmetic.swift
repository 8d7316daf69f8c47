import Foundation

/// A type that can be interpolated: added, subtracted and scaled (SwiftUI's
/// `VectorArithmetic`).
public protocol VectorArithmetic: AdditiveArithmetic {
    /// Multiplies every component by `rhs`.
    mutating func scale(by rhs: Double)
    /// The dot product of the value with itself.
    var magnitudeSquared: Double { get }
}

extension VectorArithmetic {
    /// A copy multiplied by `rhs`.
    public func scaled(by rhs: Double) -> Self {
        var copy = self
        copy.scale(by: rhs)
        return copy
    }
    /// `amount` of the way from this value (0) to `other` (1): self + (other − self) × amount.
    public func interpolated(towards other: Self, amount: Double) -> Self {
        self + (other - self).scaled(by: amount)
    }
}

extension Double: VectorArithmetic {
    public mutating func scale(by rhs: Double) { self *= rhs }
    public var magnitudeSquared: Double { self * self }
}

extension Float: VectorArithmetic {
    public mutating func scale(by rhs: Double) { self *= Float(rhs) }
    public var magnitudeSquared: Double { Double(self * self) }
}

extension CGFloat: VectorArithmetic {
    public mutating func scale(by rhs: Double) { self *= CGFloat(rhs) }
    public var magnitudeSquared: Double { Double(self * self) }
}

/// Animatable data with no components (SwiftUI's `EmptyAnimatableData`): what a type that
/// animates nothing exposes.
public struct EmptyAnimatableData: VectorArithmetic, Hashable, Sendable {
    public init() {}
    public static var zero: EmptyAnimatableData { EmptyAnimatableData() }
    public static func + (lhs: EmptyAnimatableData, rhs: EmptyAnimatableData) -> EmptyAnimatableData { lhs }
    public static func - (lhs: EmptyAnimatableData, rhs: EmptyAnimatableData) -> EmptyAnimatableData { lhs }
    public mutating func scale(by rhs: Double) {}
    public var magnitudeSquared: Double { 0 }
}

/// Two animatable values as one (SwiftUI's `AnimatablePair`).
///
/// ```swift
/// var animatableData: AnimatablePair<Double, Double> {
///     get { AnimatablePair(start, end) }
///     set { start = newValue.first; end = newValue.second }
/// }
/// ```
public struct AnimatablePair<First: VectorArithmetic, Second: VectorArithmetic>: VectorArithmetic {
    public var first: First
    public var second: Second

    public init(_ first: First, _ second: Second) {
        self.first = first
        self.second = second
    }

    public static var zero: AnimatablePair { AnimatablePair(.zero, .zero) }
    public static func + (lhs: AnimatablePair, rhs: AnimatablePair) -> AnimatablePair {
        AnimatablePair(lhs.first + rhs.first, lhs.second + rhs.second)
    }
    public static func - (lhs: AnimatablePair, rhs: AnimatablePair) -> AnimatablePair {
        AnimatablePair(lhs.first - rhs.first, lhs.second - rhs.second)
    }
    public mutating func scale(by rhs: Double) {
        first.scale(by: rhs)
        second.scale(by: rhs)
    }
    public var magnitudeSquared: Double { first.magnitudeSquared + second.magnitudeSquared }
}

extension AnimatablePair: Equatable {}
extension AnimatablePair: Sendable where First: Sendable, Second: Sendable {}

/// A type whose values can be interpolated through `animatableData` (SwiftUI's `Animatable`).
/// Types that animate nothing get `EmptyAnimatableData` by default.
public protocol Animatable {
    associatedtype AnimatableData: VectorArithmetic
    var animatableData: AnimatableData { get set }
}

extension Animatable where AnimatableData == EmptyAnimatableData {
    public var animatableData: EmptyAnimatableData {
        get { EmptyAnimatableData() }
        set {}
    }
}

/// Animatable data of a type known only at run time (what a type-erased shape, such as one a
/// scene file describes, exposes). Values of different types never mix: adding one to another
/// keeps the left one.
public struct AnyAnimatableData: VectorArithmetic, @unchecked Sendable {
    /// nil: zero, whatever the type.
    private var value: (any VectorArithmetic)?

    public init<V: VectorArithmetic>(_ value: V) { self.value = value }
    private init(box: (any VectorArithmetic)?) { value = box }

    /// The value as `V`, nil when it is another type (zero is any type's zero).
    public func value<V: VectorArithmetic>(as type: V.Type) -> V? {
        guard let value else { return .zero }
        return value as? V
    }

    public static var zero: AnyAnimatableData { AnyAnimatableData(box: nil) }

    public static func + (lhs: AnyAnimatableData, rhs: AnyAnimatableData) -> AnyAnimatableData {
        guard let a = lhs.value else { return rhs }
        guard let b = rhs.value else { return lhs }
        return AnyAnimatableData(box: sum(a, b))
    }
    public static func - (lhs: AnyAnimatableData, rhs: AnyAnimatableData) -> AnyAnimatableData {
        lhs + rhs.scaled(by: -1)
    }
    public mutating func scale(by rhs: Double) {
        if let v = value { value = scaledOpen(v, rhs) }
    }
    public var magnitudeSquared: Double { value?.magnitudeSquared ?? 0 }

    public static func == (lhs: AnyAnimatableData, rhs: AnyAnimatableData) -> Bool {
        switch (lhs.value, rhs.value) {
        case (nil, nil): true
        case let (a?, b?): equal(a, b)
        case let (a?, nil), let (nil, a?): a.magnitudeSquared == 0
        }
    }
}

private func sum<T: VectorArithmetic>(_ a: T, _ b: any VectorArithmetic) -> any VectorArithmetic {
    guard let b = b as? T else { return a }
    return a + b
}
private func scaledOpen<T: VectorArithmetic>(_ a: T, _ rhs: Double) -> any VectorArithmetic { a.scaled(by: rhs) }
private func equal<T: VectorArithmetic>(_ a: T, _ b: any VectorArithmetic) -> Bool { (b as? T) == a }
