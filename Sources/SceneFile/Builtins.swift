import Foundation
import SceneGraph

/// The scene language's vocabulary: SwiftUI's views, shapes, modifiers and value types with
/// their argument labels and defaults, and the math functions scenes use. Each entry is a
/// signature and a small closure; `Evaluator.dispatch` matches arguments to signatures.
enum Builtins {
    static func table(_ list: [Builtin]) -> [String: [Builtin]] {
        Dictionary(grouping: list, by: \.signature.name)
    }

    /// Free functions, initializers and static methods (`Type.name`), and implicit members
    /// (`.name`).
    static let functions: [String: [Builtin]] = table(viewConstructors + valueConstructors + mathFunctions + animationConstructors
                                                      + textConstructors)

    /// Names that are types, usable for their static members (`Color.blue`, `Double.pi`).
    static let typeNames: Set<String> = [
        "Animation", "Color", "Angle", "Double", "CGFloat", "Float", "Int", "UnitPoint", "Alignment", "CGAffineTransform", "BlendMode",
        "Gradient", "Gradient.Stop", "CGPoint", "CGSize", "CGRect", "RoundedCornerStyle", "ColorRenderingMode", "CGLineCap",
        "CGLineJoin", "HorizontalAlignment", "VerticalAlignment", "Edge", "Edge.Set", "ContentMode", "Font", "Font.Weight",
        "Font.Design", "TextAlignment",
    ]

    /// `Type.member` values.
    static func staticMember(_ type: String, _ name: String) -> Value? {
        switch type {
        case "Color": return namedColors[name].map(Value.color)
        case "Double", "CGFloat", "Float":
            switch name {
            case "pi": return .double(.pi)
            case "infinity": return .double(.infinity)
            case "nan": return .double(.nan)
            case "greatestFiniteMagnitude": return .double(.greatestFiniteMagnitude)
            default: return nil
            }
        case "Int": return name == "max" ? .int(.max) : name == "min" ? .int(.min) : nil
        case "Angle": return name == "zero" ? .angle(.zero) : nil
        case "UnitPoint": return unitPoints[name].map(Value.unitPoint)
        case "Alignment": return alignments[name].map(Value.alignment)
        case "CGAffineTransform": return name == "identity" ? .transform(.identity) : nil
        case "Animation": return namedAnimations[name].map(Value.animation)
        case "CGPoint": return name == "zero" ? .point(.zero) : nil
        case "CGSize": return name == "zero" ? .size(.zero) : nil
        case "CGRect": return name == "zero" ? .rect(.zero) : nil
        case "Font": return textStyleFonts[name].map(Value.font)
        case "Font.Weight": return fontWeights[name] != nil ? .enumCase(type: "Font.Weight", name: name) : nil
        case "Edge.Set":
            let sets: [String: Edge.Set] = ["top": .top, "leading": .leading, "bottom": .bottom, "trailing": .trailing, "all": .all,
                                            "horizontal": .horizontal, "vertical": .vertical]
            return sets[name].map(Value.edges)
        default:
            let enums: [String: ParamType] = ["BlendMode": .blendMode, "RoundedCornerStyle": .cornerStyle, "ColorRenderingMode": .colorMode, "ContentMode": .contentMode,
                                              "Font.Design": .fontDesign, "TextAlignment": .textAlignment,
                                              "Image.Scale": .imageScale, "SymbolVariants": .symbolVariant,
                                              "CGLineCap": .lineCap, "CGLineJoin": .lineJoin, "HorizontalAlignment": .horizontalAlignment,
                                              "VerticalAlignment": .verticalAlignment]
            guard let t = enums[type], t.members.contains(name) else { return nil }
            return .enumCase(type: type, name: name)
        }
    }

    /// The static members of a type, for "did you mean" hints.
    static func staticMemberNames(_ type: String) -> [String] {
        switch type {
        case "Color": Array(namedColors.keys)
        case "Double", "CGFloat", "Float": ["pi", "infinity", "nan", "greatestFiniteMagnitude"]
        case "UnitPoint": Array(unitPoints.keys)
        case "Alignment": Array(alignments.keys)
        case "BlendMode": ParamType.blendMode.members
        case "Animation": Array(namedAnimations.keys)
        default: []
        }
    }

    /// Known SwiftUI names this engine does not draw yet: a clear message instead of "unknown".
    static let unsupported: [String: String] = {
        let later = "it is on the scene graph's list of what is not built yet (README, 'Not yet')"
        var table: [String: String] = [:]
        for name in ["foregroundColor", "luminanceToAlpha", "ScrollView", "List", "TextField", "Toggle", "Slider", "GeometryReader"] {
            table[name] = later
        }
        return table
    }()

    // MARK: - Methods by receiver

    static let viewModifiers = table(modifiers + textModifiers)
    static let shapeMethods = table(shapeOperations)
    static let colorMethods = table([
        Builtin("opacity", "_ value: number") { b, _ in
            guard case .color(let c) = b.values["self"] else { return .invalid }
            return .color(c.opacity(try b.required(b.double("value"), "value")))
        },
    ])
    static let pathMethods = table(pathOperations)
    static let intMethods = table([
        Builtin("isMultiple", "of other: int") { b, _ in
            guard case .int(let v) = b.values["self"], let d = b.int("other") else { return .invalid }
            return .bool(d == 0 ? v == 0 : v % d == 0)
        },
    ])
    static let doubleMethods = table([
        Builtin("rounded", "") { b, _ in .double((b.double("self") ?? 0).rounded()) },
        Builtin("squareRoot", "") { b, e in
            let v = b.double("self") ?? 0
            guard v >= 0 else { e.error(b.call, "squareRoot() of a negative number"); return .invalid }
            return .double(v.squareRoot())
        },
    ])
    static let transformMethods = table([
        Builtin("rotated", "by angle: number") { b, _ in .transform(try b.required(b.transform("self"), "self").rotated(by: try b.required(b.cg("angle"), "angle"))) },
        Builtin("scaledBy", "x: number, y: number") { b, _ in .transform(try b.required(b.transform("self"), "self").scaledBy(x: try b.required(b.cg("x"), "x"), y: try b.required(b.cg("y"), "y"))) },
        Builtin("translatedBy", "x: number, y: number") { b, _ in
            .transform(try b.required(b.transform("self"), "self").translatedBy(x: try b.required(b.cg("x"), "x"), y: try b.required(b.cg("y"), "y")))
        },
        Builtin("concatenating", "_ other: transform") { b, _ in .transform(try b.required(b.transform("self"), "self").concatenating(try b.required(b.transform("other"), "other"))) },
    ])
    static let arrayMethods = table([
        Builtin("reversed", "") { b, _ in .array(Array((b.array("self") ?? []).reversed())) },
    ])
}
