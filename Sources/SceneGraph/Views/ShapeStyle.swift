import Foundation

/// What a shape is filled with: a colour or a gradient laid out in the shape's frame
/// (SwiftUI's `ShapeStyle`, for the styles this engine has).
public protocol ShapeStyle: Sendable {
    /// The fill for a shape whose frame is `rect` (points, the shape's own coordinates).
    func _fill(in rect: CGRect) -> ShapeFill
    /// Whether the environment replaces this style, or a style inside it, where a leaf draws
    /// it (`ForegroundStyle`, `TintShapeStyle`, and the styles that wrap others). False, the
    /// default, for colours, gradients and images: resolving them then costs no dynamic cast
    /// (four casts a leaf were 1.8 % of a frame of 500 labels).
    var _readsEnvironment: Bool { get }
}

extension ShapeStyle {
    public var _readsEnvironment: Bool { false }
}

/// An image as a fill: its pixels mapped into the shape's coordinates by `imageTransform`, faded
/// by `opacity` (an image has no colour to carry it), and `transform` from the shape's
/// coordinates to device pixels.
public struct ImageFill: Hashable, Sendable {
    public var content: ImageContent
    public var imageTransform: CGAffineTransform
    public var filter: ImageFilter
    public var opacity: Double = 1
    public var transform: CGAffineTransform = .identity
    /// Whether the image tiles the plane (an SVG pattern) rather than being transparent
    /// beyond its edges.
    public var repeats = false
    /// Whether samples beyond the image's edges take the edge pixels (a picture filling
    /// exactly its own rectangle keeps hard edges under a cubic or bilinear filter).
    public var clampsToEdge = false

    /// `content`'s pixels mapped by `imageTransform` (pixels → the shape's coordinates), then by
    /// `transform` to device pixels, faded by `opacity`; repeated over the plane when `repeats`.
    public init(content: ImageContent, imageTransform: CGAffineTransform, filter: ImageFilter = .bilinear, opacity: Double = 1,
                transform: CGAffineTransform = .identity, repeats: Bool = false, clampsToEdge: Bool = false) {
        self.content = content
        self.imageTransform = imageTransform
        self.filter = filter
        self.opacity = opacity
        self.transform = transform
        self.repeats = repeats
        self.clampsToEdge = clampsToEdge
    }

    /// The same image with `t` applied after its transform.
    func placed(by t: CGAffineTransform) -> ImageFill {
        var copy = self
        copy.transform = transform.concatenating(t)
        return copy
    }
}

/// A resolved fill: a colour, or a gradient given in a shape's coordinates with the transform
/// from those to device pixels.
public enum ShapeFill: Hashable, Sendable, CustomStringConvertible {
    // Gradients and images are boxed (indirect): inline, their 120-odd bytes made every fill
    // that size, and lowering copies each leaf's fill several times; a colour is now 40.
    case color(Color)
    indirect case linearGradient(Gradient, start: CGPoint, end: CGPoint, transform: CGAffineTransform)
    indirect case radialGradient(Gradient, center: CGPoint, startRadius: Double, endRadius: Double, transform: CGAffineTransform)
    indirect case angularGradient(Gradient, center: CGPoint, startAngle: Angle, endAngle: Angle, transform: CGAffineTransform)
    /// From a focal circle (location 0) to an end circle (location 1) with another centre
    /// (SVG's focal radial gradients).
    indirect case focalRadialGradient(Gradient, focus: CGPoint, focalRadius: Double, center: CGPoint, radius: Double,
                                      transform: CGAffineTransform)
    /// An image's pixels mapped into the shape's coordinates by `imageTransform`, faded by
    /// `opacity` (an image has no colour to carry it).
    indirect case image(ImageFill)

    /// The Compositor paint, in the coordinates `transform` maps to device pixels. (An image's
    /// paint uses the image's own pixman object; the renderer draws from a private one.)
    public var paint: Paint {
        switch self {
        case let .image(i): .image(i.content.surface, transform: i.imageTransform, filter: i.filter, clampToEdge: i.clampsToEdge, repeats: i.repeats)
        case .color(let c): .color(c)
        case let .linearGradient(g, s, e, _): .linearGradient(g, start: s, end: e)
        case let .radialGradient(g, c, r0, r1, _): .radialGradient(g, center: c, startRadius: r0, endRadius: r1)
        case let .focalRadialGradient(g, f, fr, c, r, _): .focalRadialGradient(g, focus: f, focalRadius: fr, center: c, radius: r)
        case let .angularGradient(g, c, a0, a1, _): .angularGradient(g, center: c, startAngle: a0, endAngle: a1)
        }
    }

    /// The transform from the paint's coordinates to device pixels (identity for a colour).
    public var transform: CGAffineTransform {
        switch self {
        case .color: .identity
        case .linearGradient(_, _, _, let t), .radialGradient(_, _, _, _, let t), .angularGradient(_, _, _, _, let t): t
        case .focalRadialGradient(_, _, _, _, _, let t): t
        case .image(let i): i.transform
        }
    }

    /// What multiplies the coverage when drawn: an image's opacity (colours carry theirs).
    var coverageOpacity: Double {
        if case .image(let i) = self { return i.opacity }
        return 1
    }

    /// The paint to draw with: for an image, its pixels under a pixman object of its own, so
    /// that renders on several threads never share one's transform and filter.
    func drawablePaint() throws -> Paint {
        if case .image(let i) = self {
            return .image(try Surface(sharingPixelsOf: i.content.surface), transform: i.imageTransform, filter: i.filter,
                          clampToEdge: i.clampsToEdge, repeats: i.repeats)
        }
        return paint
    }

    /// The same fill with its coordinates mapped by `t` first (the paint moves with the shape).
    public func transformed(by t: CGAffineTransform) -> ShapeFill {
        switch self {
        case .color: self
        case let .linearGradient(g, s, e, m): .linearGradient(g, start: s, end: e, transform: m.concatenating(t))
        case let .radialGradient(g, c, r0, r1, m): .radialGradient(g, center: c, startRadius: r0, endRadius: r1, transform: m.concatenating(t))
        case let .focalRadialGradient(g, f, fr, c, r, m):
            .focalRadialGradient(g, focus: f, focalRadius: fr, center: c, radius: r, transform: m.concatenating(t))
        case let .angularGradient(g, c, a0, a1, m): .angularGradient(g, center: c, startAngle: a0, endAngle: a1, transform: m.concatenating(t))
        case .image(let i): .image(i.placed(by: t))
        }
    }

    /// The same fill with every colour's opacity multiplied by `opacity`.
    public func opacity(_ opacity: Double) -> ShapeFill {
        guard opacity != 1 else { return self }
        if case .image(var i) = self {
            i.opacity *= opacity
            return .image(i)
        }
        return mapColors { $0.opacity(opacity) }
    }

    /// The same fill with every colour (a gradient's stops) passed through `f`.
    func mapColors(_ f: (Color) -> Color) -> ShapeFill {
        func map(_ g: Gradient) -> Gradient {
            Gradient(stops: g.stops.map { .init(color: f($0.color), location: $0.location) }, spread: g.spread)
        }
        return switch self {
        case .color(let c): .color(f(c))
        case let .linearGradient(g, s, e, m): .linearGradient(map(g), start: s, end: e, transform: m)
        case let .radialGradient(g, c, r0, r1, m): .radialGradient(map(g), center: c, startRadius: r0, endRadius: r1, transform: m)
        case let .focalRadialGradient(g, fo, fr, c, r, m): .focalRadialGradient(map(g), focus: fo, focalRadius: fr, center: c, radius: r, transform: m)
        case let .angularGradient(g, c, a0, a1, m): .angularGradient(map(g), center: c, startAngle: a0, endAngle: a1, transform: m)
        // An image's colours change in a filter layer (lowering wraps it in one).
        case .image: self
        }
    }

    public var description: String {
        switch self {
        case .color(let c): c.description
        case .linearGradient(let g, _, _, _): "linearGradient \(g.stops.count) stops"
        case .radialGradient(let g, _, _, _, _): "radialGradient \(g.stops.count) stops"
        case .focalRadialGradient(let g, _, _, _, _, _): "radialGradient \(g.stops.count) stops, focal"
        case .angularGradient(let g, _, _, _, _): "angularGradient \(g.stops.count) stops"
        case .image(let i): i.content.description + (i.opacity == 1 ? "" : String(format: " opacity %.3f", i.opacity))
        }
    }
}

extension Color: ShapeStyle {
    public func _fill(in rect: CGRect) -> ShapeFill { .color(self) }
}

/// The foreground style of the environment (SwiftUI's `ForegroundStyle`): what a shape drawn
/// without a fill uses. Black (`.primary`) unless a `foregroundStyle(_:)` written above it says
/// otherwise.
///
/// ```swift
/// VStack { Circle(); Capsule().stroke(lineWidth: 4) }.foregroundStyle(.orange)   // both orange
/// ```
public struct ForegroundStyle: ShapeStyle, Hashable {
    public init() {}
    public func _fill(in rect: CGRect) -> ShapeFill { .color(.primary) }
    public var _readsEnvironment: Bool { true }
}

extension ShapeStyle where Self == ForegroundStyle {
    public static var foreground: ForegroundStyle { ForegroundStyle() }
}

/// The named colours where a style is expected, so `fill(.orange)` reads as in SwiftUI.
extension ShapeStyle where Self == Color {
    public static var red: Color { Color.red }
    public static var orange: Color { Color.orange }
    public static var yellow: Color { Color.yellow }
    public static var green: Color { Color.green }
    public static var mint: Color { Color.mint }
    public static var teal: Color { Color.teal }
    public static var cyan: Color { Color.cyan }
    public static var blue: Color { Color.blue }
    public static var indigo: Color { Color.indigo }
    public static var purple: Color { Color.purple }
    public static var pink: Color { Color.pink }
    public static var brown: Color { Color.brown }
    public static var gray: Color { Color.gray }
    public static var black: Color { Color.black }
    public static var white: Color { Color.white }
    public static var clear: Color { Color.clear }
    public static var primary: Color { Color.primary }
    public static var secondary: Color { Color.secondary }
}

/// A linear gradient between two unit points of the frame it fills, padded beyond them.
///
/// ```swift
/// RoundedRectangle(cornerRadius: 28).fill(LinearGradient(colors: [.mint, .blue],
///                                                        startPoint: .topLeading, endPoint: .bottomTrailing))
/// ```
public struct LinearGradient: ShapeStyle, View, PrimitiveView, Equatable {
    public var gradient: Gradient
    public var startPoint: UnitPoint, endPoint: UnitPoint

    public init(gradient: Gradient, startPoint: UnitPoint, endPoint: UnitPoint) {
        self.gradient = gradient; self.startPoint = startPoint; self.endPoint = endPoint
    }
    public init(colors: [Color], startPoint: UnitPoint, endPoint: UnitPoint) {
        self.init(gradient: Gradient(colors: colors), startPoint: startPoint, endPoint: endPoint)
    }
    public init(stops: [Gradient.Stop], startPoint: UnitPoint, endPoint: UnitPoint) {
        self.init(gradient: Gradient(stops: stops), startPoint: startPoint, endPoint: endPoint)
    }

    public func _fill(in rect: CGRect) -> ShapeFill {
        .linearGradient(gradient, start: startPoint.point(in: rect), end: endPoint.point(in: rect), transform: .identity)
    }
    // A gradient is also a view that fills its frame, as in SwiftUI.
    public var body: Never { primitiveBody(of: Self.self) }
    func makeNode() -> ViewNode { .leaf(.shape(ShapeGeometry(Rectangle()), style: self, fillRule: .nonZero)) }
}

/// A radial gradient between two circles around a unit point of the frame, radii in points.
public struct RadialGradient: ShapeStyle, View, PrimitiveView, Equatable {
    public var gradient: Gradient
    public var center: UnitPoint
    public var startRadius: CGFloat, endRadius: CGFloat

    public init(gradient: Gradient, center: UnitPoint, startRadius: CGFloat, endRadius: CGFloat) {
        self.gradient = gradient; self.center = center; self.startRadius = startRadius; self.endRadius = endRadius
    }
    public init(colors: [Color], center: UnitPoint, startRadius: CGFloat, endRadius: CGFloat) {
        self.init(gradient: Gradient(colors: colors), center: center, startRadius: startRadius, endRadius: endRadius)
    }

    public func _fill(in rect: CGRect) -> ShapeFill {
        .radialGradient(gradient, center: center.point(in: rect), startRadius: startRadius, endRadius: endRadius, transform: .identity)
    }
    // A gradient is also a view that fills its frame, as in SwiftUI.
    public var body: Never { primitiveBody(of: Self.self) }
    func makeNode() -> ViewNode { .leaf(.shape(ShapeGeometry(Rectangle()), style: self, fillRule: .nonZero)) }
}

/// An angular (conic) gradient around a unit point of the frame, clockwise on screen from
/// `startAngle` to `endAngle` (0° points right); the rest of the turn takes the end colours.
public struct AngularGradient: ShapeStyle, View, PrimitiveView, Equatable {
    public var gradient: Gradient
    public var center: UnitPoint
    public var startAngle: Angle, endAngle: Angle

    public init(gradient: Gradient, center: UnitPoint, startAngle: Angle, endAngle: Angle) {
        self.gradient = gradient; self.center = center; self.startAngle = startAngle; self.endAngle = endAngle
    }
    public init(colors: [Color], center: UnitPoint, startAngle: Angle, endAngle: Angle) {
        self.init(gradient: Gradient(colors: colors), center: center, startAngle: startAngle, endAngle: endAngle)
    }
    /// A full turn starting at `angle`.
    public init(gradient: Gradient, center: UnitPoint, angle: Angle = .zero) {
        self.init(gradient: gradient, center: center, startAngle: angle, endAngle: angle + .degrees(360))
    }
    /// A full turn starting at `angle`.
    public init(colors: [Color], center: UnitPoint, angle: Angle = .zero) {
        self.init(gradient: Gradient(colors: colors), center: center, angle: angle)
    }

    public func _fill(in rect: CGRect) -> ShapeFill {
        .angularGradient(gradient, center: center.point(in: rect), startAngle: startAngle, endAngle: endAngle, transform: .identity)
    }
    // A gradient is also a view that fills its frame, as in SwiftUI.
    public var body: Never { primitiveBody(of: Self.self) }
    func makeNode() -> ViewNode { .leaf(.shape(ShapeGeometry(Rectangle()), style: self, fillRule: .nonZero)) }
}
