import Foundation
import SceneGraph

/// Runs a parsed scene: binds constants, runs loops and conditions, calls the built-in views,
/// modifiers and functions, and collects every error with its location. An expression that
/// fails yields `.invalid`, which later steps accept silently, so each mistake is reported once
/// and evaluation goes on to find the next. Limits stop it with one error (`Abort`).
final class Evaluator {
    let limits: SceneLimits
    private(set) var diagnostics: [SceneDiagnostic] = []
    private var iterations = 0
    var canvas = SceneCanvas()
    var canvasDeclared: SourceLocation?
    var animation = Animation.default
    /// Where `Image("name.png")` looks for relative paths: the scene file's folder (nil: the
    /// current folder, for standard input).
    var baseDirectory: URL?
    /// Images already read, by resolved path: a file named twice (or in a loop) is read once.
    var images: [String: Image] = [:]
    var animationDeclared: SourceLocation?
    /// Which end of the states this run evaluates: false the start values, true the end.
    var evaluatesEndState = false
    /// The states declared, in order, with their start and end values.
    private(set) var states: [(name: String, from: Value, to: Value, location: SourceLocation)] = []

    /// Thrown when a limit is exceeded: evaluation stops.
    struct Abort: Error {}

    init(limits: SceneLimits) { self.limits = limits }

    private var reported: Set<SceneDiagnostic> = []

    /// Reports a problem once: a loop that repeats a mistake repeats no message.
    func error(_ location: SourceLocation, _ message: String, hint: String? = nil) {
        let diagnostic = SceneDiagnostic(location, message, hint: hint)
        if reported.insert(diagnostic).inserted { diagnostics.append(diagnostic) }
    }

    /// Counts loop iterations and generated elements against the limit.
    func count(_ n: Int = 1, at location: SourceLocation) throws {
        iterations += n
        if iterations > limits.maximumIterations {
            error(location, "the scene runs more than \(limits.maximumIterations) loop iterations",
                  hint: "make the loop smaller, or raise the limit with --max-iterations")
            throw Abort()
        }
    }

    // MARK: - Statements

    /// Runs statements in a new scope; returns the values of expression statements in order
    /// (the views of a view builder).
    func run(_ statements: [Stmt], in parent: Scope, newScope: Bool = true) throws -> [(Value, SourceLocation)] {
        let scope = newScope ? Scope(parent: parent) : parent
        var produced: [(Value, SourceLocation)] = []
        for statement in statements {
            switch statement {
            case let .binding(name, mutable, type, expr, location):
                var value = try evaluate(expr, in: scope)
                if let type { value = convert(value, to: type, at: expr.start) }
                _ = location
                scope.define(name, value, mutable: mutable)
            case let .assignment(target, op, expr, location):
                let value = try evaluate(expr, in: scope)
                guard let mutable = scope.isMutable(target) else {
                    error(location, "cannot find '\(target)' in scope", hint: didYouMean(target, scope.allNames))
                    continue
                }
                guard mutable else {
                    error(location, "cannot assign to '\(target)': it is a 'let' constant", hint: "declare it with 'var'")
                    continue
                }
                if op == "=" {
                    scope.assign(target, value)
                } else {
                    let current = scope.lookup(target) ?? .invalid
                    scope.assign(target, arithmetic(String(op.dropLast()), current, value, at: location))
                }
            case .expression(let expr):
                let value = try evaluate(expr, in: scope)
                if case .void = value { continue }
                produced.append((value, expr.start))
            case let .forIn(variable, sequenceExpr, filter, body, location):
                let sequence = try evaluate(sequenceExpr, in: scope)
                guard let elements = try elements(of: sequence, at: sequenceExpr.start) else { continue }
                for element in elements {
                    try count(at: location)
                    let inner = Scope(parent: scope)
                    inner.define(variable, element)
                    if let filter {
                        let keep = try evaluate(filter, in: inner)
                        guard case .bool(let ok) = keep else {
                            if !keep.isInvalid { error(filter.start, "a 'where' clause needs a boolean, got \(keep.kindName)") }
                            break
                        }
                        if !ok { continue }
                    }
                    produced += try run(body, in: inner)
                }
            case let .state(name, fromExpr, toExpr, location):
                let from = try evaluate(fromExpr, in: scope), to = try evaluate(toExpr, in: scope)
                if scope.parent != nil {
                    error(location, "a state is declared at the top of the scene, not inside a block")
                } else if states.contains(where: { $0.name == name }) || scope.lookup(name) != nil {
                    error(location, "'\(name)' is declared twice")
                } else if !from.isInvalid, !to.isInvalid, from.kindName != to.kindName {
                    error(toExpr.start, "the state '\(name)' starts as \(from.kindName) but ends as \(to.kindName)",
                          hint: "give both ends the same type")
                }
                states.append((name, from, to, location))
                scope.define(name, evaluatesEndState ? to : from)
            case let .ifElse(conditionExpr, then, otherwise, _):
                let condition = try evaluate(conditionExpr, in: scope)
                guard case .bool(let ok) = condition else {
                    if !condition.isInvalid { error(conditionExpr.start, "an 'if' condition needs a boolean, got \(condition.kindName)") }
                    continue
                }
                if ok { produced += try run(then, in: scope) } else if let otherwise { produced += try run(otherwise, in: scope) }
            }
        }
        return produced
    }

    /// `let x: Double = 5` makes 5 a Double, as Swift's annotation would.
    private func convert(_ value: Value, to type: String, at location: SourceLocation) -> Value {
        switch (type, value) {
        case ("Double", .int(let v)), ("CGFloat", .int(let v)), ("Float", .int(let v)): return .double(Double(v))
        case ("Double", .double), ("CGFloat", .double), ("Float", .double), ("Int", .int): return value
        case ("Int", .double):
            error(location, "cannot convert a number to 'Int' implicitly", hint: "use Int(…)")
            return .invalid
        case (_, .invalid): return .invalid
        default: return value
        }
    }

    /// The elements a `for` loop or `ForEach` walks: a range's integers or an array's values.
    func elements(of sequence: Value, at location: SourceLocation) throws -> [Value]? {
        switch sequence {
        case .range(let lower, let upper):
            try count(0, at: location)
            guard upper - lower <= limits.maximumIterations else {
                error(location, "the range has \(upper - lower) elements, more than the limit of \(limits.maximumIterations)",
                      hint: "make the range smaller, or raise the limit with --max-iterations")
                throw Abort()
            }
            return (lower..<upper).map { .int($0) }
        case .array(let values): return values
        case .invalid: return nil
        default:
            error(location, "expected a range or an array to loop over, got \(sequence.kindName)")
            return nil
        }
    }

    // MARK: - Expressions

    func evaluate(_ expr: Expr, in scope: Scope) throws -> Value {
        switch expr {
        case .integer(let v, _): return .int(v)
        case .float(let v, _): return .double(v)
        case .string(let s, _): return .string(s)
        case .bool(let b, _): return .bool(b)
        case .name(let name, let location):
            if let value = scope.lookup(name) { return value }
            if Builtins.typeNames.contains(name) { return .type(name) }
            if Builtins.functions[name] != nil {
                error(location, "'\(name)' must be called", hint: "write '\(name)(…)'")
                return .invalid
            }
            if name == "nil" { return .invalid }
            error(location, "cannot find '\(name)' in scope",
                  hint: didYouMean(name, scope.allNames + Array(Builtins.functions.keys) + Array(Builtins.typeNames)))
            return .invalid
        case .implicitMember(let name, _):
            return .member(name)
        case .member(let baseExpr, let name, let location):
            let base = try evaluate(baseExpr, in: scope)
            return property(name, of: base, at: location)
        case .call(let calleeExpr, let argExprs, let location):
            var args: [Arg] = []
            for a in argExprs {
                args.append(Arg(label: a.label, location: a.location, value: try evaluate(a.value, in: scope), trailing: a.isTrailingClosure))
            }
            return try call(calleeExpr, args, at: location, in: scope)
        case .closure(let closure):
            return .closure(closure, scope)
        case .unary(let op, let operandExpr, let location):
            let operand = try evaluate(operandExpr, in: scope)
            return unary(op, operand, at: location)
        case .binary(let op, let lhsExpr, let rhsExpr, let location):
            let lhs = try evaluate(lhsExpr, in: scope)
            // `&&` and `||` short-circuit, as in Swift.
            if op == "&&" || op == "||" {
                guard case .bool(let l) = lhs else {
                    if !lhs.isInvalid { error(lhsExpr.start, "'\(op)' needs booleans, got \(lhs.kindName)") }
                    return .invalid
                }
                if op == "&&" && !l { return .bool(false) }
                if op == "||" && l { return .bool(true) }
                let rhs = try evaluate(rhsExpr, in: scope)
                guard case .bool(let r) = rhs else {
                    if !rhs.isInvalid { error(rhsExpr.start, "'\(op)' needs booleans, got \(rhs.kindName)") }
                    return .invalid
                }
                return .bool(r)
            }
            let rhs = try evaluate(rhsExpr, in: scope)
            return binary(op, lhs, rhs, at: location)
        case .ternary(let conditionExpr, let a, let b, _):
            let condition = try evaluate(conditionExpr, in: scope)
            guard case .bool(let ok) = condition else {
                if !condition.isInvalid { error(conditionExpr.start, "the condition of '?:' needs a boolean, got \(condition.kindName)") }
                return .invalid
            }
            return try evaluate(ok ? a : b, in: scope)
        case .array(let elementExprs, let location):
            var values: [Value] = []
            for e in elementExprs { values.append(try evaluate(e, in: scope)) }
            try count(values.count, at: location)
            return .array(values)
        case .keyPath(let path, let location):
            if path != ["self"] {
                error(location, "only the key path '\\.self' is supported")
                return .invalid
            }
            return .keyPath(path)
        case .subscriptAccess(let baseExpr, let indexExpr, let location):
            let base = try evaluate(baseExpr, in: scope)
            let index = try evaluate(indexExpr, in: scope)
            switch (base, index) {
            case (.array(let values), .int(let i)):
                guard values.indices.contains(i) else {
                    error(location, "index \(i) is out of range (the array has \(values.count) elements)")
                    return .invalid
                }
                return values[i]
            case (.invalid, _), (_, .invalid): return .invalid
            case (.array, _):
                error(indexExpr.start, "an array index must be an integer, got \(index.kindName)")
                return .invalid
            default:
                error(location, "cannot subscript \(base.kindName)")
                return .invalid
            }
        }
    }

    /// Calls a closure with arguments and returns the values its body produces.
    func invoke(_ closure: Closure, _ captured: Scope, with arguments: [Value], at location: SourceLocation) throws -> [(Value, SourceLocation)] {
        let scope = Scope(parent: captured)
        if closure.parameters.count != arguments.count && !(closure.parameters.isEmpty && arguments.count <= 1) {
            error(closure.location, "the closure takes \(closure.parameters.count) parameter\(closure.parameters.count == 1 ? "" : "s"), but \(arguments.count) \(arguments.count == 1 ? "is" : "are") passed")
            return []
        }
        for (name, value) in zip(closure.parameters, arguments) where name != "_" { scope.define(name, value) }
        return try run(closure.body, in: scope)
    }

    /// A view builder closure: every value it produces must be a view (shapes and colours are).
    func buildViews(_ closure: Closure, _ captured: Scope, arguments: [Value] = [], at location: SourceLocation) throws -> AnyView {
        var views: [AnyView] = []
        for (value, where_) in try invoke(closure, captured, with: arguments, at: location) {
            // Identity by where the view is written, as a Swift builder's position gives it: a
            // view added or removed by an `if` does not take another's place in an animation.
            if let view = asView(value, at: where_, context: "a view builder") {
                views.append(AnyView(view, sourceLine: where_.line, column: where_.column))
            }
        }
        return views.count == 1 ? views[0] : AnyView(sequence: views)
    }

    /// A value as a view: views, shapes (filled with the foreground), colours and gradients.
    func asView(_ value: Value, at location: SourceLocation, context: String) -> AnyView? {
        switch value {
        case .view(let v): return v
        case .image(let i): return AnyView(i)
        case .text(let t): return AnyView(t)
        case .shape(let s): return AnyView(s)
        case .color(let c): return AnyView(c)
        case .style(_, let v, _): return v
        case .member(let name):
            if let c = namedColors[name] { return AnyView(c) }
            error(location, "'.\(name)' is not a view", hint: didYouMean(name, Array(namedColors.keys)))
            return nil
        case .invalid: return nil
        default:
            error(location, "\(context) expects views, got \(value.kindName)")
            return nil
        }
    }
}
