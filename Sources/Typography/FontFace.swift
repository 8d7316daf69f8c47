import CHarfBuzz
import Compositor
import Foundation

/// A font file's face, read once by HarfBuzz (which sanitizes its tables): what instances
/// (a weight, an italic) are made from. Immutable once made, so threads share it.
public final class FontFace: @unchecked Sendable, CustomStringConvertible {
    let face: OpaquePointer
    /// The file it came from and the face's index in it (a collection holds several).
    public let path: String
    public let index: Int
    /// Font units per em.
    public let unitsPerEm: Int
    /// How many faces the file holds (a collection, `.ttc`, holds several).
    public let faceCount: Int

    /// The face `index` of the font file at `path`.
    /// - Throws: `TypographyError.unreadableFont` when the file cannot be read or holds no
    ///   such face.
    public init(path: String, index: Int = 0) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw TypographyError.unreadableFont(path: path, reason: "no such file")
        }
        guard let blob = hb_blob_create_from_file_or_fail(path) else {
            throw TypographyError.unreadableFont(path: path, reason: "it cannot be read")
        }
        defer { hb_blob_destroy(blob) }
        let count = Int(hb_face_count(blob))
        guard count > 0 else { throw TypographyError.unreadableFont(path: path, reason: "it is not a font file (TrueType, OpenType or a collection)") }
        guard index >= 0, index < count, let face = hb_face_create(blob, UInt32(index)) else {
            throw TypographyError.unreadableFont(path: path, reason: "it holds no font face \(index)")
        }
        hb_face_make_immutable(face)
        let upem = Int(hb_face_get_upem(face))
        guard upem > 0, hb_face_get_glyph_count(face) > 0 else {
            hb_face_destroy(face)
            throw TypographyError.unreadableFont(path: path, reason: "it is not a font HarfBuzz can read")
        }
        self.face = face
        self.path = path
        self.index = index
        unitsPerEm = upem
        faceCount = count
        name = (path as NSString).lastPathComponent + (index == 0 ? "" : " #\(index)")
    }

    deinit { hb_face_destroy(face) }

    public var description: String { name }
    /// The file's name (and the face's index in a collection), made once.
    private let name: String
}

/// Something wrong with a font.
public enum TypographyError: Error, CustomStringConvertible, Equatable {
    case unreadableFont(path: String, reason: String)
    /// A font the engine needs is not installed.
    case missingSystemFont(name: String, searched: [String], package: String)
    /// A font folder given to the engine holds no font file.
    case noFonts(folder: String)
    /// A font file or folder given to the engine does not exist.
    case noSuchFontPath(String)
    /// A text longer than a text may be (`maximumTextBytes`).
    case textTooLong(bytes: Int, limit: Int)

    /// The most UTF-8 bytes one `Text` may hold (1 MiB: a few hundred pages); longer text is
    /// an error when it is laid out, not minutes of shaping.
    public static let maximumTextBytes = 1 << 20

    public var description: String {
        switch self {
        case let .unreadableFont(path, reason):
            "cannot use the font file '\(path)': \(reason)"
        case let .missingSystemFont(name, searched, package):
            "the system font \(name) is not installed (looked in \(searched.joined(separator: ", "))); "
                + "install it with: apt-get install \(package)"
        case let .textTooLong(bytes, limit):
            "a Text holds at most \(limit) bytes of UTF-8, this one \(bytes)"
        case let .noSuchFontPath(path):
            "there is no font file or folder at '\(path)'"
        case let .noFonts(folder):
            "the font folder '\(folder)' holds no font file (.ttf, .otf, .ttc or .otc)"
        }
    }
}
