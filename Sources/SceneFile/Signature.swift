import Foundation
import SceneGraph

/// What a parameter accepts. Coercion (`Evaluator.coerce`) turns an argument into the canonical
/// value of the type, resolving member shorthand (`.blue`, `.topLeading`, `.multiply`) by it.
enum ParamType: String, Sendable {
    case number, length, int, bool, string, color, angle, point, size, rect, unitPoint, alignment
    case horizontalAlignment, verticalAlignment, blendMode, colorMode, cornerStyle, lineCap, lineJoin, contentMode, interpolation
    case edges, colorSpace, view, shape, insettableShape, style, gradient, stops, colors, numbers, points
    case strokeStyle, fillStyle, transform, closure, keyPath, sequence, animation, any
    case font, fontWeight, fontDesign, textAlignment, truncationMode, labelStyle, imageScale, symbolVariant

    /// How messages name what the parameter expects.
    var expectation: String {
        switch self {
        case .number: "a number"
        case .length: "a length (a number, or .infinity)"
        case .int: "an integer"
        case .bool: "a boolean"
        case .string: "a string"
        case .color: "a colour"
        case .angle: "an angle"
        case .point: "a point"
        case .size: "a size"
        case .rect: "a rectangle"
        case .unitPoint: "a UnitPoint"
        case .alignment: "an Alignment"
        case .horizontalAlignment: "a HorizontalAlignment"
        case .verticalAlignment: "a VerticalAlignment"
        case .blendMode: "a BlendMode"
        case .colorMode: "a ColorRenderingMode"
        case .contentMode: "a ContentMode"
        case .interpolation: "an Image.Interpolation"
        case .cornerStyle: "a RoundedCornerStyle"
        case .lineCap: "a CGLineCap"
        case .lineJoin: "a CGLineJoin"
        case .edges: "an Edge.Set"
        case .colorSpace: "a colour space"
        case .view: "a view"
        case .shape: "a shape"
        case .insettableShape: "an insettable shape"
        case .style: "a colour or gradient"
        case .gradient: "a Gradient"
        case .stops: "an array of gradient stops"
        case .colors: "an array of colours"
        case .numbers: "an array of numbers"
        case .points: "an array of points"
        case .strokeStyle: "a StrokeStyle"
        case .animation: "an Animation"
        case .fillStyle: "a FillStyle"
        case .transform: "a CGAffineTransform"
        case .closure: "a closure"
        case .keyPath: "a key path"
        case .sequence: "a range or an array"
        case .any: "a value"
        case .font: "a Font"
        case .fontWeight: "a Font.Weight"
        case .fontDesign: "a Font.Design"
        case .textAlignment: "a TextAlignment"
        case .truncationMode: "a Text.TruncationMode"
        case .labelStyle: "a LabelStyle"
        case .imageScale: "an Image.Scale"
        case .symbolVariant: "a SymbolVariants"
        }
    }

    /// The cases member shorthand may name, for enumeration-like types.
    var members: [String] {
        switch self {
        case .blendMode: BlendMode.allCases.map(\.rawValue)
        case .colorMode: ["nonLinear", "linear", "extendedLinear"]
        case .contentMode: ["fit", "fill"]
        case .interpolation: ["none", "low", "medium", "high"]
        case .cornerStyle: ["circular", "continuous"]
        case .lineCap: ["butt", "round", "square"]
        case .lineJoin: ["miter", "round", "bevel"]
        case .colorSpace: ["sRGB", "sRGBLinear"]
        case .horizontalAlignment: ["leading", "center", "trailing"]
        case .verticalAlignment: ["top", "center", "bottom"]
        case .alignment: Array(alignments.keys).sorted()
        case .unitPoint: Array(unitPoints.keys).sorted()
        case .edges: ["top", "leading", "bottom", "trailing", "all", "horizontal", "vertical"]
        case .color, .style, .view: namedColors.keys.sorted()
        case .number: ["pi"]
        case .animation: Array(namedAnimations.keys).sorted()
        case .length: ["infinity"]
        case .angle: ["zero"]
        case .transform: ["identity"]
        case .font: Font.TextStyle.allCases.map(\.rawValue)
        case .fontWeight: Array(fontWeights.keys).sorted()
        case .fontDesign: ["default", "serif", "rounded", "monospaced"]
        case .textAlignment: ["leading", "center", "trailing"]
        case .truncationMode: ["head", "middle", "tail"]
        case .labelStyle: ["automatic", "titleAndIcon", "iconOnly", "titleOnly"]
        case .imageScale: ["small", "medium", "large"]
        case .symbolVariant: ["none", "fill"]
        default: []
        }
    }
}

let fontWeights: [String: Font.Weight] = [
    "ultraLight": .ultraLight, "thin": .thin, "light": .light, "regular": .regular, "medium": .medium,
    "semibold": .semibold, "bold": .bold, "heavy": .heavy, "black": .black,
]

/// The text styles by name (`.headline` …).
let textStyleFonts: [String: Font] = Dictionary(uniqueKeysWithValues: Font.TextStyle.allCases.map { ($0.rawValue, Font.system($0)) })

let alignments: [String: Alignment] = [
    "center": .center, "leading": .leading, "trailing": .trailing, "top": .top, "bottom": .bottom,
    "topLeading": .topLeading, "topTrailing": .topTrailing, "bottomLeading": .bottomLeading, "bottomTrailing": .bottomTrailing,
]
let unitPoints: [String: UnitPoint] = [
    "zero": .zero, "center": .center, "leading": .leading, "trailing": .trailing, "top": .top, "bottom": .bottom,
    "topLeading": .topLeading, "topTrailing": .topTrailing, "bottomLeading": .bottomLeading, "bottomTrailing": .bottomTrailing,
]
let namedColors: [String: Color] = {
    var table = Dictionary(uniqueKeysWithValues: Color.named.map { ($0.name, $0.color) })
    table["clear"] = .clear
    table["primary"] = .primary
    table["secondary"] = .secondary
    return table
}()

struct Parameter: Sendable {
    /// The argument label (nil: unlabelled, `_`).
    let label: String?
    /// The name the implementation reads it by.
    let name: String
    let type: ParamType
    let optional: Bool
}

/// A function's parameters, written as Swift declares them: `"_ length: number?, edges: edges"`
/// (a `?` marks a parameter with a default).
struct Signature: Sendable {
    let name: String
    let parameters: [Parameter]

    init(_ name: String, _ spec: String) {
        self.name = name
        parameters = spec.split(separator: ",").map { part in
            let words = part.split(separator: ":")
            let names = words[0].split(separator: " ").map(String.init)
            var type = words[1].trimmingCharacters(in: .whitespaces)
            let optional = type.hasSuffix("?")
            if optional { type.removeLast() }
            let label = names[0] == "_" ? nil : names[0]
            return Parameter(label: label, name: names.count > 1 ? names[1] : names[0], type: ParamType(rawValue: type)!, optional: optional)
        }
    }

    /// `frame(width:height:alignment:)`, as Swift names functions.
    var displayName: String {
        name + "(" + parameters.map { ($0.label ?? "_") + ":" }.joined() + ")"
    }
}

/// An argument after evaluation.
struct Arg {
    var label: String?
    var location: SourceLocation
    var value: Value
    var trailing: Bool
}

/// Arguments bound to parameter names, already coerced to their types.
/// A builtin read an argument as another type than its signature declares (see
/// `Bound.required`).
struct ArgumentMismatch: Error {
    let name: String
    let location: SourceLocation
}

struct Bound {
    var values: [String: Value] = [:]
    var locations: [String: SourceLocation] = [:]
    var call: SourceLocation

    func has(_ name: String) -> Bool { values[name] != nil }

    /// An argument the signature declares as required, read with one of the typed accessors
    /// below: matching made sure it is there and of that type, so nil means the builtin reads
    /// it as another type than it declares, which throws `ArgumentMismatch` (a located error)
    /// rather than trapping.
    ///
    /// ```swift
    /// Builtin("Path", "_ rect: rect") { b, _ in .shape(SceneShape(Path(try b.required(b.rect("rect"), "rect")), name: "Path")) }
    /// ```
    func required<T>(_ value: T?, _ name: String) throws -> T {
        guard let value else { throw ArgumentMismatch(name: name, location: location(name)) }
        return value
    }
    func location(_ name: String) -> SourceLocation { locations[name] ?? call }
    func double(_ name: String) -> Double? {
        switch values[name] {
        case .int(let v): Double(v)
        case .double(let v): v
        default: nil
        }
    }
    func cg(_ name: String) -> CGFloat? { double(name).map { CGFloat($0) } }
    func int(_ name: String) -> Int? { if case .int(let v) = values[name] { v } else { nil } }
    func bool(_ name: String) -> Bool? { if case .bool(let v) = values[name] { v } else { nil } }
    func string(_ name: String) -> String? { if case .string(let v) = values[name] { v } else { nil } }
    func color(_ name: String) -> Color? { if case .color(let v) = values[name] { v } else { nil } }
    func angle(_ name: String) -> Angle? { if case .angle(let v) = values[name] { v } else { nil } }
    func point(_ name: String) -> CGPoint? { if case .point(let v) = values[name] { v } else { nil } }
    func size(_ name: String) -> CGSize? { if case .size(let v) = values[name] { v } else { nil } }
    func rect(_ name: String) -> CGRect? { if case .rect(let v) = values[name] { v } else { nil } }
    func unitPoint(_ name: String) -> UnitPoint? { if case .unitPoint(let v) = values[name] { v } else { nil } }
    func alignment(_ name: String) -> Alignment? { if case .alignment(let v) = values[name] { v } else { nil } }
    func enumCase(_ name: String) -> String? { if case .enumCase(_, let v) = values[name] { v } else { nil } }
    func view(_ name: String) -> AnyView? { if case .view(let v) = values[name] { v } else { nil } }
    func shape(_ name: String) -> SceneShape? { if case .shape(let v) = values[name] { v } else { nil } }
    func style(_ name: String) -> AnyShapeStyle? { if case .style(let v, _, _) = values[name] { v } else { nil } }
    func gradient(_ name: String) -> Gradient? { if case .gradient(let v) = values[name] { v } else { nil } }
    func image(_ name: String) -> Image? { if case .image(let v) = values[name] { v } else { nil } }
    func animation(_ name: String) -> Animation? { if case .animation(let v) = values[name] { v } else { nil } }
    func strokeStyle(_ name: String) -> StrokeStyle? { if case .strokeStyle(let v) = values[name] { v } else { nil } }
    func fillStyle(_ name: String) -> FillStyle? { if case .fillStyle(let v) = values[name] { v } else { nil } }
    func text(_ name: String) -> Text? { if case .text(let v) = values[name] { v } else { nil } }
    func font(_ name: String) -> Font? { if case .font(let v) = values[name] { v } else { nil } }
    func fontWeight(_ name: String) -> Font.Weight? { enumCase(name).flatMap { fontWeights[$0] } }
    func fontDesign(_ name: String) -> Font.Design? { enumCase(name).flatMap(Font.Design.init(rawValue:)) }
    func textAlignment(_ name: String) -> TextAlignment? { enumCase(name).flatMap(TextAlignment.init(rawValue:)) }
    func truncationMode(_ name: String) -> Text.TruncationMode? { enumCase(name).flatMap(Text.TruncationMode.init(rawValue:)) }
    func labelStyle(_ name: String) -> LabelStyle? { enumCase(name).flatMap(LabelStyle.init(rawValue:)) }
    func imageScale(_ name: String) -> Image.Scale? { enumCase(name).flatMap(Image.Scale.init(rawValue:)) }
    func symbolVariant(_ name: String) -> SymbolVariants? { enumCase(name).map { $0 == "fill" ? .fill : SymbolVariants.none } }
    func transform(_ name: String) -> CGAffineTransform? { if case .transform(let v) = values[name] { v } else { nil } }
    func edges(_ name: String) -> Edge.Set? { if case .edges(let v) = values[name] { v } else { nil } }
    func array(_ name: String) -> [Value]? { if case .array(let v) = values[name] { v } else { nil } }
    func closure(_ name: String) -> (Closure, Scope)? { if case .closure(let c, let s) = values[name] { (c, s) } else { nil } }
    func blendMode(_ name: String) -> BlendMode? { enumCase(name).flatMap(BlendMode.init(rawValue:)) }
    func cornerStyle(_ name: String) -> RoundedCornerStyle? {
        enumCase(name).map { $0 == "circular" ? .circular : .continuous }
    }
}

/// A built-in function, initializer or method: its signature and what it does.
struct Builtin: Sendable {
    let signature: Signature
    let run: @Sendable (Bound, Evaluator) throws -> Value
    /// Whether its numbers are geometry, held to `SceneLimits.maximumCoordinate` (math
    /// functions are not).
    var checksCoordinates = true
    init(_ name: String, _ spec: String, _ run: @escaping @Sendable (Bound, Evaluator) throws -> Value) {
        signature = Signature(name, spec)
        self.run = run
    }
}

/// Shapes written as members where a shape is expected (`.background(.blue, in: .capsule)`,
/// `.clipShape(.circle)`), as SwiftUI's `Shape` statics give them.
let memberShapes: [String: SceneShape] = [
    "circle": SceneShape(insettable: Circle(), name: "Circle"),
    "capsule": SceneShape(insettable: Capsule(style: .continuous), name: "Capsule"),
    "ellipse": SceneShape(insettable: Ellipse(), name: "Ellipse"),
    "rect": SceneShape(insettable: Rectangle(), name: "Rectangle"),
]
