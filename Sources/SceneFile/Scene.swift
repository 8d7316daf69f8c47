import Foundation
import Compositor
import SceneGraph

/// Limits that keep any scene file, however written, from exhausting time, memory or stack.
/// Each is a named setting with a `compose` flag to raise it.
public struct SceneLimits: Sendable, Equatable {
    /// Scene files larger than this are refused before lexing (1 MiB: hand-written scenes are a
    /// few kilobytes; generated ones should use the Swift API). `--max-scene-bytes`.
    public var maximumSourceBytes = 1 << 20
    /// How deep expressions, closures and modifier chains may nest: each block or closure,
    /// parenthesis or argument, and each modifier or operator of a chain is a level (a
    /// `ZStack { … }` costs about three). 200 is far beyond hand-written scenes. Parsing and
    /// evaluation run on a thread whose stack is sized for the limit (64 KiB a level); at most
    /// `maximumAllowedDepth`. `--max-depth`.
    public var maximumDepth = 200
    /// The largest `maximumDepth` accepted (4,000 levels: a 264 MiB stack reservation).
    public static let maximumAllowedDepth = 4_000
    /// Loop iterations, `ForEach` elements, array and stride elements in one evaluation
    /// (1,000,000). `--max-iterations`.
    public var maximumIterations = 1_000_000
    /// Elements of one `Path { p in … }` (1,000,000, as the SVG parser allows). `--max-path-elements`.
    public var maximumPathElements = 1_000_000
    /// Canvas pixels (width × height × scale², 2^26 = 67 Mpx: 256 MiB of ARGB). `--max-pixels`.
    public var maximumCanvasPixels = 1 << 26
    /// The largest magnitude of a geometric argument, in points (1,000,000).
    /// `--max-coordinate`.
    public var maximumCoordinate: Double = 1_000_000
    /// Size of a PNG file an `Image("…")` reads (64 MiB); its pixels also count against
    /// `maximumCanvasPixels`. `--max-image-bytes`.
    public var maximumImageBytes = 64 << 20
    /// The largest `shadow(radius:)`, in points: 256 by default, which is also the most the
    /// engine draws (σ = radius ÷ 2 ≤ `DropShadow.maximumSigma` = 128 px at scale 1; a larger
    /// σ in device pixels is a render error). Lower it to keep scenes' shadows cheap.
    /// `--max-shadow-radius`.
    public var maximumShadowRadius: Double = 2 * DropShadow.maximumSigma
    /// The largest `blur(radius:)`, in points: 128 by default, also the engine's most
    /// (σ = radius ≤ `DropShadow.maximumSigma`). `--max-blur-radius`.
    public var maximumBlurRadius: Double = DropShadow.maximumSigma

    public init() {}
}

/// The canvas a scene declares (`canvas(width:height:scale:background:)`), or the default.
public struct SceneCanvas: Sendable, Equatable {
    /// Size in points (default 400 × 300).
    public var width: Double = 400
    public var height: Double = 300
    /// Pixels per point (default 1).
    public var scale: Double = 1
    /// Drawn behind the view; nil is transparent (default white).
    public var background: Color? = .white

    public init() {}
    public init(width: Double, height: Double, scale: Double = 1, background: Color? = .white) {
        (self.width, self.height, self.scale, self.background) = (width, height, scale, background)
    }

    public var size: CGSize { CGSize(width: width, height: height) }
    public static let scaleRange: ClosedRange<Double> = 0.1...8
}

/// A scene file read and evaluated: its canvas and its view, ready to render.
///
/// ```swift
/// let scene = try Scene(source: """
///     canvas(width: 200, height: 120, scale: 3)
///     Circle().fill(.blue).frame(width: 64, height: 64)
///     """, fileName: "dot.scene")
/// let surface = try Renderer().render(scene.view, size: scene.canvas.size, scale: scene.canvas.scale,
///                                     background: scene.canvas.background)
/// ```
public struct Scene {
    public var fileName: String
    public var canvas: SceneCanvas
    /// The view, with every state at its start value.
    public var view: AnyView
    /// The view with every state at its end value; nil when the scene declares no state.
    public var endView: AnyView?
    /// How the states change (`animation(…)`; `.default` when not declared).
    public var animation: Animation
    /// The states declared (`state name = start -> end`), with their values as written.
    public var states: [(name: String, from: String, to: String)]

    /// The change from the start state to the end state, animated; nil without states.
    public var change: AnimatedChange? {
        endView.map { AnimatedChange(from: view, to: $0, animation: animation) }
    }

    /// What evaluation hands back from its thread.
    private struct Evaluated {
        var view: AnyView
        var canvas: SceneCanvas
        var animation: Animation
        var states: [(name: String, from: String, to: String)]
        var endView: AnyView? = nil
    }

    /// Parses and evaluates `source`; throws every problem found, located in `fileName`.
    public init(source: String, fileName: String = "<scene>", limits: SceneLimits = SceneLimits()) throws(SceneError) {
        self.fileName = fileName
        func fail(_ diagnostics: [SceneDiagnostic]) -> SceneError {
            SceneError(fileName: fileName, source: source, diagnostics: diagnostics.sorted { $0.location < $1.location })
        }
        let limits = {
            var l = limits
            l.maximumDepth = min(max(1, l.maximumDepth), SceneLimits.maximumAllowedDepth)
            return l
        }()
        let bytes = source.utf8.count
        guard bytes <= limits.maximumSourceBytes else {
            throw fail([SceneDiagnostic(SourceLocation(line: 1, column: 1),
                                        "the scene file has \(bytes) bytes, more than the limit of \(limits.maximumSourceBytes)",
                                        hint: "raise the limit with --max-scene-bytes")])
        }
        // Lexing, parsing and evaluation on a stack sized for the nesting limit.
        let outcome: Result<Evaluated, SceneError> = onLargeStack(
            bytes: 8 << 20 + limits.maximumDepth * stackBytesPerLevel) {
            var lexer = Lexer(source)
            let tokens = lexer.tokenize()
            var parser = Parser(tokens: tokens, maximumDepth: limits.maximumDepth)
            let statements = parser.parseFile()
            let syntax = lexer.diagnostics + parser.diagnostics
            guard syntax.isEmpty else { return .failure(fail(syntax)) }
            // The start state; then, when the scene declares states, the same statements again
            // with each state at its end value.
            func evaluate(endState: Bool, images: [String: Image] = [:]) -> (Evaluator, AnyView?) {
                let evaluator = Evaluator(limits: limits)
                evaluator.evaluatesEndState = endState
                evaluator.images = images
                evaluator.baseDirectory = fileName.hasPrefix("<") ? nil : URL(fileURLWithPath: fileName).deletingLastPathComponent()
                var view: AnyView?
                do {
                    view = try evaluator.runScene(statements, end: tokens.last!.location)
                } catch {
                    // A limit stopped evaluation; its error is among the diagnostics.
                }
                return (evaluator, view)
            }
            let (start, view) = evaluate(endState: false)
            guard start.diagnostics.isEmpty, let view else { return .failure(fail(start.diagnostics)) }
            var made = Evaluated(view: view, canvas: start.canvas, animation: start.animation,
                                 states: start.states.map { ($0.name, $0.from.stateText, $0.to.stateText) })
            if !start.states.isEmpty {
                // The images the start read are the end's too: read once, and the same image.
                let (end, endView) = evaluate(endState: true, images: start.images)
                guard end.diagnostics.isEmpty, let endView else {
                    return .failure(fail(end.diagnostics.map { d in
                        var d = d
                        d.message += " (with every state at its end value)"
                        return d
                    }))
                }
                made.endView = endView
            }
            return .success(made)
        }
        let made: Evaluated
        switch outcome {
        case .success(let m): made = m
        case .failure(let error): throw error
        }
        view = made.view
        canvas = made.canvas
        endView = made.endView
        animation = made.animation
        states = made.states
    }


    /// Reads at most `limit` bytes of a scene from `handle` (a file, or standard input), never
    /// more than one byte past the limit, so an endless or enormous input cannot exhaust memory;
    /// nil when there is more. Read errors are thrown.
    public static func readSource(from handle: FileHandle, limit: Int) throws -> Data? {
        var data = Data()
        while data.count <= limit {
            guard let chunk = try handle.read(upToCount: min(1 << 16, limit + 1 - data.count)), !chunk.isEmpty else { return data }
            data.append(chunk)
        }
        return nil
    }

    /// The error for a scene larger than `limit` bytes (`bytes`, when known).
    public static func tooLarge(_ fileName: String, bytes: Int?, limit: Int) -> SceneError {
        SceneError(fileName: fileName, source: "", diagnostics: [SceneDiagnostic(
            SourceLocation(line: 1, column: 1),
            bytes.map { "the scene file has \($0) bytes, more than the limit of \(limit)" } ?? "the scene has more than the limit of \(limit) bytes",
            hint: "raise the limit with --max-scene-bytes")])
    }

    /// Reads a scene file (UTF-8) and evaluates it.
    public init(contentsOfFile path: String, limits: SceneLimits = SceneLimits()) throws {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        guard let data = try Scene.readSource(from: handle, limit: limits.maximumSourceBytes) else {
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
            throw Scene.tooLarge(path, bytes: size.flatMap { $0 > limits.maximumSourceBytes ? $0 : nil }, limit: limits.maximumSourceBytes)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw SceneError(fileName: path, source: "", diagnostics: [SceneDiagnostic(SourceLocation(line: 1, column: 1),
                                                                                        "the scene file is not UTF-8 text")])
        }
        try self.init(source: text, fileName: path, limits: limits)
    }
}

extension Evaluator {
    /// The top level: `let` constants, at most one `canvas(…)` before the view, and exactly one
    /// view expression.
    func runScene(_ statements: [Stmt], end: SourceLocation) throws -> AnyView? {
        let root = Scope(parent: nil)
        var view: (AnyView, SourceLocation)?
        var extra = false
        for statement in statements {
            if case .expression(.call(.name("canvas", let l), _, _)) = statement, let first = view {
                error(l, "the canvas must be declared before the view", hint: "move 'canvas(…)' above the view at line \(first.1.line)")
                continue
            }
            for (value, location) in try run([statement], in: root, newScope: false) {
                guard let v = asView(value, at: location, context: "a scene") else { continue }
                if view == nil {
                    view = (v, location)
                } else if !extra {
                    extra = true
                    error(location, "a scene is one view expression; this is a second one",
                          hint: "wrap the views in a ZStack, HStack or VStack")
                }
            }
        }
        if view == nil && diagnostics.isEmpty {
            error(end, "the scene has no view", hint: "end the scene with a view expression such as 'Circle().fill(.blue)'")
        }
        return view?.0
    }

    /// `canvas(width:height:scale:background:)`.
    func declareCanvas(_ args: [Arg], at location: SourceLocation) throws -> Value {
        let builtin = Builtin("canvas", "width: number, height: number, scale: number?, background: color?") { b, e in
            if let previous = e.canvasDeclared {
                e.error(b.call, "the canvas is declared twice", hint: "the first declaration is at line \(previous.line)")
                return .void
            }
            e.canvasDeclared = b.call
            let (w, h, s) = (b.double("width")!, b.double("height")!, b.double("scale") ?? 1)
            guard w > 0 else { e.error(b.location("width"), "the canvas width must be positive, got \(w.plainDescription)"); return .void }
            guard h > 0 else { e.error(b.location("height"), "the canvas height must be positive, got \(h.plainDescription)"); return .void }
            guard SceneCanvas.scaleRange.contains(s) else {
                e.error(b.location("scale"), "the canvas scale must be from 0.1 to 8, got \(s.plainDescription)")
                return .void
            }
            let pixels = (w * s).rounded(.up) * (h * s).rounded(.up)
            guard pixels <= Double(e.limits.maximumCanvasPixels),
                  (w * s).rounded(.up) <= Double(SurfaceLimits.maximumDimension), (h * s).rounded(.up) <= Double(SurfaceLimits.maximumDimension) else {
                e.error(b.call, "the canvas is \(Int((w * s).rounded(.up)))×\(Int((h * s).rounded(.up))) pixels, more than the limit of \(e.limits.maximumCanvasPixels) pixels (\(SurfaceLimits.maximumDimension) a side)",
                        hint: "make it smaller, or raise the limit with --max-pixels")
                return .void
            }
            var background = b.color("background") ?? .white
            if !b.has("background") { background = .white }
            e.canvas = SceneCanvas(width: w, height: h, scale: s, background: background == .clear ? nil : background)
            return .void
        }
        return try dispatch([builtin], args, receiver: nil, at: location)
    }
}
