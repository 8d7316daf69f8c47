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
