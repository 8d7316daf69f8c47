import Foundation

/// The scene language's syntax tree: Swift expressions and the statements a view builder or a
/// `Path { p in … }` closure may hold.
indirect enum Expr {
    case integer(Int, SourceLocation)
    case float(Double, SourceLocation)
    case string(String, SourceLocation)
    case bool(Bool, SourceLocation)
    case name(String, SourceLocation)
    /// `.blue`, `.degrees(5)`'s callee: a member of the type the context expects.
    case implicitMember(String, SourceLocation)
    /// `base.name`; the location is the name's.
    case member(Expr, String, SourceLocation)
    /// `callee(arguments) { trailing closure }`; the location is the callee's.
    case call(Expr, [Argument], SourceLocation)
    case closure(Closure)
    case unary(String, Expr, SourceLocation)
    case binary(String, Expr, Expr, SourceLocation)
    case ternary(Expr, Expr, Expr, SourceLocation)
    case array([Expr], SourceLocation)
    /// `\.self` (`\.name.name…`).
    case keyPath([String], SourceLocation)
    case subscriptAccess(Expr, Expr, SourceLocation)

    var location: SourceLocation {
        switch self {
        case .integer(_, let l), .float(_, let l), .string(_, let l), .bool(_, let l), .name(_, let l),
             .implicitMember(_, let l), .member(_, _, let l), .call(_, _, let l), .unary(_, _, let l),
             .binary(_, _, _, let l), .ternary(_, _, _, let l), .array(_, let l), .keyPath(_, let l),
             .subscriptAccess(_, _, let l):
            l
        case .closure(let c): c.location
        }
    }

    /// Where the expression starts (for a call or member chain, its innermost base).
    var start: SourceLocation {
        switch self {
        case .member(let base, _, _), .call(let base, _, _), .subscriptAccess(let base, _, _): base.start
        case .binary(_, let lhs, _, _), .ternary(let lhs, _, _, _): lhs.start
        default: location
        }
    }
}

struct Argument {
    var label: String?
    /// The label's location, or the value's when there is no label.
    var location: SourceLocation
    var value: Expr
    /// A trailing closure (its label is the parameter it fills, decided when matching).
    var isTrailingClosure = false
}

final class Closure {
    let parameters: [String]
    let body: [Stmt]
    let location: SourceLocation
    init(parameters: [String], body: [Stmt], location: SourceLocation) {
        self.parameters = parameters
        self.body = body
        self.location = location
    }
}

indirect enum Stmt {
    /// `let name = value` / `var name = value` (an optional type annotation converts numbers).
    case binding(name: String, mutable: Bool, type: String?, Expr, SourceLocation)
    /// `target = value`, `target += value` …
    case assignment(target: String, op: String, Expr, SourceLocation)
    case expression(Expr)
    case forIn(variable: String, sequence: Expr, filter: Expr?, body: [Stmt], SourceLocation)
    case ifElse(condition: Expr, then: [Stmt], otherwise: [Stmt]?, SourceLocation)
    /// `state name = start -> end`: a value that an animated change moves from `start` to `end`.
    case state(name: String, from: Expr, to: Expr, SourceLocation)
}
