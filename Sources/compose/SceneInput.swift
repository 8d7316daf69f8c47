import Foundation
import SceneFile
import SceneGraph
import SVG

/// A scene ready to draw: its view (states at their start), canvas after overrides, name for
/// messages, and its animated change when it declares states.
struct LoadedScene {
    var view: AnyView
    var canvas: SceneCanvas
    var name: String
    var change: AnimatedChange? = nil
}

/// Where a command's errors and warnings about its input go, one message at a time (a message
/// may span lines: a scene error quotes its source line).
struct Diagnostics {
    var write: (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }

    /// A message as `printError` prints it ("Error: …").
    func error(_ text: String) { write("Error: " + text) }
    /// A message as it is (a located scene error, a warning).
    func line(_ text: String) { write(text) }
}

/// What `render`, `explain` and `bench` share: the scene (a file, '-' for standard input, or
/// the built-in demo), canvas overrides and the scene language's limits.
struct SceneOptions {
    var path: String?
    var demo = false
    var scale: Double?
    var size: CGSize?
    /// nil: as the scene says; .some(nil): transparent.
    var background: Color??
    var limits = SceneLimits()
    /// `Renderer.maximumOffscreenBytes`, when given.
    var maximumOffscreenBytes: Int?
    /// `Renderer.maximumPathSegments`, when given.
    var maximumPathSegments: Int?
    /// `Renderer.maximumDashes` and `maximumStrokeOutlinePoints`, when given.
    var maximumDashes: Int?
    var maximumStrokeOutlinePoints: Int?
    /// `--threads N`: `Renderer.threads` (nil: the renderer's default, one per active core).
    var threads: Int?
    /// Font files or folders given with `--fonts`, in order.
    var fonts: [String] = []
    /// Symbol files or folders given with `--symbols`, in order.
    var symbols: [String] = []
    /// `--width` / `--height`: the output's width or height in pixels (the scale follows).
    var pixelWidth: Double?
    var pixelHeight: Double?
    /// `--allow-files DIR`: an SVG file's images may be read from DIR and below (instead of
    /// only the document's own folder).
    var allowedFiles: String?
    /// Where loading's errors and warnings go: standard error, unless `preview` collects them
    /// for its page.
    var diagnostics = Diagnostics()
    /// Whether `load` registers `--fonts`, `--symbols` and the rest: `preview` loads the scene
    /// again at every save, and registers them only the first time.
    var registersResources = true
    /// Whether more than one scene may be given (`render`'s batch mode); they follow `path`.
    var acceptsManyScenes = false
    /// The scenes given after the first, when `acceptsManyScenes`.
    var morePaths: [String] = []

    static let flags = ["--demo", "--width", "--height", "--fonts", "--symbols", "--scale", "--size", "--background", "--max-depth", "--max-iterations", "--max-path-elements",
                        "--max-pixels", "--max-scene-bytes", "--max-coordinate", "--max-offscreen-bytes", "--max-image-bytes",
                        "--max-segments", "--max-dashes", "--max-stroke-points", "--max-shadow-radius", "--max-blur-radius", "--allow-files",
                        "--threads"]

    /// A renderer with the options' limits (and a drawing-group cache of its own, or `cache`).
    /// `defaultThreads`: the thread count when `--threads` is not given (nil: the renderer's
    /// own default).
    func renderer(cache: DrawingGroupCache = DrawingGroupCache(), defaultThreads: Int? = nil) -> Renderer {
        let renderer = Renderer(cache: cache, threads: threads ?? defaultThreads)
        if let maximumOffscreenBytes { renderer.maximumOffscreenBytes = maximumOffscreenBytes }
        if let maximumPathSegments { renderer.maximumPathSegments = maximumPathSegments }
        if let maximumDashes { renderer.maximumDashes = maximumDashes }
        if let maximumStrokeOutlinePoints { renderer.maximumStrokeOutlinePoints = maximumStrokeOutlinePoints }
        return renderer
    }

    /// Takes `arg` (and its value) if it is a scene option or the scene path; false otherwise.
    mutating func take(_ arg: String, _ reader: inout ArgumentReader, allowBackground: Bool) -> Bool {
        switch arg {
        case "--demo": demo = true
        case "--fonts": fonts.append(reader.value(for: arg))
        case "--symbols": symbols.append(reader.value(for: arg))
        case "--scale": scale = reader.number(for: arg, in: SceneCanvas.scaleRange)
        case "--allow-files": allowedFiles = reader.value(for: arg)
        case "--threads": threads = reader.count(for: arg, in: 1...64)
        case "--width": pixelWidth = reader.number(for: arg, in: 1...32767)
        case "--height": pixelHeight = reader.number(for: arg, in: 1...32767)
        case "--size":
            let text = reader.value(for: arg)
            let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w.isFinite, h.isFinite, w > 0, h > 0, w <= 32767, h <= 32767 else {
                reader.invalid(text, arg, "WIDTHxHEIGHT in points, e.g. 200x120")
            }
            size = CGSize(width: w, height: h)
        case "--background" where allowBackground:
            let text = reader.value(for: arg)
            if text == "transparent" || text == "clear" {
                background = .some(nil)
            } else if let named = Color.named.first(where: { $0.name == text })?.color ?? Color(hex: text) {
                background = .some(named)
            } else {
                reader.invalid(text, arg, "'transparent', a colour name such as 'white' or a hex colour such as '#FFCC00'")
            }
        case "--max-depth": limits.maximumDepth = reader.count(for: arg, in: 1...SceneLimits.maximumAllowedDepth)
        case "--max-iterations": limits.maximumIterations = reader.count(for: arg, in: 1...1_000_000_000)
        case "--max-path-elements": limits.maximumPathElements = reader.count(for: arg, in: 1...1_000_000_000)
        case "--max-pixels": limits.maximumCanvasPixels = reader.count(for: arg, in: 1...(1 << 28))
        case "--max-scene-bytes": limits.maximumSourceBytes = reader.count(for: arg, in: 1...(1 << 30))
        case "--max-coordinate": limits.maximumCoordinate = reader.number(for: arg, in: 1...1e12)
        case "--max-offscreen-bytes": maximumOffscreenBytes = reader.count(for: arg, in: 0...(1 << 40))
        case "--max-image-bytes": limits.maximumImageBytes = reader.count(for: arg, in: 0...(1 << 32))
        case "--max-shadow-radius": limits.maximumShadowRadius = reader.number(for: arg, in: 0...(2 * DropShadow.maximumSigma))
        case "--max-blur-radius": limits.maximumBlurRadius = reader.number(for: arg, in: 0...DropShadow.maximumSigma)
        case "--max-segments": maximumPathSegments = reader.count(for: arg, in: 1...(1 << 31))
        case "--max-dashes": maximumDashes = reader.count(for: arg, in: 1...(1 << 28))
        case "--max-stroke-points": maximumStrokeOutlinePoints = reader.count(for: arg, in: 1...(1 << 30))
        default:
            if arg.hasPrefix("-") && arg != "-" { return false }
            if let path {
                guard acceptsManyScenes else {
                    fail(UsageError(message: "Unexpected argument '\(arg)': the scene is already '\(path)'.", command: reader.command))
                }
                morePaths.append(arg)
                return true
            }
            path = arg
        }
        return true
    }

    /// The scene to draw, with the canvas after overrides; prints the problem and returns the
    /// exit code when it cannot be had.
    func load(command: String) -> Result<LoadedScene, ExitCode> {
        if registersResources, let failure = registerFonts() ?? registerSymbols() { return .failure(failure) }
        var canvas: SceneCanvas
        let view: AnyView
        let name: String
        var change: AnimatedChange?
        if demo {
            if let path { fail(UsageError(message: "Give a scene or '--demo', not both ('\(path)').", command: command)) }
            canvas = SceneCanvas(width: DemoView.size.width, height: DemoView.size.height)
            view = AnyView(DemoView())
            name = "demo"
        } else {
            guard let path else { fail(UsageError(message: "Missing expected argument '<scene>'.", command: command)) }
            if path.lowercased().hasSuffix(".svg") {
                switch loadSVG(path) {
                case .success(let loaded): (canvas, view, name) = (loaded.canvas, loaded.view, path)
                case .failure(let code): return .failure(code)
                }
                return finish(LoadedScene(view: view, canvas: canvas, name: name))
            }
            let source: String
            if path == "-" {
                // Read no further than the size limit: an endless pipe is an error, not a hang.
                let data: Data
                do {
                    guard let d = try Scene.readSource(from: FileHandle.standardInput, limit: limits.maximumSourceBytes) else {
                        diagnostics.error(Scene.tooLarge("<stdin>", bytes: nil, limit: limits.maximumSourceBytes).description)
                        return .failure(.dataError)
                    }
                    data = d
                } catch {
                    diagnostics.error("cannot read standard input: \(reason(error))")
                    return .failure(.noInput)
                }
                guard let text = String(data: data, encoding: .utf8) else {
                    diagnostics.error("<stdin>: the scene is not UTF-8 text")
                    return .failure(.dataError)
                }
                source = text
                name = "<stdin>"
            } else {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                    diagnostics.error("cannot read '\(path)': \(isDirectory.boolValue ? "it is a folder" : "no such file")")
                    return .failure(.noInput)
                }
                // Only regular files: a device or a pipe may never end (use '-' for a pipe).
                let attributes = try? FileManager.default.attributesOfItem(atPath: path)
                guard (attributes?[.type] as? FileAttributeType) == .typeRegular else {
                    diagnostics.error("cannot read '\(path)': not a regular file (a device, pipe or socket); pipe it to '-' instead")
                    return .failure(.noInput)
                }
                if let size = (attributes?[.size] as? NSNumber)?.intValue, size > limits.maximumSourceBytes {
                    diagnostics.error(Scene.tooLarge(path, bytes: size, limit: limits.maximumSourceBytes).description)
                    return .failure(.dataError)
                }
                let data: Data
                do {
                    let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
                    defer { try? handle.close() }
                    guard let d = try Scene.readSource(from: handle, limit: limits.maximumSourceBytes) else {
                        diagnostics.error(Scene.tooLarge(path, bytes: nil, limit: limits.maximumSourceBytes).description)
                        return .failure(.dataError)
                    }
                    data = d
                } catch {
                    diagnostics.error("cannot read '\(path)': \(reason(error))")
                    return .failure(.noInput)
                }
                guard let text = String(data: data, encoding: .utf8) else {
                    diagnostics.error("\(path): the scene is not UTF-8 text")
                    return .failure(.dataError)
                }
                source = text
                name = path
            }
            do {
                let scene = try Scene(source: source, fileName: name, limits: limits)
                canvas = scene.canvas
                view = scene.view
                change = scene.change
            } catch {
                diagnostics.line(error.description)
                let count = error.diagnostics.count
                diagnostics.line("\(count) error\(count == 1 ? "" : "s") in \(name)")
                return .failure(.dataError)
            }
        }
        return finish(LoadedScene(view: view, canvas: canvas, name: name, change: change))
    }

    /// The canvas after `--scale`, `--size`, `--width`, `--height` and `--background`,
    /// checked against the pixel limit.
    private func finish(_ scene: LoadedScene) -> Result<LoadedScene, ExitCode> {
        var canvas = scene.canvas
        let name = scene.name
        if let size { (canvas.width, canvas.height) = (size.width, size.height) }
        if let scale { canvas.scale = scale }
        if let pixelWidth { canvas.scale = pixelWidth / canvas.width }
        if let pixelHeight { canvas.scale = pixelHeight / canvas.height }
        if let background { canvas.background = background }
        let (w, h) = ((canvas.width * canvas.scale).rounded(.up), (canvas.height * canvas.scale).rounded(.up))
        guard w * h <= Double(limits.maximumCanvasPixels), w <= 32767, h <= 32767 else {
            diagnostics.error("\(name): the canvas would be \(Int(w))×\(Int(h)) pixels, more than the limit of \(limits.maximumCanvasPixels) (32767 a side); lower --scale or --size, or raise --max-pixels")
            return .failure(.dataError)
        }
        var out = scene
        out.canvas = canvas
        return .success(out)
    }

    /// An SVG file as a scene: its document drawn at its size on a transparent canvas; its
    /// warnings printed with their lines.
    private func loadSVG(_ path: String) -> Result<LoadedScene, ExitCode> {
        do {
            var options = SVGDocument.Options()
            options.maximumImageBytes = limits.maximumImageBytes
            if let allowedFiles {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: allowedFiles, isDirectory: &isDirectory), isDirectory.boolValue else {
                    diagnostics.error("--allow-files \(allowedFiles): no such folder")
                    return .failure(.noInput)
                }
                options.allowedImageDirectory = URL(fileURLWithPath: allowedFiles)
            }
            let document = try SVGDocument(contentsOfFile: path, options: options)
            for warning in document.warnings { diagnostics.line("\(path):\(warning.line): warning: \(warning.message)") }
            let canvas = SceneCanvas(width: document.size.width, height: document.size.height, scale: 1, background: nil)
            return .success(LoadedScene(view: AnyView(Image(drawing: document).resizable()), canvas: canvas, name: path))
        } catch {
            diagnostics.error(error.description)
            switch error {
            case .unreadable: return .failure(.noInput)
            default: return .failure(.dataError)
            }
        }
    }
}

extension SceneOptions {
    /// Registers the fonts for `Font.custom`: `--fonts` files and folders, `COMPOSE_FONT_PATH`'s
    /// folders, and a `fonts/` folder beside the scene file when there is one. Prints the
    /// problem and returns the exit code when one cannot be used.
    /// `besideSceneOnly`: only the `fonts/` folder beside the scene (the other sources were
    /// registered for an earlier scene of the same command).
    func registerFonts(besideSceneOnly: Bool = false) -> ExitCode? {
        var sources = besideSceneOnly ? [] : fonts.map { ($0, "--fonts") }
        for folder in (besideSceneOnly ? "" : ProcessInfo.processInfo.environment["COMPOSE_FONT_PATH"] ?? "").split(separator: ":") where !folder.isEmpty {
            sources.append((String(folder), "COMPOSE_FONT_PATH"))
        }
        if let path, path != "-" {
            let beside = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("fonts").path
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: beside, isDirectory: &isDirectory), isDirectory.boolValue {
                sources.append((beside, "the scene's fonts/ folder"))
            }
        }
        for (source, origin) in sources {
            do {
                try FontRegistry.shared.register(contentsOf: URL(fileURLWithPath: source))
            } catch {
                diagnostics.error("\(origin): \(error)")
                return .noInput
            }
        }
        return nil
    }
}

extension SceneOptions {
    /// Registers the `--symbols` files and folders for `Image(systemName:)`. Prints the
    /// problem and returns the exit code when one cannot be used.
    func registerSymbols() -> ExitCode? {
        for source in symbols {
            do {
                try SymbolSet.register(contentsOf: URL(fileURLWithPath: source))
            } catch {
                diagnostics.error("--symbols: \(error)")
                return .noInput
            }
        }
        return nil
    }
}

/// An error as the command line reports it: the engine's message, then the flag that raises
/// the limit it names (the engine's own messages name only its own settings).
func describe(_ error: Error) -> String {
    let flag: String?
    switch error {
    case let error as RenderError:
        switch error {
        case .invalidCanvas: flag = nil
        case .offscreenLimit: flag = "--max-offscreen-bytes"
        case .strokeLimit(.dashes): flag = "--max-dashes"
        case .strokeLimit(.outlinePoints): flag = "--max-stroke-points"
        case .strokeLimit(.segments): flag = "--max-segments"
        }
    case let error as RasterError:
        switch error {
        case .nonFiniteGeometry: flag = nil
        case .tooManySegments: flag = "--max-segments"
        }
    default:
        flag = nil
    }
    return "\(error)" + (flag.map { " (raise the limit with \($0))" } ?? "")
}

/// Render-time errors caused by what the scene asks for (a shadow too wide at this scale, a
/// layer too large, a path of too many segments) are bad input (65); anything else is a failure (1).
func exitCode(for error: Error) -> ExitCode {
    switch error {
    case is RenderError, is RasterError, is SurfaceError, is ShadowError: .dataError
    default: .failure
    }
}
