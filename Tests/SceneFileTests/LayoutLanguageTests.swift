import Foundation
import SceneFile
import SceneGraph
import Testing

/// Spacer, flexible frames, layoutPriority, id and geometryGroup in a scene lay out exactly as
/// the same Swift does.
@Suite struct LayoutLanguageTests {
    @Test func flexibleLayoutMatchesSwift() throws {
        let scene = try Scene(source: """
            canvas(width: 240, height: 120)
            VStack(spacing: 0) {
                HStack {
                    Circle().fill(.blue).frame(width: 20, height: 20)
                    Spacer(minLength: 12)
                    Capsule().fill(.orange).frame(width: 60, height: 20).id("capsule")
                }
                Capsule().fill(.mint).frame(width: 50, height: 24)
                    .frame(maxWidth: .infinity, alignment: .trailing)
                    .geometryGroup()
                HStack { Color.red.layoutPriority(1); Color.green.frame(minWidth: 30) }
            }
            """)
        let swift = VStack(spacing: 0) {
            HStack {
                Circle().fill(.blue).frame(width: 20, height: 20)
                Spacer(minLength: 12)
                Capsule().fill(.orange).frame(width: 60, height: 20).id("capsule")
            }
            Capsule().fill(.mint).frame(width: 50, height: 24)
                .frame(maxWidth: .infinity, alignment: .trailing)
                .geometryGroup()
            HStack { Color.red.layoutPriority(1); Color.green.frame(minWidth: 30) }
        }
        let size = CGSize(width: 240, height: 120)
        #expect(try Renderer().displayList(for: scene.view, size: size) == Renderer().displayList(for: swift, size: size))
        // The mint capsule is at the trailing edge: x = 240 − 50 = 190.
        let fills = try Renderer().displayList(for: scene.view, size: size).items.compactMap {
            $0.leaf?.path.boundingRect
        }
        #expect(fills[2].minX == 190)
    }

    @Test func lengthArgumentsAreChecked() throws {
        func errors(_ source: String) -> [String] {
            do { _ = try Scene(source: source); return [] } catch { return error.diagnostics.map(\.message) }
        }
        #expect(errors("Color.red.frame(minWidth: .infinity)") == ["argument 'minWidth' must be finite"])
        #expect(errors("Color.red.frame(maxWidth: -3)") == ["argument 'maxWidth' must not be negative, got -3"])
        #expect(errors("Color.red.frame(maxHeight: .infinite)").first?.hasPrefix("type 'CGFloat' has no member 'infinite'") == true)
        #expect(errors("Spacer(minLength: -1)") == ["argument 'minLength' must not be negative, got -1"])
        #expect(errors("Color.red.id(Color.blue)") == ["an id must be a number, a string or a boolean, got a colour"])
    }
}
