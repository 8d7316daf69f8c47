import Foundation
import FuzzTargets
import Testing

/// Every input in `Fuzz/Corpus/<target>/` (the seeds `make fuzz` starts from, and what it
/// found worth keeping) and `Fuzz/Regressions/<target>/` (inputs that once broke a target, kept
/// after the fix) goes through its target in process: none may trap or break an invariant.
/// CI runs these, not the fuzzers.
@Suite struct FuzzRegressionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Fuzz").standardized

    @Test(arguments: ["scene", "svg", "svgdoc", "raster", "stroke", "boolean", "png", "text"])
    func corpusAndRegressionsPass(_ target: String) throws {
        let run = try #require(FuzzTargets.all[target])
        var count = 0
        for folder in ["Corpus", "Regressions"] {
            let dir = Self.root.appendingPathComponent(folder).appendingPathComponent(target)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? [] where !name.hasPrefix(".") {
                let bytes = [UInt8](try Data(contentsOf: dir.appendingPathComponent(name)))
                #expect(run(bytes), "\(folder)/\(target)/\(name) broke an invariant")
                count += 1
            }
        }
        #expect(count > 0, "no inputs for \(target)")
    }
}
