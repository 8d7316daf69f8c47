import Foundation
import SceneGraph
import Testing

/// `foregroundStyle(_:)` is an environment value: shapes without a fill of their own use the
/// nearest one above them; explicit fills ignore it.
@Suite struct ForegroundStyleTests {
    func fills<V: View>(_ view: V) -> [ShapeFill] {
        ((try? Renderer().displayList(for: view, size: CGSize(width: 100, height: 40)))?.items ?? []).compactMap {
            $0.leaf?.fill
        }
    }

    @Test func unfilledShapesTakeTheNearestForegroundStyle() throws {
        let view = HStack {
            Circle()                                    // the stack's orange
            Capsule().stroke(lineWidth: 4)              // a stroke without a style too
            Rectangle().fill(.blue)                     // an explicit fill wins
            Circle().foregroundStyle(.mint)             // the nearest style wins
            Circle().fill(.foreground)                  // `.foreground` names it
        }
        .foregroundStyle(.orange)
        #expect(fills(view) == [.color(.orange), .color(.orange), .color(.blue), .color(.mint), .color(.orange)])
        // Without any, black (light mode's primary).
        #expect(fills(Circle()) == [.color(.black)])
        // Per-leaf opacity still multiplies in: orange at 0.5.
        #expect(fills(Circle().opacity(0.5).foregroundStyle(.orange)) == [.color(Color.orange.opacity(0.5))])
    }

    /// Styles that wrap the environment's (type-erased) are resolved inside; colours and
    /// gradients are taken as they are, without a dynamic cast (`_readsEnvironment`).
    @Test func wrappedEnvironmentStylesResolve() throws {
        #expect(ForegroundStyle()._readsEnvironment && TintShapeStyle()._readsEnvironment)
        #expect(AnyShapeStyle(ForegroundStyle())._readsEnvironment && AnyShapeStyle(AnyShapeStyle(TintShapeStyle()))._readsEnvironment)
        #expect(!Color.red._readsEnvironment && !AnyShapeStyle(Color.red)._readsEnvironment)
        #expect(!LinearGradient(colors: [.red, .blue], startPoint: .leading, endPoint: .trailing)._readsEnvironment)
        let view = HStack {
            Circle().fill(AnyShapeStyle(.foreground))
            Circle().fill(AnyShapeStyle(.tint))
            Circle().fill(AnyShapeStyle(Color.mint))
        }
        .foregroundStyle(.orange)
        #expect(fills(view) == [.color(.orange), .color(.accentColor), .color(.mint)])
    }

    @Test func gradientsAndDrawingGroupsInherit() throws {
        let gradient = LinearGradient(colors: [.red, .blue], startPoint: .leading, endPoint: .trailing)
        let view = ZStack { Circle().drawingGroup() }.foregroundStyle(gradient)
        let items = try Renderer().displayList(for: view, size: CGSize(width: 100, height: 40)).items
        guard let children = items.first?.group?.children, let fill = children.first?.leaf?.fill,
              case .linearGradient(let g, _, _, _) = fill else {
            Issue.record("expected a gradient fill inside the drawing group: \(items)")
            return
        }
        #expect(g.stops.map(\.color) == [.red, .blue])
    }

    @Test func foregroundStylesAnimate() throws {
        let size = CGSize(width: 4, height: 4)
        let change = AnimatedChange(from: Rectangle().foregroundStyle(.black), to: Rectangle().foregroundStyle(.white))
        // Linear light half-way: 188 (see AnimatedChangeTests).
        #expect(try Renderer().render(change.view(progress: 0.5, in: size), size: size).pixel(x: 1, y: 1) == RGBA8(188, 188, 188, 255))
    }
}
