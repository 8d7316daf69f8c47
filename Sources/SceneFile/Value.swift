import Foundation
import SceneGraph

/// A run-time value of the scene language.
enum Value {
    case int(Int)
    case double(Double)
    case bool(Bool)
    case string(String)
    case color(Color)
    case angle(Angle)
    case point(CGPoint)
    case size(CGSize)
    case rect(CGRect)
    case unitPoint(UnitPoint)
    case alignment(Alignment)
    /// A case of an enumeration (`BlendMode`, `RoundedCornerStyle`, …) by type and name.
    case enumCase(type: String, name: String)
    /// `.name` before the context says what type it is.
    case member(String)
    case view(AnyView)
    case shape(SceneShape)
    /// A gradient (or other style) with the view it also is.
    case style(AnyShapeStyle, view: AnyView, name: String)
    case gradient(Gradient)
    case stop(Gradient.Stop)
    case strokeStyle(StrokeStyle)
    case animation(Animation)
    case image(Image)
    /// A `Text`, which text modifiers and `+` keep a Text (anything else makes it a view).
    case text(Text)
    case font(Font)
    case fillStyle(FillStyle)
    case transform(CGAffineTransform)
    case edges(Edge.Set)
    /// A half-open range of integers.
    case range(Int, Int)
    case array([Value])
    case closure(Closure, Scope)
    case keyPath([String])
    /// A type used as a value, for its static members (`Color.blue`, `Double.pi`).
    case type(String)
    /// The path being built inside `Path { p in … }`.
    case path(PathBuilder)
    /// What a statement like `p.addLine(to:)` returns.
    case void
    /// The result of an expression that already reported an error; using it reports nothing
    /// more, so one mistake gives one message.
    case invalid

    /// The value's kind, as error messages name it ("expects a number, got a colour").
    var kindName: String {
        switch self {
        case .int: "an integer"
        case .double: "a number"
        case .bool: "a boolean"
        case .string: "a string"
        case .color: "a colour"
        case .angle: "an angle"
        case .point: "a point"
        case .size: "a size"
        case .rect: "a rectangle"
        case .unitPoint: "a unit point"
        case .alignment: "an alignment"
        case .enumCase(let type, _): "a \(type)"
        case .member(let name): "'.\(name)'"
        case .view: "a view"
        case .shape: "a shape"
        case .style(_, _, let name): "a \(name)"
        case .gradient: "a gradient"
        case .stop: "a gradient stop"
        case .strokeStyle: "a stroke style"
        case .animation: "an animation"
        case .image: "an image"
        case .text: "a text"
        case .font: "a font"
        case .fillStyle: "a fill style"
        case .transform: "a transform"
        case .edges: "a set of edges"
        case .range: "a range"
        case .array: "an array"
        case .closure: "a closure"
        case .keyPath: "a key path"
        case .type(let name): "the type '\(name)'"
        case .path: "a path"
        case .void: "no value"
        case .invalid: "an invalid value"
        }
    }

    var isInvalid: Bool { if case .invalid = self { true } else { false } }
}

/// The mutable path inside `Path { p in … }`, counted against the element limit.
final class PathBuilder {
    var path = Path()
}

/// Variables in scope: `let` constants, `var` variables and closure parameters.
final class Scope {
    private var values: [String: (value: Value, mutable: Bool)] = [:]
    let parent: Scope?
    init(parent: Scope?) { self.parent = parent }

    func lookup(_ name: String) -> Value? { values[name]?.value ?? parent?.lookup(name) }
    func isMutable(_ name: String) -> Bool? { values[name].map(\.mutable) ?? parent?.isMutable(name) }
    func define(_ name: String, _ value: Value, mutable: Bool = false) { values[name] = (value, mutable) }
    func assign(_ name: String, _ value: Value) {
        if values[name] != nil { values[name]!.value = value } else { parent?.assign(name, value) }
    }
    /// Every name visible here, for "did you mean" hints.
    var allNames: [String] { Array(values.keys) + (parent?.allNames ?? []) }
}

/// A shape whose type is known only at run time: a path function, and (when the shape is
/// insettable) how to inset it, so `strokeBorder` works on built-in shapes and their transforms.
struct SceneShape: InsettableShape, _ResolutionDependentShape {
    let name: String
    /// The wrapped shape's path, at a device resolution when lowering gives one (a stroke's
    /// outline is then as fine in pixels at any scale).
    private(set) var make: @Sendable (CGRect, _PathResolution?) throws(StrokeRefusal) -> Path
    let insetBy: (@Sendable (CGFloat) -> SceneShape)?
    /// The wrapped shape's animatable data (a trim's ends, a rounded rectangle's corners …) and
    /// how to make the same shape with other data: what lets a scene's shapes animate.
    private var data = AnyAnimatableData.zero
    private var rebuild: (@Sendable (AnyAnimatableData) -> SceneShape)?
    /// The shape wrapped, for equality: two scene shapes are equal when they wrap equal values
    /// of one type (every built-in shape, its transforms, strokes and booleans).
    private let wrapped: any Shape

    private init(name: String, wrapped: any Shape, make: @escaping @Sendable (CGRect, _PathResolution?) throws(StrokeRefusal) -> Path,
                 insetBy: (@Sendable (CGFloat) -> SceneShape)?) {
        self.name = name
        self.wrapped = wrapped
        self.make = make
        self.insetBy = insetBy
    }
    init<S: Shape>(_ shape: S, name: String) {
        self.init(wrapping: shape, name: name, insetBy: nil)
    }
    init<S: InsettableShape>(insettable shape: S, name: String) {
        self.init(wrapping: shape, name: name, insetBy: { SceneShape(insettable: shape.inset(by: $0), name: name) })
    }
    private init<S: Shape>(wrapping shape: S, name: String, insetBy: (@Sendable (CGFloat) -> SceneShape)?) {
        self.init(name: name, wrapped: shape, make: { rect, resolution throws(StrokeRefusal) in try shape._resolvedPath(in: rect, resolution: resolution) },
                  insetBy: insetBy)
        data = AnyAnimatableData(shape.animatableData)
        rebuild = { new in
            guard let value = new.value(as: S.AnimatableData.self) else { return SceneShape(wrapping: shape, name: name, insetBy: insetBy) }
            var changed = shape
            changed.animatableData = value
            return SceneShape(wrapping: changed, name: name, insetBy: insetBy)
        }
    }

    var animatableData: AnyAnimatableData {
        get { data }
        set { if let rebuild { self = rebuild(newValue) } }
    }

    func path(in rect: CGRect) -> Path { (try? make(rect, nil)) ?? Path() }
    func _path(in rect: CGRect, resolution: _PathResolution) throws(StrokeRefusal) -> Path { try make(rect, resolution) }
    /// Only called after `insetBy` was checked; a non-insettable shape stays as it is.
    func inset(by amount: CGFloat) -> SceneShape { insetBy?(amount) ?? self }

    /// A transform of this shape that keeps insettability: the inset shape is transformed the
    /// same way (as SwiftUI's `OffsetShape`, `ScaledShape` … are insettable when their content is).
    func transformed<S: Shape>(_ f: @escaping @Sendable (SceneShape) -> S) -> SceneShape {
        let made = f(self)
        var insetTransformed: (@Sendable (CGFloat) -> SceneShape)?
        if let inset = insetBy {
            insetTransformed = { @Sendable (amount: CGFloat) -> SceneShape in inset(amount).transformed(f) }
        }
        return SceneShape(wrapping: made, name: name, insetBy: insetTransformed)
    }
}

extension SceneShape: Equatable {
    static func == (a: SceneShape, b: SceneShape) -> Bool {
        guard let x = a.wrapped as? any Equatable else { return false }
        return x.equals(b.wrapped)
    }
}

extension Equatable {
    /// Whether `other` is a value of this type equal to this one.
    fileprivate func equals(_ other: Any) -> Bool { (other as? Self).map { $0 == self } ?? false }
}
