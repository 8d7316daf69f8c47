import Foundation
import SceneGraph

/// Operators. Integers stay integers (`7 / 2` is 3, overflow is an error, as Swift traps);
/// an integer meeting a floating-point number becomes one (where Swift would ask for
/// `Double(…)`, a scene converts, since literals are how scenes are written). Angles add,
/// subtract, negate and scale.
extension Evaluator {
    func unary(_ op: String, _ operand: Value, at location: SourceLocation) -> Value {
        switch (op, operand) {
        case (_, .invalid): return .invalid
        case ("-", .int(let v)):
            guard v != Int.min else { error(location, "arithmetic overflow in '-'"); return .invalid }
            return .int(-v)
        case ("-", .double(let v)): return .double(-v)
        case ("-", .angle(let a)): return .angle(-a)
        case ("+", .int), ("+", .double), ("+", .angle): return operand
        case ("!", .bool(let b)): return .bool(!b)
        default:
            error(location, "unary '\(op)' cannot be applied to \(operand.kindName)")
            return .invalid
        }
    }

    /// Member shorthand next to a value of known type takes that type (`2 * .pi`,
    /// `angle == .zero`, `colour == .blue`).
    private func resolved(_ value: Value, beside other: Value) -> Value {
        guard case .member(let name) = value else { return value }
        switch other {
        case .int, .double: return name == "pi" ? .double(.pi) : value
        case .angle: return name == "zero" ? .angle(.zero) : value
        case .color: return namedColors[name].map(Value.color) ?? value
        default: return value
        }
    }

    func binary(_ op: String, _ lhs: Value, _ rhs: Value, at location: SourceLocation) -> Value {
        if lhs.isInvalid || rhs.isInvalid { return .invalid }
        let (lhs, rhs) = (resolved(lhs, beside: rhs), resolved(rhs, beside: lhs))
        switch op {
        case "+" where { if case .text = lhs { true } else { false } }() || { if case .text = rhs { true } else { false } }():
            // Texts join into one Text, each part keeping its attributes.
            guard case .text(let a) = lhs, case .text(let b) = rhs else {
                error(location, "'+' joins two texts, got \(lhs.kindName) and \(rhs.kindName)", hint: "write Text(…) + Text(…)")
                return .invalid
            }
            return .text(a + b)
        case "+", "-", "*", "/", "%": return arithmetic(op, lhs, rhs, at: location)
        case "..<", "...":
            guard case .int(let a) = lhs, case .int(var b) = rhs else {
                error(location, "'\(op)' makes ranges of integers, got \(lhs.kindName) and \(rhs.kindName)",
                      hint: "use stride(from:to:by:) for floating-point steps")
                return .invalid
            }
            if op == "..." {
                guard b < Int.max else { error(location, "the range's upper bound is too large"); return .invalid }
                b += 1
            }
            guard a <= b else {
                error(location, "a range needs its lower bound at most its upper bound, got \(a)\(op)\(op == "..." ? b - 1 : b)")
                return .invalid
            }
            guard !b.subtractingReportingOverflow(a).overflow else {
                error(location, "the range is too large")
                return .invalid
            }
            return .range(a, b)
        case "==", "!=":
            guard let equal = equal(lhs, rhs) else {
                error(location, "cannot compare \(lhs.kindName) with \(rhs.kindName)")
                return .invalid
            }
            return .bool(op == "==" ? equal : !equal)
        case "<", "<=", ">", ">=":
            let pair: (Double, Double)
            switch (lhs, rhs) {
            case (.int(let a), .int(let b)):
                return .bool(op == "<" ? a < b : op == "<=" ? a <= b : op == ">" ? a > b : a >= b)
            case (.angle(let a), .angle(let b)): pair = (a.radians, b.radians)
            default:
                guard let a = number(lhs), let b = number(rhs) else {
                    error(location, "'\(op)' compares numbers, got \(lhs.kindName) and \(rhs.kindName)")
                    return .invalid
                }
                pair = (a, b)
            }
            let (a, b) = pair
            return .bool(op == "<" ? a < b : op == "<=" ? a <= b : op == ">" ? a > b : a >= b)
        default:
            error(location, "unsupported operator '\(op)'")
            return .invalid
        }
    }

    func number(_ value: Value) -> Double? {
        switch value {
        case .int(let v): Double(v)
        case .double(let v): v
        default: nil
        }
    }

    private func equal(_ lhs: Value, _ rhs: Value) -> Bool? {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.color(let a), .color(let b)): a == b
        case (.angle(let a), .angle(let b)): a == b
        case (.point(let a), .point(let b)): a == b
        case (.size(let a), .size(let b)): a == b
        default:
            if let a = number(lhs), let b = number(rhs) { a == b } else { nil }
        }
    }

    func arithmetic(_ op: String, _ lhs: Value, _ rhs: Value, at location: SourceLocation) -> Value {
        if lhs.isInvalid || rhs.isInvalid { return .invalid }
        let (lhs, rhs) = (resolved(lhs, beside: rhs), resolved(rhs, beside: lhs))
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)):
            let result: (Int, Bool)
            switch op {
            case "+": result = a.addingReportingOverflow(b)
            case "-": result = a.subtractingReportingOverflow(b)
            case "*": result = a.multipliedReportingOverflow(by: b)
            default:
                guard b != 0 else { error(location, "division by zero"); return .invalid }
                result = op == "/" ? a.dividedReportingOverflow(by: b) : a.remainderReportingOverflow(dividingBy: b)
            }
            guard !result.1 else { error(location, "arithmetic overflow in '\(op)'"); return .invalid }
            return .int(result.0)
        case (.angle(let a), .angle(let b)) where op == "+" || op == "-":
            return .angle(op == "+" ? a + b : a - b)
        case (.angle(let a), _) where op == "*" || op == "/":
            guard let k = number(rhs) else { break }
            return finite(.angle(Angle(radians: op == "*" ? a.radians * k : a.radians / k)), a.radians, k, op, location)
        case (_, .angle(let a)) where op == "*":
            guard let k = number(lhs) else { break }
            return finite(.angle(Angle(radians: a.radians * k)), a.radians, k, op, location)
        case (.string(let a), .string(let b)) where op == "+":
            return .string(a + b)
        default:
            guard let a = number(lhs), let b = number(rhs) else { break }
            if (op == "/" || op == "%") && b == 0 { error(location, "division by zero"); return .invalid }
            let r: Double = switch op {
            case "+": a + b
            case "-": a - b
            case "*": a * b
            case "/": a / b
            default: a.truncatingRemainder(dividingBy: b)
            }
            return finite(.double(r), a, b, op, location)
        }
        error(location, "binary '\(op)' cannot be applied to \(lhs.kindName) and \(rhs.kindName)")
        return .invalid
    }

    /// Finite inputs must give a finite result: an overflow to infinity is reported where it
    /// happens, not later where the value is used.
    private func finite(_ result: Value, _ a: Double, _ b: Double, _ op: String, _ location: SourceLocation) -> Value {
        let r: Double = switch result {
        case .double(let v): v
        case .angle(let v): v.radians
        default: 0
        }
        if !r.isFinite && a.isFinite && b.isFinite {
            error(location, "the result of '\(op)' is not a finite number")
            return .invalid
        }
        return result
    }
}
