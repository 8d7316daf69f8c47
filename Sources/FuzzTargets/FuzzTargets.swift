import Foundation
import SceneFile
import SceneGraph
import SVG

/// Entry points for the fuzzers (`Fuzz/`, built with libFuzzer) and for the regression tests
/// that replay their corpora. Each takes arbitrary bytes and must return without trapping,
/// whatever they are (errors are the expected outcome for most inputs), and returns whether the
/// invariants it checks held (the fuzzer stops on false).
public enum FuzzTargets {
    /// Small limits, so one input runs in milliseconds.
    static var limits: SceneLimits {
        var l = SceneLimits()
        l.maximumDepth = 100
        l.maximumIterations = 5_000
        l.maximumPathElements = 5_000
        l.maximumCanvasPixels = 128 * 128
        l.maximumSourceBytes = 16 << 10
        l.maximumImageBytes = 1 << 20
        return l
    }

    /// The scene language: parse and evaluate; when it is a scene, explain it and render it on
    /// a small canvas; when it declares states, render its animation at a time taken from the
    /// input (overshooting progress included, as a spring gives).
    ///
    /// Frame reuse: the scene read again and drawn by the same renderer (which may draw its
    /// last display list again) gives the same bytes, and so does the scene with one digit
    /// changed, drawn after it, as a renderer that never reuses draws it.
    @discardableResult
    public static func scene(_ bytes: [UInt8]) -> Bool {
        let source = String(decoding: bytes, as: UTF8.self)
        guard let scene = try? Scene(source: source, fileName: "fuzz.scene", limits: limits) else { return true }
        let size = CGSize(width: min(64, scene.canvas.width), height: min(64, scene.canvas.height))
        _ = try? Explanation(scene.view, size: size, scale: 1)
        let renderer = Renderer()
        func image(_ scene: Scene, _ renderer: Renderer) -> [UInt8]? {
            let surface = try? renderer.render(scene.view, size: size, scale: 1, background: scene.canvas.background)
            return surface?.withUnsafeMutableBytes { Array($0) }
        }
        let first = image(scene, renderer)
        if first != nil, let again = try? Scene(source: source, fileName: "fuzz.scene", limits: limits),
           image(again, renderer) != first {
            return false
        }
        if first != nil, let changed = changingOneDigit(bytes),
           let other = try? Scene(source: String(decoding: changed, as: UTF8.self), fileName: "fuzz.scene", limits: limits) {
            let fresh = Renderer()
            fresh.reusesUnchangedFrames = false
            if image(other, renderer) != image(other, fresh) { return false }
        }
        if let change = scene.change {
            let progress = Double(bytes.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFFFF }) / 0xFFFF * 1.4 - 0.2
            _ = try? Renderer().render(change.view(progress: progress, in: size), size: size, scale: 1)
            let duration = change.duration
            _ = change.animation.progress(at: duration.isFinite ? duration * 0.5 : 1)
        }
        return true
    }

    /// The input with one digit changed (the first at or after a place the input chooses), or
    /// nil when it has none.
    static func changingOneDigit(_ bytes: [UInt8]) -> [UInt8]? {
        guard !bytes.isEmpty else { return nil }
        let start = bytes.reduce(0) { ($0 &* 131 &+ Int($1)) & 0xFFFFFF } % bytes.count
        for k in 0..<bytes.count {
            let i = (start + k) % bytes.count
            if bytes[i] >= 48, bytes[i] <= 57 {
                var changed = bytes
                changed[i] = 48 + (bytes[i] - 48 + 1) % 10
                return changed
            }
        }
        return nil
    }

    /// SVG path data: parse, print, parse again.
    @discardableResult
    public static func svgPath(_ bytes: [UInt8]) -> Bool {
        guard let path = try? Path(svgPath: String(decoding: bytes, as: UTF8.self)) else { return true }
        _ = path.boundingRect
        // What the path prints parses back to a path of as many elements.
        guard let again = try? Path(svgPath: path.description) else { return false }
        return again.elements.count == path.elements.count
    }

    /// SVG documents: parse (XML, CSS, references, filters, patterns), explain and render on a
    /// canvas of at most 64 × 64 pixels. Files are never read (no base directory).
    @discardableResult
    public static func svgDocument(_ bytes: [UInt8]) -> Bool {
        var options = SVGDocument.Options()
        options.maximumFileBytes = 16 << 10
        options.maximumElements = 5_000
        options.maximumDepth = 64
        guard let doc = try? SVGDocument(data: Data(bytes), name: "fuzz.svg", options: options) else { return true }
        guard doc.size.width > 0, doc.size.height > 0 else { return false }
        let size = CGSize(width: min(64, doc.size.width), height: min(64, doc.size.height))
        let view = Image(drawing: doc).resizable()
        _ = try? Explanation(view, size: size, scale: 1)
        _ = try? Renderer().render(view, size: size, scale: 1, background: nil)
        return true
    }

    /// A path from the bytes (moves, lines, quadratic and cubic curves, closes, arcs).
    public static func path(_ reader: inout FuzzReader, maximumElements: Int = 64) -> Path {
        var path = Path()
        var count = 0
        while !reader.isAtEnd, count < maximumElements {
            count += 1
            switch reader.byte() % 7 {
            case 0: path.move(to: reader.point())
            case 1, 2: path.addLine(to: reader.point())
            case 3: path.addQuadCurve(to: reader.point(), control: reader.point())
            case 4: path.addCurve(to: reader.point(), control1: reader.point(), control2: reader.point())
            case 5: path.closeSubpath()
            default:
                path.addArc(center: reader.point(), radius: reader.coordinate(), startAngle: .radians(reader.coordinate()),
                            endAngle: .radians(reader.coordinate()), clockwise: reader.byte() & 1 == 0)
            }
        }
        return path
    }

    /// The rasterizer: a path from the bytes filled under both rules, with a transform, on a
    /// 64 × 64 surface.
    @discardableResult
    public static func rasterizer(_ bytes: [UInt8]) -> Bool {
        var reader = FuzzReader(bytes)
        let transform = CGAffineTransform(a: reader.coordinate() / 16, b: reader.coordinate() / 16, c: reader.coordinate() / 16,
                                          d: reader.coordinate() / 16, tx: reader.coordinate(), ty: reader.coordinate())
        let p = path(&reader, maximumElements: 256)
        guard let surface = try? Surface(width: 64, height: 64) else { return false }
        let canvas = Canvas(surface)
        _ = try? canvas.fill(p, with: .color(.blue), fillRule: .nonZero, transform: transform)
        _ = try? canvas.fill(p, with: .color(Color.red.opacity(0.5)), fillRule: .evenOdd, opacity: 0.7, blendMode: .multiply)
        // The same fills drawn at once and batched band by band on two threads, under either
        // coverage quality, recorded whole and built on one thread, on both, or by a helper
        // while they are recorded: the bytes must be equal (`FillBatch`).
        let flags = reader.byte()
        let quality: CoverageQuality = flags & 1 == 0 ? .exact : .fast
        guard let once = try? Surface(width: 64, height: 64), let banded = try? Surface(width: 64, height: 64) else { return false }
        let direct = Rasterizer(), batched = Rasterizer()
        direct.coverageQuality = quality
        batched.coverageQuality = quality
        batched.threads = 2
        if flags & 2 != 0 { batched.minimumParallelBuildSegments = 0 }
        // Helpers start with the first fill and build them all (`FillStream`).
        if flags & 6 == 6 { batched.buildsAtFlush = false }
        guard let state = try? batched.beginBatch(on: banded) else { return false }
        for k in 0..<3 {
            let moved = transform.concatenating(CGAffineTransform(translationX: CGFloat(7 * k), y: CGFloat(-5 * k)))
            let color = Color(red: 0.2 * Double(k), green: 0.5, blue: 0.9, opacity: 0.4 + 0.3 * Double(k))
            let rule: FillRule = k == 1 ? .evenOdd : .nonZero
            let a: Void? = try? Canvas(once, rasterizer: direct).fill(p, with: .color(color), fillRule: rule, transform: moved)
            let b: Void? = try? Canvas(banded, rasterizer: batched).fill(p, with: .color(color), fillRule: rule, transform: moved)
            precondition((a == nil) == (b == nil), "a fill failed in one mode only")
        }
        guard (try? batched.endBatch(restoring: state)) != nil else { return false }
        let same = once.withUnsafeMutableBytes { x in banded.withUnsafeMutableBytes { y in x.elementsEqual(y) } }
        precondition(same, "batched fills differ from fills drawn at once")
        convexPathsFlattenSingleWound(p, transform: transform)
        return kernelsAgreeWithPixman(p, transform: transform, &reader)
    }

    /// The claim the rasterizer's convex shortcut rests on (`Path._convexShortcutHolds`).
    static func convexPathsFlattenSingleWound(_ p: Path, transform: CGAffineTransform) {
        precondition(p._convexShortcutHolds(transform: transform),
                     "a path with convex control polygons flattened to polygons not single-wound")
    }

    /// The engine's own kernels against pixman's route for the same pixels, which a clip mask
    /// of full coverage selects (IN by 255 changes nothing): a linear gradient along a device
    /// axis composited from the cells (within 1 level: pixman steps t from a span's first
    /// pixel), and glyph-style masks from the bytes added and composited by the mask kernel
    /// (the same bytes).
    static func kernelsAgreeWithPixman(_ p: Path, transform: CGAffineTransform, _ reader: inout FuzzReader) -> Bool {
        let size = 64
        guard let spans = try? Surface(width: size, height: size), let routed = try? Surface(width: size, height: size),
              let full = try? CoverageMask.make(Path(CGRect(x: 0, y: 0, width: size, height: size)), within: spans.bounds,
                                                rasterizer: Rasterizer()) else { return false }
        let backdrop = Color(red: Double(reader.byte()) / 255, green: 0.3, blue: 0.6, opacity: Double(reader.byte()) / 255)
        spans.fill(backdrop)
        routed.fill(backdrop)
        let vertical = reader.byte() & 1 == 0
        let a = reader.coordinate(), b = reader.coordinate(), c = reader.coordinate()
        let start = vertical ? CGPoint(x: c, y: a) : CGPoint(x: a, y: c), end = vertical ? CGPoint(x: c, y: b) : CGPoint(x: b, y: c)
        let stops = (0..<(1 + Int(reader.byte() % 4))).map { k in
            Gradient.Stop(color: Color(red: Double(reader.byte()) / 255, green: Double(reader.byte()) / 255, blue: 0.5,
                                       opacity: Double(reader.byte()) / 255), location: Double(k) / 3)
        }
        let spread: GradientSpread = [.pad, .reflect, .repeat][Int(reader.byte() % 3)]
        let paint = Paint.linearGradient(Gradient(stops: stops, spread: spread), start: start, end: end)
        let opacity = Double(reader.byte()) / 255
        let x: Void? = try? Canvas(spans).fill(p, with: paint, transform: transform, opacity: opacity)
        let y: Void? = try? Canvas(routed).fill(p, with: paint, transform: transform, opacity: opacity, clipMask: full)
        precondition((x == nil) == (y == nil), "a gradient fill failed in one route only")
        let near = spans.withUnsafeMutableBytes { u in
            routed.withUnsafeMutableBytes { v in zip(u, v).allSatisfy { abs(Int($0) - Int($1)) <= 1 } }
        }
        precondition(near, "gradient spans differ from pixman's route by more than 1 level")
        // Masks: up to 12, of up to 24 × 24 pixels, anywhere about the surface, their bytes from
        // the input (the padding of their rows too, which is not coverage).
        var masks: [(mask: Surface, x: Int, y: Int)] = []
        for _ in 0..<Int(reader.byte() % 13) {
            let w = 1 + Int(reader.byte() % 24), h = 1 + Int(reader.byte() % 24)
            let mx = Int(reader.byte()) - 96, my = Int(reader.byte()) - 96
            guard let m = try? Surface(width: w, height: h, format: .a8) else { return false }
            m.withUnsafeMutableBytes { bytes in for i in bytes.indices { bytes[i] = reader.byte() } }
            masks.append((m, mx / 2, my / 2))
        }
        let color = Color(red: Double(reader.byte()) / 255, green: 0.7, blue: 0.1, opacity: Double(reader.byte()) / 255)
        let maskOpacity = reader.byte() & 1 == 0 ? 1 : Double(reader.byte()) / 255
        guard let kernel = try? Surface(width: size, height: size), let pixman = try? Surface(width: size, height: size) else { return false }
        kernel.fill(backdrop)
        pixman.fill(backdrop)
        let k: Void? = try? Canvas(kernel).fill(masks: masks, with: .color(color), opacity: maskOpacity)
        let r: Void? = try? Canvas(pixman).fill(masks: masks, with: .color(color), opacity: maskOpacity, clipMask: full)
        precondition((k == nil) == (r == nil), "a mask fill failed in one route only")
        let equal = kernel.withUnsafeMutableBytes { u in pixman.withUnsafeMutableBytes { v in u.elementsEqual(v) } }
        precondition(equal, "the glyph-mask kernel differs from pixman's route")
        return true
    }

    /// The stroker, dasher and trimmer: a path and a stroke style (zero and enormous widths,
    /// zero-length and negative dashes) from the bytes.
    @discardableResult
    public static func stroker(_ bytes: [UInt8]) -> Bool {
        var reader = FuzzReader(bytes)
        let width = reader.coordinate()
        let caps: [CGLineCap] = [.butt, .round, .square], joins: [CGLineJoin] = [.miter, .round, .bevel]
        let cap = caps[Int(reader.byte() % 3)], join = joins[Int(reader.byte() % 3)]
        let miter = reader.coordinate()
        let dash = (0..<Int(reader.byte() % 6)).map { _ in CGFloat(reader.coordinate()) }
        let phase = reader.coordinate()
        let from = reader.coordinate() / 64, to = reader.coordinate() / 64
        let p = path(&reader)
        let style = StrokeStyle(lineWidth: width, lineCap: cap, lineJoin: join, miterLimit: miter, dash: dash, dashPhase: phase)
        let outline = p.strokedPath(style)
        let trimmed = p.trimmedPath(from: from, to: to)
        guard let surface = try? Surface(width: 32, height: 32) else { return false }
        _ = try? Canvas(surface).fill(outline, with: .color(.black))
        _ = try? Canvas(surface).fill(trimmed.strokedPath(StrokeStyle(lineWidth: 2)), with: .color(.black))
        strokesDrawnStraightMatchTheirOutlines(p, style, &reader)
        return true
    }

    /// A stroke drawn from itself (`Canvas.fill(_ stroke:…)`, its outline sent straight into
    /// the rasterizer's edges) must give the bytes of its outline filled as a path, and fail
    /// where that fails; also batched on two threads, built by helpers (`PendingFill.stroke`).
    private static func strokesDrawnStraightMatchTheirOutlines(_ p: Path, _ style: StrokeStyle, _ reader: inout FuzzReader) {
        let place = CGAffineTransform(a: reader.coordinate() / 16, b: reader.coordinate() / 16, c: reader.coordinate() / 16,
                                      d: reader.coordinate() / 16, tx: reader.coordinate(), ty: reader.coordinate())
        let stroke = PathStroke(path: p, style: style, tolerance: [0.02, 0.25][Int(reader.byte() & 1)], transform: place)
        let flags = reader.byte()
        // The outline, made once. A huge one (a width of 10¹⁰: millions of points) is left out:
        // drawn three more ways it only cost time (20 s an input), and what is checked here,
        // the order and arithmetic of the points, does not depend on their number.
        let outline = Result { () throws(StrokeRefusal) in try stroke.outline() }
        if case .success(let made) = outline, made.elements.count > 100_000 { return }
        guard let outlined = try? Surface(width: 32, height: 32), let straight = try? Surface(width: 32, height: 32),
              let banded = try? Surface(width: 32, height: 32) else { return }
        let batched = Rasterizer()
        batched.threads = 2
        if flags & 1 != 0 { batched.minimumParallelBuildSegments = 0 }
        if flags & 3 == 3 { batched.buildsAtFlush = false }
        guard let state = try? batched.beginBatch(on: banded) else { return }
        for k in 0..<3 {
            let shift = CGAffineTransform(translationX: CGFloat(5 * k), y: CGFloat(-3 * k))
            let color = Color(red: 0.3 * Double(k), green: 0.6, blue: 0.2, opacity: 0.5 + 0.25 * Double(k))
            let a: Void? = try? Canvas(outlined).fill(outline.get(), with: .color(color), transform: shift, coverageQuality: .fast)
            let b: Void? = try? Canvas(straight).fill(stroke, with: .color(color), transform: shift)
            let c: Void? = try? Canvas(banded, rasterizer: batched).fill(stroke, with: .color(color), transform: shift)
            precondition((a == nil) == (b == nil) && (b == nil) == (c == nil), "a stroke failed one way only")
        }
        guard (try? batched.endBatch(restoring: state)) != nil else { return }
        let same = outlined.withUnsafeMutableBytes { x in
            straight.withUnsafeMutableBytes { y in banded.withUnsafeMutableBytes { z in x.elementsEqual(y) && y.elementsEqual(z) } }
        }
        precondition(same, "a stroke drawn straight differs from its outline filled")
    }

    /// Shape booleans: two paths from the bytes, every operation; each result must be finite.
    @discardableResult
    public static func booleans(_ bytes: [UInt8]) -> Bool {
        var reader = FuzzReader(bytes)
        let eoFill = reader.byte() & 1 == 1
        let a = path(&reader, maximumElements: 24), b = path(&reader, maximumElements: 24)
        var finite = true
        for result in [a.union(b, eoFill: eoFill), a.intersection(b, eoFill: eoFill), a.subtracting(b, eoFill: eoFill),
                       a.symmetricDifference(b, eoFill: eoFill), a.lineIntersection(b, eoFill: eoFill),
                       a.lineSubtraction(b, eoFill: eoFill), a.normalized(eoFill: eoFill)] {
            result.forEach { element in
                if case .line(let p) = element, !p.x.isFinite || !p.y.isFinite { finite = false }
                if case .move(let p) = element, !p.x.isFinite || !p.y.isFinite { finite = false }
            }
        }
        return finite
    }

    /// Text: a size, a width, a line limit, an alignment, a truncation mode, a weight and a
    /// design from the first bytes, then the rest as a string (invalid UTF-8 replaced, bidi
    /// controls, combining marks, joiners, emoji and huge words as the fuzzer finds them), laid
    /// out and drawn on a small canvas. Invariants: no trap, every drawn outline and the
    /// layout's size finite (the size not negative), and no line kept beyond the limit.
    @discardableResult
    public static func text(_ bytes: [UInt8]) -> Bool {
        var reader = FuzzReader(bytes)
        let size = reader.coordinate()
        let widthKind = reader.byte()
        let width: Double? = widthKind % 4 == 0 ? nil : widthKind % 4 == 1 ? reader.coordinate() : Double(reader.byte())
        let limit = Int(reader.byte() % 5)
        let alignment = [TextAlignment.leading, .center, .trailing][Int(reader.byte() % 3)]
        let truncation = [TruncationMode.head, .middle, .tail][Int(reader.byte() % 3)]
        let weights: [Font.Weight] = [.ultraLight, .thin, .light, .regular, .medium, .semibold, .bold, .heavy, .black]
        let weight = weights[Int(reader.byte() % 9)]
        let design = [Font.Design.default, .serif, .rounded, .monospaced][Int(reader.byte() % 4)]
        let string = String(decoding: reader.rest().prefix(2_000), as: UTF8.self)
        let text = Text(verbatim: string).font(.system(size: size, weight: weight, design: design))
        let view = text.lineLimit(limit == 0 ? nil : limit).multilineTextAlignment(alignment).truncationMode(truncation)
            .frame(width: width.map { $0.isFinite ? min(max(0, $0), 10_000) : 10_000 })
        guard let list = try? Renderer().displayList(for: view, size: CGSize(width: 48, height: 48)) else { return true }
        _ = try? Renderer().render(view, size: CGSize(width: 32, height: 32), scale: 1)
        for leaf in list.leaves {
            let box = leaf.path.boundingRect
            if !leaf.path.isEmpty, !(box.minX.isFinite && box.maxX.isFinite && box.minY.isFinite && box.maxY.isFinite) { return false }
        }
        // The layout itself, with the same runs the view makes.
        guard let font = try? SystemFont.instance(size: size.isFinite && size > 0 ? min(size, 10_000) : 17, weight: weight.value, italic: false) else {
            return true
        }
        let points = size.isFinite && size > 0 ? min(size, 10_000) : 17
        let paragraph = ParagraphStyle(lineLimit: limit == 0 ? nil : limit, alignment: alignment, truncation: truncation)
        let laid = layOut([TextRun(text: string, font: font, size: points)], paragraph: paragraph, width: width)
        guard laid.size.width.isFinite, laid.size.height.isFinite, laid.size.width >= 0, laid.size.height >= 0 else { return false }
        if limit > 0, laid.lines.count > limit { return false }
        // What layout's reuse rests on (`LayoutPass.textLayout`): laid out again at its
        // `fitWidth`, the narrowest width the layout claims for its lines, a text keeps them.
        // (Its drawn width, `size.width`, can be less: bidi controls and invisible characters
        // make a line draw narrower than it measured; and a character wider than the line
        // makes `fitWidth` exceed the width asked for, where it is not checked.)
        let asked = width.map { $0.isFinite ? max(0, $0) : Double.nan } ?? .infinity
        if !laid.truncated, laid.fitWidth <= asked + 1e-9 {
            let again = layOut([TextRun(text: string, font: font, size: points)], paragraph: paragraph,
                               width: min(laid.fitWidth, asked))
            if again.lines.map(\.glyphs) != laid.lines.map(\.glyphs) { return false }
        }
        return true
    }

    /// PNG decoding.
    @discardableResult
    public static func png(_ bytes: [UInt8]) -> Bool {
        _ = try? PNG.decode(Data(bytes))
        return true
    }

    /// Every target by name, for the fuzz executables and the corpus replay.
    /// What a target sets up once before its first input, so that one-time work of the
    /// libraries below is not timed or counted as an input's: fontconfig's configuration.
    public static func prepare(_ target: String) {
        if target == "text" || target == "scene" { FontLibrary.startFontconfig() }
    }

    public static let all: [String: @Sendable ([UInt8]) -> Bool] = [
        "scene": scene, "svg": svgPath, "svgdoc": svgDocument, "raster": rasterizer, "stroke": stroker, "boolean": booleans, "png": png, "text": text,
    ]
}
