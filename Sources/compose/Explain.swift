import Foundation
import SceneFile
import SceneGraph

func runExplain(_ arguments: [String]) -> ExitCode {
    var reader = ArgumentReader(command: "explain", arguments, known: SceneOptions.flags + ["--json"])
    var options = SceneOptions()
    var json = false
    while let arg = reader.next() {
        switch arg {
        case "-h", "--help": print(explainHelp); return .ok
        case "--json": json = true
        default:
            if !options.take(arg, &reader, allowBackground: false) { reader.unknown(arg) }
        }
    }
    let scene: LoadedScene
    switch options.load(command: "explain") {
    case .success(let s): scene = s
    case .failure(let code): return code
    }
    let explanation: Explanation
    do {
        explanation = try options.renderer().explain(scene.view, size: scene.canvas.size, scale: scene.canvas.scale)
    } catch {
        printError("\(scene.name): \(describe(error))")
        return exitCode(for: error)
    }
    if json {
        do {
            if let code = writeStandardOutput(try explanation.json()) { return code }
            print()
        } catch {
            printError("\(error)")
            return .failure
        }
    } else {
        print("\(scene.name): \(scene.canvas.width.plainDescription)×\(scene.canvas.height.plainDescription) pt at scale \(scene.canvas.scale.plainDescription)")
        print(explanation.text(sourceName: scene.name))
    }
    return .ok
}
