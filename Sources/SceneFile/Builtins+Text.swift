import Foundation
import SceneGraph

extension Builtins {
    /// `Text(…)`, and fonts: `.system(size:weight:design:)`, `.custom(_:size:)` (also as
    /// `Font.…`).
    static let textConstructors: [Builtin] = {
        let system = { @Sendable (b: Bound) throws -> Value in
            .font(.system(size: try b.required(b.cg("size"), "size"), weight: b.fontWeight("weight"), design: b.fontDesign("design")))
        }
        let custom = { @Sendable (b: Bound) throws -> Value in
            .font(.custom(try b.required(b.string("name"), "name"), size: try b.required(b.cg("size"), "size")))
        }
        // Each font constructor both as an implicit member (`.system(…)`) and on the type.
        func both(_ name: String, _ spec: String, _ make: @escaping @Sendable (Bound) throws -> Value) -> [Builtin] {
            ["." + name, "Font." + name].map { n in
                Builtin(n, spec) { b, e in
                    guard e.positive(b, "size") else { return .invalid }
                    return try make(b)
                }
            }
        }
        return [
            Builtin("Text", "_ content: string") { b, e in try text(try b.required(b.string("content"), "content"), b, e) },
            Builtin("Text", "verbatim content: string") { b, e in try text(try b.required(b.string("content"), "content"), b, e) },
            Builtin("Image", "systemName: string") { b, e in
                guard let name = try symbol(b, e, "systemName") else { return .invalid }
                return .image(Image(systemName: name))
            },
            Builtin("Label", "_ title: string, systemImage: string") { b, e in
                guard let name = try symbol(b, e, "systemImage") else { return .invalid }
                guard case .text = try text(try b.required(b.string("title"), "title"), b, e, at: "title") else { return .invalid }
                return .view(AnyView(Label(try b.required(b.string("title"), "title"), systemImage: name)))
            },
            // A button's action never runs: a scene is drawn, not used (states change with
            // `state` declarations), so its closure is parsed but not evaluated.
            Builtin("Button", "_ title: string, action: closure") { b, e in
                guard case .text = try text(try b.required(b.string("title"), "title"), b, e, at: "title") else { return .invalid }
                return .view(AnyView(Button(try b.required(b.string("title"), "title")) {}))
            },
            Builtin("Button", "action: closure, label: closure") { b, e in
                let label = try e.content(b, "label")
                return .view(AnyView(Button(action: {}) { label }))
            },
            Builtin("Label", "title: closure, icon: closure") { b, e in
                let title = try e.content(b, "title"), icon = try e.content(b, "icon")
                return .view(AnyView(Label { title } icon: { icon }))
            },
        ] + both("system", "size: number, weight: fontWeight?, design: fontDesign?", system) + both("custom", "_ name: string, size: number", custom)
    }()

    /// The most characters one `Text` may hold: a page of text is a few thousand; a string of
    /// millions would only take time and memory to lay out.
    static let maximumTextCharacters = 100_000

    /// The symbol name argument `parameter`; nil, with a located error naming the nearest
    /// known name, when there is no such symbol.
    private static func symbol(_ b: Bound, _ e: Evaluator, _ parameter: String) throws -> String? {
        let name = try b.required(b.string(parameter), parameter)
        guard SymbolSet.contains(name) else {
            e.error(b.location(parameter), "no symbol named '\(name)'",
                    hint: SymbolSet.suggestion(for: name).map { "did you mean '\($0)'?" } ?? "the symbols are listed in docs/text.md")
            return nil
        }
        return name
    }

    private static func text(_ string: String, _ b: Bound, _ e: Evaluator, at parameter: String = "content") throws -> Value {
        guard string.unicodeScalars.count <= maximumTextCharacters else {
            e.error(b.location(parameter), "a Text holds at most \(maximumTextCharacters) characters, this one \(string.unicodeScalars.count)")
            return .invalid
        }
        return .text(Text(verbatim: string))
    }

    /// Methods of a Text that keep it a Text (so `+` still joins it).
    static let textMethods = table([
        Builtin("font", "_ font: font") { b, _ in
            .text(try b.required(b.text("self"), "self").font(try b.required(b.font("font"), "font")))
        },
        Builtin("fontWeight", "_ weight: fontWeight") { b, _ in
            .text(try b.required(b.text("self"), "self").fontWeight(try b.required(b.fontWeight("weight"), "weight")))
        },
        Builtin("bold", "") { b, _ in .text(try b.required(b.text("self"), "self").bold()) },
        Builtin("italic", "") { b, _ in .text(try b.required(b.text("self"), "self").italic()) },
        Builtin("foregroundStyle", "_ style: style") { b, _ in
            .text(try b.required(b.text("self"), "self").foregroundStyle(try b.required(b.style("style"), "style")))
        },
        Builtin("foregroundColor", "_ color: color") { b, _ in
            .text(try b.required(b.text("self"), "self").foregroundColor(try b.required(b.color("color"), "color")))
        },
        Builtin("kerning", "_ kerning: number") { b, _ in
            .text(try b.required(b.text("self"), "self").kerning(try b.required(b.cg("kerning"), "kerning")))
        },
        Builtin("tracking", "_ tracking: number") { b, _ in
            .text(try b.required(b.text("self"), "self").tracking(try b.required(b.cg("tracking"), "tracking")))
        },
        Builtin("baselineOffset", "_ offset: number") { b, _ in
            .text(try b.required(b.text("self"), "self").baselineOffset(try b.required(b.cg("offset"), "offset")))
        },
    ])

    /// Methods of a font.
    static let fontMethods = table([
        Builtin("bold", "") { b, _ in .font(try b.required(b.font("self"), "self").bold()) },
        Builtin("italic", "") { b, _ in .font(try b.required(b.font("self"), "self").italic()) },
        Builtin("weight", "_ weight: fontWeight") { b, _ in
            .font(try b.required(b.font("self"), "self").weight(try b.required(b.fontWeight("weight"), "weight")))
        },
        Builtin("monospacedDigit", "") { b, _ in .font(try b.required(b.font("self"), "self").monospacedDigit()) },
        Builtin("monospaced", "") { b, _ in .font(try b.required(b.font("self"), "self").monospaced()) },
    ])

    /// Modifiers any view takes for the text inside it (environment values).
    static let textModifiers: [Builtin] = [
        Builtin("font", "_ font: font") { b, _ in
            .view(AnyView(try b.required(b.view("self"), "self").font(try b.required(b.font("font"), "font"))))
        },
        Builtin("lineLimit", "_ number: int") { b, e in
            guard let n = b.int("number"), n >= 1 else {
                e.error(b.location("number"), "a line limit must be at least 1, got \(b.int("number") ?? 0)")
                return .invalid
            }
            return .view(AnyView(try b.required(b.view("self"), "self").lineLimit(n)))
        },
        Builtin("multilineTextAlignment", "_ alignment: textAlignment") { b, _ in
            .view(AnyView(try b.required(b.view("self"), "self").multilineTextAlignment(try b.required(b.textAlignment("alignment"), "alignment"))))
        },
        Builtin("truncationMode", "_ mode: truncationMode") { b, _ in
            .view(AnyView(try b.required(b.view("self"), "self").truncationMode(try b.required(b.truncationMode("mode"), "mode"))))
        },
        Builtin("lineSpacing", "_ spacing: number") { b, _ in
            .view(AnyView(try b.required(b.view("self"), "self").lineSpacing(try b.required(b.cg("spacing"), "spacing"))))
        },
        Builtin("labelStyle", "_ style: labelStyle") { b, _ in
            .view(AnyView(try b.required(b.view("self"), "self").labelStyle(try b.required(b.labelStyle("style"), "style"))))
        },
        Builtin("imageScale", "_ scale: imageScale") { b, _ in
            .view(AnyView(try b.required(b.view("self"), "self").imageScale(try b.required(b.imageScale("scale"), "scale"))))
        },
        Builtin("symbolVariant", "_ variant: symbolVariant") { b, _ in
            .view(AnyView(try b.required(b.view("self"), "self").symbolVariant(try b.required(b.symbolVariant("variant"), "variant"))))
        },
    ]
}
