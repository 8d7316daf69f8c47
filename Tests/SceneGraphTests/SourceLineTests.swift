import Foundation
import SceneGraph
import Testing

/// Views a scene file wrote keep their line and column through lowering: every leaf and group
/// they make carries it, views written inside keep their own, and equality ignores it.
@Suite struct SourceLineTests {
    let size = CGSize(width: 100, height: 100)

    @Test func leavesAndGroupsCarryWhereTheirViewWasWritten() throws {
        let inner = AnyView(AnyView(Circle().fill(.red).frame(width: 20, height: 20)), sourceLine: 4, column: 9)
        let outer = AnyView(AnyView(ZStack { inner; Rectangle().fill(.blue).frame(width: 10, height: 10) }.compositingGroup().opacity(0.5)),
                            sourceLine: 2, column: 5)
        let list = try Renderer().displayList(for: outer, size: size)
        let group = try #require(list.items.first?.group)
        #expect(group.source == SourceLine(line: 2, column: 5))
        // The circle was written at 4:9; the rectangle, written in no builder of its own, takes
        // its enclosing view's place.
        #expect(group.children.map(\.source) == [SourceLine(line: 4, column: 9), SourceLine(line: 2, column: 5)])
        #expect(list.warnings.isEmpty)
    }

    @Test func whereAViewWasWrittenDoesNotChangeEquality() throws {
        let a = try Renderer().displayList(for: AnyView(AnyView(Circle().fill(.red)), sourceLine: 1, column: 1), size: size)
        let b = try Renderer().displayList(for: AnyView(AnyView(Circle().fill(.red)), sourceLine: 7, column: 3), size: size)
        #expect(a.items.first?.source != b.items.first?.source)
        #expect(a == b && a.items.hashValue == b.items.hashValue)
    }

    @Test func warningsNameTheLineOfTheViewTheyAreAbout() throws {
        let view = AnyView(AnyView(Circle().fill(.red).blendMode(.screen).blendMode(.multiply)), sourceLine: 3, column: 5)
        let explanation = try Renderer().explain(view, size: size)
        #expect(explanation.warnings.map(\.source) == [SourceLine(line: 3, column: 5)])
        #expect(explanation.text(sourceName: "a.scene").contains("a.scene:3:5: warning: blendMode(.multiply) written outside"))
        #expect(explanation.tree.first?.source == SourceLine(line: 3, column: 5))
    }
}
