import Foundation
import SceneFile
import Testing

/// The malformed-scene corpus: every file in `Malformed/` must be refused, and the errors must
/// read exactly as its `.expected` file (golden text: location, message, quoted line, caret,
/// hint). The corpus covers lexical and syntax errors, unknown names, wrong types and labels,
/// bad numbers (NaN, infinity, overflow, negative sizes, huge values), canvas mistakes, the
/// scene's structure, and every evaluation limit (deep nesting, long chains, runaway loops).
/// `SCENE_GOLDEN_RECORD=1 swift test --filter MalformedSceneTests` rewrites the expected
/// files; read the diff before committing it.
@Suite struct MalformedSceneTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Malformed")
    static let names: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".scene") }.sorted()

    @Test func corpusHasAtLeastSixtyScenes() {
        #expect(Self.names.count >= 60)
    }

    @Test(arguments: names) func refusedWithTheExpectedErrors(_ name: String) throws {
        let source = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
        let expectedURL = Self.folder.appendingPathComponent(name.replacingOccurrences(of: ".scene", with: ".expected"))
        // A first line `// limits: maximumIterations=1000, …` lowers limits, so the limit cases
        // stay fast (the errors read the same at any limit).
        var limits = SceneLimits()
        if let first = source.split(separator: "\n").first, first.hasPrefix("// limits:") {
            for setting in first.dropFirst("// limits:".count).split(separator: ",") {
                let parts = setting.split(separator: "=").map { $0.trimmingCharacters(in: .whitespaces) }
                let value = Int(parts[1])!
                switch parts[0] {
                case "maximumIterations": limits.maximumIterations = value
                case "maximumPathElements": limits.maximumPathElements = value
                default: Issue.record("unknown limit \(parts[0]) in \(name)")
                }
            }
        }
        let actual: String
        do {
            _ = try Scene(source: source, fileName: name, limits: limits)
            Issue.record("\(name) was accepted")
            return
        } catch {
            actual = error.description + "\n"
            #expect(!error.diagnostics.isEmpty)
        }
        if ProcessInfo.processInfo.environment["SCENE_GOLDEN_RECORD"] == "1" {
            try actual.write(to: expectedURL, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: expectedURL, encoding: .utf8)
        #expect(actual == expected, "\(name): got\n\(actual)")
    }
}
