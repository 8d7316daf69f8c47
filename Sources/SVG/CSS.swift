import Foundation

/// A CSS style sheet as SVG uses it: rules of selectors and declarations. Supported selectors:
/// type, universal, `#id`, `.class`, attribute (`[a]`, `[a=v]`, `[a~=v]`, `[a^=v]`, `[a$=v]`,
/// `[a*=v]`), `:first-child`, and the descendant and child combinators. At-rules (`@import`,
/// `@media`, …) are skipped with a warning: nothing is fetched.
struct StyleSheet {
    struct Declaration: Equatable {
        var name: String
        var value: String
        var important: Bool
    }

    struct Rule {
        var selector: Selector
        var declarations: [Declaration]
        /// Position in the document's style sheets, for ties of specificity.
        var order: Int
    }

    var rules: [Rule] = []
    var warnings: [String] = []

    /// Adds the rules of `text` (a `<style>` element's content).
    mutating func add(_ text: String) {
        var scanner = CSSScanner(stripComments(text))
        while true {
            scanner.skipSpace()
            guard let c = scanner.peek else { break }
            if c == "@" {
                let name = scanner.takeWhile { !$0.isWhitespace && $0 != "{" && $0 != ";" }
                warnings.append("the CSS at-rule \(name) is not supported")
                // To its end: a `;`, or a balanced block.
                _ = scanner.takeWhile { $0 != ";" && $0 != "{" }
                if scanner.peek == "{" { scanner.skipBlock() } else { scanner.advance() }
                continue
            }
            let prelude = scanner.takeWhile { $0 != "{" }
            guard scanner.peek == "{" else { break }
            scanner.advance()
            let body = scanner.takeWhile { $0 != "}" }
            scanner.advance()
            let declarations = parseDeclarations(body)
            for part in prelude.split(separator: ",") {
                let text = part.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !text.isEmpty else { continue }
                if let selector = Selector(text) {
                    rules.append(Rule(selector: selector, declarations: declarations, order: rules.count))
                } else {
                    warnings.append("the CSS selector '\(text)' is not supported")
                }
            }
        }
    }
}

/// `name: value [!important]; …` (a `style` attribute or a rule's body).
func parseDeclarations(_ text: String) -> [StyleSheet.Declaration] {
    var out: [StyleSheet.Declaration] = []
    for part in stripComments(text).split(separator: ";") {
        guard let colon = part.firstIndex(of: ":") else { continue }
        let name = part[..<colon].trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        var value = part[part.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        var important = false
        if let bang = value.range(of: "!important", options: [.caseInsensitive, .backwards]) {
            important = true
            value = value[..<bang.lowerBound].trimmingCharacters(in: .whitespaces)
        }
        guard !name.isEmpty, !value.isEmpty else { continue }
        out.append(.init(name: name, value: value, important: important))
    }
    return out
}

private func stripComments(_ text: String) -> String {
    guard text.contains("/*") else { return text }
    var out = ""
    var rest = Substring(text)
    while let start = rest.range(of: "/*") {
        out += rest[..<start.lowerBound]
        guard let end = rest[start.upperBound...].range(of: "*/") else { return out }
        rest = rest[end.upperBound...]
    }
    return out + rest
}

private struct CSSScanner {
    let chars: [Character]
    var i = 0
    init(_ text: String) { chars = Array(text) }
    var peek: Character? { i < chars.count ? chars[i] : nil }
    mutating func advance() { i += 1 }
    mutating func skipSpace() { while let c = peek, c.isWhitespace { i += 1 } }
    mutating func takeWhile(_ p: (Character) -> Bool) -> String {
        let start = i
        while let c = peek, p(c) { i += 1 }
        return String(chars[start..<min(i, chars.count)])
    }
    mutating func skipBlock() {
        var depth = 0
        while let c = peek {
            i += 1
            if c == "{" { depth += 1 } else if c == "}" { depth -= 1; if depth == 0 { return } }
        }
    }
}

/// A selector: compound selectors joined by combinators, matched right to left.
struct Selector {
    struct Compound {
        var type: String? = nil
        var id: String? = nil
        var classes: [String] = []
        var attributes: [(name: String, op: String, value: String)] = []
        var firstChild = false
    }
    enum Combinator { case descendant, child }

    /// Rightmost first: parts[0] is the subject; combinators[i] joins parts[i] to parts[i + 1].
    var parts: [Compound] = []
    var combinators: [Combinator] = []

    /// (ids, classes + attributes + pseudo-classes, types), compared in that order.
    var specificity: (Int, Int, Int) {
        parts.reduce((0, 0, 0)) { s, c in
            (s.0 + (c.id == nil ? 0 : 1), s.1 + c.classes.count + c.attributes.count + (c.firstChild ? 1 : 0), s.2 + (c.type == nil ? 0 : 1))
        }
    }

    init?(_ text: String) {
        var chars = Array(text)[...]
        var compounds: [Compound] = []
        var joins: [Combinator] = []
        var pending: Combinator? = nil
        func name(_ s: inout ArraySlice<Character>) -> String {
            var out = ""
            while let c = s.first, c.isLetter || c.isNumber || c == "-" || c == "_" { out.append(c); s.removeFirst() }
            return out
        }
        while !chars.isEmpty {
            if chars.first!.isWhitespace {
                chars.removeFirst()
                if pending == nil, !compounds.isEmpty { pending = .descendant }
                continue
            }
            if chars.first == ">" {
                chars.removeFirst()
                guard !compounds.isEmpty else { return nil }
                pending = .child
                continue
            }
            var compound = Compound()
            var any = false
            while let c = chars.first, !c.isWhitespace, c != ">" {
                any = true
                switch c {
                case "*": chars.removeFirst()
                case "#":
                    chars.removeFirst()
                    let n = name(&chars); guard !n.isEmpty else { return nil }
                    compound.id = n
                case ".":
                    chars.removeFirst()
                    let n = name(&chars); guard !n.isEmpty else { return nil }
                    compound.classes.append(n)
                case "[":
                    chars.removeFirst()
                    guard let close = chars.firstIndex(of: "]") else { return nil }
                    let inside = String(chars[chars.startIndex..<close])
                    chars = chars[(close + 1)...]
                    if let eq = inside.firstIndex(of: "=") {
                        var key = String(inside[..<eq]).trimmingCharacters(in: .whitespaces)
                        var op = "="
                        if let last = key.last, "~^$*|".contains(last) { op = String(last) + "="; key.removeLast() }
                        var value = String(inside[inside.index(after: eq)...]).trimmingCharacters(in: .whitespaces)
                        if value.count >= 2, let f = value.first, f == "\"" || f == "'", value.last == f { value = String(value.dropFirst().dropLast()) }
                        compound.attributes.append((key.trimmingCharacters(in: .whitespaces), op, value))
                    } else {
                        compound.attributes.append((inside.trimmingCharacters(in: .whitespaces), "", ""))
                    }
                case ":":
                    chars.removeFirst()
                    let n = name(&chars)
                    guard n == "first-child" else { return nil }
                    compound.firstChild = true
                default:
                    let n = name(&chars)
                    guard !n.isEmpty else { return nil }
                    compound.type = n
                }
            }
            guard any else { return nil }
            if let p = pending { joins.append(p) } else if !compounds.isEmpty { return nil }
            pending = nil
            compounds.append(compound)
        }
        guard !compounds.isEmpty, pending != .child else { return nil }
        parts = compounds.reversed()
        combinators = joins.reversed()
    }

    func matches(_ index: Int, in tree: XMLTree) -> Bool {
        match(part: 0, index, tree)
    }

    private func match(part: Int, _ index: Int, _ tree: XMLTree) -> Bool {
        guard matches(parts[part], tree.elements[index], index, tree) else { return false }
        guard part + 1 < parts.count else { return true }
        var ancestor = tree.elements[index].parent
        switch combinators[part] {
        case .child:
            guard let a = ancestor else { return false }
            return match(part: part + 1, a, tree)
        case .descendant:
            while let a = ancestor {
                if match(part: part + 1, a, tree) { return true }
                ancestor = tree.elements[a].parent
            }
            return false
        }
    }

    private func matches(_ c: Compound, _ e: XMLTree.Element, _ index: Int, _ tree: XMLTree) -> Bool {
        if let type = c.type, type != e.name { return false }
        if let id = c.id, e.attributes["id"] != id { return false }
        if !c.classes.isEmpty {
            let have = Set((e.attributes["class"] ?? "").split(whereSeparator: \.isWhitespace).map(String.init))
            for cls in c.classes where !have.contains(cls) { return false }
        }
        for (name, op, value) in c.attributes {
            guard let v = e.attributes[name] else { return false }
            switch op {
            case "": break
            case "=": if v != value { return false }
            case "~=": if !v.split(whereSeparator: \.isWhitespace).contains(Substring(value)) { return false }
            case "^=": if !v.hasPrefix(value) { return false }
            case "$=": if !v.hasSuffix(value) { return false }
            case "*=": if !v.contains(value) { return false }
            case "|=": if v != value && !v.hasPrefix(value + "-") { return false }
            default: return false
            }
        }
        if c.firstChild {
            guard let p = e.parent, tree.elements[p].children.first == index else { return false }
        }
        return true
    }
}
