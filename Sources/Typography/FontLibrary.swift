import CFontconfig
import Compositor
import CTextICU
import Foundation

/// The fonts text is drawn with, found on this machine: the designs (the system font, serif,
/// monospaced), the fallback chain for characters a font lacks, and the files they come from.
/// Files are read once and shared; every lookup is cached, so asking again is cheap.
///
/// The fallback chain, for a character the primary font cannot draw (the first font that draws
/// every scalar of the grapheme): an emoji grapheme tries Noto Color Emoji first; then
/// Noto Sans in the grapheme's script (`NotoSansArabic`, `NotoSansDevanagari` …, bold when the
/// text is), Noto Sans, Droid Sans Fallback for Chinese, Japanese and Korean (Noto Sans CJK
/// when installed), Noto Color Emoji, DejaVu Sans, Noto Sans Symbols and Math; last, the font
/// fontconfig picks among every installed font (`isFromFontconfig` says so, and `explain`
/// warns: such a font depends on the machine). A character none of them has is drawn with
/// the primary font's missing-glyph box, as SwiftUI draws it.
public enum FontLibrary {
    /// Where Debian puts its font packages' files.
    public static let directories = [
        "/usr/share/fonts/truetype/noto", "/usr/share/fonts/opentype/noto", "/usr/share/fonts/truetype/droid",
        "/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/jetbrains-mono", "/usr/share/fonts/truetype/quicksand",
    ]

    private static let faces = Locked<[String: FontFace]>([:])
    private static let instances = Locked<[InstanceKey: FontInstance]>([:])
    private static let fallbacks = Locked<[FallbackKey: FontInstance?]>([:])

    private struct InstanceKey: Hashable {
        var path: String
        var index: Int
        var weight: Double?
        /// The vertical metrics it was made with (nil: the font's own). The system font's
        /// (SF Pro's) and the same file registered as a user font's (its own) are different
        /// instances: found once in an order-dependent test run.
        var ascender: Double?
        var descender: Double?
    }

    private struct FallbackKey: Hashable {
        var script: String
        var emoji: Bool
        var bold: Bool
        var italic: Bool
        var scalars: [UInt32]
    }

    /// The face in `path` (read once).
    public static func face(path: String, index: Int = 0) throws -> FontFace {
        let key = path + "#\(index)"
        if let known = faces.withLock({ $0[key] }) { return known }
        let face = try FontFace(path: path, index: index)
        return faces.withLock { table in
            if let known = table[key] { return known }
            table[key] = face
            return face
        }
    }

    /// The instance of `face` at `weight` (`wght` units; nil for a static font), made once.
    public static func instance(of face: FontFace, weight: Double?, metrics: (ascender: Double, descender: Double)? = nil) -> FontInstance {
        let key = InstanceKey(path: face.path, index: face.index, weight: weight, ascender: metrics?.ascender, descender: metrics?.descender)
        return instances.withLock { table in
            if let known = table[key] { return known }
            let made = FontInstance(face: face, weight: weight, metrics: metrics)
            table[key] = made
            return made
        }
    }

    /// The first of `names` found in the font directories, as an instance (nil: none
    /// installed).
    static func installed(_ names: [String]) -> FontInstance? {
        let key = names.joined(separator: "|")
        if let known = installedFonts.withLock({ $0[key] }) { return known }
        let found = search(names)
        installedFonts.withLock { $0[key] = found }
        return found
    }

    /// What `installed` found per list of names (a handful of lists: designs and the chain's).
    private static let installedFonts = Locked<[String: FontInstance?]>([:])

    private static func search(_ names: [String]) -> FontInstance? {
        for name in names {
            for directory in directories {
                let path = directory + "/" + name
                if FileManager.default.fileExists(atPath: path), let face = try? face(path: path) {
                    return instance(of: face, weight: nil)
                }
            }
        }
        return nil
    }

    /// The serif design (SwiftUI's New York): Noto Serif, else DejaVu Serif; nil when neither
    /// is installed.
    public static func serif(weight: Double, italic: Bool) -> FontInstance? {
        let bold = weight >= 600
        let style = bold ? (italic ? "BoldItalic" : "Bold") : (italic ? "Italic" : "Regular")
        let dejavu = bold ? (italic ? "DejaVuSerif-BoldItalic.ttf" : "DejaVuSerif-Bold.ttf") : (italic ? "DejaVuSerif-Italic.ttf" : "DejaVuSerif.ttf")
        return installed(["NotoSerif-\(style).ttf", dejavu])
    }

    /// The monospaced design (SF Mono's stand-in): JetBrains Mono at the nearest of its eight
    /// weights, else DejaVu Sans Mono; nil when neither is installed.
    public static func monospaced(weight: Double, italic: Bool) -> FontInstance? {
        let weights: [(Double, String)] = [(100, "Thin"), (200, "ExtraLight"), (300, "Light"), (400, "Regular"), (500, "Medium"),
                                           (600, "SemiBold"), (700, "Bold"), (800, "ExtraBold")]
        let nearest = weights.min { abs($0.0 - weight) < abs($1.0 - weight) }!.1
        let name = italic ? (nearest == "Regular" ? "Italic" : nearest + "Italic") : nearest
        let bold = weight >= 600
        let dejavu = bold ? (italic ? "DejaVuSansMono-BoldOblique.ttf" : "DejaVuSansMono-Bold.ttf")
            : (italic ? "DejaVuSansMono-Oblique.ttf" : "DejaVuSansMono.ttf")
        return installed(["JetBrainsMono-\(name).ttf", dejavu])
    }

    /// The rounded design (SF Pro Rounded's stand-in): Quicksand at the nearest of its four
    /// weights (300, 400, 500, 700; ties go to the bolder), upright (it has no italic); nil when
    /// it is not installed.
    public static func rounded(weight: Double) -> FontInstance? {
        let weights: [(Double, String)] = [(700, "Bold"), (500, "Medium"), (400, "Regular"), (300, "Light")]
        let nearest = weights.min { abs($0.0 - weight) < abs($1.0 - weight) }!.1
        return installed(["Quicksand-\(nearest).ttf"])
    }

    /// The font that draws `character` when `primary` cannot (see the type's chain), nil when
    /// no installed font can.
    public static func fallback(for character: Character, bold: Bool, italic: Bool) -> FontInstance? {
        let scalars = character.unicodeScalars.filter { !FontInstance.isModifier($0) }
        guard let first = scalars.first else { return nil }
        let emoji = isEmoji(character)
        let script = scriptName(first)
        let key = FallbackKey(script: script, emoji: emoji, bold: bold, italic: italic, scalars: scalars.map(\.value))
        if let known = fallbacks.withLock({ $0[key] }) { return known }
        let weight = bold ? "Bold" : "Regular"
        var names: [String] = []
        if emoji { names.append("NotoColorEmoji.ttf") }
        let compact = script.replacingOccurrences(of: "_", with: "")
        if !["Latin", "Common", "Inherited", "Unknown"].contains(script) {
            names += ["NotoSans\(compact)-\(weight).ttf", "NotoSans\(compact)-Regular.ttf"]
        }
        names += ["NotoSans-\(bold ? (italic ? "BoldItalic" : "Bold") : (italic ? "Italic" : "Regular")).ttf", "NotoSans-Regular.ttf"]
        if ["Han", "Hiragana", "Katakana", "Hangul", "Bopomofo", "Common"].contains(script) {
            names += ["NotoSansCJK-\(weight).ttc", "NotoSansCJK-Regular.ttc", "DroidSansFallbackFull.ttf"]
        }
        names += ["NotoColorEmoji.ttf", bold ? "DejaVuSans-Bold.ttf" : "DejaVuSans.ttf", "DejaVuSans.ttf", "NotoSansSymbols-Regular.ttf",
                  "NotoSansSymbols2-Regular.ttf", "NotoSansMath-Regular.ttf"]
        var found: FontInstance?
        for name in names {
            if let font = installed([name]), font.covers(character) {
                found = font
                break
            }
        }
        if found == nil { found = fontconfigMatch(scalars.map(\.value), character, bold: bold, italic: italic) }
        fallbacks.withLock { table in
            // Bounded: a long-running process meeting ever new graphemes starts over.
            if table.count >= 16_384 { table.removeAll(keepingCapacity: true) }
            table[key] = found
        }
        return found
    }

    /// Whether fontconfig picked `font` (the last resort of the fallback chain): what draws with
    /// it depends on the fonts a machine happens to have.
    public static func isFromFontconfig(_ font: FontInstance) -> Bool {
        fontconfigFaces.withLock { $0.contains(ObjectIdentifier(font.face)) }
    }

    private static let fontconfigFaces = Locked<Set<ObjectIdentifier>>([])

    /// Loads fontconfig's configuration and font list now (once per process; otherwise the
    /// first character the chain cannot draw does): for a process that wants that cost, or
    /// fontconfig's one-time allocations, out of the way of what it measures. False when
    /// fontconfig cannot start (then the chain simply has no last resort).
    @discardableResult
    public static func startFontconfig() -> Bool { cfontconfig_start() == 0 }

    /// The installed font fontconfig prefers for `scalars`, when it really draws `character`.
    private static func fontconfigMatch(_ scalars: [UInt32], _ character: Character, bold: Bool, italic: Bool) -> FontInstance? {
        var path = [CChar](repeating: 0, count: 4096)
        var index: Int32 = 0
        let status = scalars.withUnsafeBufferPointer {
            cfontconfig_match($0.baseAddress, Int32($0.count), bold ? 1 : 0, italic ? 1 : 0, &path, Int32(path.count), &index)
        }
        guard status == 0 else { return nil }
        let file = String(decoding: path.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let face = try? face(path: file, index: Int(index)) else { return nil }
        let font = instance(of: face, weight: nil)
        guard font.covers(character) else { return nil }
        fontconfigFaces.withLock { _ = $0.insert(ObjectIdentifier(face)) }
        return font
    }

    /// Whether `character` is shown as an emoji: an emoji-presentation scalar, or any emoji
    /// with VS16, a skin tone, a joiner or a keycap.
    public static func isEmoji(_ character: Character) -> Bool {
        let scalars = character.unicodeScalars
        if scalars.contains(where: { $0.value == 0xFE0E }) { return false }
        if scalars.contains(where: { $0.properties.isEmojiPresentation }) { return true }
        return scalars.count > 1 && scalars.first!.properties.isEmoji
            && scalars.contains { $0.value == 0xFE0F || $0.value == 0x200D || $0.value == 0x20E3 || (0x1F3FB...0x1F3FF).contains($0.value) }
    }

    /// ICU's long name of the script of `scalar` ("Latin", "Arabic", "Han" …).
    public static func scriptName(_ scalar: Unicode.Scalar) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let n = ctext_script_name(scalar.value, &buffer, Int32(buffer.count))
        guard n > 0 else { return "Unknown" }
        return String(decoding: buffer.prefix(Int(min(n, 63))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
