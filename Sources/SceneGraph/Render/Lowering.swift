import Foundation

/// Lowering state: where points land in device space, and the per-leaf effects leaves inherit.
struct LowerContext {
    var transform: CGAffineTransform
    var opacity: Double = 1
    /// The innermost blend mode written above (nil: none yet, normal).
    var blendMode: BlendMode? = nil
    /// Clips written above, in device space; every leaf keeps each one's coverage.
    var clips: [ClipPath] = []
    /// Shadows written above, in device space; every leaf casts each.
    var shadows: [DropShadow] = []
    /// Device pixels per point: a drawing group's image is rasterized at this scale in its own
    /// space, whatever the transforms around it.
    var scale: Double = 1
    /// Colour effects written above, composed (inner first): applied to each leaf's paint.
    var colorMatrix: ColorMatrix? = nil
    /// The foreground style and tint leaves resolve their styles against.
    var environment = EnvironmentValues()
    /// Where the scene file wrote the innermost view around (for warnings; items are tagged
    /// where the view is lowered).
    var source: SourceLine? = nil

    /// A boundary's content: the boundary itself takes the outer opacity, blend mode, clips,
    /// shadows and colour effects, once, for its composite.
    var isolated: LowerContext {
        var inner = self
        inner.opacity = 1
        inner.blendMode = nil
        inner.clips = []
        inner.shadows = []
        inner.colorMatrix = nil
        return inner
    }

    /// How a group made here goes onto what lies behind it.
    var composite: DisplayItem.Composite {
        DisplayItem.Composite(opacity: opacity, blendMode: blendMode ?? .normal, clips: clips, shadows: shadows)
    }

    /// The shadows a leaf casts: its opacity fades them as it fades the leaf.
    var leafShadows: [DropShadow] {
        shadows.map { var s = $0; s.color = s.color.opacity(opacity); return s }
    }
}

/// Warnings collected while lowering, once each.
final class LoweringNotes {
    private(set) var warnings: [RenderWarning] = []
    func warn(_ text: String, at source: SourceLine? = nil) {
        warn(RenderWarning(text, source: source))
    }

    func warn(_ warning: RenderWarning) {
        if !warnings.contains(warning) { warnings.append(warning) }
    }
}

/// Turns a laid-out view tree into a display list: leaves in device space with their per-leaf
/// effects accumulated, and a group wherever a boundary isolates its content. Reads the layout
/// tree only; nothing is measured or placed again.
struct Lowering {
    var notes = LoweringNotes()
    /// The work a stroke may ask for; beyond it lowering throws.
    let limits: StrokeLimits
    /// Whether text may be drawn from glyph masks.
    var glyphMasks = true
    /// Texts lowered before (by the renderer, across its renders), nil: none kept.
    var textMemo: TextLoweringMemo? = nil
    /// Threads that may stroke a container's shapes at once (`strokeOutlines`).
    var threads = 1

    /// The display list of `root`, at `scale` device pixels per point.
    func displayList(_ root: PlacedNode, scale: Double) throws(StrokeRefusal) -> DisplayList {
        var items: [DisplayItem] = []
        try lower(root, LowerContext(transform: CGAffineTransform(scaleX: scale, y: scale), scale: scale), into: &items)
        return DisplayList(items: items, warnings: notes.warnings)
    }

    /// Appends the drawing of `placed` to `items`.
    func lower(_ placed: PlacedNode, _ context: LowerContext, into items: inout [DisplayItem]) throws(StrokeRefusal) {
        let rect = placed.rect
        switch placed.content {
        case .leaf(let leaf):
            try lowerLeaf(leaf, in: rect, context, into: &items)
        case .container:
            // Most children lower to one item: room for them at once (grown by doubling, a
            // 10,000-shape stack's items were moved fifteen times). Still at least doubled:
            // nested containers lowering into the same items each ask for a little more, and
            // room made exactly for each would copy the items once a row, quadratic in all.
            let needed = items.count + placed.children.count
            if needed > items.capacity { items.reserveCapacity(max(needed, 2 * items.capacity)) }
            if threads > 1, placed.children.count >= Self.minimumParallelChildren, context.opacity > 0 {
                try lowerInParallel(placed.children, context, into: &items)
            } else if let outlines = strokeOutlines(of: placed.children, context) {
                for (k, child) in placed.children.enumerated() {
                    if let outline = outlines[k], case .leaf(let leaf) = child.content {
                        try lowerLeaf(leaf, in: child.rect, context, into: &items, outline: outline)
                    } else {
                        try lower(child, context, into: &items)
                    }
                }
            } else {
                for child in placed.children { try lower(child, context, into: &items) }
            }
        case .modifier(.layout(let layout)):
            switch layout {
            case .layered(_, _, let inFront):
                // Content and second view in drawing order: a background behind, an overlay in front.
                let order = inFront ? placed.children : placed.children.reversed()
                for child in order { try lower(child, context, into: &items) }
            case .padding, .frame, .flexibleFrame, .aspectRatio, .position, .fixedSize, .offset, .priority:
                for child in placed.children { try lower(child, context, into: &items) }
            }
        case .modifier(.meta(let meta)):
            var inner = context
            var source: SourceLine?
            switch meta {
            case .environment(let value): inner.environment = context.environment.setting(value)
            case .identity(let id):
                if case let .source(line, column)? = id.structural {
                    source = SourceLine(line: line, column: column)
                    inner.source = source
                }
            case .transition, .geometryGroup: break
            }
            let first = items.count
            for child in placed.children { try lower(child, inner, into: &items) }
            if let source {
                for i in first..<items.count { items[i] = items[i].inheritingSource(source) }
            }
        case .modifier(.effect(let effect)):
            try lower(placed.children[0], try applying(effect, in: rect, to: context), into: &items)
        case .modifier(.boundary(let boundary)):
            if let matrix = context.colorMatrix {
                // Colour effects written outside a boundary apply once to its result: the
                // boundary is lowered plain and wrapped in a filter layer that takes the outer
                // opacity, blend mode, clips and shadows.
                var inner: [DisplayItem] = []
                try lower(placed, context.isolated, into: &inner)
                if !inner.isEmpty, context.opacity > 0 {
                    items.append(.group(.init(composite: context.composite, isolation: .colorMatrix(matrix), children: inner)))
                }
                return
            }
            try lowerBoundary(boundary, placed, context, into: &items)
        }
    }

    /// Lowers a large container's children on `threads` threads: each thread takes runs of
    /// consecutive children and lowers them into a list of its own, with warnings of its own;
    /// the lists are joined in the children's order, and the warnings too, so the display list
    /// and its warnings are those of lowering one child after another. Should a child fail,
    /// the first failure in the children's order is thrown, as it would have been.
    ///
    /// Lowering calls only `Sendable` code of the views (shapes' paths, styles, drawings)
    /// and the renderer's text memo, which locks. On 10,000 filled paths in one ZStack
    /// (S3-10k) lowering was a tenth of the frame on the calling thread with two threads
    /// drawing.
    private func lowerInParallel(_ children: [PlacedNode], _ context: LowerContext,
                                 into items: inout [DisplayItem]) throws(StrokeRefusal) {
        let runLength = max(16, children.count / (8 * threads))
        let runs = (children.count + runLength - 1) / runLength
        let lists = UnsafeMutableBufferPointer<(items: [DisplayItem], notes: LoweringNotes, error: StrokeRefusal?)>
            .allocate(capacity: runs)
        defer {
            _ = lists.deinitialize()
            lists.deallocate()
        }
        var single = self
        single.threads = 1
        let next = Locked(0)
        nonisolated(unsafe) let slots = lists
        nonisolated(unsafe) let lowering = single
        DispatchQueue.concurrentPerform(iterations: min(threads, runs)) { _ in
            while true {
                let run = next.take()
                guard run < runs else { return }
                var own = lowering
                own.notes = LoweringNotes()
                var list: [DisplayItem] = []
                var failure: StrokeRefusal?
                do throws(StrokeRefusal) {
                    for child in children[(run * runLength)..<min(children.count, (run + 1) * runLength)] {
                        try own.lower(child, context, into: &list)
                    }
                } catch {
                    failure = error
                }
                (slots.baseAddress! + run).initialize(to: (list, own.notes, failure))
            }
        }
        for run in lists {
            items.append(contentsOf: run.items)
            for warning in run.notes.warnings { notes.warn(warning) }
            if let error = run.error { throw error }
        }
    }

    /// Containers with fewer children lower them on the calling thread.
    static let minimumParallelChildren = 512

    /// What a container's strokes (children that are stroked shapes) lower to, found before
    /// the children are lowered: nil with one thread or fewer than `minimumParallelStrokes`
    /// children, and for the children that are not strokes. Each stroked shape's path is taken
    /// in order (its `path(in:)` is the caller's code). A stroke the rasterizer can draw
    /// straight from itself (`PathStroke.isStreamable`) is kept as itself: the rasterizer's
    /// threads stroke it while drawing. The others are outlined at the resolution of their
    /// place and mapped there, on `threads` threads at once when there are at least
    /// `minimumParallelStrokes` of them, or give the error that would stop lowering there
    /// (thrown by `lowerLeaf` when it reaches that child, so errors come in order). On S5
    /// (1,000 stroked cubics) stroking was a quarter of the calling thread's time with two
    /// threads drawing, when every stroke was outlined here.
    private func strokeOutlines(of children: [PlacedNode], _ context: LowerContext) -> [StrokeAhead?]? {
        guard threads > 1, children.count >= Self.minimumParallelStrokes, context.opacity > 0 else { return nil }
        var jobs: [(child: Int, path: Path, style: StrokeStyle, resolution: _PathResolution, place: CGAffineTransform)] = []
        var outlines = [StrokeAhead?](repeating: nil, count: children.count)
        for (k, child) in children.enumerated() {
            guard case .leaf(.shape(let geometry, _, _)) = child.content, let parts = geometry.strokeParts else { continue }
            let (local, place) = localSpace(child.rect, context.transform)
            let resolution = _PathResolution(transform: place, limits: limits)
            do throws(StrokeRefusal) {
                let (path, style) = try parts(local, resolution)
                // A stroke drawn straight from itself is stroked by the rasterizer (on its
                // threads, `Rasterizer.rasterize(_ stroke:…)`), not here.
                let stroke = PathStroke(path: path, style: style, tolerance: resolution.tolerance, limits: limits, transform: place)
                if case .leaf(.shape(_, _, .nonZero)) = child.content, stroke.isStreamable {
                    outlines[k] = .stroke(stroke)
                    continue
                }
                jobs.append((k, path, style, resolution, place))
            } catch {
                outlines[k] = .outline(.failure(error))
            }
        }
        guard jobs.count >= Self.minimumParallelStrokes else {
            for job in jobs {
                outlines[job.child] = .outline(Result { () throws(StrokeRefusal) in
                    try job.resolution.stroke(job.path, job.style).applying(job.place)
                })
            }
            return outlines
        }
        let results = UnsafeMutableBufferPointer<Result<Path, StrokeRefusal>>.allocate(capacity: jobs.count)
        defer {
            _ = results.deinitialize()
            results.deallocate()
        }
        let next = Locked(0)
        let chunk = max(1, min(16, jobs.count / (8 * threads)))
        nonisolated(unsafe) let slots = results
        let work = jobs
        DispatchQueue.concurrentPerform(iterations: min(threads, jobs.count)) { _ in
            while true {
                let first = next.take(chunk)
                guard first < work.count else { return }
                for j in first..<min(work.count, first + chunk) {
                    let job = work[j]
                    do throws(StrokeRefusal) {
                        let outline = try job.resolution.stroke(job.path, job.style)
                        (slots.baseAddress! + j).initialize(to: .success(outline.applying(job.place)))
                    } catch {
                        (slots.baseAddress! + j).initialize(to: .failure(error))
                    }
                }
            }
        }
        for (j, job) in jobs.enumerated() { outlines[job.child] = .outline(results[j]) }
        return outlines
    }

    /// What `strokeOutlines` made of a stroked child before `lowerLeaf` reaches it: its
    /// outline (or the refusal), or the stroke itself, to draw without an outline.
    enum StrokeAhead {
        case outline(Result<Path, StrokeRefusal>)
        case stroke(PathStroke)
    }

    /// Containers with fewer strokes stroke them on the calling thread.
    static let minimumParallelStrokes = 32

    private func lowerLeaf(_ leaf: Leaf, in rect: CGRect, _ context: LowerContext, into items: inout [DisplayItem],
                           outline: StrokeAhead? = nil) throws(StrokeRefusal) {
        switch leaf {
        case .empty, .spacer, .layoutFailure:
            break
        case .text, .symbol, .label:
            // Layout turns every Text into `placedText`, every symbol into `placedSymbol`, every
            // label into its parts.
            break
        case .placedSymbol(let symbol):
            guard context.opacity > 0 else { return }
            // The drawing's unit square stretched to the frame, filled with the foreground style
            // like a shape.
            let (local, place) = localSpace(rect, context.transform)
            var fill = context.environment.resolve(ForegroundStyle())._fill(in: local)
            if let matrix = context.colorMatrix { fill = fill.mapColors(matrix.apply(to:)) }
            fill = fill.transformed(by: place).opacity(context.opacity)
            let toDevice = CGAffineTransform(scaleX: local.width, y: local.height).concatenating(place)
            let side = max(local.width, local.height) * sqrt(abs(place.a * place.d - place.b * place.c))
            items.append(.leaf(.init(path: glyphOutline(symbol.path, toDevice, pixelsPerEm: side), fill: fill,
                                     fillRule: .nonZero, blendMode: context.blendMode ?? .normal,
                                     clips: context.clips, shadows: context.leafShadows)))
        case .placedText(let text):
            lowerText(text, in: rect, context, into: &items)
        case .laidOut(let tree):
            try lower(tree, context, into: &items)
        case let .shape(geometry, style, rule):
            guard context.opacity > 0 else { return }
            // As in SwiftUI, a shape draws in its own space, (0, 0) at its frame's origin: a
            // `Path` view's coordinates are relative to where layout put it.
            let (local, place) = localSpace(rect, context.transform)
            var fill = context.environment.resolve(style)._fill(in: local)
            if let matrix = context.colorMatrix { fill = fill.mapColors(matrix.apply(to:)) }
            fill = fill.transformed(by: place).opacity(context.opacity)
            let path: Path
            switch outline {
            case .outline(.success(let made))?: path = made
            case .outline(.failure(let error))?: throw error
            case .stroke(let stroke)?:
                items.append(.leaf(.init(stroke: stroke, fill: fill, blendMode: context.blendMode ?? .normal,
                                         clips: context.clips, shadows: context.leafShadows)))
                return
            case nil:
                let resolution = _PathResolution(transform: place, limits: limits)
                guard let parts = geometry.strokeParts else {
                    path = try geometry.path(local, resolution).applying(place)
                    break
                }
                // A stroke is kept as the stroke, and drawn straight from it, where its outline
                // cannot be refused (`PathStroke.streamBounds`: no dashes, within its limits by
                // bounds known without stroking); otherwise outlined now, so that a refusal
                // stops the render before anything is drawn.
                let (centre, strokeStyle) = try parts(local, resolution)
                let stroke = PathStroke(path: centre, style: strokeStyle, tolerance: resolution.tolerance, limits: limits,
                                        transform: place)
                if rule == .nonZero, stroke.isStreamable {
                    items.append(.leaf(.init(stroke: stroke, fill: fill, blendMode: context.blendMode ?? .normal,
                                             clips: context.clips, shadows: context.leafShadows)))
                    return
                }
                path = try resolution.stroke(centre, strokeStyle).applying(place)
            }
            items.append(.leaf(.init(path: path, fill: fill, fillRule: rule, blendMode: context.blendMode ?? .normal,
                                     clips: context.clips, shadows: context.leafShadows, strokeOutline: geometry.strokeParts != nil)))
        case let .image(content, _, filter):
            lowerPixels(content, filter: filter, in: rect, context, into: &items)
        case .drawing(let drawing, _):
            try lowerDrawing(drawing, in: rect, context, into: &items)
        }
    }

    /// An image's pixels stretched to `rect` (in the parent's space), as a leaf carrying the
    /// context's effects.
    func lowerPixels(_ content: ImageContent, filter: ImageFilter, in rect: CGRect, _ context: LowerContext, into items: inout [DisplayItem]) {
        guard context.opacity > 0 else { return }
        // Image pixels → the frame's own space (stretched to the laid-out size) → device.
        let (local, place) = localSpace(rect, context.transform)
        let pixels = (CGFloat(content.surface.width), CGFloat(content.surface.height))
        let fill = ShapeFill.image(ImageFill(content: content, imageTransform: CGAffineTransform(scaleX: local.width / pixels.0, y: local.height / pixels.1),
                                             filter: filter)).transformed(by: place)
        let path = Path(local).applying(place)
        if let matrix = context.colorMatrix {
            // Colour effects on pixels: a filter layer around the image, carrying the leaf's
            // opacity, blend mode, clips and shadows.
            items.append(.group(.init(composite: context.composite, isolation: .colorMatrix(matrix),
                                      children: [.leaf(.init(path: path, fill: fill))])))
        } else {
            items.append(.leaf(.init(path: path, fill: fill.opacity(context.opacity), blendMode: context.blendMode ?? .normal,
                                     clips: context.clips, shadows: context.leafShadows)))
        }
    }

    /// The context below a per-leaf effect written on a view whose frame is `rect`.
    private func applying(_ effect: Effect, in rect: CGRect, to context: LowerContext) throws(StrokeRefusal) -> LowerContext {
        var inner = context
        switch effect {
        case .transform(let t, let anchor):
            // About the anchor, in points, then on to device space: a transform written outside
            // composes after (to the left of) the ones inside.
            let a = anchor.point(in: rect)
            let local = CGAffineTransform(translationX: -a.x, y: -a.y).concatenating(t.matrix)
                .concatenating(CGAffineTransform(translationX: a.x, y: a.y))
            inner.transform = local.concatenating(context.transform)
        case .opacity(let a):
            inner.opacity *= a
        case .blendMode(let mode):
            // Modifiers wrap from the outside in, so the first mode met is the outermost; an
            // inner one (closer to the leaf) replaces it.
            if let outer = context.blendMode, outer != mode {
                notes.warn("blendMode(.\(outer.rawValue)) written outside is overridden by blendMode(.\(mode.rawValue)) nearer the leaves: the nearest mode wins", at: context.source)
            }
            inner.blendMode = mode
        case let .shadow(color, radius, offset):
            // To device space: the offset through the transform's linear part, σ scaled by the
            // transform's mean scale.
            let t = context.transform
            let scale = abs(t.a * t.d - t.b * t.c).squareRoot()
            let d = CGSize(width: t.a * offset.width + t.c * offset.height, height: t.b * offset.width + t.d * offset.height)
            // Colour effects written outside the shadow colour it too (it is part of what they
            // affect); those written inside do not.
            let shadowColor = context.colorMatrix.map { $0.apply(to: color) } ?? color
            inner.shadows.append(DropShadow(color: shadowColor, sigma: Double(radius) / 2 * scale, offset: d))
        case let .clip(geometry, rule):
            let (local, place) = localSpace(rect, context.transform)
            // Resolved like a leaf's path (a clip may be a stroke's outline).
            let path = try geometry.path(local, _PathResolution(transform: place, limits: limits))
            inner.clips.append(ClipPath(path: path.applying(place), fillRule: rule))
        case .color(let matrix):
            inner.colorMatrix = context.colorMatrix.map { matrix.followed(by: $0) } ?? matrix
        }
        return inner
    }

    private func lowerBoundary(_ boundary: Boundary, _ placed: PlacedNode, _ context: LowerContext,
                               into items: inout [DisplayItem]) throws(StrokeRefusal) {
        let rect = placed.rect
        switch boundary {
        case .compositingGroup:
            var children: [DisplayItem] = []
            try lower(placed.children[0], context.isolated, into: &children)
            if !children.isEmpty, context.opacity > 0 {
                items.append(.group(.init(composite: context.composite, isolation: .layer, children: children)))
            }
        case .blur(let radius, let opaque):
            var children: [DisplayItem] = []
            try lower(placed.children[0], context.isolated, into: &children)
            let t = context.transform
            let sigma = Double(radius) * Double(abs(t.a * t.d - t.b * t.c).squareRoot())
            if !children.isEmpty, context.opacity > 0 {
                items.append(.group(.init(composite: context.composite, isolation: .blur(sigma: sigma, opaque: opaque), children: children)))
            }
        case .mask:
            var children: [DisplayItem] = [], mask: [DisplayItem] = []
            try lower(placed.children[0], context.isolated, into: &children)
            try lower(placed.children[1], context.isolated, into: &mask)
            if !children.isEmpty, !mask.isEmpty, context.opacity > 0 {
                items.append(.group(.init(composite: context.composite, isolation: .mask(mask), children: children)))
            }
        case let .drawingGroup(opaque, mode):
            // Lowered in the group's own space: origin at its frame's top-left, in pixels at the
            // render scale, so the same subtree lowers to the same children wherever it is
            // placed (the cache's key). Outer transforms only move the finished image.
            let s = context.scale
            let width = Int((rect.width * s - 1e-9).rounded(.up)), height = Int((rect.height * s - 1e-9).rounded(.up))
            var local = LowerContext(transform: CGAffineTransform(scaleX: s, y: s), scale: s)
            local.environment = context.environment
            var children: [DisplayItem] = []
            try lower(placed.children[0], local, into: &children)
            guard width > 0, height > 0, !children.isEmpty || opaque, context.opacity > 0 else { return }
            let placement = CGAffineTransform(scaleX: 1 / s, y: 1 / s)
                .concatenating(CGAffineTransform(translationX: rect.minX, y: rect.minY)).concatenating(context.transform)
            let image = GroupImage(opaque: opaque, colorMode: mode, width: width, height: height, placement: placement)
            items.append(.group(.init(composite: context.composite, isolation: .image(image), children: children)))
        }
    }
}

/// A frame's own space (origin (0, 0), its size) and the transform from it to device pixels.
private func localSpace(_ rect: CGRect, _ transform: CGAffineTransform) -> (CGRect, CGAffineTransform) {
    (CGRect(origin: .zero, size: rect.size),
     CGAffineTransform(translationX: rect.minX, y: rect.minY).concatenating(transform))
}
