import Foundation

/// One offscreen image a render makes: why, where (device pixels of the canvas, for overlays
/// and reports), and its real size in bytes.
public struct PlannedImage: Hashable, Sendable {
    public var kind: RenderStats.LayerKind
    /// Device pixels the image covers: x, y, width, height in the canvas's pixels (a drawing
    /// group's image: the pixels its placed frame touches).
    public var bounds: PixelRect
    public var format: PixelFormat
    /// Bytes of pixel data (a drawing group's image: its own width × height, whatever its
    /// placement covers).
    public var bytes: Int

    init(_ kind: RenderStats.LayerKind, _ bounds: PixelRect, _ format: PixelFormat, bytes: Int? = nil) {
        self.kind = kind
        self.bounds = bounds
        self.format = format
        self.bytes = bytes ?? bounds.area * format.bytesPerPixel
    }
}

/// What a render of a display list allocates offscreen, and where, decided once before
/// anything is drawn: every group's layer (bounds, format), a mask's second layer, a drawing
/// group's image, placement and conversion, every shadow's mask. The renderer draws by this
/// plan, and `Explanation` (`compose explain`) reports it, so the two cannot disagree.
///
/// The plan describes a render with a cold drawing-group cache: a cached image is not drawn
/// again (the render's statistics then count it as reused).
struct LayerPlan {
    var items: [PlannedItem]

    /// Every image, in the order the renderer makes them.
    var images: [PlannedImage] { items.flatMap(\.images) }
}

/// A display item with its share of the plan.
enum PlannedItem {
    case leaf(DisplayItem.Leaf, LeafPlan)
    /// Boxed, as `DisplayItem.group` is: a leaf's item is then its own size, not a group's.
    indirect case group(DisplayItem.Group, GroupPlan)

    /// This item's images and those of everything inside it, in the order they are made.
    var images: [PlannedImage] {
        switch self {
        case .leaf(_, let plan):
            return plan.visible ? plan.shadowMasks.compactMap { $0 } : []
        case .group(_, let plan):
            return plan.images(inside: true)
        }
    }
}

/// A leaf's plan: whether any of it is visible through its clips, the path its shadows are
/// cast from, and each shadow's mask (nil: nothing of it falls on the surface).
struct LeafPlan {
    var visible: Bool
    /// The path clipped by its clips when it casts shadows (a clipped leaf casts the shadow of
    /// what remains visible), else the path itself.
    var caster: Path
    var shadowMasks: [PlannedImage?]
    /// The groups folded into this leaf, outermost first (`DisplayItem.Group.folded`): the
    /// leaf is drawn in their place, with no layer.
    var foldedFrom: [DisplayItem.Group] = []
}

/// A group's plan: its layer, what is drawn into it, what is done to it before it is
/// composited, and its shadows.
struct GroupPlan {
    /// The layer its content is drawn into (a drawing group: its image); nil when nothing of
    /// the group is visible, so nothing is drawn.
    var layer: PlannedImage?
    /// Where the layer's pixels lie: device pixels of the canvas (a drawing group: its own
    /// pixels, origin 0).
    var layerRect: PixelRect
    var children: [PlannedItem]
    var preparation: Preparation = .none
    /// Whether the group's clips leave anything to composite (else neither its shadows nor
    /// the layer are drawn onto the parent).
    var composited = true
    /// The masks of the group's shadows, cast from the finished layer's alpha.
    var shadowMasks: [PlannedImage] = []

    /// What happens to the layer between drawing its children and compositing it.
    enum Preparation {
        /// Nothing (`compositingGroup()`).
        case none
        case colorMatrix(ColorMatrix)
        case luminanceToAlpha
        case blur(sigma: Double, opaque: Bool)
        /// The layer kept where a second layer, with these items drawn into it, has alpha.
        case mask(PlannedImage, [PlannedItem])
        /// A filter run on the layer, with its image primitives' pictures (each a layer of
        /// its own, these items drawn into it).
        case filter(FilterGraph, images: [(PlannedImage, [PlannedItem])])
        /// A drawing group's image: placed, then converted to the parent's pixel format (when
        /// they differ).
        case image(GroupImage, ImagePlacement, conversion: PlannedImage?)
    }

    /// How a drawing group's image reaches its parent.
    enum ImagePlacement {
        /// Translated by whole pixels: composited as it is, exactly.
        case wholePixels(dx: Int, dy: Int)
        /// Transformed: drawn straight onto the parent in one pass, resampled bilinearly (no
        /// layer).
        case direct
        /// Resampled bilinearly into a layer first (clips, shadows, blend modes or a float
        /// image need the placed pixels).
        case resampled(PlannedImage)
    }

    /// The images the group makes itself (not those of the items inside it), in the order
    /// they are made: its layer, a mask's second layer, a drawing group's placed layer and
    /// conversion, its shadows' masks.
    var ownImages: [PlannedImage] { images(inside: false) }

    /// The group's images in the order they are made, with those of the items drawn into its
    /// layers (`inside`) or without.
    func images(inside: Bool) -> [PlannedImage] {
        guard let layer else { return [] }
        var out = [layer]
        if inside { out += children.flatMap(\.images) }
        switch preparation {
        case .none, .colorMatrix, .luminanceToAlpha, .blur: break
        case let .mask(maskLayer, items):
            out.append(maskLayer)
            if inside { out += items.flatMap(\.images) }
        case .filter(_, let images):
            for (image, items) in images {
                out.append(image)
                if inside { out += items.flatMap(\.images) }
            }
        case let .image(_, placement, conversion):
            if case .resampled(let placed) = placement { out.append(placed) }
            if let conversion { out.append(conversion) }
        }
        if composited { out += shadowMasks }
        return out
    }

    /// Whether a layer of `format` must be copied into `target` before it is composited: when
    /// they encode colour differently (sRGB, linear, float). An opaque 8-bit image
    /// (`x8r8g8b8`) composites onto ARGB as it is: pixman reads its missing alpha as 1.
    static func needsConversion(_ format: PixelFormat, to target: PixelFormat) -> Bool {
        let eightBitSRGB: Set<PixelFormat> = [.argb32, .xrgb32]
        return format != target && !(eightBitSRGB.contains(format) && eightBitSRGB.contains(target))
    }

    /// The format a layer is composited onto a parent of `format` in: the parent's, with
    /// alpha (an opaque parent still takes a layer's transparent corners as transparent).
    static func compositingFormat(onto format: PixelFormat) -> PixelFormat {
        format == .xrgb32 ? .argb32 : format
    }
}

extension DisplayItem.Group {
    /// The one leaf this group draws, with the group's opacity in its colour, when that draws
    /// what the group's layer would (and the groups folded into it, outermost first); nil
    /// otherwise. A layer holding one leaf drawn source-over onto transparent pixels holds the
    /// leaf's own premultiplied colour times its coverage, C·c; composited with opacity a it
    /// adds C·c·a over the parent, which is the leaf with its colour's alpha multiplied by a,
    /// drawn straight onto the parent. So the renderer skips the layer (what SkRecordOptimize
    /// does for a save-layer-alpha around one draw), as issue 18 asks: `group(opacity a) { one
    /// fill }` becomes the fill.
    ///
    /// The opacity is the 8-bit one the layer would be composited with (`Opacity.layerAlpha8`),
    /// so an opaque colour's interior is the same bytes and its edges within 1 level (the
    /// layer rounds C·c before multiplying by a, the fold C·a before c). A translucent colour,
    /// whose layer rounds its alpha first, and nested groups, whose layers round one opacity
    /// after the other where the fold multiplies them first, stay within 2. Gradients and
    /// images keep their layer: their colours are rounded per pixel, where the fold could not
    /// match the layer's rounding.
    ///
    /// Only a `compositingGroup()` whose outer effects are opacity alone, around one leaf (or
    /// a group that folds) filled with a colour, blending normally and casting no shadow: a
    /// blend mode, clip or shadow outside, or a shadow inside (which the leaf would cover in
    /// the layer but not faded), draws something else. The caller folds only onto 8-bit sRGB
    /// surfaces, whose encoding is the layer's.
    var folded: (DisplayItem.Leaf, [DisplayItem.Group])? {
        guard case .layer = isolation, composite.blendMode == .normal, composite.clips.isEmpty, composite.shadows.isEmpty,
              children.count == 1 else { return nil }
        var leaf: DisplayItem.Leaf
        var inner: [DisplayItem.Group] = []
        switch children[0] {
        case .leaf(let l): leaf = l
        case .group(let g):
            guard let (l, groups) = g.folded else { return nil }
            (leaf, inner) = (l, groups)
        }
        guard leaf.blendMode == .normal, leaf.shadows.isEmpty, case .color(let color) = leaf.fill else { return nil }
        leaf.fill = .color(color.opacity(Double(Opacity(composite.opacity).layerAlpha8) / 255))
        return (leaf, [self] + inner)
    }
}

/// Makes a render's `LayerPlan`: walks the display list as the renderer draws it, with the
/// same surfaces and origins, and applies the one rule for each kind of offscreen image.
struct LayerPlanner {
    /// The layers' margin beyond their ink, in device pixels (`Renderer.layerMargin`).
    var margin = Double(Renderer.layerMargin)

    /// Threads the items of a long list are planned on at once (`plan(_:on:format:)`).
    var threads = 1

    /// Lists shorter than this are planned on the calling thread.
    static let minimumParallelItems = 512

    /// The plan for `items` drawn onto a surface covering `surface` (device pixels) in
    /// `format`. A list of `minimumParallelItems` items or more is planned on `threads`
    /// threads, each taking runs of consecutive items (planning an item reads nothing but
    /// the item); should an item fail, the first failure in the list's order is thrown.
    func plan(_ items: [DisplayItem], on surface: PixelRect, format: PixelFormat) throws -> [PlannedItem] {
        guard threads > 1, items.count >= Self.minimumParallelItems else {
            return try items.map { try plan($0, on: surface, format: format) }
        }
        let runLength = max(64, items.count / (8 * threads))
        let runs = (items.count + runLength - 1) / runLength
        // Per run: how many of its items were planned, and the error that stopped it.
        var done = [Int](repeating: 0, count: runs)
        var failures = [Error?](repeating: nil, count: runs)
        var firstFailure: Error?
        let planned = done.withUnsafeMutableBufferPointer { done in
            failures.withUnsafeMutableBufferPointer { failures in
                [PlannedItem](unsafeUninitializedCapacity: items.count) { slots, count in
                    nonisolated(unsafe) let (slots, done, failures) = (slots, done, failures)
                    let next = Locked(0)
                    let planner = self
                    DispatchQueue.concurrentPerform(iterations: min(threads, runs)) { _ in
                        while true {
                            let run = next.take()
                            guard run < runs else { return }
                            for i in (run * runLength)..<min(items.count, (run + 1) * runLength) {
                                do {
                                    (slots.baseAddress! + i).initialize(to: try planner.plan(items[i], on: surface, format: format))
                                    done[run] += 1
                                } catch {
                                    failures[run] = error
                                    break
                                }
                            }
                        }
                    }
                    if let run = failures.firstIndex(where: { $0 != nil }) {
                        for r in 0..<runs { (slots.baseAddress! + r * runLength).deinitialize(count: done[r]) }
                        firstFailure = failures[run]
                        count = 0
                        return
                    }
                    count = items.count
                }
            }
        }
        if let firstFailure { throw firstFailure }
        return planned
    }

    private func plan(_ item: DisplayItem, on surface: PixelRect, format: PixelFormat) throws -> PlannedItem {
        switch item {
        case .leaf(let leaf): return .leaf(leaf, try plan(leaf, on: surface))
        case .group(let group):
            // On an 8-bit sRGB surface a group that only fades one leaf is that leaf, faded.
            if format == .argb32 || format == .xrgb32, let (leaf, groups) = group.folded {
                var leafPlan = try plan(leaf, on: surface)
                leafPlan.foldedFrom = groups
                return .leaf(leaf, leafPlan)
            }
            return .group(group, try plan(group, item.inkBounds, on: surface, format: format))
        }
    }

    private func plan(_ leaf: DisplayItem.Leaf, on surface: PixelRect) throws -> LeafPlan {
        let shift = CGAffineTransform(translationX: CGFloat(-surface.x), y: CGFloat(-surface.y))
        let local = PixelRect(x: 0, y: 0, width: surface.width, height: surface.height)
        guard clipsLeaveSomething(leaf.clips, on: surface) else { return LeafPlan(visible: false, caster: Path(), shadowMasks: []) }
        // Only shadows need the caster: a leaf without them is not asked for its path (a
        // stroke's outline would be made for nothing).
        guard !leaf.shadows.isEmpty else { return LeafPlan(visible: true, caster: Path(), shadowMasks: []) }
        // A clipped leaf casts the shadow of what remains visible: its path intersected with
        // each clip (a shape boolean, when the fill rules agree).
        let caster = leaf.clips.isEmpty ? leaf.path : leaf.clips.reduce(leaf.path) { shape, clip in
            clip.fillRule == leaf.fillRule ? shape.intersection(clip.path, eoFill: leaf.fillRule == .evenOdd) : shape
        }
        var masks: [PlannedImage?] = []
        if !leaf.shadows.isEmpty {
            let bounds = caster.applying(shift).boundingRect
            for shadow in leaf.shadows {
                try shadow.validate()
                masks.append(shadow.maskBounds(ofPathBounds: bounds, within: local).map {
                    PlannedImage(.shadow, $0.offsetBy(dx: surface.x, dy: surface.y), .a8)
                })
            }
        }
        return LeafPlan(visible: true, caster: caster, shadowMasks: masks)
    }

    private func plan(_ group: DisplayItem.Group, _ ink: CGRect, on surface: PixelRect, format: PixelFormat) throws -> GroupPlan {
        switch group.isolation {
        case .layer:
            return try layered(group, .compositingGroup, bounds: PixelRect(cut: ink.insetBy(dx: -margin, dy: -margin), to: surface),
                               on: surface)
        case .colorMatrix(let matrix):
            var plan = try layered(group, .compositingGroup, bounds: PixelRect(cut: ink.insetBy(dx: -margin, dy: -margin), to: surface),
                                   on: surface)
            plan.preparation = .colorMatrix(matrix)
            return plan
        case .luminanceToAlpha:
            var plan = try layered(group, .compositingGroup, bounds: PixelRect(cut: ink.insetBy(dx: -margin, dy: -margin), to: surface),
                                   on: surface)
            plan.preparation = .luminanceToAlpha
            return plan
        case let .blur(sigma, opaque):
            // Its content's ink spread by the blur (plus the margin; none when opaque, whose
            // edges repeat), cut to what lies within the blur's reach of the surface: content
            // just outside still bleeds in.
            let m = opaque ? 0 : margin
            let reach = gaussianExtent(sigma: sigma)
            let area = PixelRect(x: surface.x - reach, y: surface.y - reach, width: surface.width + 2 * reach, height: surface.height + 2 * reach)
            var plan = try layered(group, .blur, bounds: PixelRect(cut: ink.insetBy(dx: -m, dy: -m), to: area), on: surface)
            plan.preparation = .blur(sigma: sigma, opaque: opaque)
            return plan
        case .mask(let maskItems):
            var plan = try layered(group, .mask, bounds: PixelRect(cut: ink.insetBy(dx: -margin, dy: -margin), to: surface),
                                   on: surface)
            if let layer = plan.layer {
                plan.preparation = .mask(PlannedImage(.mask, layer.bounds, .argb32), try self.plan(maskItems, on: layer.bounds, format: .argb32))
            }
            return plan
        case let .filter(graph, images):
            // The filter's region, no margin (it is the filter's own clip), as far as it lies
            // on the surface (resvg's rule: what lies beyond the canvas is not read).
            var plan = try layered(group, .filter, bounds: PixelRect(cut: graph.region, to: surface), on: surface)
            if let layer = plan.layer {
                plan.preparation = .filter(graph, images: try images.map {
                    (PlannedImage(.filter, layer.bounds, .argb32), try self.plan($0, on: layer.bounds, format: .argb32))
                })
            }
            return plan
        case .image(let image):
            return try drawingGroup(group, image, on: surface, format: format)
        }
    }

    /// A group drawn into an ARGB layer covering `bounds` (nil: nothing visible).
    private func layered(_ group: DisplayItem.Group, _ kind: RenderStats.LayerKind, bounds: PixelRect?,
                         on surface: PixelRect) throws -> GroupPlan {
        guard let bounds else { return GroupPlan(layer: nil, layerRect: PixelRect(x: 0, y: 0, width: 0, height: 0), children: []) }
        var plan = GroupPlan(layer: PlannedImage(kind, bounds, .argb32), layerRect: bounds,
                             children: try self.plan(group.children, on: bounds, format: .argb32))
        try finish(&plan, group, layerAt: bounds, on: surface)
        return plan
    }

    private func drawingGroup(_ group: DisplayItem.Group, _ image: GroupImage, on surface: PixelRect,
                              format parent: PixelFormat) throws -> GroupPlan {
        // Nothing is drawn (not even rasterized) unless some of the placed image is visible.
        guard let bounds = PixelRect(cut: image.frame, to: surface) else {
            return GroupPlan(layer: nil, layerRect: PixelRect(x: 0, y: 0, width: 0, height: 0), children: [])
        }
        let own = PixelRect(x: 0, y: 0, width: image.width, height: image.height)
        let deviceFrame = PixelRect(enclosing: image.frame) ?? PixelRect(x: 0, y: 0, width: 0, height: 0)
        var plan = GroupPlan(layer: PlannedImage(.drawingGroup, deviceFrame, image.format, bytes: own.area * image.format.bytesPerPixel),
                             layerRect: own, children: try self.plan(group.children, on: own, format: image.format))
        let c = group.composite
        let placement: GroupPlan.ImagePlacement
        let placed: (rect: PixelRect, format: PixelFormat)
        if let offset = image.wholePixelOffset(from: (surface.x, surface.y)) {
            placement = .wholePixels(dx: offset.x, dy: offset.y)
            placed = (PixelRect(x: surface.x + offset.x, y: surface.y + offset.y, width: image.width, height: image.height), image.format)
        } else if image.format == .argb32, parent == .argb32, c.blendMode == .normal, c.clips.isEmpty, c.shadows.isEmpty {
            plan.preparation = .image(image, .direct, conversion: nil)
            return plan
        } else {
            // An opaque image keeps no alpha; resampled, its corners outside the quad must stay
            // transparent, so the placed layer has alpha.
            let format: PixelFormat = image.format == .xrgb32 ? .argb32 : image.format
            placement = .resampled(PlannedImage(.drawingGroup, bounds, format))
            placed = (bounds, format)
        }
        // Into the parent's encoding before compositing (an opaque image stays opaque), unless
        // an extended-linear image is encoded as it is composited (the normal blend, no clip,
        // onto an 8-bit parent).
        let extendedInOnePass = placed.format == .rgbaFloat && c.blendMode == .normal && c.clips.isEmpty
            && (parent == .argb32 || parent == .xrgb32)
        let target = GroupPlan.compositingFormat(onto: parent)
        let conversion = GroupPlan.needsConversion(placed.format, to: target) && !extendedInOnePass
            ? PlannedImage(.drawingGroup, placed.rect, target) : nil
        plan.preparation = .image(image, placement, conversion: conversion)
        try finish(&plan, group, layerAt: placed.rect, on: surface)
        return plan
    }

    /// Whether the group's clips leave anything to composite, and its shadows' masks, for a
    /// finished layer lying at `layer` (device pixels).
    private func finish(_ plan: inout GroupPlan, _ group: DisplayItem.Group, layerAt layer: PixelRect, on surface: PixelRect) throws {
        let c = group.composite
        plan.composited = clipsLeaveSomething(c.clips, on: surface)
        guard plan.composited else { return }
        for shadow in c.shadows {
            try shadow.validate()
            plan.shadowMasks.append(PlannedImage(.shadow, shadow.maskBounds(ofLayer: layer), .a8))
        }
    }

    /// Whether `clips` leave any pixel of `surface` to draw: each clip's coverage mask covers
    /// its path's bounds within the surface (what `CoverageMask.make` allocates, in the
    /// surface's own pixels, as the renderer makes it), and several multiply, so nothing is
    /// left when one covers nothing or their masks do not overlap.
    private func clipsLeaveSomething(_ clips: [ClipPath], on surface: PixelRect) -> Bool {
        let shift = CGAffineTransform(translationX: CGFloat(-surface.x), y: CGFloat(-surface.y))
        let local = PixelRect(x: 0, y: 0, width: surface.width, height: surface.height)
        var area = local
        for clip in clips {
            guard let b = CoverageMask.bounds(of: clip.path.applying(shift).boundingRect, within: local) else { return false }
            area = area.intersection(b)
            if area.isEmpty { return false }
        }
        return true
    }
}
