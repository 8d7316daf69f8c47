import Foundation
import Compositor
import SceneGraph
import SVG

// Renders every test of the SVG suite in this one process, as `compose render` does (read and
// resolve the file, render at the manifest width on a transparent canvas, encode the PNG in
// memory), REPEATS times each, and prints one line per test: `category/name<TAB>median ms`.
// Benchmarks/svg-suite-timing.py runs it beside resvg in the same run.
//
//     svg-suite-bench SUITE_DIR [REPEATS]

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: svg-suite-bench SUITE_DIR [REPEATS]\n".utf8))
    exit(64)
}
let suite = URL(fileURLWithPath: arguments[1])
let repeats = arguments.count > 2 ? max(1, Int(arguments[2]) ?? 3) : 3
guard let manifest = try? String(contentsOf: suite.appendingPathComponent("manifest.tsv"), encoding: .utf8) else {
    FileHandle.standardError.write(Data("cannot read \(suite.path)/manifest.tsv\n".utf8))
    exit(66)
}
let rows = manifest.split(separator: "\n").dropFirst().map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
var failures = 0
for row in rows where row.count >= 5 {
    let (category, name, width, svg) = (row[0], row[1], Double(row[2]) ?? 300, row[4])
    var times: [Double] = []
    for _ in 0..<repeats {
        let start = DispatchTime.now().uptimeNanoseconds
        do {
            var options = SVGDocument.Options()
            options.allowedImageDirectory = suite
            let document = try SVGDocument(contentsOfFile: suite.appendingPathComponent(svg).path, options: options)
            let scale = width / document.size.width
            let surface = try Renderer().render(Image(drawing: document).resizable(), size: document.size, scale: scale, background: nil)
            _ = try PNG.encode(surface)
        } catch {
            failures += 1
        }
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    times.sort()
    print("\(category)/\(name)\t\(String(format: "%.3f", times[times.count / 2]))")
}
if failures > 0 { FileHandle.standardError.write(Data("\(failures) renders failed\n".utf8)) }
