import Foundation
import Typography

/// Renders views to surfaces. Keep one between frames: it reuses its rasterizer's buffers and
/// layers.
///
/// ```swift
/// let surface = try Renderer().render(Orbit(), size: CGSize(width: 200, height: 120), scale: 3)
/// ```
///
/// A render goes through phases, each a function of the one before: layout (the layout tree,
/// every view's frame computed once), lowering (the display list in device space), planning
/// (every offscreen image decided: `LayerPlan`), then drawing by the plan. A render whose views
/// are the same as the last render's draws the last display list again, without layout or
/// lowering (`reusesUnchangedFrames`).
public final class Renderer {
    let rasterizer = Rasterizer()
    var recorder = StatsRecorder()
    /// Drawing-group images kept between renders (shareable between renderers).
    public let cache: DrawingGroupCache
    /// The most bytes of offscreen layers one render may hold at once (nested groups add up):
    /// 1 GiB by default, four full-frame 8K layers; beyond it `render` throws
    /// `RenderError.offscreenLimit` instead of exhausting memory.
    public var maximumOffscreenBytes = 1 << 30
    /// The most line segments one path may flatten into, in device space (2^24 by default,
    /// `maximumFlattenedSegments`): each curve becomes up to 4,096, so a path of a million huge
    /// curves would exhaust memory; beyond it `render` throws `RasterError.tooManySegments`
    /// (a stroke's path: `RenderError.strokeLimit`).
    public var maximumPathSegments: Int {
        get { rasterizer.maximumSegments }
        set { rasterizer.maximumSegments = max(0, newValue) }
    }
    /// How coverage is computed where a path overlaps itself inside a pixel: `.exact` (the
    /// default) or `.fast` (accumulation only; see `CoverageQuality`). Glyph masks are always
    /// exact (they are shared between renderers), and drawing-group images are cached per
    /// quality.
    public var coverageQuality: CoverageQuality {
        get { rasterizer.coverageQuality }
        set { rasterizer.coverageQuality = newValue }
    }
    /// The most dashes one stroke's pattern may cut its path into (`maximumDashCount`, 2^20, by
    /// default); beyond it `render` throws `RenderError.strokeLimit`.
    public var maximumDashes = maximumDashCount
    /// Whether text is drawn from cached glyph masks where it can be (the default; see
    /// `GlyphRun`), or always from its outlines filled as one path (exact, uncached: what the
    /// masks are tested and measured against).
    public var drawsGlyphsFromMasks = true
    /// The most points one stroke's outline may have (`maximumStrokeOutlineElements`, 2^22, by
    /// default: a huge round-capped width on many dashes); beyond it `render` throws
    /// `RenderError.strokeLimit`.
    public var maximumStrokeOutlinePoints = maximumStrokeOutlineElements
    /// Group layers kept between renders (see `LayerPool`); `layerPoolBudgetBytes` bounds them.
    let layerPool = LayerPool()
    /// The most bytes of finished layers kept for the next render (256 MiB by default; 0 keeps
    /// none).
    public var layerPoolBudgetBytes: Int {
        get { layerPool.budgetBytes }
        set { layerPool.budgetBytes = max(0, newValue); if newValue <= 0 { layerPool.removeAll() } }
    }
    /// Frees the layers kept for the next render.
    public func releasePooledLayers() { layerPool.removeAll() }
    /// Bytes of layers kept for the next render.
    public var pooledLayerBytes: Int { layerPool.bytes }
    /// The cache keys the last render used (what `dropUnusedCachedImages()` keeps).
    var usedKeys: Set<DrawingGroupKey> = []
    /// Glyph masks this renderer used, at hand without the shared cache's lock (at most 8,192;
    /// see `GlyphMasks.mask`).
    var glyphMemo: [GlyphKey: (mask: Surface, dx: Int, dy: Int)] = [:]
    /// Texts this renderer lowered to glyph runs, and the masks it found for each run where it
    /// drew it: a text unchanged since the last frame costs a lookup, not a pass over its glyphs.
    let textMemo = TextLoweringMemo()
    /// What the last render cost: leaf draws, every offscreen image (kind, bounds, bytes), the
    /// peak of offscreen bytes alive at once, and milliseconds per phase.
    public private(set) var lastStats = RenderStats()
    /// The last render's timeline (phases and layers as nested spans), for Perfetto.
    public private(set) var lastTrace = RenderTrace()
    /// The group layers (compositing and drawing groups) the last render allocated, with their
    /// device bounds.
    public var lastLayers: [PixelRect] {
        lastStats.layers.filter { $0.kind != .shadow }.map { PixelRect(x: $0.bounds[0], y: $0.bounds[1], width: $0.bounds[2], height: $0.bounds[3]) }
    }

    /// A renderer with its own drawing-group cache (256 MiB), or one shared with other
    /// renderers, which may render on other threads at the same time.
    ///
    /// - Parameters:
    ///   - cache: where drawing-group images are kept between renders (a new cache of its
    ///     own by default).
    ///   - threads: how many threads one render may draw on (`threads`); nil: one per active
    ///     core.
    public init(cache: DrawingGroupCache = DrawingGroupCache(), threads: Int? = nil) {
        self.cache = cache
        rasterizer.threads = threads ?? ProcessInfo.processInfo.activeProcessorCount
    }

    /// How many threads one render may use: runs of solid fills are drawn band by band, each
    /// band taken by the next thread that comes free (its pixels drawn by that one thread,
    /// fill after fill, so the image is byte for byte the same whatever the number); helper
    /// threads build recorded fills while more are recorded; and containers of 512 children
    /// or more are lowered, and display lists of 512 items or more planned, on every thread,
    /// joined in order (the same display list, warnings and errors). Work too small to pay
    /// for waking a thread stays on the calling one. By default, one per active core; set it
    /// lower when renders run side by side (`compose animate --jobs`).
    public var threads: Int {
        get { rasterizer.threads }
        set { rasterizer.threads = newValue }
    }

    /// The work one stroke may ask for in this renderer's renders.
    public var strokeLimits: StrokeLimits {
        StrokeLimits(maximumDashes: maximumDashes, maximumOutlinePoints: maximumStrokeOutlinePoints, maximumSegments: maximumPathSegments)
    }

    /// The last render's image as PNG, its time added to `lastStats` as the `encoding` phase
    /// (and to `lastTrace`).
    public func encodePNG(_ surface: Surface) throws -> Data {
        let start = ContinuousClock.now
        let data = try PNG.encode(surface)
        let elapsed = ContinuousClock.now - start
        let ms = Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) * 1e-15
        lastStats.phasesMs["encoding", default: 0] += ms
        let end = lastTrace.spans.first?.duration ?? 0
        lastTrace.spans.append(.init(name: "encoding", category: "phase", start: end, duration: ms * 1e3))
        return data
    }

    /// Drops the cached drawing-group images the last render did not use.
    public func dropUnusedCachedImages() {
        cache.removeAll(except: usedKeys)
    }

    /// Layers cover their content's ink plus this margin in device pixels, for anti-aliased
    /// edges that reach past the geometric bounds (resvg uses 2 for the same reason).
    public static let layerMargin = 2

    /// The view laid out in a canvas of `size` points (proposed to the view, the chosen size
    /// centred, as a window does) and lowered to device space at `scale`.
    /// - Throws: `RenderError.strokeLimit` when a stroke asks for more than this renderer's
    ///   limits allow.
    public func displayList<V: View>(for view: V, size canvas: CGSize, scale: Double = 1) throws -> DisplayList {
        var unused = StatsRecorder()
        return try displayList(for: view, size: canvas, scale: scale, recorder: &unused)
    }

    func displayList<V: View>(for view: V, size canvas: CGSize, scale: Double, recorder: inout StatsRecorder) throws -> DisplayList {
        // Read before anything is made: a font registered on another thread meanwhile makes
        // the next frame anew.
        let inputs = frameInputs(canvas, scale)
        let (root, reused) = recorder.time(.layout) { () -> (ViewNode, DisplayList?) in
            let root = resolve(view)
            guard reusesUnchangedFrames, let last = lastFrame else { return (root, nil) }
            return (root, last.inputs == inputs && last.root.isCertainlySame(as: root) ? last.list : nil)
        }
        if let reused {
            recorder.stats.reusedDisplayList = true
            return reused
        }
        lastFrame = nil
        let tree = try recorder.time(.layout) { try PlacedNode(laying: root, inCanvas: canvas) }
        let lowering = Lowering(limits: strokeLimits, glyphMasks: drawsGlyphsFromMasks, textMemo: textMemo, threads: threads)
        let list: DisplayList
        do {
            list = try recorder.time(.lowering) { try lowering.displayList(tree, scale: scale) }
        } catch let refusal as StrokeRefusal {
            throw RenderError.strokeLimit(refusal)
        }
        if reusesUnchangedFrames { lastFrame = LastFrame(root: root, inputs: inputs, list: list) }
        return list
    }

    /// Whether a render whose views are the same as the last render's draws the last display
    /// list again (true by default), as SwiftUI skips views whose inputs did not change: layout
    /// and lowering then cost one comparison of the two view trees, and `lastStats` says
    /// `reusedDisplayList`. The same means: the same canvas, scale and renderer limits, no font
    /// or symbol registered since, and every view certainly equal to its counterpart. Built-in
    /// shapes, styles, texts and modifiers compare by value, images by identity, vector
    /// drawings by `isSameDrawing(as:)`, and shapes of your own only when they are `Equatable`
    /// (a frame with one that is not is always laid out again). False: every render lays its
    /// views out and lowers them.
    public var reusesUnchangedFrames = true {
        didSet { if !reusesUnchangedFrames { lastFrame = nil } }
    }

    /// The last display list made from views, with what it was made from.
    private var lastFrame: LastFrame?

    private struct LastFrame {
        var root: ViewNode
        var inputs: FrameInputs
        var list: DisplayList
    }

    /// What a display list depends on besides the views.
    private struct FrameInputs: Equatable {
        var canvas: CGSize
        var scale: Double
        var limits: StrokeLimits
        var glyphMasks: Bool
        var fontRegistrations: Int
        var symbolRegistrations: Int
    }

    /// The fonts and symbol sets registered so far, as `frameInputs` reads them: a frame after
    /// a registration is made anew.
    static func registrationStamp() -> [Int] {
        [FontRegistry.shared.registrations, SymbolSet.registrations.withLock { $0 }]
    }

    /// `body`'s result from a run during which nothing registered a font or a symbol set. For
    /// tests that expect a frame to be reused: others running beside them register some, which
    /// rightly makes the next frame anew; `body` is run again until no registration fell in it.
    /// `body` must draw both frames it compares, the earlier one too.
    static func withoutRegistrationsMeanwhile<T>(_ body: () throws -> T) rethrows -> T {
        while true {
            let stamp = registrationStamp()
            let result = try body()
            if registrationStamp() == stamp { return result }
        }
    }

    private func frameInputs(_ canvas: CGSize, _ scale: Double) -> FrameInputs {
        FrameInputs(canvas: canvas, scale: scale, limits: strokeLimits, glyphMasks: drawsGlyphsFromMasks,
                    fontRegistrations: FontRegistry.shared.registrations, symbolRegistrations: SymbolSet.registrations.withLock { $0 })
    }

    /// Where `view`'s drawing goes offscreen at `scale` and what each image costs: the layer
    /// plan this renderer would draw by, read before anything is drawn.
    public func explain<V: View>(_ view: V, size canvas: CGSize, scale: Double = 1) throws -> Explanation {
        let list = try displayList(for: view, size: canvas, scale: scale)
        let area = try Renderer.canvasPixels(canvas, scale: scale)
        let plan = LayerPlan(items: try LayerPlanner().plan(list.items, on: area, format: .argb32))
        return Explanation(list: list, plan: plan, canvas: area)
    }

    /// The device pixels of a canvas of `size` points at `scale`.
    static func canvasPixels(_ size: CGSize, scale: Double) throws -> PixelRect {
        let (w, h) = (size.width * scale, size.height * scale)
        guard scale.isFinite, scale > 0, w.isFinite, h.isFinite, w >= 0, h >= 0 else {
            throw RenderError.invalidCanvas(size: size, scale: scale)
        }
        // Checked before the conversion to Int, which would trap on a huge value.
        let limit = Double(SurfaceLimits.maximumDimension)
        guard w.rounded(.up) <= limit, h.rounded(.up) <= limit else {
            throw SurfaceError.tooLarge(width: Int(min(w.rounded(.up), 1e15)), height: Int(min(h.rounded(.up), 1e15)))
        }
        return PixelRect(x: 0, y: 0, width: Int(w.rounded(.up)), height: Int(h.rounded(.up)))
    }

    /// Renders `view` into a new surface of `size` × `scale` pixels over `background`
    /// (nil: transparent).
    public func render<V: View>(_ view: V, size canvas: CGSize, scale: Double = 1, background: Color? = .white) throws -> Surface {
        let area = try Renderer.canvasPixels(canvas, scale: scale)
        let surface = try Surface(width: area.width, height: area.height)
        try render(view, into: surface, size: canvas, scale: scale, background: background)
        return surface
    }

    /// Renders `view` into an existing surface (reused across frames: no allocation), first
    /// filled with `background` (nil: cleared to transparent). The view is laid out in
    /// `size` points (by default the surface's pixels ÷ `scale`).
    public func render<V: View>(_ view: V, into surface: Surface, size: CGSize? = nil, scale: Double = 1,
                                background: Color? = .white) throws {
        guard scale.isFinite, scale > 0 else { throw RenderError.invalidCanvas(size: size ?? .zero, scale: scale) }
        let canvas = size ?? CGSize(width: Double(surface.width) / scale, height: Double(surface.height) / scale)
        try render(into: surface, background: background) { recorder in
            try displayList(for: view, size: canvas, scale: scale, recorder: &recorder)
        }
    }

    /// Draws a display list made before (by `displayList(for:size:scale:)`, in device pixels)
    /// into `surface`, first filled with `background` (nil: cleared to transparent): the
    /// planning and drawing of a render without its layout and lowering, for measuring what
    /// drawing alone costs or drawing the same list again (`lastStats` counts 0 ms of layout and
    /// lowering then).
    public func render(_ list: DisplayList, into surface: Surface, background: Color? = .white) throws {
        try render(into: surface, background: background) { _ in list }
    }

    private func render(into surface: Surface, background: Color?, list makeList: (inout StatsRecorder) throws -> DisplayList) throws {
        recorder = StatsRecorder()
        usedKeys = []
        let evictionsBefore = cache.statistics.evictions
        let coverageBefore = rasterizer.coveragePixels
        defer {
            recorder.stats.coveragePixels = rasterizer.coveragePixels - coverageBefore
            let after = cache.statistics
            recorder.stats.cache.evictions = after.evictions - evictionsBefore
            recorder.stats.cache.bytes = after.bytes
            recorder.finish()
            (lastStats, lastTrace) = (recorder.stats, recorder.trace)
        }
        let list = try makeList(&recorder)
        let plan = try recorder.time(.planning) {
            try LayerPlanner(threads: threads).plan(list.items, on: PixelRect(x: 0, y: 0, width: surface.width, height: surface.height),
                                                    format: surface.format)
        }
        if let background { surface.fill(background) } else { surface.clear() }
        try draw(plan, on: surface, origin: (0, 0))
        // The renderer allocates by the plan: with a cold cache it makes exactly the planned
        // images (what `explain` reports). Checked in debug builds, so every render of the
        // test suite checks it.
        assert(recorder.stats.cache.hits > 0 || recorder.stats.layers == LayerPlan(items: plan).images.map(RenderStats.Layer.init),
               "a render allocated other images than its plan")
    }
}

/// A canvas the renderer cannot draw into, or a drawing beyond its limits.
public enum RenderError: Error, CustomStringConvertible, Equatable {
    /// The size or scale is NaN, infinite or negative, or the scale is zero.
    case invalidCanvas(size: CGSize, scale: Double)
    /// The layers alive at once would hold more than `Renderer.maximumOffscreenBytes`.
    case offscreenLimit(needed: Int, limit: Int)
    /// A stroke asked for more work than the renderer's stroke limits allow.
    case strokeLimit(StrokeRefusal)

    /// The `Renderer` property that sets the limit this error is about, if any.
    public var limitProperty: String? {
        switch self {
        case .invalidCanvas: nil
        case .offscreenLimit: "Renderer.maximumOffscreenBytes"
        case .strokeLimit(let refusal):
            switch refusal {
            case .dashes: "Renderer.maximumDashes"
            case .outlinePoints: "Renderer.maximumStrokeOutlinePoints"
            case .segments: "Renderer.maximumPathSegments"
            }
        }
    }

    public var description: String {
        switch self {
        case let .invalidCanvas(size, scale):
            "cannot render a \(size.width)×\(size.height) canvas at scale \(scale): "
                + "the size must be finite and non-negative, the scale finite and positive"
        case let .offscreenLimit(needed, limit):
            "the render needs \(needed) bytes of offscreen layers at once, more than the limit of \(limit)"
                + " (nested groups each hold a layer)"
        case let .strokeLimit(refusal):
            "\(refusal); nothing was drawn"
        }
    }
}
