import Foundation
import SceneGraph

extension Evaluator {
    /// A call: a function or initializer by name, an implicit member (`.degrees(5)`), or a
    /// method on a value (a modifier on a view or shape, `p.addLine(to:)` on a path …).
    func call(_ callee: Expr, _ args: [Arg], at location: SourceLocation, in scope: Scope) throws -> Value {
        switch callee {
        case .name(let name, let l):
            if let value = scope.lookup(name) {
                error(l, "cannot call '\(name)': it is \(value.kindName)")
                return .invalid
            }
            if name == "canvas" { return try declareCanvas(args, at: l) }
            if name == "animation" { return try declareAnimation(args, at: l) }
            if let overloads = Builtins.functions[name] { return try dispatch(overloads, args, receiver: nil, at: l) }
            if let reason = Builtins.unsupported[name] {
                error(l, "'\(name)' is not supported yet: \(reason)")
                return .invalid
            }
            error(l, "cannot find '\(name)' in scope",
                  hint: didYouMean(name, Array(Builtins.functions.keys) + scope.allNames))
            return .invalid
        case .implicitMember(let name, let l):
            if let overloads = Builtins.functions["." + name] { return try dispatch(overloads, args, receiver: nil, at: l) }
            error(l, "unknown member '.\(name)(…)'", hint: didYouMean(name, Builtins.functions.keys.filter { $0.hasPrefix(".") }.map { String($0.dropFirst()) }))
            return .invalid
        case .member(let baseExpr, let name, let l):
            let base = try evaluate(baseExpr, in: scope)
            return try method(name, on: base, args, at: l)
        default:
            error(location, "this expression cannot be called")
            return .invalid
        }
    }

    /// A method call on a value.
    func method(_ name: String, on base: Value, _ args: [Arg], at location: SourceLocation) throws -> Value {
        switch base {
        case .invalid: return .invalid
        case .type(let typeName):
            if let overloads = Builtins.functions[typeName + "." + name] { return try dispatch(overloads, args, receiver: nil, at: location) }
            error(location, "type '\(typeName)' has no member '\(name)'",
                  hint: didYouMean(typeName + "." + name, Array(Builtins.functions.keys)))
            return .invalid
        case .member(let member):
            if let c = namedColors[member] { return try method(name, on: .color(c), args, at: location) }
            if let a = namedAnimations[member], Builtins.animationMethods[name] != nil { return try method(name, on: .animation(a), args, at: location) }
            error(location, "cannot call '\(name)' on '.\(member)': its type is not known here", hint: "write the type, e.g. 'Color.\(member)'")
            return .invalid
        case .shape:
            if let overloads = Builtins.shapeMethods[name] { return try dispatch(overloads, args, receiver: base, at: location) }
            return try viewMethod(name, base, args, at: location)
        case .color(let c):
            if let overloads = Builtins.colorMethods[name] { return try dispatch(overloads, args, receiver: base, at: location) }
            return try viewMethod(name, .view(AnyView(c)), args, at: location)
        case .view, .style:
            return try viewMethod(name, base, args, at: location)
        case .text:
            if let overloads = Builtins.textMethods[name] { return try dispatch(overloads, args, receiver: base, at: location) }
            return try viewMethod(name, base, args, at: location)
        case .font:
            if let overloads = Builtins.fontMethods[name] { return try dispatch(overloads, args, receiver: base, at: location) }
            error(location, "a font has no method '\(name)'", hint: didYouMean(name, Array(Builtins.fontMethods.keys)))
            return .invalid
        case .image:
            if let overloads = Builtins.imageMethods[name] { return try dispatch(overloads, args, receiver: base, at: location) }
            return try viewMethod(name, base, args, at: location)
        default:
            let table: [String: [Builtin]]? = switch base {
            case .path: Builtins.pathMethods
            case .int: Builtins.intMethods
            case .double: Builtins.doubleMethods
            case .transform: Builtins.transformMethods
            case .array: Builtins.arrayMethods
            case .animation: Builtins.animationMethods
            default: nil
            }
            if let overloads = table?[name] { return try dispatch(overloads, args, receiver: base, at: location) }
            error(location, "\(base.kindName) has no method '\(name)'",
                  hint: table.flatMap { didYouMean(name, Array($0.keys)) })
            return .invalid
        }
    }

    private func viewMethod(_ name: String, _ base: Value, _ args: [Arg], at location: SourceLocation) throws -> Value {
        guard let view = asView(base, at: location, context: "a modifier") else { return .invalid }
        if let overloads = Builtins.viewModifiers[name] { return try dispatch(overloads, args, receiver: .view(view), at: location) }
        if let reason = Builtins.unsupported[name] {
            error(location, "'\(name)' is not supported yet: \(reason)")
            return .invalid
        }
        var candidates = Array(Builtins.viewModifiers.keys)
        if case .shape = base { candidates += Builtins.shapeMethods.keys }
        error(location, "unknown modifier '\(name)'" + (didYouMean(name, candidates).map { "; \($0)" } ?? ""))
        return .invalid
    }

    /// Matches arguments to the first overload whose labels and types fit (Swift's rules:
    /// arguments in parameter order, defaulted parameters may be left out, a trailing closure
    /// fills a closure parameter), then runs it. Without a match, reports the problem of the
    /// overload that got furthest.
    func dispatch(_ overloads: [Builtin], _ args: [Arg], receiver: Value?, at location: SourceLocation) throws -> Value {
        if args.contains(where: { $0.value.isInvalid }) || receiver?.isInvalid == true { return .invalid }
        var best: (progress: Int, location: SourceLocation, mismatch: Mismatch)?
        func consider(_ progress: Int, _ where_: SourceLocation, _ mismatch: Mismatch) {
            if best == nil || progress > best!.progress { best = (progress, where_, mismatch) }
        }
        overloads: for builtin in overloads {
            let signature = builtin.signature
            var bound = Bound(call: location)
            var i = 0
            for (position, parameter) in signature.parameters.enumerated() {
                if i < args.count {
                    let arg = args[i]
                    let fits = arg.trailing ? parameter.type == .closure && (arg.label == nil || arg.label == parameter.label)
                        : arg.label == parameter.label
                    if fits {
                        let argument = parameter.label.map { "argument '\($0)'" } ?? "argument \(position + 1) of '\(signature.name)'"
                        switch coerce(arg.value, to: parameter.type, argument: argument) {
                        case .success(let v):
                            bound.values[parameter.name] = v
                            bound.locations[parameter.name] = arg.location
                        case .failure(let m):
                            // A type mismatch ranks above any label mismatch of another form.
                            consider(1000 + i, arg.location, m)
                            continue overloads
                        }
                        i += 1
                        continue
                    }
                }
                if parameter.optional { continue }
                let label = parameter.label.map { "'\($0):'" } ?? "#\(position + 1)"
                let at = i < args.count ? args[i].location : location
                if i < args.count, let l = args[i].label, parameter.label == nil {
                    consider(i, at, Mismatch(message: "extraneous argument label '\(l):' in call to '\(signature.name)'",
                                             hint: "write the value without a label, as in \(signature.displayName)"))
                } else if i < args.count, args[i].label == nil, !args[i].trailing, parameter.label != nil {
                    consider(i, at, Mismatch(message: "missing argument label \(label) in call to '\(signature.name)'"))
                } else if i < args.count, let l = args[i].label, l != parameter.label {
                    consider(i, at, Mismatch(message: "incorrect argument label '\(l):' in call to '\(signature.name)', expected \(label)"))
                } else {
                    consider(i, at, Mismatch(message: "missing argument \(label) in call to '\(signature.name)'"))
                }
                continue overloads
            }
            if i < args.count {
                let arg = args[i]
                let labels = signature.parameters.compactMap(\.label)
                if let l = arg.label {
                    let known = labels.contains(l)
                    consider(i, arg.location, Mismatch(
                        message: known ? "argument '\(l):' is out of order in call to '\(signature.name)'"
                                       : "incorrect argument label '\(l):' in call to '\(signature.name)'" + (didYouMean(l, labels).map { "; \($0)" } ?? ""),
                        hint: known ? "the order is \(signature.displayName)" : nil))
                } else {
                    consider(i, arg.location, Mismatch(message: "extra argument in call to '\(signature.name)'"))
                }
                continue
            }
            if let receiver { bound.values["self"] = receiver }
            if bound.values.values.contains(where: \.isInvalid) { return .invalid }
            if builtin.checksCoordinates {
                for parameter in signature.parameters {
                    guard case .double(let v)? = bound.values[parameter.name], abs(v) > limits.maximumCoordinate,
                          !(parameter.type == .length && v == .infinity) else { continue }
                    error(bound.location(parameter.name),
                          "\(parameter.label.map { "argument '\($0)'" } ?? "argument \(parameter.name)") is \(v.plainDescription), beyond the limit of ±\(Int(limits.maximumCoordinate))",
                          hint: "scene geometry is in points; raise the limit with --max-coordinate if you mean it")
                    return .invalid
                }
            }
            do {
                return try builtin.run(bound, self)
            } catch let mismatch as ArgumentMismatch {
                // A builtin read an argument as another type than its signature declares: a
                // bug in the builtin table, reported where it shows instead of trapping.
                error(mismatch.location, "internal error: '\(signature.name)' read argument '\(mismatch.name)' as another type than it declares",
                      hint: "please report this scene")
                return .invalid
            }
        }
        guard let best else { return .invalid }
        var hint = best.mismatch.hint
        if overloads.count > 1 && best.progress < 1000 && best.mismatch.hint == nil {
            hint = "the forms are " + overloads.map(\.signature.displayName).joined(separator: ", ")
        }
        error(best.location, best.mismatch.message, hint: hint)
        return .invalid
    }

    /// `base.name` without a call: properties, static members, nested types.
    func property(_ name: String, of base: Value, at location: SourceLocation) -> Value {
        switch (base, name) {
        case (.invalid, _): return .invalid
        case (.type(let t), _):
            if let v = Builtins.staticMember(t, name) { return v }
            if Builtins.typeNames.contains(t + "." + name) { return .type(t + "." + name) }
            if Builtins.functions[t + "." + name] != nil {
                error(location, "'\(t).\(name)' must be called", hint: "write '\(t).\(name)(…)'")
                return .invalid
            }
            error(location, "type '\(t)' has no member '\(name)'" + (didYouMean(name, Builtins.staticMemberNames(t)).map { "; \($0)" } ?? ""))
            return .invalid
        case (.member(let m), _) where namedColors[m] != nil:
            return property(name, of: .color(namedColors[m]!), at: location)
        case (.color(let c), "gradient"):
            let g = c.gradient
            return .style(AnyShapeStyle(g), view: AnyView(g), name: "gradient")
        case (.angle(let a), "degrees"): return .double(a.degrees)
        case (.angle(let a), "radians"): return .double(a.radians)
        case (.point(let p), "x"): return .double(p.x)
        case (.point(let p), "y"): return .double(p.y)
        case (.size(let s), "width"): return .double(s.width)
        case (.size(let s), "height"): return .double(s.height)
        case (.rect(let r), _):
            let table: [String: CGFloat] = ["minX": r.minX, "minY": r.minY, "midX": r.midX, "midY": r.midY, "maxX": r.maxX,
                                            "maxY": r.maxY, "width": r.width, "height": r.height]
            if let v = table[name] { return .double(v) }
            if name == "origin" { return .point(r.origin) }
            if name == "size" { return .size(r.size) }
        case (.array(let values), "count"): return .int(values.count)
        case (.array(let values), "indices"): return .range(0, values.count)
        case (.array(let values), "first"): return values.first ?? .invalid
        case (.array(let values), "last"): return values.last ?? .invalid
        case (.range(let a, let b), "count"): return .int(b - a)
        case (.range(let a, _), "lowerBound"): return .int(a)
        case (.range(_, let b), "upperBound"): return .int(b)
        case (.path(let p), "boundingRect"): return .rect(p.path.boundingRect)
        case (.path(let p), "currentPoint"): return p.path.currentPoint.map(Value.point) ?? .invalid
        case (.int(let v), "magnitude"): return .int(v.magnitude > UInt(Int.max) ? Int.max : Int(v.magnitude))
        case (.double(let v), "magnitude"): return .double(v.magnitude)
        default: break
        }
        if case .shape = base, Builtins.shapeMethods[name] != nil || Builtins.viewModifiers[name] != nil {
            error(location, "'\(name)' must be called", hint: "write '.\(name)(…)'")
            return .invalid
        }
        if Builtins.viewModifiers[name] != nil {
            error(location, "'\(name)' must be called", hint: "write '.\(name)(…)'")
            return .invalid
        }
        error(location, "\(base.kindName) has no member '\(name)'")
        return .invalid
    }
}
