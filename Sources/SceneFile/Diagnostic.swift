import Foundation

/// A position in a scene's source: 1-based line and column (columns count characters).
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) { self.line = line; self.column = column }
    public static func < (a: SourceLocation, b: SourceLocation) -> Bool { (a.line, a.column) < (b.line, b.column) }
    public var description: String { "\(line):\(column)" }
}

/// One problem found in a scene, with where it is and, where one helps, how to fix it.
public struct SceneDiagnostic: Hashable, Sendable {
    public var location: SourceLocation
    public var message: String
    public var hint: String?
    public init(_ location: SourceLocation, _ message: String, hint: String? = nil) {
        self.location = location
        self.message = message
        self.hint = hint
    }
}

/// Every problem found in a scene file. Printed as a compiler does: `file:line:column: error:
/// message`, then the source line with a caret under the column, then the hint.
public struct SceneError: Error, CustomStringConvertible, Sendable {
    public var fileName: String
    public var diagnostics: [SceneDiagnostic]
    /// The source lines, for quoting.
    var lines: [Substring]

    init(fileName: String, source: String, diagnostics: [SceneDiagnostic]) {
        self.fileName = fileName
        self.diagnostics = diagnostics
        // No source (an error about the file itself): nothing to quote.
        self.lines = source.isEmpty ? [] : source.split(separator: "\n", omittingEmptySubsequences: false)
    }

    public var description: String {
        diagnostics.map { d in
            var text = "\(fileName):\(d.location.line):\(d.location.column): error: \(d.message)"
            if d.location.line >= 1, d.location.line <= lines.count {
                let line = lines[d.location.line - 1].replacingOccurrences(of: "\t", with: " ")
                    .replacingOccurrences(of: "\r", with: "")
                // Very long lines are cut around the column so the caret stays readable.
                let column = max(1, d.location.column)
                let chars = Array(line)
                let start = max(0, min(column - 1, chars.count) - 60)
                let shown = String(chars[start..<min(chars.count, start + 120)])
                text += "\n" + shown + "\n" + String(repeating: " ", count: column - 1 - start) + "^"
            }
            if let hint = d.hint { text += "\nhint: \(hint)" }
            return text
        }.joined(separator: "\n")
    }
}

/// Levenshtein distance, for "did you mean" hints.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.lowercased()), b = Array(b.lowercased())
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var row = Array(0...b.count)
    for i in 1...a.count {
        var previous = row[0]
        row[0] = i
        for j in 1...b.count {
            let current = row[j]
            row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
            previous = current
        }
    }
    return row[b.count]
}

/// The closest of `candidates` to `word`, if it is close enough to be a likely typo (case
/// ignored; up to 1 edit for words of 3 characters, else a third of the word, from 2 to 3).
/// The scene language's hints and `compose`'s "did you mean" both use it.
public func closest(to word: String, among candidates: [String]) -> String? {
    guard word.count <= 64 else { return nil }
    let scored: [(String, Int)] = candidates.map { ($0, editDistance(word, $0)) }
    let best = scored.min { a, b in a.1 != b.1 ? a.1 < b.1 : a.0 < b.0 }
    let allowed: Int = word.count <= 3 ? 1 : min(3, max(2, word.count / 3))
    guard let (name, distance) = best, distance <= allowed else { return nil }
    return name
}

/// "did you mean 'x'?" or nil.
func didYouMean(_ word: String, _ candidates: [String]) -> String? {
    closest(to: word, among: candidates).map { "did you mean '\($0)'?" }
}

extension Double {
    /// Without a trailing ".0" for whole numbers, as a user writes it (in messages).
    public var plainDescription: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
