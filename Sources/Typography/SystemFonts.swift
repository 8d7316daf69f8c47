import Compositor
import Foundation

/// The system font: Inter (variable), standing in for SF Pro, which cannot ship. As SF switches
/// from its Text to its Display design at 20 pt, Inter Display is used from 20 pt; the weight
/// is the `wght` axis (100 ultraLight … 900 black). Text is laid out with SF Pro's vertical
/// metrics, so its frames are as tall as SwiftUI's; the glyphs are Inter's.
public enum SystemFont {
    /// SF Pro's ascender and descender, per em (1950 and 494 of 2048 units; no line gap): a
    /// body line (17 pt) is 17 × 2444 / 2048 = 20.287 pt tall, as in SwiftUI.
    public static let ascender = 1950.0 / 2048
    public static let descender = 494.0 / 2048
    /// The size from which the Display design is used (SF switches at 20 pt).
    public static let displaySize = 20.0

    /// Where Debian's `fonts-inter-variable` puts the files.
    static let directories = ["/usr/share/fonts/truetype/inter-vf", "/usr/share/fonts/truetype/inter"]

    /// The system font's instance for `size` points at `weight` (`wght` units), upright or
    /// italic, with SF Pro's vertical metrics.
    /// - Throws: `TypographyError.missingSystemFont` when Inter is not installed.
    public static func instance(size: Double, weight: Double, italic: Bool) throws -> FontInstance {
        let display = size >= displaySize
        let key = Key(display: display, italic: italic, weight: weight)
        // Asked for by every Text in every frame: a small table of its own.
        if let known = instances.withLock({ $0[key] }) { return known }
        let file = (display ? "InterDisplay" : "Inter") + (italic ? "-italic" : "-roman") + ".var.ttf"
        let made = FontLibrary.instance(of: try face(file), weight: weight, metrics: (ascender, descender))
        instances.withLock { table in
            if table.count >= 1_024 { table.removeAll(keepingCapacity: true) }
            table[key] = made
        }
        return made
    }

    private struct Key: Hashable {
        var display: Bool
        var italic: Bool
        var weight: Double
    }

    private static let instances = Locked<[Key: FontInstance]>([:])

    private static let found = Locked<[String: FontFace]>([:])

    private static func face(_ file: String) throws -> FontFace {
        if let known = found.withLock({ $0[file] }) { return known }
        guard let path = directories.map({ $0 + "/" + file }).first(where: { FileManager.default.fileExists(atPath: $0) }) else {
            throw TypographyError.missingSystemFont(name: "Inter (\(file))", searched: directories, package: "fonts-inter-variable")
        }
        let face = try FontLibrary.face(path: path)
        found.withLock { $0[file] = face }
        return face
    }
}
