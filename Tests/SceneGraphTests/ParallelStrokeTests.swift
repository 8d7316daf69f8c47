import Foundation
import Testing
@testable import SceneGraph
import ReferenceScenes

/// A container's strokes are stroked on the render's threads at once (`Lowering.strokeOutlines`):
/// the display list is the same as one thread's, leaf for leaf, and a stroke beyond the limits
/// stops lowering with the same error at the same stroke.
@Suite struct ParallelStrokeTests {
    /// `count` random cubics stroked with every cap and join, some dashed, in a ZStack.
    private func strokes(_ count: Int, dashes: (Int) -> [CGFloat] = { $0 % 5 == 0 ? [6, 3] : [] }) -> some View {
        var g = SceneLCG(seed: 41)
        let caps: [CGLineCap] = [.butt, .round, .square], joins: [CGLineJoin] = [.miter, .round, .bevel]
        let views = (0..<count).map { k -> AnyView in
            var path = Path()
            path.move(to: CGPoint(x: g.u() * 300, y: g.u() * 200))
            path.addCurve(to: CGPoint(x: g.u() * 300, y: g.u() * 200), control1: CGPoint(x: g.u() * 300, y: g.u() * 200),
                          control2: CGPoint(x: g.u() * 300, y: g.u() * 200))
            let style = StrokeStyle(lineWidth: 1 + g.u() * 9, lineCap: caps[k % 3], lineJoin: joins[(k / 3) % 3], dash: dashes(k))
            return AnyView(path.stroke(Color(red: g.u(), green: g.u(), blue: g.u()), style: style))
        }
        return ZStack(alignment: .topLeading) { AnyView(sequence: views) }.frame(width: 300, height: 200)
    }

    @Test(arguments: [2, 3, 8]) func theDisplayListIsOneThreads(threads: Int) throws {
        let view = strokes(120)
        let one = try Renderer(threads: 1).displayList(for: view, size: CGSize(width: 300, height: 200), scale: 2)
        let many = try Renderer(threads: threads).displayList(for: view, size: CGSize(width: 300, height: 200), scale: 2)
        #expect(one.items.count == 120)
        #expect(one.items == many.items)
    }

    /// Strokes 40 and 90 ask for more dashes than the limit allows, each a different number
    /// (the error names it): every thread count stops at stroke 40, with its error.
    @Test func aStrokeBeyondTheLimitsStopsLoweringWhereItIs() throws {
        let view = strokes(120) { k in k == 40 ? [0.001, 0.001] : k == 90 ? [0.002, 0.002] : [] }
        let one = loweringFailure(view, threads: 1)
        #expect(one != "no error")
        #expect(loweringFailure(view, threads: 2) == one)
        #expect(loweringFailure(view, threads: 8) == one)
    }
}

/// The error lowering `view` (300 × 200 points) stops at on `threads` threads, with at most
/// 1,000 dashes a stroke, as text ("no error" when it does not stop).
func loweringFailure<V: View>(_ view: V, threads: Int) -> String {
    let renderer = Renderer(threads: threads)
    renderer.maximumDashes = 1_000
    do {
        _ = try renderer.displayList(for: view, size: CGSize(width: 300, height: 200), scale: 1)
        return "no error"
    } catch {
        return String(describing: error)
    }
}

/// A stroked shape's leaf keeps the stroke (`DisplayItem.Leaf.stroke`) and is drawn straight
/// from it; its `path` is still the outline.
@Suite struct StrokeLeafTests {
    @Test func aStrokeLeafKeepsItsStrokeAndDrawsAsItsOutline() throws {
        var path = Path()
        path.move(to: CGPoint(x: 10, y: 20))
        path.addCurve(to: CGPoint(x: 180, y: 90), control1: CGPoint(x: 200, y: 0), control2: CGPoint(x: 0, y: 160))
        let view = ZStack(alignment: .topLeading) {
            path.stroke(Color.blue.opacity(0.6), style: StrokeStyle(lineWidth: 7, lineCap: .round, lineJoin: .round))
            path.stroke(Color.red, style: StrokeStyle(lineWidth: 3, dash: [5, 4]))
        }.frame(width: 200, height: 120)
        let renderer = Renderer(threads: 1)
        let list = try renderer.displayList(for: view, size: CGSize(width: 200, height: 120), scale: 1.5)
        let leaves = list.leaves
        #expect(leaves.count == 2)
        // The solid stroke is kept as a stroke, its outline made only when asked for.
        let solid = try #require(leaves[0].stroke)
        #expect(!leaves[0].hasOutline)
        #expect(leaves[0].strokeOutline)
        // Its outline is the one lowering used to keep: the shape stroked at the resolution of
        // its place (1.5 px a point: 0.02 / 1.5 points), then placed.
        #expect(solid.tolerance == strokeFlatteningTolerance / 1.5)
        let outline = try path.strokedPath(solid.style, tolerance: solid.tolerance, limits: .standard).applying(solid.transform)
        #expect(leaves[0].path == outline)
        // The dashed one is outlined at once (a dash limit could refuse it).
        #expect(leaves[1].stroke == nil)
        #expect(!leaves[1].path.isEmpty)
        // Drawn from the stroke or from its outline (a list of leaves without strokes), the
        // same bytes.
        let fresh = try renderer.displayList(for: view, size: CGSize(width: 200, height: 120), scale: 1.5)
        var outlined = fresh
        outlined.items = fresh.items.map { item in
            guard case .leaf(var leaf) = item else { return item }
            leaf.path = leaf.path
            return .leaf(leaf)
        }
        #expect(outlined.leaves.allSatisfy { $0.stroke == nil })
        let a = try Surface(width: 300, height: 180), b = try Surface(width: 300, height: 180)
        try Renderer(threads: 1).render(fresh, into: a)
        try Renderer(threads: 1).render(outlined, into: b)
        #expect(a.withUnsafeMutableBytes { x in b.withUnsafeMutableBytes { y in x.elementsEqual(y) } })
    }
}
