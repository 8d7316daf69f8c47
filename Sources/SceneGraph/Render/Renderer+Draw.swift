import Foundation

extension Renderer {
    /// Draws planned items onto `surface`, whose pixel (0, 0) is device pixel `origin`: the
    /// surface the plan was made for.
    ///
    /// Runs of plain solid leaves (no clip, shadow or text, source-over) are batched: their
    /// fills are recorded and drawn band by band of the surface (`FillBatch`: the same bytes,
    /// the band's pixels kept in cache); anything else flushes the batch before it draws.
    func draw(_ items: [PlannedItem], on surface: Surface, origin: (x: Int, y: Int)) throws {
        let canvas = Canvas(surface, rasterizer: rasterizer)
        let outer = try recorder.time(.rasterization) { try rasterizer.beginBatch(on: surface) }
        for item in items {
            switch item {
            case let .leaf(leaf, plan):
                if !Self.batches(leaf) { try flushBatch() }
                try drawLeaf(leaf, plan, on: canvas, origin: origin)
            case let .group(group, plan):
                try flushBatch()
                try drawGroup(group, plan, on: canvas, origin: origin)
            }
        }
        try recorder.time(.rasterization) { try rasterizer.endBatch(restoring: outer) }
    }

    /// Draws the fills the batch recorded, timed as rasterization (where most of a batched
    /// scene's drawing happens); with none recorded, nothing is timed (a page of labels has
    /// nothing to flush before each of its 500 texts).
    private func flushBatch() throws {
        guard rasterizer.hasRecordedFills else { return }
        try recorder.time(.rasterization) { try rasterizer.flushBatch() }
    }

    /// Whether a leaf's drawing is one solid source-over fill, which a batch may record.
    private static func batches(_ leaf: DisplayItem.Leaf) -> Bool {
        guard leaf.clips.isEmpty, leaf.shadows.isEmpty, leaf.glyphs == nil, leaf.blendMode == .normal,
              case .color = leaf.fill else { return false }
        return true
    }

    private func drawLeaf(_ leaf: DisplayItem.Leaf, _ plan: LeafPlan, on canvas: Canvas, origin: (x: Int, y: Int)) throws {
        guard plan.visible else { return }
        let shift = CGAffineTransform(translationX: CGFloat(-origin.x), y: CGFloat(-origin.y))
        var mask: CoverageMask?
        if !leaf.clips.isEmpty {
            guard let m = try clipMask(leaf.clips, shift: shift, surface: canvas.surface) else { return }
            mask = m
        }
        if !leaf.shadows.isEmpty {
            let caster = plan.caster.applying(shift)
            for (shadow, planned) in zip(leaf.shadows, plan.shadowMasks) {
                guard let planned else { continue }
                try recorder.time(.filters) {
                    try canvas.drawShadow(of: caster, fillRule: leaf.fillRule, shadow: shadow,
                                          maskBounds: planned.bounds.offsetBy(dx: -origin.x, dy: -origin.y))
                }
                recorder.transient(planned)
            }
        }
        if let glyphs = leaf.glyphs {
            try drawGlyphs(glyphs, leaf, on: canvas, origin: origin, clipMask: mask)
            recorder.stats.leafDraws += 1
            return
        }
        // A stroke kept as the stroke, its outline not made: stroked straight into the edges.
        if let stroke = leaf.stroke, !leaf.hasOutline {
            try recorder.time(.rasterization) {
                try canvas.fill(stroke, with: leaf.fill.drawablePaint(), transform: shift,
                                paintTransform: leaf.fill.transform.concatenating(shift), opacity: leaf.fill.coverageOpacity,
                                blendMode: leaf.blendMode, clipMask: mask)
            }
            recorder.stats.leafDraws += 1
            return
        }
        // A stroke's outline winds one way: accumulated, at either quality (see `strokeOutline`).
        let quality: CoverageQuality? = leaf.strokeOutline && leaf.fillRule == .nonZero ? .fast : nil
        try recorder.time(.rasterization) {
            try canvas.fill(leaf.path, with: leaf.fill.drawablePaint(), fillRule: leaf.fillRule, transform: shift,
                            paintTransform: leaf.fill.transform.concatenating(shift), opacity: leaf.fill.coverageOpacity,
                            blendMode: leaf.blendMode, clipMask: mask, coverageQuality: quality)
        }
        recorder.stats.leafDraws += 1
    }

    /// A text leaf from glyph masks: each glyph's mask from the cache (rasterized on a miss),
    /// added into the run's coverage and composited with the paint.
    private func drawGlyphs(_ run: GlyphRun, _ leaf: DisplayItem.Leaf, on canvas: Canvas, origin: (x: Int, y: Int),
                            clipMask: CoverageMask?) throws {
        var masks: [(mask: Surface, x: Int, y: Int)] = []
        var hits = 0, misses = 0
        let visible = canvas.clip.intersection(canvas.surface.bounds)
        let key = TextLoweringMemo.MasksKey(run: ObjectIdentifier(run.storage), x: run.origin.x.bitPattern, y: run.origin.y.bitPattern,
                                            layerX: origin.x, layerY: origin.y, visible: visible)
        if let known = textMemo.masks[key], known.run === run.storage {
            // Drawn here before: the same masks at the same places.
            masks = known.masks
            hits = masks.count
        } else {
            masks.reserveCapacity(run.glyphs.count)
            try recorder.time(.rasterization) {
                for g in run.glyphs {
                    let x = (run.origin.x + g.x) - Double(origin.x), y = (run.origin.y + g.y) - Double(origin.y)
                    // Glyphs wholly outside the surface (or nowhere: not finite) are skipped before
                    // any mask is made.
                    let reach = g.pixelsPerEm * 2
                    guard x.isFinite, y.isFinite else { continue }
                    if x + reach < Double(visible.x) || x - reach > Double(visible.maxX) || y + reach < Double(visible.y) || y - reach > Double(visible.maxY) {
                        continue
                    }
                    guard let m = try GlyphMasks.mask(for: g, x: x, y: y, rasterizer: rasterizer, memo: &glyphMemo) else { continue }
                    masks.append((m.mask, m.x, m.y))
                    if m.hit { hits += 1 } else { misses += 1 }
                }
            }
            textMemo.keep(masks, of: run.storage, for: key)
        }
        recorder.stats.glyphs += masks.count
        recorder.stats.glyphCache.hits += hits
        recorder.stats.glyphCache.misses += misses
        let shift = CGAffineTransform(translationX: CGFloat(-origin.x), y: CGFloat(-origin.y))
        try recorder.time(.composition) {
            try canvas.fill(masks: masks, with: leaf.fill.drawablePaint(), paintTransform: leaf.fill.transform.concatenating(shift),
                            opacity: leaf.fill.coverageOpacity, blendMode: leaf.blendMode, clipMask: clipMask)
        }
    }

    /// A group: its children drawn into its layer, the layer prepared as its isolation says
    /// (a colour matrix, a blur, a mask; a drawing group's image cached and placed), then its
    /// shadows and the layer composited onto the parent through its clips.
    private func drawGroup(_ group: DisplayItem.Group, _ plan: GroupPlan, on canvas: Canvas, origin: (x: Int, y: Int)) throws {
        guard let planned = plan.layer else { return }
        if case let .image(image, placement, conversion) = plan.preparation {
            try drawImage(group, plan, planned, image, placement, conversion, on: canvas, origin: origin)
            return
        }
        let bounds = plan.layerRect
        let covered = group.children.first?.coversOpaquely(bounds) ?? false
        let (layer, bytes) = try makeLayer(planned, width: bounds.width, height: bounds.height, pooled: true, cleared: !covered)
        defer {
            recorder.release(bytes)
            recycle(layer)
        }
        try draw(plan.children, on: layer, origin: (bounds.x, bounds.y))
        switch plan.preparation {
        case .none, .image:
            break
        case .colorMatrix(let matrix):
            recorder.time(.filters) { layer.apply(matrix) }
        case .luminanceToAlpha:
            recorder.time(.filters) { layer.convertLuminanceToAlpha() }
        case let .blur(sigma, opaque):
            recorder.time(.filters) { layer.blur(sigma: sigma, clampEdges: opaque, threads: threads) }
        case let .mask(maskImage, maskItems):
            let (maskLayer, maskBytes) = try makeLayer(maskImage, width: bounds.width, height: bounds.height, pooled: true)
            defer {
                recorder.release(maskBytes)
                recycle(maskLayer)
            }
            try draw(maskItems, on: maskLayer, origin: (bounds.x, bounds.y))
            recorder.time(.composition) { layer.keep(alphaOf: maskLayer) }
        case let .filter(graph, images):
            try applyFilter(graph, images, to: layer, at: bounds)
        }
        let c = group.composite
        try finish(group, plan, layer, at: bounds.x - origin.x, bounds.y - origin.y, on: canvas, origin: origin) { layer, dx, dy, mask in
            try canvas.surface.composite(layer, at: dx, y: dy, opacity: c.opacity, blendMode: c.blendMode, clipMask: mask,
                                         threads: threads)
        }
    }

    /// Runs `graph` on `layer` (device rectangle `bounds`), its image primitives' pictures
    /// drawn first, each into a layer of the same pixels. The filter's float working images
    /// (16 bytes a pixel: the source, its alpha, one per primitive) count against the
    /// offscreen budget while it runs.
    private func applyFilter(_ graph: FilterGraph, _ images: [(PlannedImage, [PlannedItem])], to layer: Surface,
                             at bounds: PixelRect) throws {
        var pictures: [Surface] = []
        var held = 0
        defer {
            recorder.release(held)
            pictures.forEach(recycle)
        }
        for (planned, items) in images {
            let (picture, bytes) = try makeLayer(planned, width: bounds.width, height: bounds.height, pooled: true)
            pictures.append(picture)
            held += bytes
            try draw(items, on: picture, origin: (bounds.x, bounds.y))
        }
        try checkOffscreenBudget(bounds.area * 16 * (graph.primitives.count + 2))
        try recorder.time(.filters) { try graph.apply(to: layer, origin: (bounds.x, bounds.y), images: pictures, threads: threads) }
    }

    /// A group's finished `layer`, whose pixel (0, 0) lies at (`dx`, `dy`) of the canvas: its
    /// shadows (from the layer's alpha, faded by the group's opacity), then the layer through
    /// the group's clips, by `composite(layer, x, y, clip mask)`.
    func finish(_ group: DisplayItem.Group, _ plan: GroupPlan, _ layer: Surface, at dx: Int, _ dy: Int, on canvas: Canvas,
                origin: (x: Int, y: Int), composite: (Surface, Int, Int, CoverageMask?) throws -> Void) throws {
        let c = group.composite
        guard plan.composited else { return }
        var mask: CoverageMask?
        if !c.clips.isEmpty {
            let shift = CGAffineTransform(translationX: CGFloat(-origin.x), y: CGFloat(-origin.y))
            guard let m = try clipMask(c.clips, shift: shift, surface: canvas.surface) else { return }
            mask = m
        }
        for (shadow, planned) in zip(c.shadows, plan.shadowMasks) {
            var s = shadow
            s.color = s.color.opacity(c.opacity)
            _ = try recorder.time(.filters) { try canvas.drawShadow(of: layer, at: dx, y: dy, shadow: s) }
            recorder.transient(planned)
        }
        try recorder.time(.composition) { try composite(layer, dx, dy, mask) }
    }

    /// The combined coverage of `clips` on `surface` (nil: nothing survives).
    func clipMask(_ clips: [ClipPath], shift: CGAffineTransform, surface: Surface) throws -> CoverageMask? {
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

    /// An offscreen surface for the planned image `planned`, `width` × `height` pixels, within
    /// `maximumOffscreenBytes` of everything the render holds at once, recorded in the
    /// statistics (release its bytes when it is gone). `pooled`: the layer may come from the
    /// pool (the caller gives it back with `recycle`); `cleared`: it must start transparent
    /// (false when the first drawing covers it).
    func makeLayer(_ planned: PlannedImage, width: Int, height: Int, pooled: Bool = false, cleared: Bool = true) throws -> (Surface, Int) {
        try checkOffscreenBudget(width * height * planned.format.bytesPerPixel)
        let surface: Surface
        if pooled, let reused = layerPool.take(width: width, height: height, format: planned.format) {
            if cleared { recorder.time(.composition) { reused.clear() } }
            surface = reused
        } else {
            surface = try Surface(width: width, height: height, format: planned.format)
        }
        return (surface, recorder.allocate(planned))
    }

    /// Throws unless `bytes` more fit within `maximumOffscreenBytes` beside what the render
    /// holds now.
    func checkOffscreenBudget(_ bytes: Int) throws {
        guard recorder.liveBytes + bytes <= maximumOffscreenBytes else {
            throw RenderError.offscreenLimit(needed: recorder.liveBytes + bytes, limit: maximumOffscreenBytes)
        }
    }

    /// A pooled layer this render has finished with, for the next one.
    func recycle(_ layer: Surface) { layerPool.give(layer) }
}
