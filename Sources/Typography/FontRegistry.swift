import CHarfBuzz
import Compositor
import Foundation

/// Fonts added by the user, found by name for `Font.custom(_:size:)` (the analogue of
/// `CTFontManagerRegisterFontsForURL`). Register files or folders (their `.ttf`, `.otf`, `.ttc`
/// and `.otc` files, recursively); a name is looked up among the registered fonts first, then
/// among the fonts installed in `/usr/share/fonts` and `~/.local/share/fonts` (read once, the
/// first time a name is not found among the registered ones).
///
/// A name matches a face's family, typographic family, full or PostScript name, ignoring case.
/// A full or PostScript name picks that face; a family picks the face nearest the asked weight
/// (variable fonts take the weight on their `wght` axis) and italics.
///
/// ```swift
/// try FontRegistry.shared.register(contentsOf: URL(fileURLWithPath: "fonts/Brand.ttf"))
/// Text("Hola").font(.custom("Brand", size: 20))
/// ```
public final class FontRegistry: Sendable {
    public static let shared = FontRegistry()

    /// The largest font file read (64 MiB, like PNG images): font files of UI scripts are a few
    /// megabytes; the largest CJK collections about 30.
    public static let maximumFontBytes = 64 << 20

    /// One face of a font file, with its names and style.
    struct Entry: Sendable {
        var face: FontFace
        var names: Set<String>
        var weight: Double
        var italic: Bool
        var isVariable: Bool
    }

    private let registered = Locked<[Entry]>([])
    private let installed = Locked<[Entry]?>(nil)
    private let matches = Locked<[String: FontInstance?]>([:])
    private let changes = Locked(0)

    /// How many times fonts were registered here: a renderer draws its last frame again only
    /// if none were since (a name may find another font now).
    public var registrations: Int { changes.withLock { $0 } }

    public init() {}

    /// Registers the font file at `url`, or every font file in the folder at `url`.
    /// - Throws: `TypographyError.noSuchFontPath` when nothing is there, `.unreadableFont`
    ///   naming the file when it is larger than `maximumFontBytes` or not a font, `.noFonts` for
    ///   a folder without any.
    public func register(contentsOf url: URL) throws {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw TypographyError.noSuchFontPath(path)
        }
        let entries: [Entry]
        if isDirectory.boolValue {
            entries = Self.entries(inFolder: path)
            guard !entries.isEmpty else { throw TypographyError.noFonts(folder: path) }
        } else {
            entries = try Self.entries(ofFile: path)
        }
        registered.withLock { $0 += entries }
        matches.withLock { $0.removeAll() }
        changes.withLock { $0 += 1 }
    }

    /// Registers every folder of `COMPOSE_FONT_PATH` (colon-separated) in `environment`.
    /// - Throws: as `register(contentsOf:)`, for the first folder that fails.
    public func registerFontPath(from environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        for folder in (environment["COMPOSE_FONT_PATH"] ?? "").split(separator: ":") where !folder.isEmpty {
            try register(contentsOf: URL(fileURLWithPath: String(folder)))
        }
    }

    /// The font named `name` at `weight` (`wght` units), upright or italic; nil when no
    /// registered or installed font has that name.
    public func font(named name: String, weight: Double, italic: Bool) -> FontInstance? {
        let key = "\(name.lowercased())|\(weight)|\(italic)"
        if let known = matches.withLock({ $0[key] }) { return known }
        var found = Self.best(registered.withLock { $0 }, name: name, weight: weight, italic: italic)
        if found == nil {
            let system = installed.withLock { table in
                if let table { return table }
                let home = FileManager.default.homeDirectoryForCurrentUser.path
                let all = ["/usr/share/fonts", "/usr/local/share/fonts", home + "/.local/share/fonts", home + "/.fonts"]
                    .flatMap { Self.entries(inFolder: $0) }
                table = all
                return all
            }
            found = Self.best(system, name: name, weight: weight, italic: italic)
        }
        matches.withLock { $0[key] = found }
        return found
    }

    /// The entry of `entries` that `name` picks, as an instance.
    private static func best(_ entries: [Entry], name: String, weight: Double, italic: Bool) -> FontInstance? {
        let wanted = name.lowercased()
        let named = entries.filter { $0.names.contains(wanted) }
        guard !named.isEmpty else { return nil }
        let chosen = named.min { a, b in
            func cost(_ e: Entry) -> Double {
                (e.italic == italic ? 0 : 10_000) + (e.isVariable ? 0 : abs(e.weight - weight))
            }
            return cost(a) < cost(b)
        }!
        return FontLibrary.instance(of: chosen.face, weight: chosen.isVariable ? weight : nil)
    }

    private static let fontExtensions: Set<String> = ["ttf", "otf", "ttc", "otc"]

    /// Every face of every font file below `folder`; unreadable files are skipped.
    static func entries(inFolder folder: String) -> [Entry] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        var out: [Entry] = []
        while let relative = walker.nextObject() as? String {
            guard fontExtensions.contains((relative as NSString).pathExtension.lowercased()) else { continue }
            if let found = try? entries(ofFile: folder + "/" + relative) { out += found }
        }
        return out.sorted { $0.face.path < $1.face.path }
    }

    /// Every face of the font file at `path`, with its names and style.
    static func entries(ofFile path: String) throws -> [Entry] {
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
        guard size <= maximumFontBytes else {
            throw TypographyError.unreadableFont(path: path, reason: "it is \(size) bytes, more than the \(maximumFontBytes) a font file may have")
        }
        let first = try FontLibrary.face(path: path)
        var out: [Entry] = []
        for index in 0..<first.faceCount {
            let face = index == 0 ? first : try FontLibrary.face(path: path, index: index)
            out.append(entry(face))
        }
        return out
    }

    private static func entry(_ face: FontFace) -> Entry {
        var names = Set<String>()
        for id: UInt32 in [1, 4, 6, 16] {
            var length: UInt32 = 128
            var buffer = [CChar](repeating: 0, count: Int(length))
            let got = hb_ot_name_get_utf8(face.face, hb_ot_name_id_t(id), hb_language_from_string("en", -1), &length, &buffer)
            if got > 0 {
                let name = String(decoding: buffer.prefix(Int(min(length, 127))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if !name.isEmpty { names.insert(name.lowercased()) }
            }
        }
        let font = hb_font_create(face.face)!
        defer { hb_font_destroy(font) }
        let weight = Double(hb_style_get_value(font, HB_STYLE_TAG_WEIGHT))
        let italic = hb_style_get_value(font, HB_STYLE_TAG_ITALIC) > 0.5 || hb_style_get_value(font, HB_STYLE_TAG_SLANT_ANGLE) != 0
        var axisCount = hb_ot_var_get_axis_infos(face.face, 0, nil, nil)
        var isVariable = false
        if axisCount > 0 {
            var axes = [hb_ot_var_axis_info_t](repeating: hb_ot_var_axis_info_t(), count: Int(axisCount))
            _ = hb_ot_var_get_axis_infos(face.face, 0, &axisCount, &axes)
            isVariable = axes.contains { $0.tag == hb_tag_from_string("wght", -1) }
        }
        return Entry(face: face, names: names, weight: weight, italic: italic, isVariable: isVariable)
    }
}
