import Compositor
import Foundation
import Testing

/// `compose render/explain/bench` on scene files, as a user runs them.
/// Writes `text` as `name` in `dir`; returns its path.
func write(_ text: String, _ name: String, in dir: URL) throws -> String {
    let path = dir.appendingPathComponent(name).path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

@Suite struct SceneCommandTests {
    static let circles = """
        canvas(width: 200, height: 120, scale: 3, background: .white)
        ZStack {
            Circle().fill(.blue).frame(width: 64, height: 64).offset(x: -18)
            Circle().fill(.pink).frame(width: 64, height: 64)
            Circle().fill(.orange).frame(width: 64, height: 64).offset(x: 18)
        }
        .compositingGroup()
        .opacity(0.25)
        """

    @Test func rendersASceneWithItsCanvas() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = try write(Self.circles, "circles.scene", in: dir)
        let out = dir.appendingPathComponent("out.png").path
        let r = try compose("render", scene, "-o", out)
        #expect(r.status == 0, "\(r.stderr)")
        let png = try PNG.read(path: out)
        // 200 × 120 points at the canvas' scale 3.
        #expect(png.width == 600 && png.height == 360)
        // Centre (300, 180) px: inside all three circles; the group shows orange alone at 25 %
        // over white: 255 - 0.25 × (255 - (255, 149, 0)) = (255, 228.5, 191.25) → (255, 228|229, 191).
        let p = png.pixel(x: 300, y: 180)
        #expect(p.r == 255 && abs(Int(p.g) - 228) <= 1 && abs(Int(p.b) - 191) <= 1)
    }

    @Test func flagsOverrideTheCanvas() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = try write(Self.circles, "circles.scene", in: dir)
        let out = dir.appendingPathComponent("small.png").path
        let r = try compose("render", scene, "-o", out, "--scale", "1", "--size", "100x50", "--background", "transparent")
        #expect(r.status == 0, "\(r.stderr)")
        let png = try PNG.read(path: out)
        #expect(png.width == 100 && png.height == 50)
        #expect(png.pixel(x: 0, y: 0).a == 0)
        let hex = try compose("render", scene, "-o", out, "--background", "#FFCC00", "--scale", "1")
        #expect(hex.status == 0)
        #expect(try PNG.read(path: out).pixel(x: 0, y: 0) == RGBA8(255, 204, 0, 255))
        let bad = try compose("render", scene, "--size", "100by50")
        #expect(bad.status == 64 && bad.stderr.contains("WIDTHxHEIGHT"))
        let badColour = try compose("render", scene, "--background", "blu")
        #expect(badColour.status == 64 && badColour.stderr.contains("--background"))
    }

    @Test func readsStandardInputAndWritesStandardOutput() throws {
        let r = try compose(["render", "-", "-o", "-"], input: Data(Self.circles.utf8))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let bad = try compose(["render", "-", "-o", "-"], input: Data("Circle().fil(.blue)\n".utf8))
        #expect(bad.status == 65 && bad.stdout.isEmpty)
        #expect(bad.stderr.contains("<stdin>:1:10: error: unknown modifier 'fil'; did you mean 'fill'?"))
    }

    @Test func aBadSceneExits65AndLeavesTheOutputAlone() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = try write("ZStack {\n    Circle().opacty(0.5)\n    Rectangle().frame(width: .red)\n}\n", "bad.scene", in: dir)
        let out = dir.appendingPathComponent("out.png").path
        try Data("keep".utf8).write(to: URL(fileURLWithPath: out))
        let r = try compose("render", scene, "-o", out)
        #expect(r.status == 65)
        // Every problem, located, with the line and a caret.
        #expect(r.stderr.contains("bad.scene:2:14: error: unknown modifier 'opacty'; did you mean 'opacity'?\n    Circle().opacty(0.5)\n             ^"))
        #expect(r.stderr.contains("bad.scene:3:23: error: argument 'width' expects a number, got a colour ('.red')"))
        #expect(r.stderr.contains("2 errors in"))
        #expect(FileManager.default.contents(atPath: out) == Data("keep".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["bad.scene", "out.png"])
    }

    @Test func missingAndUnreadableScenesExit66() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try compose("render", dir.appendingPathComponent("none.scene").path)
        #expect(r.status == 66 && r.stderr.contains("no such file"))
        let folder = try compose("render", dir.path)
        #expect(folder.status == 66 && folder.stderr.contains("it is a folder"))
        let binary = dir.appendingPathComponent("binary.scene")
        try Data([0xFF, 0xFE, 0x00, 0xC3]).write(to: binary)
        let notText = try compose("render", binary.path)
        #expect(notText.status == 65 && notText.stderr.contains("not UTF-8"))
    }

    @Test func limitsAreFlags() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = try write("ZStack { ZStack { ZStack { Circle() } } }\n", "deep.scene", in: dir)
        let low = try compose("render", scene, "-o", dir.appendingPathComponent("a.png").path, "--max-depth", "3")
        #expect(low.status == 65 && low.stderr.contains("nests more than 3 levels"))
        let ok = try compose("render", scene, "-o", dir.appendingPathComponent("a.png").path, "--max-depth", "10")
        #expect(ok.status == 0)
        let loop = try write("ZStack { ForEach(0..<50, id: \\.self) { i in Circle() } }\n", "loop.scene", in: dir)
        let few = try compose("render", loop, "-o", dir.appendingPathComponent("b.png").path, "--max-iterations", "10")
        #expect(few.status == 65 && few.stderr.contains("more than the limit of 10"))
        let big = try compose("render", loop, "-o", dir.appendingPathComponent("c.png").path, "--max-pixels", "100")
        #expect(big.status == 65 && big.stderr.contains("--max-pixels"))
        let bytes = try compose("render", loop, "--max-scene-bytes", "10")
        #expect(bytes.status == 65 && bytes.stderr.contains("more than the limit of 10"))
    }

    @Test func explainShowsLayersAndWarnings() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = try write(Self.circles, "circles.scene", in: dir)
        let r = try compose("explain", scene)
        #expect(r.status == 0, "\(r.stderr)")
        let text = String(decoding: r.stdout, as: UTF8.self)
        // The group: ink of three 192 px circles, x 150…450 (+2 px margin), y 84…276.
        #expect(text.contains("canvas 600×360 px: 3 leaves, 1 offscreen image (238336 bytes)"))
        #expect(text.contains("compositingGroup opacity 0.250 [148, 82, 304, 196] — layer argb32, 238336 bytes"))
        let json = try compose("explain", scene, "--json")
        let object = try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any]
        #expect(object?["layers"] as? Int == 1 && object?["leaves"] as? Int == 3)
        let warned = try write("""
            ZStack {
                Circle().fill(.blue).frame(width: 40, height: 40).blendMode(.screen)
            }
            .blendMode(.multiply)
            .drawingGroup(colorMode: .linear)
            """, "warn.scene", in: dir)
        let w = String(decoding: try compose("explain", warned).stdout, as: UTF8.self)
        // The blend warning names where the Circle is written (line 2, column 5); the root's
        // drawing group is written in no builder, so its warning has no line.
        #expect(w.contains("warn.scene:2:5: warning: blendMode(.multiply) written outside is overridden by blendMode(.screen)"), "\(w)")
        #expect(w.contains("\nwarning: drawingGroup at [180, 130, 40, 40] holds 1 leaf"), "\(w)")
        let warnedJSON = try JSONSerialization.jsonObject(with: try compose("explain", warned, "--json").stdout) as? [String: Any]
        let warnings = warnedJSON?["warnings"] as? [[String: Any]] ?? []
        #expect(warnings.count == 2 && warnings[0]["line"] as? Int == 2 && warnings[0]["column"] as? Int == 5 && warnings[1]["line"] == nil)
        let tree = warnedJSON?["tree"] as? [[String: Any]]
        let leaf = (tree?.first?["children"] as? [[String: Any]])?.first
        #expect((leaf?["source"] as? [String: Int]) == ["line": 2, "column": 5], "\(String(describing: leaf))")
        #expect(w.contains("layer argb32Linear"))
    }

    @Test func benchPrintsMediansPerPhase() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = try write(Self.circles, "circles.scene", in: dir)
        let r = try compose("bench", scene, "-n", "2", "--json")
        #expect(r.status == 0, "\(r.stderr)")
        let object = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any]
        let cold = object?["coldMs"] as? [String: Double]
        #expect(cold?.keys.sorted() == ["composition", "encoding", "filters", "layout", "lowering", "planning", "rasterization", "total"])
        #expect((cold?["encoding"] ?? 0) > 0)
        #expect(object?["layers"] as? Int == 1)
        let table = try compose("bench", scene, "-n", "1")
        #expect(String(decoding: table.stdout, as: UTF8.self).contains("rasterization"))
    }

    @Test func everyCommandHasHelp() throws {
        for command in ["render", "explain", "bench", "diff"] {
            let r = try compose(command, "--help")
            #expect(r.status == 0 && String(decoding: r.stdout, as: UTF8.self).contains("USAGE: compose \(command)"))
            let h = try compose("help", command)
            #expect(h.stdout == r.stdout)
        }
        let typo = try compose("explian")
        #expect(typo.status == 64 && typo.stderr.contains("Did you mean 'explain'?"))
        let flag = try compose("explain", "x.scene", "--jsno")
        #expect(flag.status == 64 && flag.stderr.contains("Did you mean '--json'?"))
    }
}

/// The malformed-scene corpus through the binary: every scene exits 65, writes nothing, and
/// prints exactly its golden errors (then the count).
@Suite struct MalformedCorpusCLITests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../SceneFileTests/Malformed").standardized

    @Test func everyMalformedSceneExits65WithItsGoldenErrors() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".scene") }.sorted()
        #expect(names.count >= 60)
        let out = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        for name in names {
            let source = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
            var arguments = ["render", name, "-o", out.appendingPathComponent("x.png").path]
            // The corpus' `// limits:` header, as flags.
            if let first = source.split(separator: "\n").first, first.hasPrefix("// limits:") {
                for setting in first.dropFirst("// limits:".count).split(separator: ",") {
                    let parts = setting.split(separator: "=").map { $0.trimmingCharacters(in: .whitespaces) }
                    arguments += [parts[0] == "maximumIterations" ? "--max-iterations" : "--max-path-elements", parts[1]]
                }
            }
            let run = try compose(arguments, input: nil, in: Self.folder)
            let expected = try String(contentsOf: Self.folder.appendingPathComponent(name.replacingOccurrences(of: ".scene", with: ".expected")),
                                      encoding: .utf8)
            #expect(run.status == 65, "\(name): exit \(run.status)")
            #expect(run.stderr.hasPrefix(expected), "\(name):\n\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("x.png").path), "\(name) wrote an image")
        }
    }
}

@Suite struct OffscreenLimitCLITests {
    @Test func theOffscreenLimitIsAFlag() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("group.scene").path
        // Two leaves: a group around one would be folded into it, without a layer.
        try "ZStack { Circle().fill(.blue); Circle().fill(.pink).padding(20) }.compositingGroup().opacity(0.5)\n".write(toFile: scene, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("g.png").path
        let r = try compose("render", scene, "-o", out, "--max-offscreen-bytes", "1000")
        #expect(r.status == 65 && r.stderr.contains("more than the limit of 1000"))
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try compose("render", scene, "-o", out).status == 0)
    }

    @Test func thePathSegmentLimitIsAFlag() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 5,000 curves of 4,096 segments each: 20,480,001 with the closing line, beyond 2^24.
        let huge = try write("""
            canvas(width: 64, height: 64)
            Path { p in
                p.move(to: CGPoint(x: 0, y: 0))
                for i in 0..<5000 {
                    p.addCurve(to: CGPoint(x: 10, y: 0), control1: CGPoint(x: -1000000, y: 1000000), control2: CGPoint(x: 1000000, y: -1000000))
                }
            }
            .fill(.blue)

            """, "huge.scene", in: dir)
        let out = dir.appendingPathComponent("h.png").path
        let r = try compose("render", huge, "-o", out)
        #expect(r.status == 65)
        #expect(r.stderr.contains("flattens into 20480001 line segments in device space, more than the limit of 16777216"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        // A circle on a 64 × 64 canvas is well under 200 segments; a limit of 10 refuses it.
        let circle = try write("canvas(width: 64, height: 64)\nCircle().fill(.blue)\n", "circle.scene", in: dir)
        #expect(try compose("render", circle, "-o", out, "--max-segments", "10").status == 65)
        #expect(try compose("render", circle, "-o", out).status == 0)
        #expect(String(decoding: try compose("render", "--help").stdout, as: UTF8.self).contains("--max-segments"))
    }

    @Test func theStrokeLimitsAreFlags() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A 200 pt line, dash [1] (on 1, off 1): 100 dashes, each outline at least 2 × 2 + 8 = 12 points.
        let scene = try write("""
            canvas(width: 220, height: 20)
            Path { p in
                p.move(to: CGPoint(x: 10, y: 10))
                p.addLine(to: CGPoint(x: 210, y: 10))
            }
            .stroke(style: StrokeStyle(lineWidth: 2, dash: [1]))

            """, "dashes.scene", in: dir)
        let out = dir.appendingPathComponent("d.png").path
        let dashes = try compose("render", scene, "-o", out, "--max-dashes", "99")
        #expect(dashes.status == 65)
        #expect(dashes.stderr.contains("a dash pattern would cut a stroke into 100 dashes, more than the limit of 99"), "\(dashes.stderr)")
        let points = try compose("render", scene, "-o", out, "--max-stroke-points", "1000")
        #expect(points.status == 65)
        #expect(points.stderr.contains("a stroke's outline would have more than 1000 points"), "\(points.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try compose("render", scene, "-o", out, "--max-dashes", "100", "--max-stroke-points", "100000").status == 0)
    }

    @Test func shadowAndBlurRadiiAreFlagsUpToTheEnginesCap() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = try write("Circle().fill(.blue).frame(width: 40, height: 40).shadow(radius: 20).blur(radius: 5)\n",
                              "soft.scene", in: dir)
        let out = dir.appendingPathComponent("s.png").path
        let shadow = try compose("render", scene, "-o", out, "--max-shadow-radius", "10")
        #expect(shadow.status == 65)
        #expect(shadow.stderr.contains("soft.scene:1:58: error: a shadow radius must be from 0 to 10 points, got 20"), "\(shadow.stderr)")
        #expect(shadow.stderr.contains("--max-shadow-radius"))
        let blur = try compose("render", scene, "-o", out, "--max-blur-radius", "4.5")
        #expect(blur.status == 65)
        #expect(blur.stderr.contains("a blur radius must be from 0 to 4.5 points, got 5"), "\(blur.stderr)")
        // Beyond what the engine draws (σ ≤ 128 px) the flag itself is refused.
        #expect(try compose("render", scene, "-o", out, "--max-shadow-radius", "300").status == 64)
        #expect(try compose("render", scene, "-o", out, "--max-blur-radius", "129").status == 64)
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try compose("render", scene, "-o", out).status == 0)
    }
}

/// Scene input that never ends or is not a file: read no further than the size limit.
@Suite struct SceneInputTests {
    @Test func anEndlessPipeIsRefusedAtTheSizeLimit() throws {
        // `yes` writes forever; compose must stop reading at 1,001 bytes and fail, not hang or
        // fill memory (it used to read standard input to its end).
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("x.png").path
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "yes | '\(composeBinary.path)' render - --max-scene-bytes 1000 -o '\(out)' 2>&1"]
        let pipe = Pipe()
        shell.standardOutput = pipe
        try shell.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        shell.waitUntilExit()
        #expect(text.contains("<stdin>:1:1: error: the scene has more than the limit of 1000 bytes"), "\(text)")
        #expect(!FileManager.default.fileExists(atPath: out))
        // A bounded input over the limit says the same, with exit 65.
        let r = try compose(["render", "-", "--max-scene-bytes", "100", "-o", out], input: Data(repeating: 0x20, count: 5000))
        #expect(r.status == 65 && r.stderr.contains("more than the limit of 100 bytes"))
    }

    @Test func aDeviceIsNotAScene() throws {
        let r = try compose("render", "/dev/null", "-o", "/tmp/never.png")
        #expect(r.status == 66)
        #expect(r.stderr.contains("cannot read '/dev/null': not a regular file"), "\(r.stderr)")
    }

    @Test func aLargeFileIsRefusedBeforeItIsRead() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let big = dir.appendingPathComponent("big.scene")
        try Data(repeating: 0x20, count: 3000).write(to: big)
        let r = try compose("render", big.path, "--max-scene-bytes", "2000")
        #expect(r.status == 65)
        #expect(r.stderr.contains("big.scene:1:1: error: the scene file has 3000 bytes, more than the limit of 2000\nhint:"), "\(r.stderr)")
    }

    @Test func aWriteThatFoundationRefusesIsExplainedInTheSystemsWords() throws {
        // /proc accepts no new files; Foundation reports its own code, shown as strerror(ENOENT).
        let r = try compose(["render", "-", "-o", "/proc/compose-test.png"], input: Data("Circle()\n".utf8))
        #expect(r.status == 74)
        #expect(r.stderr.contains("cannot write '/proc/compose-test.png': No such file or directory"), "\(r.stderr)")
    }

    /// `--symbols` adds symbols from SVG files and replaces built-in ones of the same name: a
    /// square `heart` fills more pixels than Phosphor's heart; a name known only from a file
    /// is a located error without the flag; a missing path or a bad file exits 66 with the
    /// path and writes nothing.
    @Test func userSymbolsComeFromTheSymbolsFlag() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let symbols = dir.appendingPathComponent("symbols")
        try FileManager.default.createDirectory(at: symbols, withIntermediateDirectories: true)
        _ = try write(#"<svg viewBox="0 0 8 8"><path d="M0 0H8V8H0Z"/></svg>"#, "heart.svg", in: symbols)
        _ = try write(#"<svg viewBox="0 0 8 8"><path d="M0 0H8L0 8Z"/></svg>"#, "corner.svg", in: symbols)
        let hearts = try write("Image(systemName: \"heart\").font(.system(size: 40))", "h.scene", in: dir)
        let corner = try write("Image(systemName: \"corner\").font(.system(size: 40))", "c.scene", in: dir)
        let (phosphor, square, triangle) = (dir.appendingPathComponent("p.png").path, dir.appendingPathComponent("s.png").path,
                                            dir.appendingPathComponent("t.png").path)
        #expect(try compose("render", hearts, "--size", "40x40", "-o", phosphor).status == 0)
        let replaced = try compose("render", hearts, "--size", "40x40", "--symbols", symbols.path, "-o", square)
        #expect(replaced.status == 0, "\(replaced.stderr)")
        // The square covers the symbol's whole 40 × 40 frame: every pixel black.
        let squarePixels = try PNG.read(path: square)
        let phosphorPixels = try PNG.read(path: phosphor)
        #expect(try squarePixels.compare(to: phosphorPixels).differingPixels > 200)
        #expect(squarePixels.pixel(x: 2, y: 2) == RGBA8(0, 0, 0, 255) && squarePixels.pixel(x: 37, y: 37) == RGBA8(0, 0, 0, 255))
        let unknown = try compose("render", corner, "-o", triangle)
        #expect(unknown.status == 65 && unknown.stderr.contains("c.scene:1:"), "\(unknown.stderr)")
        let known = try compose("render", corner, "--size", "40x40", "--symbols", symbols.appendingPathComponent("corner.svg").path, "-o", triangle)
        #expect(known.status == 0, "\(known.stderr)")
        let missing = try compose("render", corner, "--symbols", "/no/such/symbols", "-o", dir.appendingPathComponent("m.png").path)
        #expect(missing.status == 66 && missing.stderr.contains("--symbols: no symbol file or folder at /no/such/symbols"), "\(missing.stderr)")
        let bad = try write(#"<svg viewBox="0 0 8 8"><circle r="3"/></svg>"#, "bad.svg", in: dir)
        let refused = try compose("render", corner, "--symbols", bad, "-o", dir.appendingPathComponent("m.png").path)
        #expect(refused.status == 66 && refused.stderr.contains(bad) && refused.stderr.contains("<circle>"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("m.png").path))
    }

    /// An SVG file renders at its own size or `--width`; its images are read from its own
    /// folder only unless `--allow-files` names a wider one; a bad folder exits 66, a bad
    /// document 65, and neither writes a file.
    @Test func svgFilesRenderWithTheirImagesWhereAllowed() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let art = dir.appendingPathComponent("art")
        try FileManager.default.createDirectory(at: art, withIntermediateDirectories: true)
        let red = try Surface(width: 2, height: 2)
        red.fill(Color(red: 1, green: 0, blue: 0))
        try red.writePNG(to: dir.appendingPathComponent("red.png").path)
        let svg = try write("<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' width='4' height='4'><image width='4' height='4' xlink:href='../red.png'/></svg>", "i.svg", in: art)
        let out = dir.appendingPathComponent("o.png").path
        let refused = try compose("render", svg, "-o", out)
        #expect(refused.status == 0 && refused.stderr.contains("i.svg:1: warning:") && refused.stderr.contains("not read"), "\(refused.stderr)")
        #expect(try PNG.read(path: out).pixel(x: 2, y: 2).a == 0)
        let allowed = try compose("render", svg, "--allow-files", dir.path, "--width", "8", "-o", out)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        let image = try PNG.read(path: out)
        #expect(image.width == 8 && image.pixel(x: 4, y: 4) == RGBA8(255, 0, 0, 255))
        let missing = dir.appendingPathComponent("m.png").path
        let noFolder = try compose("render", svg, "--allow-files", "/no/such/folder", "-o", missing)
        #expect(noFolder.status == 66 && noFolder.stderr.contains("--allow-files /no/such/folder: no such folder"))
        let broken = try write("<svg xmlns='http://www.w3.org/2000/svg'><g>", "b.svg", in: dir)
        let bad = try compose("render", broken, "-o", missing)
        #expect(bad.status == 65 && bad.stderr.contains("b.svg:1:") && bad.stderr.contains("not well-formed XML"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    /// `--fonts` and a `fonts/` folder beside the scene register fonts for `.custom`: the text
    /// draws in DejaVu Serif (other pixels than the system font's fallback); a missing path or
    /// a file that is no font exits 66 with the path and writes nothing.
    @Test func userFontsComeFromFlagsAndTheScenesFolder() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = try write("Text(\"Serif\").font(.custom(\"DejaVu Serif\", size: 40))", "t.scene", in: dir)
        let fonts = dir.appendingPathComponent("fonts")
        try FileManager.default.createDirectory(at: fonts, withIntermediateDirectories: true)
        let out = dir.appendingPathComponent("a.png").path, plain = dir.appendingPathComponent("b.png").path
        // Without the font anywhere (an empty fonts/ folder is not used: no font file, an error).
        let none = try compose("render", scene, "-o", plain)
        #expect(none.status == 66 && none.stderr.contains("holds no font file") && !FileManager.default.fileExists(atPath: plain))
        try FileManager.default.copyItem(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", toPath: fonts.appendingPathComponent("DejaVuSerif.ttf").path)
        let beside = try compose("render", scene, "-o", out)
        #expect(beside.status == 0, "\(beside.stderr)")
        let unknown = try write("Text(\"Serif\").font(.custom(\"Nope\", size: 40))", "u.scene", in: dir)
        let fallback = try compose("render", unknown, "-o", plain)
        #expect(fallback.status == 0 && fallback.stderr.contains("warning: no font named 'Nope'"))
        #expect(try PNG.read(path: out).compare(to: PNG.read(path: plain)).differingPixels > 100)
        let missing = try compose("render", scene, "--fonts", "/no/such/fonts", "-o", dir.appendingPathComponent("c.png").path)
        #expect(missing.status == 66 && missing.stderr.contains("--fonts: there is no font file or folder at '/no/such/fonts'"))
        let junk = try write("junk", "junk.ttf", in: dir)
        let bad = try compose("render", scene, "--fonts", junk, "-o", dir.appendingPathComponent("c.png").path)
        #expect(bad.status == 66 && bad.stderr.contains(junk) && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("c.png").path))
    }
}
