import Foundation

/// A lexical token of the scene language (a subset of Swift's).
struct Token: Equatable {
    enum Kind: Equatable {
        case identifier(String)
        case keyword(String)
        case integer(Int)
        case float(Double)
        case string(String)
        /// Punctuation and operators: `( ) { } [ ] , : . ; = -> \` and the arithmetic, comparison,
        /// logical, range and ternary operators.
        case symbol(String)
        case end
    }
    var kind: Kind
    var location: SourceLocation
    /// Whether whitespace or a line break comes right before the token (Swift uses this to tell
    /// a binary `-` from a prefix one, and a trailing closure on the next line from a new view).
    var spaceBefore: Bool
    var newlineBefore: Bool
}

extension Token.Kind: CustomStringConvertible {
    var description: String {
        switch self {
        case .identifier(let s): "'\(s)'"
        case .keyword(let s): "'\(s)'"
        case .integer(let v): "'\(v)'"
        case .float(let v): "'\(v)'"
        case .string: "a string"
        case .symbol(let s): "'\(s)'"
        case .end: "the end of the file"
        }
    }
}

/// Turns source text into tokens. Problems (an unknown character, an unterminated string or
/// comment, a malformed number) are reported and lexing goes on, so one pass finds them all.
struct Lexer {
    static let keywords: Set<String> = ["let", "var", "for", "in", "if", "else", "true", "false", "nil", "return", "func", "while"]

    private let chars: [Character]
    private var index = 0
    private var line = 1, column = 1
    private(set) var diagnostics: [SceneDiagnostic] = []

    init(_ source: String) { chars = Array(source) }

    private var current: Character? { index < chars.count ? chars[index] : nil }
    private func peek(_ n: Int = 1) -> Character? { index + n < chars.count ? chars[index + n] : nil }
    private var location: SourceLocation { SourceLocation(line: line, column: column) }

    private mutating func advance() {
        if chars[index] == "\n" { line += 1; column = 1 } else { column += 1 }
        index += 1
    }

    mutating func tokenize() -> [Token] {
        var tokens: [Token] = []
        var space = true, newline = true
        while let c = current {
            if c == "\n" { newline = true; space = true; advance(); continue }
            if c.isWhitespace { space = true; advance(); continue }
            if c == "/" && peek() == "/" {
                while let c = current, c != "\n" { advance() }
                space = true
                continue
            }
            if c == "/" && peek() == "*" {
                skipBlockComment()
                space = true
                continue
            }
            let start = location
            let kind = lexToken()
            if let kind { tokens.append(Token(kind: kind, location: start, spaceBefore: space, newlineBefore: newline)) }
            space = false
            newline = false
        }
        tokens.append(Token(kind: .end, location: location, spaceBefore: true, newlineBefore: true))
        return tokens
    }

    /// Block comments nest, as in Swift.
    private mutating func skipBlockComment() {
        let start = location
        var depth = 0
        while let c = current {
            if c == "/" && peek() == "*" { depth += 1; advance(); advance(); continue }
            if c == "*" && peek() == "/" {
                depth -= 1; advance(); advance()
                if depth == 0 { return }
                continue
            }
            advance()
        }
        diagnostics.append(SceneDiagnostic(start, "unterminated comment", hint: "close it with '*/'"))
    }

    private mutating func lexToken() -> Token.Kind? {
        let start = location
        let c = current!
        if c.isLetter || c == "_" {
            var name = ""
            while let c = current, c.isLetter || c.isNumber || c == "_" { name.append(c); advance() }
            return Lexer.keywords.contains(name) ? .keyword(name) : .identifier(name)
        }
        if c.isASCII && c.isNumber { return lexNumber(start) }
        if c == "\"" { return lexString(start) }
        // Longest operators first.
        for symbol in ["..<", "...", "->", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=", "*=", "/="] {
            if matches(symbol) {
                for _ in symbol { advance() }
                return .symbol(symbol)
            }
        }
        if "(){}[],:.;=+-*/%<>!?\\&|".contains(c) {
            advance()
            return .symbol(String(c))
        }
        advance()
        let shown = c.isASCII && !c.isWhitespace ? "'\(c)'" : "U+" + String(c.unicodeScalars.first!.value, radix: 16, uppercase: true)
        diagnostics.append(SceneDiagnostic(start, "unexpected character \(shown) in the scene"))
        return nil
    }

    private func matches(_ symbol: String) -> Bool {
        for (offset, s) in symbol.enumerated() where index + offset >= chars.count || chars[index + offset] != s { return false }
        return true
    }

    private mutating func lexNumber(_ start: SourceLocation) -> Token.Kind? {
        var text = ""
        var isFloat = false
        if current == "0", let p = peek(), p == "x" || p == "b" || p == "o" {
            advance(); advance()
            var digits = ""
            while let c = current, c.isLetter || c.isNumber || c == "_" { if c != "_" { digits.append(c) }; advance() }
            let radix = p == "x" ? 16 : p == "b" ? 2 : 8
            guard let v = Int(digits, radix: radix) else {
                diagnostics.append(SceneDiagnostic(start, "'0\(p)\(digits)' is not a valid integer literal"))
                return .integer(0)
            }
            return .integer(v)
        }
        func digits() { while let c = current, (c.isASCII && c.isNumber) || c == "_" { if c != "_" { text.append(c) }; advance() } }
        digits()
        // A '.' followed by a digit continues the number; `1.opacity` or `0..<3` does not.
        if current == ".", let p = peek(), p.isASCII, p.isNumber {
            isFloat = true
            text.append("."); advance()
            digits()
        }
        if let c = current, c == "e" || c == "E" {
            let sign = peek()
            let hasDigits = (sign?.isNumber ?? false) || ((sign == "+" || sign == "-") && (peek(2)?.isNumber ?? false))
            if hasDigits {
                isFloat = true
                text.append("e"); advance()
                if current == "+" || current == "-" { text.append(current!); advance() }
                digits()
            }
        }
        if let c = current, c.isLetter || c == "_" {
            var rest = ""
            while let c = current, c.isLetter || c.isNumber || c == "_" { rest.append(c); advance() }
            diagnostics.append(SceneDiagnostic(start, "'\(text)\(rest)' is not a valid number"))
            return .integer(0)
        }
        if isFloat {
            guard let v = Double(text), v.isFinite else {
                diagnostics.append(SceneDiagnostic(start, "the number '\(text)' is too large"))
                return .float(0)
            }
            return .float(v)
        }
        guard let v = Int(text) else {
            diagnostics.append(SceneDiagnostic(start, "the integer '\(text)' is too large (the largest is \(Int.max))",
                                               hint: "write it as a floating-point number if you meant one"))
            return .integer(0)
        }
        return .integer(v)
    }

    private mutating func lexString(_ start: SourceLocation) -> Token.Kind? {
        advance()
        var value = ""
        while let c = current, c != "\"" {
            if c == "\n" { break }
            if c == "\\" {
                advance()
                switch current {
                case "n": value.append("\n")
                case "t": value.append("\t")
                case "\"": value.append("\"")
                case "\\": value.append("\\")
                case "0": value.append("\0")
                default:
                    diagnostics.append(SceneDiagnostic(location, "unsupported escape sequence in a string"))
                }
                if current != nil && current != "\n" { advance() }
                continue
            }
            value.append(c)
            advance()
        }
        guard current == "\"" else {
            diagnostics.append(SceneDiagnostic(start, "unterminated string literal", hint: "close it with '\"' on the same line"))
            return .string(value)
        }
        advance()
        return .string(value)
    }
}
