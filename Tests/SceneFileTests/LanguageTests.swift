import Foundation
import PixelTesting
import SceneFile
import SceneGraph
import Testing

/// The scene language's semantics: what a scene means is what the same code means in Swift.
@Suite struct LanguageTests {
    func render(_ source: String) throws -> (Surface, RenderStats) {
        let scene = try Scene(source: source)
        let renderer = Renderer()
        let surface = try renderer.render(scene.view, size: scene.canvas.size, scale: scene.canvas.scale, background: scene.canvas.background)
        return (surface, renderer.lastStats)
    }

    func errors(_ source: String, limits: SceneLimits = SceneLimits()) -> [String] {
        do {
            _ = try Scene(source: source, limits: limits)
            return []
        } catch {
            return error.diagnostics.map { "\($0.location): \($0.message)" }
        }
    }

    /// The issue's example, as a scene and as Swift: identical pixels.
    @Test func aSceneDrawsExactlyWhatTheSameSwiftDraws() throws {
        let (fromScene, _) = try render("""
            canvas(width: 200, height: 120, scale: 3, background: .white)
            ZStack {
                Circle().fill(.blue).frame(width: 64, height: 64).offset(x: -18)
                Circle().fill(.pink).frame(width: 64, height: 64)
                Circle().fill(.orange).frame(width: 64, height: 64).offset(x: 18)
            }
            .compositingGroup()
            .opacity(0.25)
            """)
        let swift = ZStack {
            Circle().fill(.blue).frame(width: 64, height: 64).offset(x: -18)
            Circle().fill(.pink).frame(width: 64, height: 64)
            Circle().fill(.orange).frame(width: 64, height: 64).offset(x: 18)
        }
        .compositingGroup()
        .opacity(0.25)
        let fromSwift = try Renderer().render(swift, size: CGSize(width: 200, height: 120), scale: 3)
        #expect(try fromScene.compare(to: fromSwift).differingPixels == 0)
    }

    @Test func forEachLoopsConditionsAndStrokesMatchSwift() throws {
        let (fromScene, stats) = try render("""
            canvas(width: 120, height: 120)
            ZStack {
                ForEach(0..<12, id: \\.self) { i in
                    if i.isMultiple(of: 3) {
                        Capsule().fill(.mint).frame(width: 4, height: 16).offset(y: -40).rotationEffect(.degrees(Double(i) * 30))
                    } else {
                        Capsule().stroke(.teal, lineWidth: 1).frame(width: 4, height: 12).offset(y: -40).rotationEffect(.degrees(Double(i) * 30))
                    }
                }
                Circle().strokeBorder(Color.indigo.opacity(0.5), style: StrokeStyle(lineWidth: 6, dash: [4, 2])).frame(width: 60, height: 60)
            }
            """)
        let swift = ZStack {
            ForEach(0..<12, id: \.self) { i in
                if i.isMultiple(of: 3) {
                    Capsule().fill(.mint).frame(width: 4, height: 16).offset(y: -40).rotationEffect(.degrees(Double(i) * 30))
                } else {
                    Capsule().stroke(.teal, lineWidth: 1).frame(width: 4, height: 12).offset(y: -40).rotationEffect(.degrees(Double(i) * 30))
                }
            }
            Circle().strokeBorder(Color.indigo.opacity(0.5), style: StrokeStyle(lineWidth: 6, dash: [4, 2])).frame(width: 60, height: 60)
        }
        let fromSwift = try Renderer().render(swift, size: CGSize(width: 120, height: 120))
        #expect(try fromScene.compare(to: fromSwift).differingPixels == 0)
        #expect(stats.leafDraws == 13)
    }

    @Test func pathBuildersMatchSwift() throws {
        let (fromScene, _) = try render("""
            canvas(width: 100, height: 100)
            Path { p in
                p.move(to: CGPoint(x: 10, y: 10))
                for k in stride(from: 0, through: 80, by: 20) where k > 0 {
                    p.addLine(to: CGPoint(x: 10 + k, y: k % 40 == 0 ? 90 : 10))
                }
                p.addQuadCurve(to: CGPoint(x: 10, y: 90), control: CGPoint(x: 50, y: 50))
                p.closeSubpath()
                p.addArc(center: CGPoint(x: 50, y: 50), radius: 10, startAngle: .zero, endAngle: .degrees(270), clockwise: false)
            }
            .fill(.orange, style: FillStyle(eoFill: true))
            """)
        let path = Path { p in
            p.move(to: CGPoint(x: 10, y: 10))
            for k in stride(from: 0, through: 80, by: 20) where k > 0 {
                p.addLine(to: CGPoint(x: 10 + CGFloat(k), y: k % 40 == 0 ? 90 : 10))
            }
            p.addQuadCurve(to: CGPoint(x: 10, y: 90), control: CGPoint(x: 50, y: 50))
            p.closeSubpath()
            p.addArc(center: CGPoint(x: 50, y: 50), radius: 10, startAngle: .zero, endAngle: .degrees(270), clockwise: false)
        }
        let fromSwift = try Renderer().render(path.fill(.orange, style: FillStyle(eoFill: true)), size: CGSize(width: 100, height: 100))
        #expect(try fromScene.compare(to: fromSwift).differingPixels == 0)
    }

    /// Integers stay integers, as in Swift; a Double meeting an Int becomes a Double.
    @Test func arithmeticFollowsSwift() throws {
        // 7 / 2 == 3 (integer division), 7.0 / 2 == 3.5, -7 % 3 == -1, precedence: 2 + 3 * 4 == 14.
        let (surface, _) = try render("""
            canvas(width: 20, height: 10, background: .clear)
            let ok = 7 / 2 == 3 && 7.0 / 2 == 3.5 && -7 % 3 == -1 && 2 + 3 * 4 == 14 && (2 + 3) * 4 == 20
                && !(1 > 2) && (false || true) && (true ? 1 : 2) == 1 && max(3, 5) == 5 && abs(-2.5) == 2.5
                && Angle.degrees(180).radians == .pi && [1, 2, 3].count == 3 && (0..<4).count == 4
            Rectangle().fill(ok ? Color.green : Color.red)
            """)
        #expect(sample(surface, at: CGPoint(x: 10, y: 5)) == RGBA8(0x34, 0xC7, 0x59, 255))
        // `&&` short-circuits: the division by zero on the right is never evaluated.
        #expect(errors("let x = false && 1 / 0 == 0\nCircle()").isEmpty)
    }

    @Test func variablesScopesAndAssignment() throws {
        let (surface, stats) = try render("""
            canvas(width: 40, height: 10)
            var total = 0
            HStack(spacing: 0) {
                for i in 0..<4 {
                    let width: Double = 10
                    Rectangle().fill(i == 3 ? Color.black : Color.white).frame(width: width, height: 10)
                }
            }
            """)
        #expect(stats.leafDraws == 4)
        #expect(sample(surface, at: CGPoint(x: 35, y: 5)) == RGBA8(0, 0, 0, 255))
        #expect(errors("let a = 1\na = 2\nCircle()") == ["2:1: cannot assign to 'a': it is a 'let' constant"])
        #expect(errors("var a = 1\na += 2.5\nCircle()").isEmpty)
    }

    @Test func everyProblemIsReportedInOnePass() {
        let found = errors("""
            ZStack {
                Circle().fill(.bleu)
                Rectangle().frame(width: "wide")
                Capsule().opacty(0.5)
                Ellipse().rotationEffect(45)
            }
            """)
        #expect(found.count == 4)
        #expect(found.map { $0.prefix(4) } == ["2:19", "3:23", "4:15", "5:30"])
    }

    @Test func defaultsFollowSwiftUI() throws {
        let scene = try Scene(source: "Circle()")
        #expect(scene.canvas == SceneCanvas())
        #expect(scene.canvas.width == 400 && scene.canvas.height == 300 && scene.canvas.background == .white)
        // A shape with no fill draws in the foreground colour (black in light mode).
        let (surface, _) = try render("canvas(width: 10, height: 10)\nRectangle()")
        #expect(sample(surface, at: CGPoint(x: 5, y: 5)) == RGBA8(0, 0, 0, 255))
        // HStack spacing is 8 points between shapes: the second 10 pt square starts at x = 18.
        let (stack, _) = try render("canvas(width: 28, height: 10, background: .clear)\nHStack { Color.red.frame(width: 10); Color.blue.frame(width: 10) }")
        #expect(sample(stack, at: CGPoint(x: 13, y: 5))?.a == 0)
        #expect(sample(stack, at: CGPoint(x: 18.5, y: 5)) == RGBA8(0, 0x7A, 0xFF, 255))
    }

    @Test func transformedInsettableShapesStayInsettable() throws {
        // strokeBorder on an offset circle: SwiftUI's OffsetShape is insettable when its content is.
        #expect(errors("Circle().offset(x: 5).strokeBorder(.blue, lineWidth: 2)").isEmpty)
        #expect(errors("Circle().trim(from: 0, to: 0.5).strokeBorder(.blue, lineWidth: 2)").count == 1)
        #expect(errors("Circle().inset(by: 4).strokeBorder(lineWidth: 2)").isEmpty)
    }

    /// A 100,000-deep scene is refused with one error, never a stack overflow, whatever thread
    /// parses it.
    @Test func hundredThousandLevelsDeepIsAnErrorNotACrash() async {
        let deep = String(repeating: "ZStack { ", count: 100_000) + "Circle()" + String(repeating: " }", count: 100_000)
        let chain = "Circle()" + String(repeating: ".opacity(1)", count: 100_000)
        let parens = "let x = " + String(repeating: "(", count: 100_000) + "1" + String(repeating: ")", count: 100_000) + "\nCircle()"
        var limits = SceneLimits()
        limits.maximumSourceBytes = 4 << 20
        for source in [deep, chain, parens] {
            let found = await Task.detached { self.errors(source, limits: limits) }.value
            #expect(found.count == 1 && found[0].contains("nests more than 200 levels deep"))
        }
    }

    /// The deepest scene the default limit accepts renders, on a secondary thread, without
    /// exhausting the stack (layout and lowering recurse once per level).
    @Test func theDeepestAcceptedSceneRenders() async throws {
        // 40 stacks (three levels each) and a chain of 60 modifiers: 180 of the 200 levels.
        let depth = 40
        let source = "canvas(width: 20, height: 20)\n" + String(repeating: "ZStack { ", count: depth) + "Circle().fill(.blue)"
            + String(repeating: ".opacity(1)", count: 60) + String(repeating: " }", count: depth)
        let stats = try await Task.detached { try self.render(source).1 }.value
        #expect(stats.leafDraws == 1)
    }
}

@Suite struct SceneFileReadingTests {
    /// `Scene(contentsOfFile:)` reads no more than one byte past the size limit and names the
    /// file's size; a file within it reads as its text.
    @Test func aFileOverTheSizeLimitIsRefusedWithItsSize() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("size-\(UUID().uuidString).scene")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(("Circle()\n" + String(repeating: " ", count: 300)).utf8).write(to: url)
        var limits = SceneLimits()
        limits.maximumSourceBytes = 100
        do {
            _ = try Scene(contentsOfFile: url.path, limits: limits)
            Issue.record("a 309-byte scene passed a 100-byte limit")
        } catch {
            #expect("\(error)" == "\(url.path):1:1: error: the scene file has 309 bytes, more than the limit of 100\nhint: raise the limit with --max-scene-bytes")
        }
        limits.maximumSourceBytes = 309
        #expect(try Scene(contentsOfFile: url.path, limits: limits).canvas == SceneCanvas())
    }
}
