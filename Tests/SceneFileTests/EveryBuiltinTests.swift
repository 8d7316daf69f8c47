import Foundation
@testable import SceneFile
import Testing

/// Every builtin of the scene language, called with arguments of the types its signature
/// declares, reads them as it declares them: none reports the "internal error" that
/// `Bound.required` turns a misread argument into (where a force unwrap once trapped).
@Suite struct EveryBuiltinTests {
    /// A literal of each parameter type.
    static func sample(_ p: Parameter, builtin: String) -> String {
        switch p.type {
        case .number, .length: "3"
        case .int: "2"
        case .bool: "true"
        case .string: "\"x\""
        case .color, .style: ".red"
        case .angle: ".degrees(30)"
        case .point: "CGPoint(x: 1, y: 2)"
        case .size: "CGSize(width: 3, height: 4)"
        case .rect: "CGRect(x: 0, y: 0, width: 10, height: 10)"
        case .unitPoint, .alignment, .horizontalAlignment, .verticalAlignment: ".center"
        case .blendMode: ".multiply"
        case .colorMode: ".linear"
        case .contentMode: ".fit"
        case .interpolation: ".none"
        case .cornerStyle: ".circular"
        case .lineCap: ".round"
        case .lineJoin: ".bevel"
        case .edges: ".all"
        case .colorSpace: ".sRGB"
        case .view, .shape, .insettableShape: "Circle()"
        case .gradient: "Gradient(colors: [.red, .blue])"
        case .stops: "[Gradient.Stop(color: .red, location: 0), Gradient.Stop(color: .blue, location: 1)]"
        case .colors: "[.red, .blue]"
        case .numbers: "[1, 2]"
        case .points: "[CGPoint(x: 0, y: 0), CGPoint(x: 4, y: 4)]"
        case .strokeStyle: "StrokeStyle(lineWidth: 2)"
        case .fillStyle: "FillStyle()"
        case .transform: "CGAffineTransform(rotationAngle: 0.5)"
        case .animation: ".linear"
        case .font: ".headline"
        case .fontWeight: ".bold"
        case .fontDesign: ".serif"
        case .textAlignment: ".center"
        case .truncationMode: ".middle"
        case .labelStyle: ".iconOnly"
        case .imageScale: ".large"
        case .symbolVariant: ".fill"
        case .keyPath: "\\.self"
        case .sequence: "0..<2"
        case .any: "1"
        case .closure:
            builtin == "Path" ? "{ p in p.move(to: CGPoint(x: 0, y: 0)) }" : builtin == "ForEach" ? "{ i in Circle() }" : "{ Circle() }"
        }
    }

    /// The call `name(…)` with every parameter of `signature` given (or only the required ones).
    static func call(_ signature: Signature, all: Bool) -> String {
        let args = signature.parameters.filter { all || !$0.optional }.map { p in
            (p.label.map { $0 + ": " } ?? "") + sample(p, builtin: signature.name)
        }
        return signature.name + "(" + args.joined(separator: ", ") + ")"
    }

    /// The receivers of each method table, as source.
    static let receivers: [(String, [String: [Builtin]])] = [
        ("Circle().frame(width: 20, height: 20)", Builtins.viewModifiers),
        ("Circle()", Builtins.shapeMethods),
        ("Color.red", Builtins.colorMethods),
        ("3", Builtins.intMethods),
        ("2.5", Builtins.doubleMethods),
        ("CGAffineTransform.identity", Builtins.transformMethods),
        ("[1, 2]", Builtins.arrayMethods),
        ("Animation.linear", Builtins.animationMethods),
        ("Text(\"x\")", Builtins.textMethods),
        ("Font.body", Builtins.fontMethods),
    ]

    /// Scenes, one per call: a free function as a value, a method on its receiver, a path
    /// method inside a `Path` closure.
    static func scenes() -> [String] {
        var out: [String] = []
        for overloads in Builtins.functions.values {
            for b in overloads {
                for all in [false, true] { out.append("let value = \(call(b.signature, all: all))\nCircle()\n") }
            }
        }
        for (receiver, table) in receivers {
            for overloads in table.values {
                for b in overloads {
                    for all in [false, true] { out.append("let value = \(receiver).\(call(b.signature, all: all))\nCircle()\n") }
                }
            }
        }
        for overloads in Builtins.pathMethods.values {
            for b in overloads {
                for all in [false, true] {
                    out.append("Path { p in\n    p.move(to: CGPoint(x: 0, y: 0))\n    p.\(call(b.signature, all: all))\n}\n")
                }
            }
        }
        return out
    }

    @Test func noBuiltinMisreadsItsArguments() {
        var ran = 0, total = 0
        for source in Self.scenes() {
            total += 1
            do {
                _ = try Scene(source: source, fileName: "call.scene")
                ran += 1
            } catch {
                #expect(!error.description.contains("internal error"), "\(source)\(error)")
            }
        }
        // Most calls are well typed by construction (measured: 372 of 392); the rest fail a
        // builtin's own checks with ordinary errors (no image file "x", a value a check
        // refuses), which is not what this test is about.
        #expect(ran * 10 >= total * 9, "\(ran) of \(total) calls evaluated")
    }
}
