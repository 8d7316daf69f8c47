import Foundation

/// An SVG file that cannot be drawn, with where the problem is.
public enum SVGError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file cannot be read, or is larger than the limit.
    case unreadable(String, reason: String)
    /// Not well-formed XML, at the parser's line and column.
    case malformedXML(String, line: Int, column: Int, reason: String)
    /// The file declares entities or a document type with an internal subset: refused, as an
    /// entity can expand a small file into gigabytes.
    case entities(String, line: Int)
    /// The root element is not `<svg>`.
    case notSVG(String, root: String)
    /// Elements nested deeper than `limit`.
    case tooDeep(String, line: Int, limit: Int)
    /// More elements than `limit` (counting those `use` instantiates).
    case tooManyElements(String, limit: Int)
    /// The document's size (width, height or viewBox) is not positive and finite.
    case badSize(String, reason: String)

    public var description: String {
        switch self {
        case let .unreadable(path, reason): "cannot read the SVG file \(path): \(reason)"
        case let .malformedXML(path, line, column, reason): "\(path):\(line):\(column): not well-formed XML: \(reason)"
        case let .entities(path, line): "\(path):\(line): the SVG file declares XML entities or a DTD subset, which are refused (an entity can expand without bound)"
        case let .notSVG(path, root): "\(path): the root element is <\(root)>, not <svg>"
        case let .tooDeep(path, line, limit): "\(path):\(line): elements are nested more than \(limit) deep"
        case let .tooManyElements(path, limit): "\(path): more than \(limit) elements, counting those <use> instantiates"
        case let .badSize(path, reason): "\(path): \(reason)"
        }
    }
}

/// Something in an SVG file that was ignored or could not be used, drawn without it (as
/// browsers do), with its line.
public struct SVGWarning: Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var message: String
    public var description: String { "line \(line): \(message)" }
}
