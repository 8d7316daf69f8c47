import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An XML document as a flat array of elements (index 0 the root), each with its parent, its
/// children in order, its attributes and its text (for `<style>`). Built by Foundation's
/// `XMLParser` (libxml2), with entities refused before parsing.
struct XMLTree {
    struct Element {
        var name: String
        var attributes: [String: String]
        var parent: Int?
        var children: [Int] = []
        /// Character data directly inside (CDATA included).
        var text = ""
        var line: Int
    }

    var elements: [Element] = []

    /// Limits a document must stay within.
    struct Limits {
        var maximumDepth = 1024
        var maximumElements = 1_000_000
    }

    /// Parses `data` (`path` names it in errors).
    init(data: Data, path: String, limits: Limits = Limits()) throws(SVGError) {
        // Refused before parsing: libxml2 would expand an entity declared in the document. A
        // DOCTYPE without an internal subset is harmless and common (SVG 1.1's own).
        if let range = data.range(of: Data("<!ENTITY".utf8)) {
            throw .entities(path, line: data[..<range.lowerBound].reduce(1) { $1 == 10 ? $0 + 1 : $0 })
        }
        // Foundation's XMLParser traps on a name that is not UTF-8 (it force-unwraps the string
        // libxml2 hands it), so a document without a BOM or another declared encoding must be
        // UTF-8; the first bad byte is located.
        if let bad = XMLTree.firstInvalidUTF8(data) {
            let before = data[..<bad]
            let line = before.reduce(1) { $1 == 10 ? $0 + 1 : $0 }
            let column = before.count - (before.lastIndex(of: 10).map { $0 + 1 - data.startIndex } ?? 0) + 1
            throw .malformedXML(path, line: line, column: column, reason: "the bytes are not UTF-8 and no other encoding is declared")
        }
        let data = try XMLTree.withoutProcessingInstructions(data, path: path)
        let builder = Builder(limits: limits)
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.delegate = builder
        let parsed = parser.parse()
        if let failure = builder.failure {
            switch failure {
            case .depth(let line): throw .tooDeep(path, line: line, limit: limits.maximumDepth)
            case .count: throw .tooManyElements(path, limit: limits.maximumElements)
            }
        }
        guard parsed, parser.parserError == nil, builder.open.isEmpty, !builder.elements.isEmpty else {
            let reason = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "an element is not closed"
            throw .malformedXML(path, line: parser.lineNumber, column: parser.columnNumber, reason: reason)
        }
        elements = builder.elements
    }

    private final class Builder: NSObject, XMLParserDelegate {
        enum Failure { case depth(Int), count }
        let limits: Limits
        var elements: [Element] = []
        var open: [Int] = []
        var failure: Failure?

        init(limits: Limits) { self.limits = limits }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            guard open.count < limits.maximumDepth else {
                failure = .depth(parser.lineNumber)
                return parser.abortParsing()
            }
            guard elements.count < limits.maximumElements else {
                failure = .count
                return parser.abortParsing()
            }
            // The SVG namespace is the default one; a prefixed name (`svg:rect`) is read by its
            // local part. Elements of other namespaces keep their prefix and are ignored.
            var local = name
            if let colon = name.firstIndex(of: ":"), name[..<colon] == "svg" { local = String(name[name.index(after: colon)...]) }
            let index = elements.count
            elements.append(Element(name: local, attributes: attributes, parent: open.last, line: parser.lineNumber))
            if let parent = open.last { elements[parent].children.append(index) }
            open.append(index)
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            open.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if let current = open.last { elements[current].text += string }
        }

        func parser(_ parser: XMLParser, foundCDATA data: Data) {
            if let current = open.last, let text = String(data: data, encoding: .utf8) { elements[current].text += text }
        }
    }
}

extension XMLTree {
    /// The index of the first byte that is not part of valid UTF-8, when the document is
    /// meant to be UTF-8: nil when it is valid, begins with a UTF-16 or UTF-32 byte order
    /// mark, or declares another encoding in its XML declaration (libxml2 converts those).
    static func firstInvalidUTF8(_ data: Data) -> Data.Index? {
        let bytes = [UInt8](data.prefix(2))
        if bytes == [0xFE, 0xFF] || bytes == [0xFF, 0xFE] { return nil }
        if data.starts(with: [0x3C, 0x3F, 0x78, 0x6D, 0x6C]) {  // "<?xml"
            let declaration = String(decoding: data.prefix(200).prefix { $0 != 0x3E }, as: UTF8.self).lowercased()
            if let range = declaration.range(of: "encoding") {
                let rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" }
                if !rest.hasPrefix("utf-8"), !rest.hasPrefix("utf8") { return nil }
            }
        }
        var i = data.startIndex
        while i < data.endIndex {
            let b = data[i]
            let length: Int
            switch b {
            case 0x00...0x7F: i += 1; continue
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return i
            }
            guard i + length <= data.endIndex else { return i }
            for k in 1..<length where data[i + k] & 0xC0 != 0x80 { return i }
            // Overlong forms, surrogates and code points above U+10FFFF.
            let b1 = data[i + 1]
            if (b == 0xE0 && b1 < 0xA0) || (b == 0xED && b1 > 0x9F) || (b == 0xF0 && b1 < 0x90) || (b == 0xF4 && b1 > 0x8F) { return i }
            i += length
        }
        return nil
    }
}

extension XMLTree {
    /// `data` with every processing instruction but the XML declaration blanked out (spaces,
    /// newlines kept, so lines and columns stay): SVG gives them no meaning, and Foundation's
    /// XMLParser dereferences a null pointer on one without data (`<?xml-stylesheet?>`). An
    /// XML declaration without a version (`<?xml?>`, the same crash) is a located error.
    static func withoutProcessingInstructions(_ data: Data, path: String) throws(SVGError) -> Data {
        var bytes = [UInt8](data)
        var i = 0
        while i + 1 < bytes.count {
            guard bytes[i] == 0x3C, bytes[i + 1] == 0x3F else { i += 1; continue }  // "<?"
            var end = i + 2
            while end + 1 < bytes.count, !(bytes[end] == 0x3F && bytes[end + 1] == 0x3E) { end += 1 }
            guard end + 1 < bytes.count else { break }  // unterminated: the parser reports it
            let body = String(decoding: bytes[(i + 2)..<end], as: UTF8.self)
            let name = body.prefix { !$0.isWhitespace }
            if i == 0, name.lowercased() == "xml" {
                guard body.dropFirst(3).trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("version") else {
                    throw .malformedXML(path, line: 1, column: 1, reason: "the XML declaration has no version")
                }
            } else {
                for k in i...(end + 1) where bytes[k] != 10 { bytes[k] = 0x20 }
            }
            i = end + 2
        }
        return Data(bytes)
    }
}
