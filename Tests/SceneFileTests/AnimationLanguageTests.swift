import Foundation
import SceneFile
import SceneGraph
import Testing

/// `state name = start -> end` and `animation(…)`: a scene's animated change is the same as the
/// Swift views' change.
@Suite struct AnimationLanguageTests {
    func errors(_ source: String) -> [String] {
        do { _ = try Scene(source: source); return [] } catch { return error.diagnostics.map { "\($0.location): \($0.message)" } }
    }

    @Test func statesEvaluateTwiceAndAnimateAsSwiftDoes() throws {
        let scene = try Scene(source: """
            canvas(width: 200, height: 60)
            state on = false -> true
            state tint = Color.red -> Color.blue
            animation(.linear(duration: 2))
            Capsule().fill(tint).frame(width: on ? 80 : 40, height: 20)
                .frame(maxWidth: .infinity, alignment: on ? .trailing : .leading)
            """)
        #expect(scene.states.map(\.name) == ["on", "tint"] && scene.states[0].from == "false" && scene.states[0].to == "true")
        #expect(scene.animation == .linear(duration: 2))
        func swift(_ on: Bool) -> some View {
            Capsule().fill(on ? Color.blue : Color.red).frame(width: on ? 80 : 40, height: 20)
                .frame(maxWidth: .infinity, alignment: on ? .trailing : .leading)
        }
        let size = CGSize(width: 200, height: 60)
        let change = try #require(scene.change)
        let expected = AnimatedChange(from: swift(false), to: swift(true), animation: .linear(duration: 2))
        for t in [0, 0.5, 1, 1.7, 2, 3] {
            let a = try Renderer().render(change.view(at: t, in: size), size: size)
            let b = try Renderer().render(expected.view(at: t, in: size), size: size)
            #expect(try a.compare(to: b).differingPixels == 0, "t = \(t)")
        }
        // Half-way: the capsule is 60 wide at x = lerp(0, 120, 0.5) = 60.
        let items = try Renderer().displayList(for: change.view(at: 1, in: size), size: size).items
        guard let path = items.first?.leaf?.path else { Issue.record("no fill"); return }
        #expect(path.boundingRect == CGRect(x: 60, y: 20, width: 60, height: 20))
        // Without states there is no change; without animation(…) the default is used.
        #expect(try Scene(source: "Circle()").change == nil)
        #expect(try Scene(source: "state x = 0 -> 1\nCircle().opacity(Double(x))").animation == .default)
    }

    /// A trim's ends are the scene shape's animatable data: 0…0.2 → 0…1 is 0…0.6 half-way.
    @Test func sceneShapesAnimateTheirData() throws {
        let scene = try Scene(source: """
            canvas(width: 100, height: 100)
            state end = 0.2 -> 1.0
            animation(.linear(duration: 1))
            Circle().trim(from: 0, to: end).stroke(.blue, lineWidth: 4)
            """)
        let size = CGSize(width: 100, height: 100)
        let drawn = try Renderer().render(try #require(scene.change).view(at: 0.5, in: size), size: size)
        let direct = try Renderer().render(Circle().trim(from: 0, to: 0.6).stroke(.blue, lineWidth: 4), size: size)
        #expect(try drawn.compare(to: direct).maxChannelDifference <= 1)
    }

    @Test func animationsAndTheirErrors() throws {
        func animation(_ text: String) throws -> Animation { try Scene(source: "animation(\(text))\nCircle()").animation }
        #expect(try animation(".easeInOut(duration: 1.2)") == .easeInOut(duration: 1.2))
        #expect(try animation("Animation.bouncy") == .bouncy)
        #expect(try animation(".spring(response: 0.4, dampingFraction: 0.6)") == .spring(response: 0.4, dampingFraction: 0.6))
        #expect(try animation(".spring(duration: 0.4, bounce: 0.2)") == .spring(duration: 0.4, bounce: 0.2))
        #expect(try animation(".linear(duration: 1).delay(0.5).speed(2).repeatCount(3, autoreverses: false)")
                == Animation.linear(duration: 1).delay(0.5).speed(2).repeatCount(3, autoreverses: false))
        #expect(try animation(".snappy.repeatForever()") == Animation.snappy.repeatForever())
        #expect(errors("animation(.easeInOut(duration: -1))\nCircle()") == ["1:22: argument 'duration' must be above 0 and at most 3600 seconds, got -1"])
        #expect(errors("animation(.linear)\nanimation(.linear)\nCircle()") == ["2:1: the animation is declared twice"])
        #expect(errors("animation(.wobbly)\nCircle()").first?.hasPrefix("1:11: type 'Animation' has no member 'wobbly'") == true)
        #expect(errors("animation(.timingCurve(1.5, 0, 0.5, 1))\nCircle()")
                == ["1:24: a timing curve's x control points must be from 0 to 1, got 1.5"])
        #expect(errors("animation(.spring(duration: 0.5, bounce: 1))\nCircle()") == ["1:34: argument 'bounce' must be between -1 and 1, got 1"])
    }

    @Test func stateErrors() throws {
        #expect(errors("state on = false -> 3\nCircle()") == ["1:21: the state 'on' starts as a boolean but ends as an integer"])
        #expect(errors("state on = false -> true\nstate on = true -> false\nCircle()") == ["2:1: 'on' is declared twice"])
        #expect(errors("let on = 1\nstate on = false -> true\nCircle()") == ["2:1: 'on' is declared twice"])
        #expect(errors("state on = false\nCircle()").first?.hasPrefix("2:1: expected '->' between the state's start and end values") == true)
        #expect(errors("ZStack {\nstate on = false -> true\nCircle()\n}") == ["2:1: a state is declared at the top of the scene, not inside a block"])
        // An error only the end state meets is reported, and says so.
        #expect(errors("state n = 1 -> 0\nCircle().frame(width: 10 / n)")
                == ["2:26: division by zero (with every state at its end value)"])
    }
}
