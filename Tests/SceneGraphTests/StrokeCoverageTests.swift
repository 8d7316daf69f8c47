import Compositor
import Foundation
import SceneGraph
import Testing

/// A stroke's outline winds one way, so the renderer accumulates its coverage at `.exact` as at
/// `.fast` (DESIGN.md, "Rasterization quality": only opposite windings are resolved exactly),
/// while a fill whose windings cancel is still resolved.
struct StrokeCoverageTests {
    /// A zigzag with sharp turns: its inner joins overlap the tubes beside them, the case where
    /// the exact tier and accumulation differ (a pixel both covered twice and partly uncovered).
    private static let zigzag = Path { p in
        p.move(to: CGPoint(x: 10, y: 70))
        for i in 1...8 { p.addLine(to: CGPoint(x: 10 + Double(i) * 22.3, y: i % 2 == 1 ? 12.4 : 70.2)) }
    }

    private static func render(_ view: some View, _ quality: CoverageQuality, threads: Int = 1) throws -> Surface {
        let renderer = Renderer(threads: threads)
        renderer.coverageQuality = quality
        return try renderer.render(view, size: CGSize(width: 200, height: 80), scale: 1.5)
    }

    @Test(arguments: [1, 2])
    func strokesAreAccumulatedAtEitherQuality(threads: Int) throws {
        let view = Self.zigzag.stroke(.indigo, style: StrokeStyle(lineWidth: 9, lineJoin: .miter, miterLimit: 2))
        let exact = try Self.render(view, .exact, threads: threads)
        let fast = try Self.render(view, .fast, threads: threads)
        #expect(try exact.compare(to: fast).differingPixels == 0)
    }

    /// The same outline filled as a path (not a stroke): the renderer cannot know its windings
    /// have one sign, so `.exact` resolves the strips where chains meet and differs from `.fast`
    /// where the outline overlaps itself. Without it, the test above would prove nothing.
    @Test func theSameOutlineFilledIsResolved() throws {
        let outline = Self.zigzag.strokedPath(StrokeStyle(lineWidth: 9, lineJoin: .miter, miterLimit: 2))
        let view = outline.fill(.indigo)
        let exact = try Self.render(view, .exact)
        let fast = try Self.render(view, .fast)
        #expect(try exact.compare(to: fast).differingPixels > 0)
    }
}
