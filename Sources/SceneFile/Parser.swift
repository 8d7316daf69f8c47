import Foundation

/// Recursive descent over the tokens, with Swift's operator precedence (ternary, `||`, `&&`,
/// comparison, range, additive, multiplicative, prefix, postfix). A syntax error is reported and
/// the parser skips to the next statement, so one run reports every problem it can find.
/// Nesting deeper than `maximumDepth` stops the parse with one error instead of exhausting the
/// stack.
struct Parser {
    private let tokens: [Token]
    private var index = 0
    private(set) var diagnostics: [SceneDiagnostic] = []
    private let maximumDepth: Int
    private var depth = 0
    /// Inside `for … in <here> {` and `if <here> {`, a `{` opens the body, not a trailing closure.
    private var allowTrailingClosure = true

    /// Thrown to stop parsing when the nesting limit is reached.
    struct TooDeep: Error {}

    init(tokens: [Token], maximumDepth: Int) {
        self.tokens = tokens
        self.maximumDepth = maximumDepth
    }

    private var token: Token { tokens[index] }
    private var kind: Token.Kind { tokens[index].kind }
    private func peekKind(_ n: Int = 1) -> Token.Kind { tokens[min(index + n, tokens.count - 1)].kind }
    private mutating func advance() { if index < tokens.count - 1 { index += 1 } }

    private func isSymbol(_ s: String) -> Bool { kind == .symbol(s) }
    private func isKeyword(_ s: String) -> Bool { kind == .keyword(s) }

    private mutating func error(_ message: String, at location: SourceLocation? = nil, hint: String? = nil) {
        let where_ = location ?? token.location
        // One report per place: a cascade from the same token adds nothing.
        if diagnostics.last?.location == where_ { return }
        diagnostics.append(SceneDiagnostic(where_, message, hint: hint))
    }

    struct SyntaxError: Error {}

    private mutating func expect(_ symbol: String, _ context: String) throws {
        guard isSymbol(symbol) else {
            error("expected '\(symbol)' \(context), found \(kind)")
            throw SyntaxError()
        }
        advance()
    }

    private mutating func enter() throws {
        depth += 1
        try checkDepth(0)
    }

    /// A chain (`a.b().c()…`, `1 + 2 + …`) nests as deep as it is long.
    private mutating func checkDepth(_ extra: Int) throws {
        if depth + extra > maximumDepth {
            error("the scene nests more than \(maximumDepth) levels deep", hint: "flatten the expression, or raise the limit with --max-depth")
            throw TooDeep()
        }
    }

    // MARK: - Statements

    /// The whole file: statements until the end.
    mutating func parseFile() -> [Stmt] {
        do {
            return try parseStatements(untilBrace: false)
        } catch {
            return []
        }
    }

    private mutating func parseStatements(untilBrace: Bool) throws -> [Stmt] {
        var statements: [Stmt] = []
        while true {
            while isSymbol(";") { advance() }
            if kind == .end {
                if untilBrace { error("expected '}' to close the block") }
                return statements
            }
            if untilBrace && isSymbol("}") { return statements }
            let before = index
            do {
                statements.append(try parseStatement())
                if !(kind == .end || isSymbol("}") || isSymbol(";") || token.newlineBefore) {
                    error("consecutive statements on a line must be separated by ';'")
                    throw SyntaxError()
                }
            } catch is SyntaxError {
                recover(from: before)
            }
        }
    }

    /// Skips to the start of the next line (at this brace level) or to the closing brace.
    private mutating func recover(from start: Int) {
        if index == start { advance() }
        var level = 0
        while kind != .end {
            if level == 0 && (token.newlineBefore || isSymbol("}")) { return }
            if isSymbol("{") || isSymbol("(") || isSymbol("[") { level += 1 }
            if isSymbol("}") || isSymbol(")") || isSymbol("]") { level -= 1 }
            advance()
            if level < 0 { level = 0 }
        }
    }

    private mutating func parseStatement() throws -> Stmt {
        let location = token.location
        switch kind {
        case .keyword("let"), .keyword("var"):
            let mutable = isKeyword("var")
            advance()
            guard case .identifier(let name) = kind else {
                error("expected a name after '\(mutable ? "var" : "let")', found \(kind)")
                throw SyntaxError()
            }
            advance()
            var type: String?
            if isSymbol(":") {
                advance()
                guard case .identifier(let t) = kind else { error("expected a type after ':'"); throw SyntaxError() }
                type = t
                advance()
            }
            try expect("=", "to give '\(name)' a value")
            return .binding(name: name, mutable: mutable, type: type, try parseExpression(), location)
        case .keyword("for"):
            advance()
            var variable = "_"
            switch kind {
            case .identifier(let n): variable = n
            default: error("expected a loop variable after 'for', found \(kind)"); throw SyntaxError()
            }
            advance()
            guard isKeyword("in") else { error("expected 'in' after the loop variable, found \(kind)"); throw SyntaxError() }
            advance()
            let sequence = try parseCondition()
            var filter: Expr?
            if case .identifier("where") = kind {
                advance()
                filter = try parseCondition()
            }
            return .forIn(variable: variable, sequence: sequence, filter: filter, body: try parseBlock("the loop body"), location)
        case .keyword("if"):
            return try parseIf()
        case .keyword(let word) where ["func", "while", "return"].contains(word):
            error("'\(word)' is not part of the scene language", hint: "a scene is one view expression with 'let' constants, 'for' loops and 'if'")
            throw SyntaxError()
        case .identifier("state") where { if case .identifier = peekKind() { true } else { false } }():
            advance()
            guard case .identifier(let name) = kind else { throw SyntaxError() }
            advance()
            try expect("=", "to give the state '\(name)' its start value")
            let from = try parseExpression()
            try expect("->", "between the state's start and end values, as in 'state \(name) = false -> true'")
            return .state(name: name, from: from, to: try parseExpression(), location)
        default:
            if case .identifier(let name) = kind, case .symbol(let op) = peekKind(), ["=", "+=", "-=", "*=", "/="].contains(op) {
                advance(); advance()
                return .assignment(target: name, op: op, try parseExpression(), location)
            }
            return .expression(try parseExpression())
        }
    }

    private mutating func parseIf() throws -> Stmt {
        let location = token.location
        advance()
        let condition = try parseCondition()
        let then = try parseBlock("the 'if' body")
        guard isKeyword("else") else { return .ifElse(condition: condition, then: then, otherwise: nil, location) }
        advance()
        if isKeyword("if") { return .ifElse(condition: condition, then: then, otherwise: [try parseIf()], location) }
        return .ifElse(condition: condition, then: then, otherwise: try parseBlock("the 'else' body"), location)
    }

    private mutating func parseCondition() throws -> Expr {
        let saved = allowTrailingClosure
        allowTrailingClosure = false
        defer { allowTrailingClosure = saved }
        return try parseExpression()
    }

    private mutating func parseBlock(_ what: String) throws -> [Stmt] {
        try enter()
        defer { depth -= 1 }
        try expect("{", "to open \(what)")
        let saved = allowTrailingClosure
        allowTrailingClosure = true
        defer { allowTrailingClosure = saved }
        let body = try parseStatements(untilBrace: true)
        try expect("}", "to close \(what)")
        return body
    }

    // MARK: - Expressions

    mutating func parseExpression() throws -> Expr {
        try enter()
        defer { depth -= 1 }
        let condition = try parseBinary(0)
        guard isSymbol("?") else { return condition }
        let location = token.location
        advance()
        let whenTrue = try parseExpression()
        try expect(":", "in the conditional expression")
        let whenFalse = try parseExpression()
        return .ternary(condition, whenTrue, whenFalse, location)
    }

    /// Binary operators by precedence level, loosest first (Swift's order).
    private static let levels: [[String]] = [["||"], ["&&"], ["==", "!=", "<", "<=", ">", ">="], ["..<", "..."], ["+", "-"], ["*", "/", "%"]]

    private mutating func parseBinary(_ level: Int) throws -> Expr {
        guard level < Parser.levels.count else { return try parseUnary() }
        var lhs = try parseBinary(level + 1)
        var chain = 0
        while case .symbol(let op) = kind, Parser.levels[level].contains(op), isBinaryOperator() {
            let location = token.location
            advance()
            chain += 1
            try checkDepth(chain)
            let rhs = try parseBinary(level + 1)
            lhs = .binary(op, lhs, rhs, location)
            // Comparison and range operators do not chain in Swift.
            if level == 2 || level == 3 { break }
        }
        return lhs
    }

    /// `a - b` and `a-b` are binary; `a -b` is not (Swift's whitespace rule), nor is an
    /// operator that starts a new line.
    private func isBinaryOperator() -> Bool {
        let next = tokens[min(index + 1, tokens.count - 1)]
        if token.newlineBefore && (isSymbol("-") || isSymbol("+")) { return false }
        return token.spaceBefore == next.spaceBefore || !token.spaceBefore
    }

    private mutating func parseUnary() throws -> Expr {
        if case .symbol(let op) = kind, ["-", "!", "+"].contains(op) {
            let location = token.location
            advance()
            try enter()
            defer { depth -= 1 }
            return .unary(op, try parseUnary(), location)
        }
        return try parsePostfix()
    }

    private mutating func parsePostfix() throws -> Expr {
        var expr = try parsePrimary()
        var chain = 0
        while true {
            if isSymbol(".") {
                chain += 1
                try checkDepth(chain)
                advance()
                switch kind {
                case .identifier(let name), .keyword(let name):
                    expr = .member(expr, name, token.location)
                    advance()
                case .integer(let n):
                    error("tuple members ('.\(n)') are not part of the scene language")
                    throw SyntaxError()
                default:
                    error("expected a member name after '.', found \(kind)")
                    throw SyntaxError()
                }
            } else if isSymbol("("), !token.newlineBefore {
                let location = expr.location
                expr = .call(expr, try parseArguments(), location)
                if allowTrailingClosure, isSymbol("{"), !token.newlineBefore, case .call(let callee, var args, let l) = expr {
                    args.append(Argument(label: nil, location: token.location, value: .closure(try parseClosure()), isTrailingClosure: true))
                    try parseLabelledTrailingClosures(into: &args)
                    expr = .call(callee, args, l)
                }
            } else if isSymbol("{"), allowTrailingClosure, !token.newlineBefore, isCallable(expr) {
                let location = expr.location
                var args = [Argument(label: nil, location: token.location, value: .closure(try parseClosure()), isTrailingClosure: true)]
                try parseLabelledTrailingClosures(into: &args)
                expr = .call(expr, args, location)
            } else if isSymbol("["), !token.newlineBefore, !token.spaceBefore {
                let location = token.location
                advance()
                let subscriptIndex = try parseExpression()
                try expect("]", "to close the subscript")
                expr = .subscriptAccess(expr, subscriptIndex, location)
            } else {
                return expr
            }
        }
    }

    /// The labelled closures after a first trailing closure (`Label { … } icon: { … }`).
    private mutating func parseLabelledTrailingClosures(into args: inout [Argument]) throws {
        while case .identifier(let label) = kind, peekKind(1) == .symbol(":"), peekKind(2) == .symbol("{") {
            let location = token.location
            advance()
            advance()
            args.append(Argument(label: label, location: location, value: .closure(try parseClosure()), isTrailingClosure: true))
        }
    }

    /// Only a name or member can take a trailing closure directly (`ZStack { … }`).
    private func isCallable(_ expr: Expr) -> Bool {
        switch expr {
        case .name, .member, .implicitMember: true
        default: false
        }
    }

    private mutating func parseArguments() throws -> [Argument] {
        try expect("(", "to open the argument list")
        var arguments: [Argument] = []
        let saved = allowTrailingClosure
        allowTrailingClosure = true
        defer { allowTrailingClosure = saved }
        while !isSymbol(")") {
            if kind == .end { error("expected ')' to close the argument list"); throw SyntaxError() }
            var label: String?
            let location = token.location
            switch (kind, peekKind()) {
            case (.identifier(let name), .symbol(":")), (.keyword(let name), .symbol(":")):
                label = name
                advance(); advance()
            default: break
            }
            arguments.append(Argument(label: label, location: location, value: try parseExpression()))
            if isSymbol(",") {
                advance()
            } else if !isSymbol(")") {
                error("expected ',' or ')' in the argument list, found \(kind)")
                throw SyntaxError()
            }
        }
        advance()
        return arguments
    }

    private mutating func parseClosure() throws -> Closure {
        try enter()
        defer { depth -= 1 }
        let location = token.location
        try expect("{", "to open the closure")
        var parameters: [String] = []
        // `{ a in`, `{ a, b in`, `{ (a, b) in`, `{ _ in`: look ahead for `in`.
        var look = index
        var names: [String] = []
        let parenthesised = tokens[look].kind == .symbol("(")
        if parenthesised { look += 1 }
        while case .identifier(let n) = tokens[look].kind {
            names.append(n)
            look += 1
            if tokens[look].kind == .symbol(",") { look += 1 } else { break }
        }
        if parenthesised, tokens[look].kind == .symbol(")") { look += 1 }
        if !names.isEmpty, tokens[look].kind == .keyword("in") {
            parameters = names
            index = look + 1
        }
        let saved = allowTrailingClosure
        allowTrailingClosure = true
        defer { allowTrailingClosure = saved }
        let body = try parseStatements(untilBrace: true)
        try expect("}", "to close the closure")
        return Closure(parameters: parameters, body: body, location: location)
    }

    private mutating func parsePrimary() throws -> Expr {
        let location = token.location
        switch kind {
        case .integer(let v): advance(); return .integer(v, location)
        case .float(let v): advance(); return .float(v, location)
        case .string(let s): advance(); return .string(s, location)
        case .keyword("true"): advance(); return .bool(true, location)
        case .keyword("false"): advance(); return .bool(false, location)
        case .identifier(let name): advance(); return .name(name, location)
        case .symbol("."):
            advance()
            switch kind {
            case .identifier(let name), .keyword(let name):
                let l = token.location
                advance()
                return .implicitMember(name, l)
            default:
                error("expected a member name after '.', found \(kind)")
                throw SyntaxError()
            }
        case .symbol("("):
            advance()
            let saved = allowTrailingClosure
            allowTrailingClosure = true
            defer { allowTrailingClosure = saved }
            let inner = try parseExpression()
            if isSymbol(",") {
                error("tuples are not part of the scene language", hint: "use CGPoint(x:y:) or CGSize(width:height:)")
                throw SyntaxError()
            }
            try expect(")", "to close the parenthesis")
            return inner
        case .symbol("["):
            advance()
            try enter()
            defer { depth -= 1 }
            var elements: [Expr] = []
            while !isSymbol("]") {
                if kind == .end { error("expected ']' to close the array"); throw SyntaxError() }
                elements.append(try parseExpression())
                if isSymbol(",") { advance() } else if !isSymbol("]") {
                    error("expected ',' or ']' in the array, found \(kind)")
                    throw SyntaxError()
                }
            }
            advance()
            return .array(elements, location)
        case .symbol("{"):
            return .closure(try parseClosure())
        case .symbol("\\"):
            advance()
            var path: [String] = []
            while isSymbol(".") {
                advance()
                guard case .identifier(let n) = kind else { error("expected a name in the key path"); throw SyntaxError() }
                path.append(n)
                advance()
            }
            if path.isEmpty { error("expected a key path such as '\\.self'"); throw SyntaxError() }
            return .keyPath(path, location)
        case .keyword("nil"):
            advance()
            return .name("nil", location)
        case .end:
            error("expected an expression, found the end of the file")
            throw SyntaxError()
        default:
            error("expected an expression, found \(kind)")
            throw SyntaxError()
        }
    }
}
