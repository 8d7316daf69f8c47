import Compositor
import Foundation

// `compose`: the command line. Exit codes follow sysexits(3): 0 ok, 1 failure, 64 usage,
// 65 bad input data, 66 missing input, 73 cannot create output, 74 I/O error.

let version = "0.1.0"

enum ExitCode: Int32 {
    case ok = 0, failure = 1, usage = 64, dataError = 65, noInput = 66, cannotCreate = 73, ioError = 74
}

struct UsageError: Error {
    let message: String
    let command: String?
}

let rootHelp = """
OVERVIEW: Render layered 2D scenes with SwiftUI's compositing semantics.

USAGE: compose <subcommand> [options]

OPTIONS:
  --version               Show the version.
  -h, --help              Show help information.

SUBCOMMANDS:
  render                  Render a scene to PNG.

  See 'compose help <subcommand>' for detailed help.
"""

let renderHelp = """
OVERVIEW: Render a scene to PNG.

The scene language arrives in a later release; today `render` draws the built-in demo
(per-leaf vs group opacity, an even-odd star, a gradient card and a conic ring).

USAGE: compose render --demo [-o <output>] [--scale <scale>]

OPTIONS:
  --demo                  Render the built-in demo scene.
  -o, --output <output>   Where to write the PNG ('-' for standard output). (default: demo.png)
  --scale <scale>         Pixels per point, from 0.1 to 8. (default: 1)
  -h, --help              Show help information.

The output is written atomically: on any error an existing file is left untouched.
"""

/// Levenshtein distance, for "did you mean" suggestions.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    var row = Array(0...b.count)
    for i in 1...max(1, a.count) where !a.isEmpty {
        var previous = row[0]
        row[0] = i
        for j in 1...max(1, b.count) where !b.isEmpty {
            let current = row[j]
            row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
            previous = current
        }
    }
    return row[b.count]
}

func suggestion(for word: String, among candidates: [String]) -> String? {
    let best = candidates.map { ($0, editDistance(word, $0)) }.min { $0.1 < $1.1 }
    guard let (name, distance) = best, distance <= max(2, word.count / 3) else { return nil }
    return name
}

func fail(_ error: UsageError) -> Never {
    var text = "Error: \(error.message)\n"
    if let command = error.command {
        text += "Usage: compose \(command) --demo [-o <output>] [--scale <scale>]\n  See 'compose \(command) --help' for more information.\n"
    } else {
        text += "Usage: compose <subcommand> [options]\n  See 'compose --help' for more information.\n"
    }
    FileHandle.standardError.write(Data(text.utf8))
    exit(ExitCode.usage.rawValue)
}

func runRender(_ arguments: [String]) -> ExitCode {
    var demo = false, output = "demo.png", scale = 1.0
    var i = 0
    let options = ["--demo", "--output", "-o", "--scale", "--help", "-h"]
    func value(for flag: String) -> String {
        guard i + 1 < arguments.count else { fail(UsageError(message: "Missing value for '\(flag)'.", command: "render")) }
        i += 1
        return arguments[i]
    }
    while i < arguments.count {
        let arg = arguments[i]
        switch arg {
        case "-h", "--help": print(renderHelp); return .ok
        case "--demo": demo = true
        case "-o", "--output": output = value(for: arg)
        case "--scale":
            let text = value(for: arg)
            guard let s = Double(text), s.isFinite, s >= 0.1, s <= 8 else {
                fail(UsageError(message: "The value '\(text)' is invalid for '--scale': expected a number from 0.1 to 8.", command: "render"))
            }
            scale = s
        default:
            if arg.hasPrefix("-") {
                let hint = suggestion(for: arg, among: options).map { " Did you mean '\($0)'?" } ?? ""
                fail(UsageError(message: "Unknown option '\(arg)'.\(hint)", command: "render"))
            }
            fail(UsageError(message: "Scene files ('\(arg)') are not supported yet; use --demo.", command: "render"))
        }
        i += 1
    }
    guard demo else { fail(UsageError(message: "Missing expected argument '--demo'.", command: "render")) }
    let surface: Surface
    do {
        surface = try Demo.render(scale: scale)
    } catch {
        FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
        return .failure
    }
    do {
        if output == "-" {
            FileHandle.standardOutput.write(try PNG.encode(surface))
        } else {
            try surface.writePNG(to: output)
        }
    } catch {
        FileHandle.standardError.write(Data("Error: cannot write \(error)\n".utf8))
        return .cannotCreate
    }
    return .ok
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let first = arguments.first else {
    print(rootHelp)
    exit(ExitCode.usage.rawValue)
}
switch first {
case "-h", "--help":
    print(rootHelp)
case "--version":
    print(version)
case "help":
    switch arguments.dropFirst().first {
    case nil: print(rootHelp)
    case "render": print(renderHelp)
    case let other?: fail(UsageError(message: "Unknown subcommand '\(other)'.", command: nil))
    }
case "render":
    exit(runRender(Array(arguments.dropFirst())).rawValue)
default:
    let hint = suggestion(for: first, among: ["render", "help", "--help", "--version"]).map { " Did you mean '\($0)'?" } ?? ""
    fail(UsageError(message: "Unknown subcommand or option '\(first)'.\(hint)", command: nil))
}
