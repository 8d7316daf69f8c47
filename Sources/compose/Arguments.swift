import Foundation
import SceneFile


// `compose`: the command line. Exit codes follow sysexits(3): 0 ok, 1 failure, 64 usage,
// 65 bad input data, 66 missing input, 69 a service is unavailable (preview's port), 73 cannot
// create output, 74 I/O error.

let version = "0.1.0"

enum ExitCode: Int32, Error {
    case ok = 0, failure = 1, usage = 64, dataError = 65, noInput = 66, unavailable = 69, cannotCreate = 73, ioError = 74
}

struct UsageError: Error {
    let message: String
    let command: String?
}

/// A likely intended name for a mistyped subcommand or flag (the scene language's measure).
func suggestion(for word: String, among candidates: [String]) -> String? {
    closest(to: word, among: candidates)
}

/// The one-line usage of each subcommand, for usage errors.
let usages: [String: String] = [
    "render": "render <scene> [-o <output>] [--scale <scale>] [--size <WxH>] [--background <color>] [--stats] [--stats-json <file>] [--trace <file>] [--overlay offscreen|layers] [--time <seconds|N%>]\n       compose render <scene> <scene>… [--output-dir <dir>] [--jobs <n>]",
    "animate": "animate <scene> -o <frames/%04d.png> [--fps <fps>] [--frames <A..<B>] [--shard <I/N>] [--jobs <n>] [--format png|rawvideo] [--duration <s>]",
    "explain": "explain <scene> [--json] [--scale <scale>] [--size <WxH>]",
    "bench": "bench <scene> [-n <runs>] [--scale <scale>] [--size <WxH>]",
    "report": "report <scene> [-o <report.html>] [--frames <n>] [--time <seconds|N%>] [--scale <scale>] [--size <WxH>]",
    "preview": "preview <scene> [--port <port>] [--frames <n>] [--time <seconds|N%>] [--scale <scale>] [--size <WxH>]",
    "diff": "diff <expected.png> <actual.png> [--tolerance <n>] [--perceptual <ΔE>] [--max-differing <fraction>] [-o <diff.png>]",
]

func fail(_ error: UsageError) -> Never {
    report(error)
    exit(ExitCode.usage.rawValue)
}

/// Prints a usage error and returns its exit code, for errors found after the scene is loaded:
/// exiting from the command's thread then would leave the scene's objects to LeakSanitizer.
func usageError(_ error: UsageError) -> ExitCode {
    report(error)
    return .usage
}

private func report(_ error: UsageError) {
    var text = "Error: \(error.message)\n"
    if let command = error.command, let usage = usages[command] {
        text += "Usage: compose \(usage)\n  See 'compose \(command) --help' for more information.\n"
    } else {
        text += "Usage: compose <subcommand> [options]\n  See 'compose --help' for more information.\n"
    }
    FileHandle.standardError.write(Data(text.utf8))
}

func printError(_ text: String) {
    FileHandle.standardError.write(Data(("Error: " + text + "\n").utf8))
}

/// Walks a subcommand's arguments: flags with values, "did you mean" for unknown flags.
struct ArgumentReader {
    let command: String
    let arguments: [String]
    var index = 0
    /// Every flag the command knows, for suggestions.
    var known: [String]

    init(command: String, _ arguments: [String], known: [String]) {
        self.command = command
        self.arguments = arguments
        self.known = known + ["--help", "-h"]
    }

    mutating func next() -> String? {
        guard index < arguments.count else { return nil }
        defer { index += 1 }
        return arguments[index]
    }

    mutating func value(for flag: String) -> String {
        guard index < arguments.count else { fail(UsageError(message: "Missing value for '\(flag)'.", command: command)) }
        defer { index += 1 }
        return arguments[index]
    }

    func unknown(_ flag: String) -> Never {
        let hint = suggestion(for: flag, among: known).map { " Did you mean '\($0)'?" } ?? ""
        fail(UsageError(message: "Unknown option '\(flag)'.\(hint)", command: command))
    }

    func invalid(_ value: String, _ flag: String, _ expected: String) -> Never {
        fail(UsageError(message: "The value '\(value)' is invalid for '\(flag)': expected \(expected).", command: command))
    }

    mutating func number(for flag: String, in range: ClosedRange<Double>) -> Double {
        let text = value(for: flag)
        guard let v = Double(text), v.isFinite, range.contains(v) else {
            invalid(text, flag, "a number from \(range.lowerBound.plainDescription) to \(range.upperBound.plainDescription)")
        }
        return v
    }

    mutating func count(for flag: String, in range: ClosedRange<Int>) -> Int {
        let text = value(for: flag)
        guard let v = Int(text), range.contains(v) else { invalid(text, flag, "a whole number from \(range.lowerBound) to \(range.upperBound)") }
        return v
    }
}
