import Foundation
import SceneGraph

// How layout grows with the view tree: trees of about 1k, 10k and 100k views, laid out and
// lowered to a display list (`Renderer.displayList`: the layout tree, then device paths; no
// pixels), median ms and µs per view. Two shapes of tree: wide (a VStack of HStack rows of ten
// small shapes) and deep (chains of stacks nested 30 levels, HStack and VStack alternating,
// each level a shape beside the next level, side by side in a ZStack). Linear when µs per view
// stays flat: the largest over the smallest must stay under 2.

struct LayoutRow: Codable {
    var tree: String
    var views: Int
    var ms: Double
    var minMs: Double
    var usPerView: Double
}

/// A row of ten shapes: 1 stack + 10 × (shape, frame) = 21 views.
private func row() -> AnyView {
    AnyView(HStack(spacing: 1) {
        ForEach(0..<10) { i in Circle().fill(i % 2 == 0 ? Color.blue : Color.orange).frame(width: 3, height: 3) }
    })
}

/// A chain `depth` stacks deep: each level a stack holding a shape (shape + frame) and the next
/// level; the innermost a shape. 3 views a level, plus 2.
private func chain(depth: Int) -> AnyView {
    var inner = AnyView(Rectangle().fill(.mint).frame(width: 2, height: 2))
    for level in 0..<depth {
        let next = inner
        inner = level % 2 == 0
            ? AnyView(HStack(spacing: 1) { Rectangle().fill(.pink).frame(width: 2, height: 2); next })
            : AnyView(VStack(spacing: 1) { Rectangle().fill(.teal).frame(width: 2, height: 2); next })
    }
    return inner
}

func layoutSeries(runs: Int, quick: Bool) throws -> [LayoutRow] {
    print("\nlayout: view trees laid out and lowered (Renderer.displayList), median of \(runs) runs")
    print("  tree       views     median        min    µs/view")
    let size = CGSize(width: 1920, height: 1080)
    var rows: [LayoutRow] = []
    func measure(_ name: String, _ views: Int, _ view: AnyView) throws {
        let renderer = Renderer(threads: benchThreads)
        renderer.reusesUnchangedFrames = false   // laid out each time, not drawn again from the last list
        _ = try renderer.displayList(for: view, size: size)
        var t: [Double] = []
        for _ in 0..<runs {
            let t0 = now()
            _ = try renderer.displayList(for: view, size: size)
            t.append(ms(now() - t0))
        }
        let m = median(t)
        rows.append(LayoutRow(tree: name, views: views, ms: m, minMs: t.min() ?? m, usPerView: m * 1000 / Double(views)))
        print("  " + name.padding(toLength: 6, withPad: " ", startingAt: 0)
              + String(format: " %9d %10.2f %10.2f %10.3f", views, m, t.min() ?? m, m * 1000 / Double(views)))
    }
    for target in quick ? [1_000, 10_000] : [1_000, 10_000, 100_000] {
        let rowCount = max(1, target / 21)
        try measure("wide", rowCount * 21 + 1, AnyView(VStack(spacing: 1) { ForEach(0..<rowCount) { _ in row() } }))
        let chains = max(1, target / (3 * 30 + 2))
        try measure("deep", chains * (3 * 30 + 2) + 1, AnyView(ZStack { ForEach(0..<chains) { _ in chain(depth: 30) } }))
    }
    for tree in ["wide", "deep"] {
        let per = rows.filter { $0.tree == tree }.map(\.usPerView)
        if let lo = per.min(), let hi = per.max() {
            print(String(format: "  %@: µs per view from %.3f to %.3f, ×%.2f (linear: under ×2)", tree, lo, hi, hi / lo))
        }
    }
    return rows
}
