import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A symbol file that cannot be used, with its path.
public enum SymbolFileError: Error, CustomStringConvertible, Equatable, Sendable {
    /// Nothing at the path given.
    case noSuchPath(String)
    /// A folder without any `.svg` file.
    case noSymbols(folder: String)
    /// The file cannot be read, is too large, or is not well-formed XML (the parser's line).
    case unreadable(String, reason: String)
    /// The file declares entities: refused, as an entity can expand a small file into gigabytes.
    case entities(String)
    /// The file has something a symbol drawing cannot hold (only filled `<path>` elements).
    case unsupported(String, what: String)
    /// A `d` attribute that is not SVG path data.
    case badPathData(String, SVGPathError)
    /// The file has no `viewBox` (nor `width` and `height`), or they are not positive numbers.
    case noViewBox(String)

    public var description: String {
        switch self {
        case .noSuchPath(let path): "no symbol file or folder at \(path)"
        case .noSymbols(let folder): "no .svg symbol files in \(folder)"
        case .unreadable(let path, let reason): "cannot read the symbol file \(path): \(reason)"
        case .entities(let path): "the symbol file \(path) declares XML entities, which are refused"
        case .unsupported(let path, let what): "the symbol file \(path) has \(what): a symbol is drawn from filled <path> elements only"
        case .badPathData(let path, let error): "the symbol file \(path) has bad path data: \(error)"
        case .noViewBox(let path): "the symbol file \(path) needs a viewBox (or a width and a height) of positive numbers"
        }
    }
}

extension SymbolSet {
    /// The largest symbol file read: an icon's path data is a few kilobytes.
    public static let maximumSymbolFileBytes = 1 << 20

    /// Registers the SVG file at `url`, or every `.svg` file in the folder at `url` (not its
    /// subfolders), as symbols named after the files: `bolt.car.svg` draws
    /// `Image(systemName: "bolt.car")`. A registered name is drawn in place of a built-in
    /// drawing of that name at every weight; `name.fill` takes `name.fill.svg` when there is
    /// one, else the drawing of `name`.
    ///
    /// A symbol file holds filled `<path>` elements (in `<g>` groups or not, without
    /// transforms), their `d` attributes read as SVG path data and filled with the non-zero
    /// rule; its `viewBox` (or `width` and `height`) is scaled to the symbol's square, centred.
    /// - Returns: the names registered, sorted.
    /// - Throws: `SymbolFileError` naming the file; nothing is registered then.
    @discardableResult
    public static func register(contentsOf url: URL) throws -> [String] {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw SymbolFileError.noSuchPath(path) }
        var files: [URL] = [url]
        if isDirectory.boolValue {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            files = names.filter { $0.lowercased().hasSuffix(".svg") }.sorted().map { url.appendingPathComponent($0) }
            guard !files.isEmpty else { throw SymbolFileError.noSymbols(folder: path) }
        }
        var read: [String: Path] = [:]
        for file in files {
            let name = file.lastPathComponent.dropLast(file.pathExtension.isEmpty ? 0 : file.pathExtension.count + 1)
            read[String(name)] = try symbolDrawing(file)
        }
        customDrawings.withLock { $0.merge(read) { _, new in new } }
        registrations.withLock { $0 += 1 }
        return read.keys.sorted()
    }

    /// The drawing of one symbol file, in the unit square (y down).
    static func symbolDrawing(_ file: URL) throws -> Path {
        let path = file.path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path), let size = attributes[.size] as? Int else {
            throw SymbolFileError.unreadable(path, reason: "not a readable file")
        }
        guard size <= maximumSymbolFileBytes else {
            throw SymbolFileError.unreadable(path, reason: "\(size) bytes, more than the \(maximumSymbolFileBytes) a symbol file may have")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw SymbolFileError.unreadable(path, reason: "not a readable file") }
        return try symbolDrawing(data, path: path)
    }

    /// The drawing of a symbol file's bytes (`path` names it in errors).
    static func symbolDrawing(_ data: Data, path: String) throws -> Path {
        // Refused before parsing: the parser would expand an entity declared in the file.
        if data.range(of: Data("<!ENTITY".utf8)) != nil { throw SymbolFileError.entities(path) }
        let reader = SymbolFileReader(path: path)
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        let parsed = parser.parse()
        if let failure = reader.failure { throw failure }
        // (libxml2 through XMLParser may report a success for an element left open at the end.)
        guard parsed, parser.parserError == nil, reader.closedRoot else {
            throw SymbolFileError.unreadable(path, reason: "not well-formed XML (line \(parser.lineNumber))")
        }
        guard reader.sawRoot else { throw SymbolFileError.unsupported(path, what: "no <svg> element") }
        guard let box = reader.viewBox else { throw SymbolFileError.noViewBox(path) }
        guard !reader.paths.isEmpty else { throw SymbolFileError.unsupported(path, what: "no <path> element") }
        var drawing = Path()
        for d in reader.paths {
            do {
                drawing.addPath(try Path(svgPath: d))
            } catch let error as SVGPathError {
                throw SymbolFileError.badPathData(path, error)
            }
        }
        // The box's longer side is the square's; the shorter one centred.
        let side = max(box.width, box.height)
        let move = CGAffineTransform(translationX: -box.minX + (side - box.width) / 2, y: -box.minY + (side - box.height) / 2)
        return drawing.applying(move.concatenating(CGAffineTransform(scaleX: 1 / side, y: 1 / side)))
    }

    /// Symbols registered from files, by name: drawn in place of the built-in ones.
    static let customDrawings = Locked<[String: Path]>([:])
    /// How many times the registered symbols changed: a renderer draws its last frame again
    /// only if none changed since (a name may draw otherwise now).
    static let registrations = Locked(0)

    /// The registered drawing for `name`: its own, or for `name.fill` the drawing of `name`.
    static func customDrawing(_ name: String) -> Path? {
        customDrawings.withLock { drawings in
            drawings[name] ?? (name.hasSuffix(".fill") ? drawings[String(name.dropLast(5))] : nil)
        }
    }

    /// Forgets every symbol registered from files (tests).
    static func removeCustomSymbols() {
        customDrawings.withLock { $0.removeAll() }
        registrations.withLock { $0 += 1 }
    }
}

/// Reads what a symbol file draws: the root's box and the `d` of each `<path>`, refusing what
/// a filled single-colour drawing cannot show.
private final class SymbolFileReader: NSObject, XMLParserDelegate {
    let path: String
    var viewBox: CGRect?
    var paths: [String] = []
    var sawRoot = false
    /// Whether the root element ended (every element opened was closed).
    var closedRoot = false
    var failure: SymbolFileError?
    private var depth = 0
    /// Elements whose content is not drawn.
    private var skipping = 0
    private static let ignored: Set<String> = ["title", "desc", "metadata", "defs"]

    init(path: String) { self.path = path }

    private func fail(_ error: SymbolFileError, _ parser: XMLParser) {
        if failure == nil { failure = error }
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        depth += 1
        let name = element.split(separator: ":").last.map(String.init) ?? element
        if skipping > 0 || Self.ignored.contains(name) {
            skipping += 1
            return
        }
        if depth == 1 {
            guard name == "svg" else { return fail(.unsupported(path, what: "a <\(name)> root element instead of <svg>"), parser) }
            sawRoot = true
            viewBox = Self.box(attributes)
            return
        }
        if attributes["transform"] != nil { return fail(.unsupported(path, what: "a transform on <\(name)>"), parser) }
        if let fill = attributes["fill"]?.trimmingCharacters(in: .whitespaces), fill == "none" {
            return fail(.unsupported(path, what: "a <\(name)> with fill=\"none\" (a stroked drawing)"), parser)
        }
        switch name {
        case "g": break
        case "path":
            guard let d = attributes["d"] else { return fail(.unsupported(path, what: "a <path> without a d attribute"), parser) }
            paths.append(d)
        default:
            fail(.unsupported(path, what: "a <\(name)> element"), parser)
        }
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        depth -= 1
        if skipping > 0 { skipping -= 1 }
        if depth == 0 { closedRoot = true }
    }

    /// `viewBox="x y w h"`, else `width` and `height` (numbers, optionally in px) from 0, 0.
    private static func box(_ attributes: [String: String]) -> CGRect? {
        func number<S: StringProtocol>(_ text: S) -> Double? {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            return Double(trimmed.hasSuffix("px") ? String(trimmed.dropLast(2)) : trimmed)
        }
        var rect: CGRect?
        if let viewBox = attributes["viewBox"] {
            let values = viewBox.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" }).map { Double($0) }
            if values.count == 4, let x = values[0], let y = values[1], let w = values[2], let h = values[3] {
                rect = CGRect(x: x, y: y, width: w, height: h)
            }
        } else if let w = attributes["width"].flatMap(number), let h = attributes["height"].flatMap(number) {
            rect = CGRect(x: 0, y: 0, width: w, height: h)
        }
        guard let rect, [rect.minX, rect.minY, rect.width, rect.height].allSatisfy(\.isFinite), rect.width > 0, rect.height > 0 else {
            return nil
        }
        return rect
    }
}
