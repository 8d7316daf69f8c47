import Compositor
import Foundation

/// 512 MiB of stack for the command (reserved, touched only as deep as a scene goes): enough
/// for a scene at the largest --max-depth (4,000 levels) in an unoptimised build.
let commandStackBytes = 512 << 20

// A closed pipe (`compose animate … --format rawvideo | head -c …`) must fail the write with
// EPIPE, which is reported and exits 74 as documented, instead of killing the process.
signal(SIGPIPE, SIG_IGN)
// Frames free their display lists and paths as they end; kept for the next frame instead of
// being returned to the system and faulted in again (`HeapPolicy`).
HeapPolicy.keepFreedMemory()

let arguments = Array(CommandLine.arguments.dropFirst())
guard let first = arguments.first else {
    print(rootHelp)
    exit(ExitCode.usage.rawValue)
}
let commands: [String: ([String]) -> ExitCode] = ["render": runRender, "animate": runAnimate, "explain": runExplain, "bench": runBench, "diff": runDiff, "report": runReport, "preview": runPreview]
// Closures, not strings: a top-level constant here is built at launch, and the help texts (the
// limits' defaults come from a `Renderer`) cost a render's start-up time for nothing.
let helps: [String: () -> String] = ["render": { renderHelp }, "animate": { animateHelp }, "explain": { explainHelp }, "bench": { benchHelp }, "diff": { diffHelp }, "report": { reportHelp }, "preview": { previewHelp }]
switch first {
case "-h", "--help":
    print(rootHelp)
case "--version":
    print(version)
case "help":
    switch arguments.dropFirst().first {
    case nil: print(rootHelp)
    case let name? where helps[name] != nil: print(helps[name]!())
    case let other?:
        let hint = suggestion(for: other, among: Array(helps.keys)).map { " Did you mean '\($0)'?" } ?? ""
        fail(UsageError(message: "Unknown subcommand '\(other)'.\(hint)", command: nil))
    }
default:
    guard let run = commands[first] else {
        let hint = suggestion(for: first, among: Array(commands.keys) + ["help", "--help", "--version"]).map { " Did you mean '\($0)'?" } ?? ""
        fail(UsageError(message: "Unknown subcommand or option '\(first)'.\(hint)", command: nil))
    }
    // On a thread with a large stack: a scene nested as deep as --max-depth allows recurses
    // once per level in parsing, evaluation, layout and lowering. The main thread waits and
    // exits with its status, so nothing the command allocated is left on a live stack.
    // Joined, not signalled: the thread has released everything by the time `exit` runs.
    nonisolated(unsafe) let command = run
    nonisolated(unsafe) var status = ExitCode.failure
    let commandArguments = Array(arguments.dropFirst())
    JoinableThread(stackBytes: commandStackBytes, orHere: true) { status = command(commandArguments) }.join()
    exit(status.rawValue)
}
