import Foundation
import SceneGraph

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
  diff                    Compare two PNG images.

  See 'compose help <subcommand>' for detailed help.
"""

let renderHelp = """
OVERVIEW: Render a scene to PNG.

The scene language arrives in a later release; today `render` draws the built-in demo
(per-leaf vs group opacity, an even-odd star, a gradient card and a conic ring).

USAGE: compose render --demo [-o <output>] [--scale <scale>] [--stats] [--stats-json <file>]
                      [--trace <file>] [--overlay offscreen|layers]

OPTIONS:
  --demo                  Render the built-in demo scene.
  -o, --output <output>   Where to write the PNG ('-' for standard output). (default: demo.png)
  --scale <scale>         Pixels per point, from 0.1 to 8. (default: 1)
  --stats                 Print what the render cost (leaf draws, offscreen layers with bounds
                          and bytes, peak offscreen bytes, milliseconds per phase) on stderr.
  --stats-json <file>     Write the same statistics as JSON.
  --trace <file>          Write the render's timeline as Chrome Trace Event JSON (Perfetto,
                          chrome://tracing).
  --overlay <kind>        Draw over the result: 'offscreen' tints offscreen regions yellow,
                          'layers' outlines each layer (compositing groups red, drawing groups
                          blue, shadow masks purple).
  -h, --help              Show help information.

Every destination is checked before any file is written, and each is written atomically: on
an error no file is left half-written and existing files are left untouched.
"""

let diffHelp = """
OVERVIEW: Compare two PNG images pixel by pixel.

Channels are compared un-premultiplied, in 8-bit units; pixels transparent in both images are
equal. Prints the number of differing pixels, the largest channel difference, the largest
CIEDE2000 ΔE and the worst pixel.

USAGE: compose diff <expected.png> <actual.png> [--tolerance <n>] [--perceptual <ΔE>]
                    [--max-differing <fraction>] [-o <diff.png>]

OPTIONS:
  --tolerance <n>          Largest channel difference that still counts as equal, 0…255. (default: 0)
  --perceptual <ΔE>        Also accept pixels whose CIEDE2000 ΔE is at most this.
  --max-differing <f>      Share of pixels, 0…1, allowed to differ. (default: 0)
  -o, --output <diff.png>  Write a difference image: differing pixels red over a faded copy
                           of the expected image.
  -h, --help               Show help information.

EXIT STATUS: 0 equal within the tolerances, 1 different, 64 usage error, 65 the images differ
in size, 66 an image cannot be read, 73 the difference image cannot be written.
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
        let usage = command == "diff" ? "diff <expected.png> <actual.png> [--tolerance <n>] [--perceptual <ΔE>] [--max-differing <fraction>] [-o <diff.png>]"
            : "render --demo [-o <output>] [--scale <scale>] [--stats] [--stats-json <file>] [--trace <file>] [--overlay offscreen|layers]"
        text += "Usage: compose \(usage)\n  See 'compose \(command) --help' for more information.\n"
    } else {
        text += "Usage: compose <subcommand> [options]\n  See 'compose --help' for more information.\n"
    }
    FileHandle.standardError.write(Data(text.utf8))
    exit(ExitCode.usage.rawValue)
}

func runRender(_ arguments: [String]) -> ExitCode {
    var demo = false, output = "demo.png", scale = 1.0, printStats = false
    var statsJSON: String?, trace: String?, overlay: RenderOverlay?
    var i = 0
    let options = ["--demo", "--output", "-o", "--scale", "--stats", "--stats-json", "--trace", "--overlay", "--help", "-h"]
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
        case "--stats": printStats = true
        case "--stats-json": statsJSON = value(for: arg)
        case "--trace": trace = value(for: arg)
        case "--overlay":
            let text = value(for: arg)
            guard let o = RenderOverlay(rawValue: text) else {
                fail(UsageError(message: "The value '\(text)' is invalid for '--overlay': expected 'offscreen' or 'layers'.", command: "render"))
            }
            overlay = o
        default:
            if arg.hasPrefix("-") && arg != "-" {
                let hint = suggestion(for: arg, among: options).map { " Did you mean '\($0)'?" } ?? ""
                fail(UsageError(message: "Unknown option '\(arg)'.\(hint)", command: "render"))
            }
            fail(UsageError(message: "Scene files ('\(arg)') are not supported yet; use --demo.", command: "render"))
        }
        i += 1
    }
    guard demo else { fail(UsageError(message: "Missing expected argument '--demo'.", command: "render")) }
    let targets = [output == "-" ? nil : output, statsJSON, trace].compactMap { $0 }
    if Set(targets).count < targets.count {
        fail(UsageError(message: "Two outputs name the same file; give the image, --stats-json and --trace different paths.", command: "render"))
    }

    // Render and encode everything in memory first, so that an error leaves no file behind.
    let renderer = Renderer()
    var files: [(path: String, data: Data)] = []
    let png: Data
    do {
        let surface = try renderer.render(DemoView(), size: DemoView.size, scale: scale)
        if let overlay { try renderer.lastStats.drawOverlay(overlay, on: surface) }
        png = try PNG.encode(surface)
        if output != "-" { files.append((output, png)) }
        if let statsJSON { files.append((statsJSON, try renderer.lastStats.json())) }
        if let trace { files.append((trace, try renderer.lastTrace.chromeTraceJSON())) }
    } catch {
        FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
        return .failure
    }
    // Every destination is checked before any is written, then each is written atomically.
    for file in files {
        if let problem = unwritable(file.path) {
            FileHandle.standardError.write(Data("Error: cannot write '\(file.path)': \(problem)\n".utf8))
            return .cannotCreate
        }
    }
    var created: [String] = []
    for file in files {
        let existed = FileManager.default.fileExists(atPath: file.path)
        do {
            try file.data.write(to: URL(fileURLWithPath: file.path), options: .atomic)
            if !existed { created.append(file.path) }
        } catch {
            // Rare after the checks (a full disk): remove the files this run created.
            for path in created { try? FileManager.default.removeItem(atPath: path) }
            FileHandle.standardError.write(Data("Error: cannot write '\(file.path)': \(error.localizedDescription)\n".utf8))
            return .cannotCreate
        }
    }
    if output == "-" { FileHandle.standardOutput.write(png) }
    if printStats { FileHandle.standardError.write(Data((renderer.lastStats.table + "\n").utf8)) }
    return .ok
}

/// Why `path` cannot be written, or nil: its folder must exist and be writable, and the path
/// must not be a folder.
func unwritable(_ path: String) -> String? {
    let url = URL(fileURLWithPath: path)
    let folder = url.deletingLastPathComponent().path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
        return "the folder '\(folder)' does not exist"
    }
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
        return "it is a folder"
    }
    guard FileManager.default.isWritableFile(atPath: folder) else { return "the folder '\(folder)' is not writable" }
    return nil
}

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
        do {
            try actual.differenceImage(against: expected, tolerance: tolerance).writePNG(to: output)
        } catch {
            FileHandle.standardError.write(Data("Error: cannot write \(error)\n".utf8))
            return .cannotCreate
        }
    }
    print((result.passed ? "equal: " : "different: ") + result.description)
    return result.passed ? .ok : .failure
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
    case "diff": print(diffHelp)
    case let other?: fail(UsageError(message: "Unknown subcommand '\(other)'.", command: nil))
    }
case "render":
    exit(runRender(Array(arguments.dropFirst())).rawValue)
case "diff":
    exit(runDiff(Array(arguments.dropFirst())).rawValue)
default:
    let hint = suggestion(for: first, among: ["render", "diff", "help", "--help", "--version"]).map { " Did you mean '\($0)'?" } ?? ""
    fail(UsageError(message: "Unknown subcommand or option '\(first)'.\(hint)", command: nil))
}
