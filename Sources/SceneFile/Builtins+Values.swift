import Foundation
import SceneGraph

extension Builtins {
    /// Colours, angles, geometry, gradients and styles.
    static let valueConstructors: [Builtin] = [
        Builtin("Color", "red: number, green: number, blue: number, opacity: number?") { b, _ in
            .color(Color(red: try b.required(b.double("red"), "red"), green: try b.required(b.double("green"), "green"), blue: try b.required(b.double("blue"), "blue"), opacity: b.double("opacity") ?? 1))
        },
        Builtin("Color", "_ space: colorSpace, red: number, green: number, blue: number, opacity: number?") { b, _ in
            .color(Color(b.enumCase("space") == "sRGBLinear" ? .sRGBLinear : .sRGB, red: try b.required(b.double("red"), "red"), green: try b.required(b.double("green"), "green"),
                         blue: try b.required(b.double("blue"), "blue"), opacity: b.double("opacity") ?? 1))
        },
        Builtin("Color", "white: number, opacity: number?") { b, _ in .color(Color(white: try b.required(b.double("white"), "white"), opacity: b.double("opacity") ?? 1)) },
        Builtin("Color", "_ space: colorSpace, white: number, opacity: number?") { b, _ in
            .color(Color(b.enumCase("space") == "sRGBLinear" ? .sRGBLinear : .sRGB, white: try b.required(b.double("white"), "white"), opacity: b.double("opacity") ?? 1))
        },
        Builtin("Color", "hue: number, saturation: number, brightness: number, opacity: number?") { b, _ in
            .color(hsb(try b.required(b.double("hue"), "hue"), try b.required(b.double("saturation"), "saturation"), try b.required(b.double("brightness"), "brightness"), b.double("opacity") ?? 1))
        },
        // Not SwiftUI: hex is how designers hand colours over ("#FF9500", "#FF950080").
        Builtin("Color", "hex: string") { b, e in
            guard let c = Color(hex: try b.required(b.string("hex"), "hex")) else {
                e.error(b.location("hex"), "'\(try b.required(b.string("hex"), "hex"))' is not a hex colour", hint: "write \"#RGB\", \"#RRGGBB\" or \"#RRGGBBAA\"")
                return .invalid
            }
            return .color(c)
        },
        Builtin("Angle", "degrees: number") { b, _ in .angle(.degrees(try b.required(b.double("degrees"), "degrees"))) },
        Builtin("Angle", "radians: number") { b, _ in .angle(.radians(try b.required(b.double("radians"), "radians"))) },
        Builtin("Angle.degrees", "_ value: number") { b, _ in .angle(.degrees(try b.required(b.double("value"), "value"))) },
        Builtin("Angle.radians", "_ value: number") { b, _ in .angle(.radians(try b.required(b.double("value"), "value"))) },
        Builtin(".degrees", "_ value: number") { b, _ in .angle(.degrees(try b.required(b.double("value"), "value"))) },
        Builtin(".radians", "_ value: number") { b, _ in .angle(.radians(try b.required(b.double("value"), "value"))) },
        Builtin("CGPoint", "x: number, y: number") { b, _ in .point(CGPoint(x: try b.required(b.cg("x"), "x"), y: try b.required(b.cg("y"), "y"))) },
        Builtin("CGSize", "width: number, height: number") { b, _ in .size(CGSize(width: try b.required(b.cg("width"), "width"), height: try b.required(b.cg("height"), "height"))) },
        Builtin("CGRect", "x: number, y: number, width: number, height: number") { b, _ in
            .rect(CGRect(x: try b.required(b.cg("x"), "x"), y: try b.required(b.cg("y"), "y"), width: try b.required(b.cg("width"), "width"), height: try b.required(b.cg("height"), "height")))
        },
        Builtin("CGRect", "origin: point, size: size") { b, _ in .rect(CGRect(origin: try b.required(b.point("origin"), "origin"), size: try b.required(b.size("size"), "size"))) },
        Builtin("UnitPoint", "x: number, y: number") { b, _ in .unitPoint(UnitPoint(x: try b.required(b.cg("x"), "x"), y: try b.required(b.cg("y"), "y"))) },
        Builtin("Gradient", "colors: colors") { b, _ in .gradient(Gradient(colors: try b.required(b.colors("colors"), "colors"))) },
        Builtin("Gradient", "stops: stops") { b, _ in .gradient(Gradient(stops: try b.required(b.stops("stops"), "stops"))) },
        Builtin("Gradient.Stop", "color: color, location: number") { b, _ in
            .stop(Gradient.Stop(color: try b.required(b.color("color"), "color"), location: try b.required(b.double("location"), "location")))
        },
        Builtin("StrokeStyle", "lineWidth: number?, lineCap: lineCap?, lineJoin: lineJoin?, miterLimit: number?, dash: numbers?, dashPhase: number?") { b, e in
            let width = b.cg("lineWidth") ?? 1
            guard width >= 0 else { e.error(b.location("lineWidth"), "a line width must not be negative, got \(width)"); return .invalid }
            let dash = b.numbers("dash") ?? []
            guard dash.allSatisfy({ $0 >= 0 }) else { e.error(b.location("dash"), "dash lengths must not be negative"); return .invalid }
            guard dash.count <= maximumDashCount else {
                e.error(b.location("dash"), "the dash pattern has \(dash.count) lengths, more than \(maximumDashCount)")
                return .invalid
            }
            let cap: CGLineCap = switch b.enumCase("lineCap") { case "round": .round; case "square": .square; default: .butt }
            let join: CGLineJoin = switch b.enumCase("lineJoin") { case "round": .round; case "bevel": .bevel; default: .miter }
            return .strokeStyle(StrokeStyle(lineWidth: width, lineCap: cap, lineJoin: join, miterLimit: b.cg("miterLimit") ?? 10,
                                            dash: dash, dashPhase: b.cg("dashPhase") ?? 0))
        },
        Builtin("FillStyle", "eoFill: bool?, antialiased: bool?") { b, _ in
            .fillStyle(FillStyle(eoFill: b.bool("eoFill") ?? false, antialiased: b.bool("antialiased") ?? true))
        },
        Builtin("CGAffineTransform", "") { _, _ in .transform(.identity) },
        Builtin("CGAffineTransform", "rotationAngle: number") { b, _ in .transform(CGAffineTransform(rotationAngle: try b.required(b.cg("rotationAngle"), "rotationAngle"))) },
        Builtin("CGAffineTransform", "scaleX: number, y: number") { b, _ in .transform(CGAffineTransform(scaleX: try b.required(b.cg("scaleX"), "scaleX"), y: try b.required(b.cg("y"), "y"))) },
        Builtin("CGAffineTransform", "translationX: number, y: number") { b, _ in
            .transform(CGAffineTransform(translationX: try b.required(b.cg("translationX"), "translationX"), y: try b.required(b.cg("y"), "y")))
        },
        Builtin("CGAffineTransform", "a: number, b: number, c: number, d: number, tx: number, ty: number") { b, _ in
            .transform(CGAffineTransform(a: try b.required(b.cg("a"), "a"), b: try b.required(b.cg("b"), "b"), c: try b.required(b.cg("c"), "c"), d: try b.required(b.cg("d"), "d"), tx: try b.required(b.cg("tx"), "tx"), ty: try b.required(b.cg("ty"), "ty")))
        },
    ] + gradients

    /// The three gradients, each from colours, a `Gradient` or stops.
    static let gradients: [Builtin] = {
        func sources(_ name: String, _ rest: String, _ make: @escaping @Sendable (Gradient, Bound) throws -> Value) -> [Builtin] {
            [Builtin(name, "colors: colors, " + rest) { b, _ in try make(Gradient(colors: try b.required(b.colors("colors"), "colors")), b) },
             Builtin(name, "gradient: gradient, " + rest) { b, _ in try make(try b.required(b.gradient("gradient"), "gradient"), b) },
             Builtin(name, "stops: stops, " + rest) { b, _ in try make(Gradient(stops: try b.required(b.stops("stops"), "stops")), b) }]
        }
        @Sendable func style<G: ShapeStyle & View>(_ g: G, _ name: String) -> Value { .style(AnyShapeStyle(g), view: AnyView(g), name: name) }
        return sources("LinearGradient", "startPoint: unitPoint, endPoint: unitPoint") { g, b in
            style(LinearGradient(gradient: g, startPoint: try b.required(b.unitPoint("startPoint"), "startPoint"), endPoint: try b.required(b.unitPoint("endPoint"), "endPoint")), "linear gradient")
        } + sources("RadialGradient", "center: unitPoint, startRadius: number, endRadius: number") { g, b in
            style(RadialGradient(gradient: g, center: try b.required(b.unitPoint("center"), "center"), startRadius: try b.required(b.cg("startRadius"), "startRadius"), endRadius: try b.required(b.cg("endRadius"), "endRadius")),
                  "radial gradient")
        } + sources("AngularGradient", "center: unitPoint, startAngle: angle, endAngle: angle") { g, b in
            style(AngularGradient(gradient: g, center: try b.required(b.unitPoint("center"), "center"), startAngle: try b.required(b.angle("startAngle"), "startAngle"), endAngle: try b.required(b.angle("endAngle"), "endAngle")),
                  "angular gradient")
        } + sources("AngularGradient", "center: unitPoint, angle: angle?") { g, b in
            style(AngularGradient(gradient: g, center: try b.required(b.unitPoint("center"), "center"), angle: b.angle("angle") ?? .zero), "angular gradient")
        }
    }()

    /// Math: the Foundation functions scenes use, `min`/`max`/`abs` keeping integers integers,
    /// conversions, and `stride`. These take any finite number (not only coordinates).
    static let mathFunctions: [Builtin] = {
        var list: [Builtin] = []
        let unary: [(String, @Sendable (Double) -> Double)] = [
            ("sin", sin), ("cos", cos), ("tan", tan), ("asin", asin), ("acos", acos), ("atan", atan), ("sqrt", sqrt),
            ("floor", floor), ("ceil", ceil), ("round", { $0.rounded() }), ("exp", exp), ("log", log),
        ]
        for (name, f) in unary {
            list.append(Builtin(name, "_ x: number") { b, e in
                let r = f(try b.required(b.double("x"), "x"))
                guard r.isFinite else { e.error(b.call, "\(name)(\(try b.required(b.double("x"), "x"))) is not a finite number"); return .invalid }
                return .double(r)
            })
        }
        list.append(Builtin("atan2", "_ y: number, _ x: number") { b, _ in .double(atan2(try b.required(b.double("y"), "y"), try b.required(b.double("x"), "x"))) })
        list.append(Builtin("pow", "_ x: number, _ y: number") { b, e in
            let r = pow(try b.required(b.double("x"), "x"), try b.required(b.double("y"), "y"))
            guard r.isFinite else { e.error(b.call, "pow(\(try b.required(b.double("x"), "x")), \(try b.required(b.double("y"), "y"))) is not a finite number"); return .invalid }
            return .double(r)
        })
        for name in ["min", "max"] {
            list.append(Builtin(name, "_ a: any, _ b: any") { b, e in
                switch (try b.required(b.values["a"], "a"), try b.required(b.values["b"], "b")) {
                case (.int(let x), .int(let y)): return .int(name == "min" ? Swift.min(x, y) : Swift.max(x, y))
                case (let l, let r):
                    guard let x = e.number(l), let y = e.number(r) else {
                        e.error(b.call, "\(name) compares numbers, got \(l.kindName) and \(r.kindName)")
                        return .invalid
                    }
                    return .double(name == "min" ? Swift.min(x, y) : Swift.max(x, y))
                }
            })
        }
        list.append(Builtin("abs", "_ x: any") { b, e in
            switch try b.required(b.values["x"], "x") {
            case .int(let v) where v != .min: return .int(Swift.abs(v))
            case .double(let v): return .double(Swift.abs(v))
            case let other:
                e.error(b.call, "abs needs a number, got \(other.kindName)")
                return .invalid
            }
        })
        for name in ["Double", "CGFloat", "Float"] {
            list.append(Builtin(name, "_ x: number") { b, _ in .double(try b.required(b.double("x"), "x")) })
        }
        list.append(Builtin("Int", "_ x: number") { b, e in
            let v = try b.required(b.double("x"), "x")
            guard v.magnitude < 9.2e18 else { e.error(b.call, "\(v) is out of Int's range"); return .invalid }
            return .int(Int(v))
        })
        for bound in ["to", "through"] {
            list.append(Builtin("stride", "from start: any, \(bound) end: any, by step: any") { b, e in
                try stride(b, e, inclusive: bound == "through")
            })
        }
        return list.map { var b = $0; b.checksCoordinates = false; return b }
    }()

    private static func stride(_ b: Bound, _ e: Evaluator, inclusive: Bool) throws -> Value {
        let (start, end, step) = (try b.required(b.values["start"], "start"), try b.required(b.values["end"], "end"), try b.required(b.values["step"], "step"))
        guard let s = e.number(start), let t = e.number(end), let d = e.number(step), s.isFinite, t.isFinite, d.isFinite else {
            e.error(b.call, "stride needs finite numbers")
            return .invalid
        }
        guard d != 0 else { e.error(b.location("step"), "stride's step must not be zero"); return .invalid }
        let count = Swift.max(0, Int(Swift.min(1e12, ((t - s) / d).rounded(.down))) + 1)
        try e.count(count, at: b.call)
        var values: [Value] = []
        let integers: Bool = if case .int = start, case .int = step { true } else { false }
        for i in 0..<count {
            let v = s + Double(i) * d
            if !inclusive && v == t { break }
            if (d > 0 && v > t) || (d < 0 && v < t) { break }
            values.append(integers ? .int(Int(v)) : .double(v))
        }
        return .array(values)
    }

    /// HSB to sRGB (SwiftUI's `Color(hue:saturation:brightness:)`), hue in 0…1.
    static func hsb(_ h: Double, _ s: Double, _ v: Double, _ a: Double) -> Color {
        let hue = (h - h.rounded(.down)) * 6
        let i = Int(hue.rounded(.down)) % 6
        let f = hue - hue.rounded(.down)
        let (p, q, t) = (v * (1 - s), v * (1 - s * f), v * (1 - s * (1 - f)))
        let (r, g, bl): (Double, Double, Double) = switch i {
        case 0: (v, t, p)
        case 1: (q, v, p)
        case 2: (p, v, t)
        case 3: (p, q, v)
        case 4: (t, p, v)
        default: (v, p, q)
        }
        return Color(red: r, green: g, blue: bl, opacity: a)
    }
}
