import Foundation
import SceneGraph

func runDiff(_ arguments: [String]) -> ExitCode {
    var files: [String] = []
    var tolerance = ComparisonTolerance()
    var output: String?
    var i = 0
    let options = ["--tolerance", "--perceptual", "--max-differing", "--output", "-o", "--help", "-h"]
    func value(for flag: String) -> String {
        guard i + 1 < arguments.count else { fail(UsageError(message: "Missing value for '\(flag)'.", command: "diff")) }
        i += 1
        return arguments[i]
    }
    func number(_ text: String, _ flag: String, _ range: ClosedRange<Double>) -> Double {
        guard let v = Double(text), v.isFinite, range.contains(v) else {
            fail(UsageError(message: "The value '\(text)' is invalid for '\(flag)': expected a number from \(range.lowerBound) to \(range.upperBound).", command: "diff"))
        }
        return v
    }
    while i < arguments.count {
        let arg = arguments[i]
        switch arg {
        case "-h", "--help": print(diffHelp); return .ok
        case "--tolerance":
            let text = value(for: arg)
            guard let n = Int(text), (0...255).contains(n) else {
                fail(UsageError(message: "The value '\(text)' is invalid for '--tolerance': expected a whole number from 0 to 255.", command: "diff"))
            }
            tolerance.channel = n
        case "--perceptual": tolerance.perceptual = number(value(for: arg), arg, 0...100)
        case "--max-differing": tolerance.maxDifferingFraction = number(value(for: arg), arg, 0...1)
        case "-o", "--output": output = value(for: arg)
        default:
            if arg.hasPrefix("-") && arg != "-" {
                let hint = suggestion(for: arg, among: options).map { " Did you mean '\($0)'?" } ?? ""
                fail(UsageError(message: "Unknown option '\(arg)'.\(hint)", command: "diff"))
            }
            files.append(arg)
        }
        i += 1
    }
    guard files.count == 2 else {
        fail(UsageError(message: files.count < 2 ? "Missing expected argument '<\(files.isEmpty ? "expected" : "actual").png>'."
                                                 : "Unexpected argument '\(files[2])'.", command: "diff"))
    }
    let expected: Surface, actual: Surface
    do {
        expected = try PNG.read(path: files[0])
        actual = try PNG.read(path: files[1])
    } catch {
        FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
        return .noInput
    }
    let result: ImageComparison
    do {
        result = try actual.compare(to: expected, tolerance: tolerance)
    } catch {
        FileHandle.standardError.write(Data("Error: \(files[0]) and \(files[1]): \(error)\n".utf8))
        return .dataError
    }
    if let output {
        // Checked, then written atomically, like every other output (73 / 74 with the reason).
        let data: Data
        do {
            data = try PNG.encode(actual.differenceImage(against: expected, tolerance: tolerance))
        } catch {
            printError("cannot encode the difference image: \(error)")
            return .failure
        }
        if let code = writeAll([(output, data)]) { return code }
    }
    print((result.passed ? "equal: " : "different: ") + result.description)
    return result.passed ? .ok : .failure
}

