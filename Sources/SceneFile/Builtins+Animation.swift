import Foundation
import SceneGraph

/// The animations a scene names without arguments (`.easeInOut`, `Animation.bouncy`).
let namedAnimations: [String: Animation] = [
    "default": .default, "linear": .linear, "easeIn": .easeIn, "easeOut": .easeOut, "easeInOut": .easeInOut,
    "spring": .spring, "smooth": .smooth, "snappy": .snappy, "bouncy": .bouncy,
]

/// The longest duration, delay or spring response a scene may give: an hour.
let maximumAnimationSeconds = 3600.0

extension Builtins {
    /// `.easeInOut(duration:)`, `.spring(response:dampingFraction:blendDuration:)` …, each as an
    /// implicit member and as `Animation.name(…)`.
    static let animationConstructors: [Builtin] = {
        var made: [Builtin] = []
        func both(_ name: String, _ spec: String, _ run: @escaping @Sendable (Bound, Evaluator) throws -> Value) {
            var implicit = Builtin("." + name, spec, run)
            implicit.checksCoordinates = false
            var qualified = Builtin("Animation." + name, spec, run)
            qualified.checksCoordinates = false
            made += [implicit, qualified]
        }
        for (name, make) in [("linear", Animation.linear(duration:)), ("easeIn", Animation.easeIn(duration:)),
                             ("easeOut", Animation.easeOut(duration:)), ("easeInOut", Animation.easeInOut(duration:))] {
            both(name, "duration: number?") { b, e in
                guard let d = e.seconds(b, "duration", positive: true) else { return .invalid }
                return .animation(make(d ?? Animation.defaultDuration))
            }
        }
        both("timingCurve", "_ c0x: number, _ c0y: number, _ c1x: number, _ c1y: number, duration: number?") { b, e in
            for name in ["c0x", "c1x"] where !(0...1).contains(b.double(name)!) {
                e.error(b.location(name), "a timing curve's x control points must be from 0 to 1, got \(b.double(name)!.plainDescription)",
                        hint: "x is time, which must not run backwards")
                return .invalid
            }
            guard let d = e.seconds(b, "duration", positive: true) else { return .invalid }
            return .animation(.timingCurve(try b.required(b.double("c0x"), "c0x"), try b.required(b.double("c0y"), "c0y"), try b.required(b.double("c1x"), "c1x"), try b.required(b.double("c1y"), "c1y"),
                                           duration: d ?? Animation.defaultDuration))
        }
        both("spring", "response: number?, dampingFraction: number?, blendDuration: number?") { b, e in
            guard let r = e.seconds(b, "response", positive: true), let bd = e.seconds(b, "blendDuration", positive: false) else { return .invalid }
            if let f = b.double("dampingFraction"), !(0...100).contains(f) {
                e.error(b.location("dampingFraction"), "the damping fraction must be from 0 to 100, got \(f.plainDescription)")
                return .invalid
            }
            return .animation(.spring(response: r ?? 0.5, dampingFraction: b.double("dampingFraction") ?? 0.825, blendDuration: bd ?? 0))
        }
        both("spring", "duration: number, bounce: number?, blendDuration: number?") { b, e in
            guard let d = e.seconds(b, "duration", positive: true), let bd = e.seconds(b, "blendDuration", positive: false),
                  let bounce = e.bounce(b, "bounce") else { return .invalid }
            return .animation(.spring(duration: d ?? 0.5, bounce: bounce, blendDuration: bd ?? 0))
        }
        for (name, make) in [("smooth", Animation.smooth(duration:extraBounce:)), ("snappy", Animation.snappy(duration:extraBounce:)),
                             ("bouncy", Animation.bouncy(duration:extraBounce:))] {
            both(name, "duration: number?, extraBounce: number?") { b, e in
                guard let d = e.seconds(b, "duration", positive: true), let extra = e.bounce(b, "extraBounce") else { return .invalid }
                return .animation(make(d ?? 0.5, extra))
            }
        }
        return made
    }()

    /// Methods on an animation: `delay`, `speed`, `repeatCount`, `repeatForever`.
    static let animationMethods = table([
        Builtin("delay", "_ seconds: number") { b, e in
            guard let d = e.seconds(b, "seconds", positive: false) else { return .invalid }
            return .animation(try b.required(b.animation("self"), "self").delay(d ?? 0))
        },
        Builtin("speed", "_ factor: number") { b, e in
            let f = try b.required(b.double("factor"), "factor")
            guard f > 0, f <= 1000 else {
                e.error(b.location("factor"), "the speed must be above 0 and at most 1000, got \(f.plainDescription)")
                return .invalid
            }
            return .animation(try b.required(b.animation("self"), "self").speed(f))
        },
        Builtin("repeatCount", "_ count: int, autoreverses: bool?") { b, e in
            let n = try b.required(b.int("count"), "count")
            guard (1...10_000).contains(n) else {
                e.error(b.location("count"), "the repeat count must be from 1 to 10000, got \(n)")
                return .invalid
            }
            return .animation(try b.required(b.animation("self"), "self").repeatCount(n, autoreverses: b.bool("autoreverses") ?? true))
        },
        Builtin("repeatForever", "autoreverses: bool?") { b, _ in
            .animation(try b.required(b.animation("self"), "self").repeatForever(autoreverses: b.bool("autoreverses") ?? true))
        },
    ].map { var m = $0; m.checksCoordinates = false; return m })
}

extension Evaluator {
    /// A duration-like argument in seconds: `.some(nil)` when absent, nil (reported) when out of
    /// range. Positive ones must be above 0; all at most an hour.
    func seconds(_ b: Bound, _ name: String, positive: Bool) -> Double?? {
        guard let v = b.double(name) else { return .some(nil) }
        guard positive ? v > 0 : v >= 0, v <= maximumAnimationSeconds else {
            error(b.location(name), "argument '\(name)' must be \(positive ? "above 0" : "from 0") and at most \(Int(maximumAnimationSeconds)) seconds, got \(v.plainDescription)")
            return nil
        }
        return .some(v)
    }

    /// A spring's bounce: from −1 to 1 (exclusive), 0 when absent.
    func bounce(_ b: Bound, _ name: String) -> Double? {
        guard let v = b.double(name) else { return 0 }
        guard v > -1, v < 1 else {
            error(b.location(name), "argument '\(name)' must be between -1 and 1, got \(v.plainDescription)")
            return nil
        }
        return v
    }

    /// `animation(_:)`: how the scene's states change (once per scene).
    func declareAnimation(_ args: [Arg], at location: SourceLocation) throws -> Value {
        let builtin = Builtin("animation", "_ animation: animation") { b, e in
            if let previous = e.animationDeclared {
                e.error(b.call, "the animation is declared twice", hint: "the first declaration is at line \(previous.line)")
                return .void
            }
            e.animationDeclared = b.call
            e.animation = try b.required(b.animation("animation"), "animation")
            return .void
        }
        return try dispatch([builtin], args, receiver: nil, at: location)
    }
}

extension Value {
    /// How `compose animate` reports a state's value.
    var stateText: String {
        switch self {
        case .bool(let v): "\(v)"
        case .int(let v): "\(v)"
        case .double(let v): v.plainDescription
        case .string(let v): "\"\(v)\""
        case .color(let c): c.description
        case .angle(let a): ".degrees(\(a.degrees.plainDescription))"
        default: kindName
        }
    }
}
