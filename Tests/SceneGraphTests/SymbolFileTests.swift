import Compositor
import Foundation
import Testing
@testable import SceneGraph

/// Symbols from SVG files (`SymbolSet.register(contentsOf:)`, `compose --symbols`): named
/// after the file, scaled from its viewBox into the symbol's square, and every file that
/// cannot be a filled drawing refused with its path. Names here are unique to this suite, as
/// the registry is shared by the tests running beside it.
@Suite struct SymbolFileTests {
    private func folder(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("symbols-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
        return dir
    }

    /// A triangle in a 24-unit box lands in the unit square as 24ths; a 20 × 10 box is scaled
    /// by its longer side and centred (y + 5 units); `name.fill` without its own file takes
    /// the drawing of `name`; the names are listed and drawn by `Image(systemName:)`.
    @Test func filesBecomeSymbolsScaledFromTheirBoxes() throws {
        let dir = try folder([
            "test.file.triangle.svg": #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><title>t</title><path d="M0 0L24 0L12 24Z"/></svg>"#,
            "test.file.wide.svg": #"<svg width="20px" height="10"><g><path d="M0 0H20V10H0Z"/></g></svg>"#,
            "notes.txt": "not a symbol",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try SymbolSet.register(contentsOf: dir) == ["test.file.triangle", "test.file.wide"])
        let triangle = try #require(SymbolSet.path("test.file.triangle", weight: 400, filled: false))
        #expect(triangle.boundingRect == CGRect(x: 0, y: 0, width: 1, height: 1))
        // 20 × 10 in a square of 20: x 0…1, y (5…15) / 20 = 0.25…0.75.
        let wide = try #require(SymbolSet.path("test.file.wide", weight: 700, filled: false))
        #expect(wide.boundingRect == CGRect(x: 0, y: 0.25, width: 1, height: 0.5))
        #expect(SymbolSet.path("test.file.wide.fill", weight: 400, filled: false) == wide)
        #expect(SymbolSet.path("test.file.wide", weight: 400, filled: true) == wide)
        #expect(SymbolSet.contains("test.file.triangle") && SymbolSet.names.contains("test.file.wide.fill"))
        let list = try Renderer().displayList(for: Image(systemName: "test.file.triangle").font(.system(size: 24)),
                                              size: CGSize(width: 40, height: 40))
        #expect(list.leaves.count == 1)
    }

    /// Each file that cannot be used is refused with its path, and nothing of its folder is
    /// registered.
    @Test(arguments: [
        (#"<svg viewBox="0 0 10 10"><path d="M0 0 L 5 x"/></svg>"#, "bad path data"),
        (#"<svg viewBox="0 0 10 10"><circle r="4"/></svg>"#, "a <circle> element"),
        (#"<svg viewBox="0 0 10 10"><path transform="scale(2)" d="M0 0H5V5Z"/></svg>"#, "a transform on <path>"),
        (#"<svg viewBox="0 0 10 10"><path fill="none" stroke="black" d="M0 0H5V5Z"/></svg>"#, "fill=\"none\""),
        (#"<svg><path d="M0 0H5V5Z"/></svg>"#, "needs a viewBox"),
        (#"<svg viewBox="0 0 0 10"><path d="M0 0H5V5Z"/></svg>"#, "needs a viewBox"),
        (#"<svg viewBox="0 0 10 10"></svg>"#, "no <path> element"),
        (#"<svg viewBox="0 0 10 10"><path/></svg>"#, "without a d attribute"),
        (#"<html><path d="M0 0H5V5Z"/></html>"#, "a <html> root element"),
        (#"<svg viewBox="0 0 10 10"><path d="M0 0H5V5Z"></svg>"#, "not well-formed XML"),
        (#"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">]><svg viewBox="0 0 10 10"><path d="&a;"/></svg>"#, "declares XML entities"),
        ("<svg viewBox=\"0 0 10 10\"><path d=\"M0 0H5V5Z\"/>" + String(repeating: "<g/>", count: SymbolSet.maximumSymbolFileBytes / 4) + "</svg>",
         "more than the 1048576"),
    ])
    func badFilesAreRefusedWithTheirPath(text: String, problem: String) throws {
        // (The arguments are shown shortened when a case fails.)
        let dir = try folder(["test.file.good.svg": #"<svg viewBox="0 0 2 2"><path d="M0 0H2V2Z"/></svg>"#, "test.file.bad.svg": text])
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            try SymbolSet.register(contentsOf: dir)
            Issue.record("registered a bad file (\(problem))")
        } catch let error as SymbolFileError {
            let message = "\(error)"
            #expect(message.contains(dir.appendingPathComponent("test.file.bad.svg").path) && message.contains(problem), "\(message)")
        }
        #expect(!SymbolSet.contains("test.file.good"))
    }

    @Test func missingAndEmptyPathsAreRefused() throws {
        #expect(throws: SymbolFileError.noSuchPath("/no/such/symbols")) { try SymbolSet.register(contentsOf: URL(fileURLWithPath: "/no/such/symbols")) }
        let empty = try folder(["readme.md": "#"])
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(throws: SymbolFileError.noSymbols(folder: empty.path)) { try SymbolSet.register(contentsOf: empty) }
    }
}
