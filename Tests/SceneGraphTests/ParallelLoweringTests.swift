import Foundation
import Testing
@testable import SceneGraph
import ReferenceScenes

/// A container of `Lowering.minimumParallelChildren` children or more is lowered on the
/// render's threads (`Lowering.lowerInParallel`): the display list and its warnings are one
/// thread's, item for item and in order, and a failing child stops lowering with the error of
/// the first failure in the children's order. Long display lists are planned the same way
/// (`LayerPlanner.plan`).
@Suite struct ParallelLoweringTests {
    /// `count` children of every kind lowering meets: filled and stroked paths, texts (drawn
    /// from masks, and some with a character no font has, which warns, each text its own
    /// warning), a nested stack, a compositing group, a blend mode overridden nearer the leaf
    /// (a warning repeated by many children, kept once), an opacity of zero (nothing drawn).
    private func children(_ count: Int, dashes: (Int) -> [CGFloat] = { _ in [] }) -> some View {
        var g = SceneLCG(seed: 7)
        let views = (0..<count).map { k -> AnyView in
            let x = g.u() * 280, y = g.u() * 180
            var path = Path()
            path.move(to: CGPoint(x: x, y: y))
            path.addCurve(to: CGPoint(x: g.u() * 300, y: g.u() * 200), control1: CGPoint(x: g.u() * 300, y: g.u() * 200),
                          control2: CGPoint(x: g.u() * 300, y: g.u() * 200))
            let color = Color(red: g.u(), green: g.u(), blue: g.u(), opacity: 0.3 + 0.7 * g.u())
            switch k % 8 {
            case 0: return AnyView(path.stroke(color, style: StrokeStyle(lineWidth: 1 + g.u() * 5, dash: dashes(k))))
            case 1: return AnyView(Path(ellipseIn: CGRect(x: x, y: y, width: 12, height: 9)).fill(color))
            case 2: return AnyView(Text(k % 16 == 2 ? "n\(k) \u{10FFFD}" : "label \(k)").foregroundStyle(color).offset(x: x, y: y))
            case 3: return AnyView(VStack { Rectangle().fill(color).frame(width: 8, height: 4); Circle().fill(.blue) }
                                    .frame(width: 10, height: 20).offset(x: x, y: y))
            case 4: return AnyView(ZStack { Circle().fill(color); Rectangle().fill(.red).opacity(0.5) }
                                    .frame(width: 14, height: 14).compositingGroup().opacity(0.6).offset(x: x, y: y))
            case 5: return AnyView(Circle().fill(color).blendMode(.screen).blendMode(.multiply).frame(width: 6, height: 6).offset(x: x, y: y))
            case 6: return AnyView(Rectangle().fill(color).frame(width: 5, height: 5).opacity(0).offset(x: x, y: y))
            default: return AnyView(path.fill(color))
            }
        }
        return ZStack(alignment: .topLeading) { AnyView(sequence: views) }.frame(width: 300, height: 200)
    }

    @Test(arguments: [2, 3, 8]) func theDisplayListAndWarningsAreOneThreads(threads: Int) throws {
        let view = children(1_500)
        let size = CGSize(width: 300, height: 200)
        let one = try Renderer(threads: 1).displayList(for: view, size: size, scale: 2)
        let many = try Renderer(threads: threads).displayList(for: view, size: size, scale: 2)
        #expect(one.items.count > 1_000)
        let sameItems = one.items == many.items, sameWarnings = one.warnings == many.warnings   // (not printed whole)
        #expect(sameItems)
        #expect(one.warnings.count > 2, "texts each warn, the blend mode once")
        #expect(sameWarnings)
        // And drawn: the same bytes.
        func pixels(_ threads: Int) throws -> [UInt8] {
            let surface = try Surface(width: 600, height: 400)
            try Renderer(threads: threads).render(view, into: surface, scale: 2)
            return surface.withUnsafeMutableBytes { Array($0) }
        }
        let same = try pixels(1) == pixels(threads)
        #expect(same)
    }

    /// Children 600 and 1,300 ask for more dashes than the limit allows, each a different
    /// number (the error names it): every thread count stops at child 600, with its error.
    @Test func theFirstFailureInOrderIsThrown() throws {
        let view = children(1_500) { k in k == 600 ? [0.001, 0.001] : k == 1_296 ? [0.002, 0.002] : [] }
        let one = loweringFailure(view, threads: 1)
        #expect(one != "no error")
        #expect(loweringFailure(view, threads: 2) == one)
        #expect(loweringFailure(view, threads: 8) == one)
    }

    /// Items 300 and 700 of 1,000 cast shadows beyond the range drawn, each its own (the error
    /// names it): planning on any number of threads stops at item 300, with its error.
    @Test func planningThrowsTheFirstFailureInOrder() throws {
        let views = (0..<1_000).map { k -> AnyView in
            let circle = Circle().fill(Color.blue).frame(width: 4, height: 4).offset(x: Double(k % 50) * 6, y: Double(k / 50) * 6)
            return k == 300 ? AnyView(circle.shadow(color: .black, radius: 1e7)) :
                k == 700 ? AnyView(circle.shadow(color: .black, radius: 2e7)) : AnyView(circle)
        }
        let view = ZStack(alignment: .topLeading) { AnyView(sequence: views) }.frame(width: 300, height: 200)
        func failure(_ threads: Int) throws -> String {
            let surface = try Surface(width: 300, height: 200)
            do {
                try Renderer(threads: threads).render(view, into: surface)
                return "no error"
            } catch {
                return String(describing: error)
            }
        }
        let one = try failure(1)
        #expect(one.contains("1"), "\(one)")
        #expect(one != "no error")
        #expect(try failure(2) == one)
        #expect(try failure(8) == one)
    }
}
