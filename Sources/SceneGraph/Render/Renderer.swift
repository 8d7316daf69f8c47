import Foundation

/// Renders views to surfaces. Keep one between frames: it reuses its rasterizer's buffers.
///
/// ```swift
/// let surface = try Renderer().render(Orbit(), size: CGSize(width: 200, height: 120), scale: 3)
/// ```
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
    /// curves would exhaust memory; beyond it `render` throws `RasterError.tooManySegments`.
    public var maximumPathSegments: Int {
        get { rasterizer.maximumSegments }
        set { rasterizer.maximumSegments = max(0, newValue) }
    }
    /// The most dashes one stroke's pattern may cut its path into (`maximumDashCount`, 2^20, by
    /// default); beyond it `render` throws `RenderError.strokeLimit`.
    public var maximumDashes = maximumDashCount
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
    public init(cache: DrawingGroupCache = DrawingGroupCache()) {
        self.cache = cache
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
    public func displayList<V: View>(for view: V, size canvas: CGSize, scale: Double = 1) -> DisplayList {
        var unused = StatsRecorder()
        return displayList(for: view, size: canvas, scale: scale, recorder: &unused)
    }

    private func displayList<V: View>(for view: V, size canvas: CGSize, scale: Double,
                                      recorder: inout StatsRecorder) -> DisplayList {
        let (node, rect) = recorder.time("layout") {
            let node = resolve(view)
            let chosen = SceneGraph.size(of: node, proposal: ProposedSize(width: canvas.width, height: canvas.height))
            return (node, Alignment.center.place(chosen, in: CGRect(origin: .zero, size: canvas)))
        }
        var items: [DisplayItem] = []
        let notes = LoweringNotes()
        recorder.time("lowering") {
            lower(node, in: rect, context: LowerContext(transform: CGAffineTransform(scaleX: scale, y: scale), opacity: 1, blendMode: nil,
                                                        notes: notes, scale: scale),
                  into: &items)
        }
        return DisplayList(items: items, warnings: notes.warnings)
    }

    /// Renders `view` into a new surface of `size` × `scale` pixels over `background`
    /// (nil: transparent).
    public func render<V: View>(_ view: V, size canvas: CGSize, scale: Double = 1, background: Color? = .white) throws -> Surface {
        let (w, h) = (canvas.width * scale, canvas.height * scale)
        guard scale.isFinite, scale > 0, w.isFinite, h.isFinite, w >= 0, h >= 0 else {
            throw RenderError.invalidCanvas(size: canvas, scale: scale)
        }
        // Checked before the conversion to Int, which would trap on a huge value.
        let limit = Double(SurfaceLimits.maximumDimension)
        guard w.rounded(.up) <= limit, h.rounded(.up) <= limit else {
            throw SurfaceError.tooLarge(width: Int(min(w.rounded(.up), 1e15)), height: Int(min(h.rounded(.up), 1e15)))
        }
        let surface = try Surface(width: Int(w.rounded(.up)), height: Int(h.rounded(.up)))
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
        // Strokes are outlined while lowering; one the limits refuse is an error, not a
        // picture drawn differently (solid instead of dashed, or missing).
        let strokeLimits = StrokeLimits(maximumDashes: maximumDashes, maximumOutlinePoints: maximumStrokeOutlinePoints,
                                        maximumSegments: maximumPathSegments)
        try strokeLimits.apply {
            let list = displayList(for: view, size: canvas, scale: scale, recorder: &recorder)
            if let refusal = strokeLimits.firstRefusal { throw RenderError.strokeLimit(refusal) }
            if let background { surface.fill(background) } else { surface.clear() }
            try draw(list.items, on: surface, origin: (0, 0))
            if let refusal = strokeLimits.firstRefusal {
                // Outlined during drawing: images cached by this render may hold the refused stroke.
                cache.removeAll(except: [])
                throw RenderError.strokeLimit(refusal)
            }
        }
    }

    /// The combined coverage of `clips` on `surface` (nil: nothing survives).
    private func clipMask(_ clips: [ClipPath], shift: CGAffineTransform, surface: Surface) throws -> CoverageMask? {
        var mask: CoverageMask?
        for clip in clips {
            guard let m = try CoverageMask.make(clip.path.applying(shift), fillRule: clip.fillRule, within: surface.bounds,
                                                rasterizer: rasterizer)
            else { return nil }
            if let current = mask {
                guard let both = try current.intersected(m) else { return nil }
                mask = both
            } else {
                mask = m
            }
        }
        return mask
    }

    /// A group's layer, within the surface it is drawn onto.
    private func layerBounds(_ item: DisplayItem, surface: Surface, origin: (x: Int, y: Int)) -> PixelRect? {
        Renderer.layerBounds(item, within: PixelRect(x: origin.x, y: origin.y, width: surface.width, height: surface.height))
    }

    /// A group's layer: a compositing group's ink bounds plus the margin, a drawing group's
    /// frame, rounded out to whole pixels and cut to `visible` (the surface it is drawn onto);
    /// nil when nothing is visible.
    static func layerBounds(_ item: DisplayItem, within visible: PixelRect) -> PixelRect? {
        var m = Double(Renderer.layerMargin)
        if case .drawingGroup = item { m = 0 }
        // Cut to the visible area before rounding out (its edges are whole pixels, so the
        // order does not change the result, and a huge ink rectangle never meets `Int`).
        return PixelRect(cut: item.inkBounds.insetBy(dx: -m, dy: -m), to: visible)
    }

    /// A blur's layer: its content's ink spread by the blur (plus the margin; none when
    /// opaque, whose edges repeat), cut to what lies within the blur's reach of the visible
    /// surface: content just outside still bleeds in.
    private func blurBounds(_ item: DisplayItem, sigma: Double, opaque: Bool, surface: Surface, origin: (x: Int, y: Int)) -> PixelRect? {
        let m = opaque ? 0 : Double(Renderer.layerMargin)
        let reach = gaussianExtent(sigma: sigma)
        return PixelRect(cut: item.inkBounds.insetBy(dx: -m, dy: -m),
                         to: PixelRect(x: origin.x - reach, y: origin.y - reach, width: surface.width + 2 * reach, height: surface.height + 2 * reach))
    }

    /// The pixel format of a drawing group's image.
    static func layerFormat(opaque: Bool, colorMode mode: ColorRenderingMode) -> PixelFormat {
        opaque ? .xrgb32 : mode == .linear ? .argb32Linear : mode == .extendedLinear ? .rgbaFloat : .argb32
    }

    /// Draws items onto `surface`, whose pixel (0, 0) is device pixel `origin`.
    func draw(_ items: [DisplayItem], on surface: Surface, origin: (x: Int, y: Int)) throws {
        let canvas = Canvas(surface, rasterizer: rasterizer)
        let shift = CGAffineTransform(translationX: CGFloat(-origin.x), y: CGFloat(-origin.y))
        for item in items {
            switch item {
            case let .fill(path, color, rule, blend, clips, shadows):
                var mask: CoverageMask?
                if !clips.isEmpty {
                    guard let m = try clipMask(clips, shift: shift, surface: surface) else { continue }
                    mask = m
                }
                // A clipped leaf casts the shadow of what remains visible: its path intersected
                // with each clip (a shape boolean, when the fill rules agree).
                let caster = shadows.isEmpty || clips.isEmpty ? path : clips.reduce(path) { shape, clip in
                    clip.fillRule == rule ? shape.intersection(clip.path, eoFill: rule == .evenOdd) : shape
                }
                for shadow in shadows {
                    let b = try recorder.time("filters") { try canvas.drawShadow(of: caster, fillRule: rule, transform: shift, shadow: shadow) }
                    recorder.transient(.shadow, b, bytesPerPixel: 1)
                }
                try recorder.time("rasterization") {
                    try canvas.fill(path, with: color.drawablePaint(), fillRule: rule, transform: shift,
                                    paintTransform: color.transform.concatenating(shift), opacity: color.coverageOpacity,
                                    blendMode: blend, clipMask: mask)
                }
                recorder.stats.leafDraws += 1
            case let .compositingGroup(opacity, blend, clips, shadows, children):
                guard let bounds = layerBounds(item, surface: surface, origin: origin) else { continue }
                try drawGroup(children, kind: .compositingGroup, format: .argb32, bounds: bounds, opacity: opacity, clips: clips,
                              shadows: shadows, on: surface, origin: origin, canvas: canvas) { layer, dx, dy, mask in
                    try surface.composite(layer, at: dx, y: dy, opacity: opacity, blendMode: blend, clipMask: mask)
                }
            case let .colorFilter(matrix, opacity, blend, clips, shadows, children):
                guard let bounds = layerBounds(item, surface: surface, origin: origin) else { continue }
                try drawGroup(children, kind: .compositingGroup, format: .argb32, bounds: bounds, opacity: opacity, clips: clips,
                              shadows: shadows, on: surface, origin: origin, canvas: canvas, prepare: { layer in
                                  self.recorder.time("filters") { layer.apply(matrix) }
                              }) { layer, dx, dy, mask in
                    try surface.composite(layer, at: dx, y: dy, opacity: opacity, blendMode: blend, clipMask: mask)
                }
            case let .blur(sigma, opaque, opacity, blend, clips, shadows, children):
                guard let bounds = blurBounds(item, sigma: sigma, opaque: opaque, surface: surface, origin: origin) else { continue }
                try drawGroup(children, kind: .blur, format: .argb32, bounds: bounds, opacity: opacity, clips: clips,
                              shadows: shadows, on: surface, origin: origin, canvas: canvas, prepare: { layer in
                                  self.recorder.time("filters") { layer.blur(sigma: sigma, clampEdges: opaque) }
                              }) { layer, dx, dy, mask in
                    try surface.composite(layer, at: dx, y: dy, opacity: opacity, blendMode: blend, clipMask: mask)
                }
            case let .mask(opacity, blend, clips, shadows, maskItems, children):
                guard let bounds = layerBounds(item, surface: surface, origin: origin) else { continue }
                try drawGroup(children, kind: .mask, format: .argb32, bounds: bounds, opacity: opacity, clips: clips,
                              shadows: shadows, on: surface, origin: origin, canvas: canvas, prepare: { layer in
                                  let (maskLayer, bytes) = try self.makeLayer(.mask, width: bounds.width, height: bounds.height,
                                                                              format: .argb32, recordedAs: bounds, pooled: true)
                                  defer {
                                      self.recorder.release(bytes)
                                      self.recycle(maskLayer)
                                  }
                                  try self.draw(maskItems, on: maskLayer, origin: (bounds.x, bounds.y))
                                  self.recorder.time("composition") { layer.keep(alphaOf: maskLayer) }
                              }) { layer, dx, dy, mask in
                    try surface.composite(layer, at: dx, y: dy, opacity: opacity, blendMode: blend, clipMask: mask)
                }
            case let .drawingGroup(opaque, mode, opacity, blend, image, clips, shadows, children):
                guard let bounds = layerBounds(item, surface: surface, origin: origin) else { continue }
                let format = Renderer.layerFormat(opaque: opaque, colorMode: mode)
                let picture = try groupImage(children, image, format: format)
                defer { recorder.release(picture.liveBytes) }
                if try placeDirectly(picture.surface, image, opacity: opacity, blend: blend, clips: clips, shadows: shadows,
                                     on: canvas, origin: origin) {
                    continue
                }
                guard let (layer, dx, dy) = try place(picture.surface, image, bounds: bounds, on: surface, origin: origin) else { continue }
                try finishGroup(layer, at: dx, dy, opacity: opacity, clips: clips, shadows: shadows, on: surface, origin: origin,
                                canvas: canvas) { layer, dx, dy, mask in
                    if layer.format == .rgbaFloat, blend == .normal, mask == nil, surface.format == .argb32 || surface.format == .xrgb32 {
                        // Encoded with the extended transfer function before the opacity applies.
                        surface.compositeExtended(layer, at: dx, y: dy, opacity: opacity)
                    } else {
                        // Into the parent's encoding (an opaque image stays opaque), then composited.
                        let converted = layer.format == surface.format ? layer
                            : try layer.converted(to: surface.format == .xrgb32 ? .argb32 : surface.format)
                        try surface.composite(converted, at: dx, y: dy, opacity: opacity, blendMode: blend, clipMask: mask)
                    }
                }
            }
        }
    }

    /// A group: `children` drawn into a layer of `format` covering `bounds` (device pixels),
    /// then its shadows (from the layer's alpha, faded by `opacity`) and the layer itself,
    /// through the group's clips, by `composite(layer, x, y, clip mask)` onto `surface`.
    private func drawGroup(_ children: [DisplayItem], kind: RenderStats.LayerKind, format: PixelFormat, bounds: PixelRect,
                           opacity: Double, clips: [ClipPath], shadows: [DropShadow], on surface: Surface,
                           origin: (x: Int, y: Int), canvas: Canvas, prepare: ((Surface) throws -> Void)? = nil,
                           composite: (Surface, Int, Int, CoverageMask?) throws -> Void) throws {
        let covered = children.first?.coversOpaquely(bounds) ?? false
        let (layer, bytes) = try makeLayer(kind, width: bounds.width, height: bounds.height, format: format, recordedAs: bounds,
                                           pooled: true, cleared: !covered)
        defer {
            recorder.release(bytes)
            recycle(layer)
        }
        try draw(children, on: layer, origin: (bounds.x, bounds.y))
        try prepare?(layer)
        try finishGroup(layer, at: bounds.x - origin.x, bounds.y - origin.y, opacity: opacity, clips: clips, shadows: shadows,
                        on: surface, origin: origin, canvas: canvas, composite: composite)
    }

    /// A group's finished `layer`, whose pixel (0, 0) lies at (`dx`, `dy`) of `surface`: its
    /// shadows (from the layer's alpha, faded by `opacity`), then the layer through the group's
    /// clips, by `composite(layer, x, y, clip mask)`.
    func finishGroup(_ layer: Surface, at dx: Int, _ dy: Int, opacity: Double, clips: [ClipPath], shadows: [DropShadow],
                     on surface: Surface, origin: (x: Int, y: Int), canvas: Canvas,
                     composite: (Surface, Int, Int, CoverageMask?) throws -> Void) throws {
        var mask: CoverageMask?
        if !clips.isEmpty {
            let shift = CGAffineTransform(translationX: CGFloat(-origin.x), y: CGFloat(-origin.y))
            guard let m = try clipMask(clips, shift: shift, surface: surface) else { return }
            mask = m
        }
        for shadow in shadows {
            var s = shadow
            s.color = s.color.opacity(opacity)
            let b = try recorder.time("filters") { try canvas.drawShadow(of: layer, at: dx, y: dy, shadow: s) }
            recorder.transient(.shadow, b, bytesPerPixel: 1)
        }
        try recorder.time("composition") { try composite(layer, dx, dy, mask) }
    }
}

/// A canvas the renderer cannot draw into.
public enum RenderError: Error, CustomStringConvertible, Equatable {
    /// The size or scale is NaN, infinite or negative, or the scale is zero.
    case invalidCanvas(size: CGSize, scale: Double)
    /// The layers alive at once would hold more than `Renderer.maximumOffscreenBytes`.
    case offscreenLimit(needed: Int, limit: Int)
    /// A stroke asked for more work than the renderer's stroke limits allow.
    case strokeLimit(StrokeRefusal)

    public var description: String {
        switch self {
        case let .invalidCanvas(size, scale):
            "cannot render a \(size.width)×\(size.height) canvas at scale \(scale): "
                + "the size must be finite and non-negative, the scale finite and positive"
        case let .offscreenLimit(needed, limit):
            "the render needs \(needed) bytes of offscreen layers at once, more than the limit of \(limit)"
                + " (nested groups each hold a layer; raise Renderer.maximumOffscreenBytes, or --max-offscreen-bytes)"
        case let .strokeLimit(refusal):
            "\(refusal); nothing was drawn"
        }
    }
}
