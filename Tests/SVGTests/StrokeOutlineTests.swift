import Compositor
import Foundation
import SceneGraph
import Testing
@testable import SVG

/// An SVG stroke is accumulated like a scene graph stroke: its outline winds one way, and
/// `.exact` resolves only opposite windings (DESIGN.md, "Rasterization quality").
struct StrokeOutlineTests {
    /// A zigzag with sharp mitred turns, stroked and filled with the same outline.
    private static let stroked = svg("<polyline points='4,60 20,6 36,60 52,6 68,60 84,6' fill='none' stroke='indigo' stroke-width='7' stroke-miterlimit='2'/>", size: 90)

    private static func render(_ text: String, _ quality: CoverageQuality) throws -> Surface {
        let doc = try document(text)
        let renderer = Renderer(threads: 1)
        renderer.coverageQuality = quality
        return try renderer.render(Image(drawing: doc).resizable(), size: doc.size, scale: 1.5, background: nil)
    }

    @Test func strokesAreMarkedAndAccumulatedAtEitherQuality() throws {
        let leaves = try displayList(Self.stroked).leaves
        #expect(leaves.count == 1 && leaves.allSatisfy(\.strokeOutline))
        let exact = try Self.render(Self.stroked, .exact), fast = try Self.render(Self.stroked, .fast)
        #expect(try exact.compare(to: fast).differingPixels == 0)
    }

    /// A filled path is not marked, and its self-overlaps are still resolved at `.exact`: the
    /// same zigzag's outline as a path (a stroke's outline, filled) differs between qualities.
    @Test func fillsAreNotMarked() throws {
        let outline = Path { p in
            p.move(to: CGPoint(x: 4, y: 60))
            for (i, x) in [20.0, 36, 52, 68, 84].enumerated() { p.addLine(to: CGPoint(x: x, y: i % 2 == 0 ? 6 : 60)) }
        }.strokedPath(StrokeStyle(lineWidth: 7, lineJoin: .miter, miterLimit: 2))
        var data = ""
        outline.forEach { element in
            switch element {
            case .move(let p): data += "M\(p.x),\(p.y) "
            case .line(let p): data += "L\(p.x),\(p.y) "
            case .closeSubpath: data += "Z "
            case .quadCurve, .curve: Issue.record("a stroke's outline has lines only")
            }
        }
        let filled = svg("<path d='\(data)' fill='indigo'/>", size: 90)
        #expect(try displayList(filled).leaves.allSatisfy { !$0.strokeOutline })
        let exact = try Self.render(filled, .exact), fast = try Self.render(filled, .fast)
        #expect(try exact.compare(to: fast).differingPixels > 0)
    }
}
