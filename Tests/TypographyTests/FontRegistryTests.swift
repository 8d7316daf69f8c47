import Foundation
import Testing
@testable import Typography

/// User fonts for `Font.custom`: files and folders registered by name, installed fonts found by
/// name, and clear errors with the path for what cannot be used.
@Suite struct FontRegistryTests {
    func file(_ font: FontInstance?) -> String? { font.map { ($0.face.path as NSString).lastPathComponent } }

    /// A registered folder's faces are found by family (nearest weight and italics), full name
    /// and PostScript name, ignoring case.
    @Test func registeredFontsAreFoundByName() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fonts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSerif-Italic.ttf"] {
            try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/dejavu/" + name, toPath: folder.appendingPathComponent(name).path)
        }
        let registry = FontRegistry()
        try registry.register(contentsOf: folder)
        #expect(file(registry.font(named: "DejaVu Serif", weight: 400, italic: false)) == "DejaVuSerif.ttf")
        #expect(file(registry.font(named: "dejavu serif", weight: 700, italic: false)) == "DejaVuSerif-Bold.ttf")
        #expect(file(registry.font(named: "DejaVu Serif", weight: 400, italic: true)) == "DejaVuSerif-Italic.ttf")
        #expect(file(registry.font(named: "DejaVuSerif-Bold", weight: 400, italic: false)) == "DejaVuSerif-Bold.ttf")
        // Registered first; installed fonts after (JetBrains Mono from fonts-jetbrains-mono).
        #expect(file(registry.font(named: "JetBrains Mono", weight: 700, italic: false)) == "JetBrainsMono-Bold.ttf")
        #expect(registry.font(named: "No Such Family", weight: 400, italic: false) == nil)
    }

    /// A variable font takes the asked weight on its axis.
    @Test func variableFontsTakeTheWeight() throws {
        let registry = FontRegistry()
        try registry.register(contentsOf: URL(fileURLWithPath: "/usr/share/fonts/truetype/inter-vf/Inter-roman.var.ttf"))
        let semibold = try #require(registry.font(named: "Inter", weight: 600, italic: false))
        #expect(semibold.weight == 600)
    }

    /// What cannot be used is an error naming the path: nothing there, not a font, a folder
    /// without fonts; COMPOSE_FONT_PATH's folders likewise.
    @Test func badPathsAreClearErrors() throws {
        let registry = FontRegistry()
        #expect(throws: TypographyError.noSuchFontPath("/nonexistent/fonts")) {
            try registry.register(contentsOf: URL(fileURLWithPath: "/nonexistent/fonts"))
        }
        let junk = FileManager.default.temporaryDirectory.appendingPathComponent("junk-\(UUID().uuidString).ttf")
        try Data("not a font".utf8).write(to: junk)
        defer { try? FileManager.default.removeItem(at: junk) }
        #expect {
            try registry.register(contentsOf: junk)
        } throws: { error in
            "\(error)" == "cannot use the font file '\(junk.path)': it is not a font file (TrueType, OpenType or a collection)"
        }
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(throws: TypographyError.noFonts(folder: empty.path)) { try registry.register(contentsOf: empty) }
        #expect(throws: TypographyError.noSuchFontPath("/nowhere")) {
            try registry.registerFontPath(from: ["COMPOSE_FONT_PATH": "/usr/share/fonts/truetype/dejavu:/nowhere"])
        }
    }
}

/// The system font and the same file registered as a user font are different instances: the
/// system font keeps SF Pro's line metrics whichever is asked for first (a test order once
/// gave the system font Inter's own metrics).
@Suite struct FontInstanceIdentityTests {
    @Test func systemAndUserInstancesOfOneFileDiffer() throws {
        let registry = FontRegistry()
        try registry.register(contentsOf: URL(fileURLWithPath: "/usr/share/fonts/truetype/inter-vf/Inter-roman.var.ttf"))
        let user = try #require(registry.font(named: "Inter", weight: 555, italic: false))
        let system = try SystemFont.instance(size: 17, weight: 555, italic: false)
        #expect(user !== system)
        #expect(system.ascender == SystemFont.ascender && user.ascender != SystemFont.ascender)
    }
}
