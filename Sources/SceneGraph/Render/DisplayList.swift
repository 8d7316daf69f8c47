import Foundation

/// A resolved, absolute drawing: every leaf's device-space path, paint and accumulated per-leaf
/// effects, and the group boundaries between them. Equatable, and printable for inspection.
public struct DisplayList: Equatable, CustomStringConvertible, Sendable {
    public var items: [DisplayItem]
    /// What lowering noticed that a user may not expect (an outer blend mode a nearer one
    /// overrides), with where the view was written when known. Not part of equality: two
    /// lists that draw the same are equal.
    public var warnings: [RenderWarning] = []

    public init(items: [DisplayItem], warnings: [RenderWarning] = []) {
        self.items = items
        self.warnings = warnings
    }

    public static func == (a: DisplayList, b: DisplayList) -> Bool { a.items == b.items }

    /// Every leaf, depth first (inside groups too; a mask's own items are not leaves).
    public var leaves: [DisplayItem.Leaf] {
        var out: [DisplayItem.Leaf] = []
        func walk(_ items: [DisplayItem]) {
            for item in items {
                switch item {
                case .leaf(let leaf): out.append(leaf)
                case .group(let group): walk(group.children)
                }
            }
        }
        walk(items)
        return out
    }

    public var description: String {
        var lines: [String] = []
        func walk(_ items: [DisplayItem], _ depth: Int) {
            let pad = String(repeating: "  ", count: depth)
            for item in items {
                switch item {
                case .leaf(let leaf):
                    let b = leaf.path.boundingRect
                    lines.append(pad + String(format: "fill %@ %@ bounds [%.1f, %.1f, %.1f, %.1f]", leaf.fill.description,
                                              leaf.fillRule.rawValue, b.minX, b.minY, b.width, b.height)
                                 + (leaf.blendMode == .normal ? "" : " blend \(leaf.blendMode.rawValue)")
                                 + (leaf.clips.isEmpty ? "" : " clipped \(leaf.clips.count)")
                                 + (leaf.shadows.isEmpty ? "" : " shadows \(leaf.shadows.count)")
                                 + (leaf.glyphs.map { " glyphs \($0.glyphs.count)" } ?? ""))
                case .group(let group):
                    let c = group.composite
                    lines.append(pad + group.isolation.summary + String(format: " opacity %.3f", c.opacity)
                                 + (c.blendMode == .normal ? "" : " blend \(c.blendMode.rawValue)"))
                    walk(group.children, depth + 1)
                    if case .mask(let mask) = group.isolation {
                        lines.append(pad + "  with mask")
                        walk(mask, depth + 2)
                    }
                }
            }
        }
        walk(items, 0)
        return lines.joined(separator: "\n")
    }
}

/// What a display list is made of: leaves, and groups of items isolated into a layer.
public enum DisplayItem: Hashable, Sendable {
    case leaf(Leaf)
    /// Boxed (indirect): a group's fields are 240 bytes, and an item held them inline, so every
    /// leaf of a list took 240 bytes and each copy or move of one moved them all. A leaf is
    /// now a reference and a tag.
    indirect case group(Group)

    /// A leaf: a device-space path filled with a colour, gradient or image whose opacity
    /// already includes every per-leaf opacity above it, blended with `blendMode`, kept within
    /// each clip's coverage, casting each shadow (their colours faded by the same opacity).
    public struct Leaf: Hashable, Sendable {
        /// The leaf's values, kept in one box shared by copies until one of them changes
        /// (copy on write): planning and drawing pass leaves by value, and a leaf holds half a
        /// dozen reference-counted values (path, paint, clips, shadows, glyphs, text), each
        /// retained and released per copy (about a tenth of S3-10k's frame outside the
        /// rasterizer, measured with perf).
        struct Fields: Hashable, Sendable {
            var path: Path
            var fill: ShapeFill
            var fillRule: FillRule
            var blendMode: BlendMode
            var clips: [ClipPath]
            var shadows: [DropShadow]
            var glyphs: GlyphRun?
            var textSummary: TextSummary?
            var sourceTag = SourceTag()
            var strokeOutline = false
            /// For a stroke drawn from its recipe: the stroke, `path` its outline (made on
            /// first use; `path` above then stays empty).
            var stroke: StrokeSource?
        }

        /// Mutated only through `fields`' accessor, which copies it first when it is shared.
        final class Box: @unchecked Sendable {
            var fields: Fields
            init(_ fields: Fields) { self.fields = fields }
        }

        private var box: Box

        /// The values, changed in place when this leaf holds the only reference to them.
        var fields: Fields {
            get { box.fields }
            _modify {
                if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
                yield &box.fields
            }
        }

        /// The device-space path filled. For a stroke lowered from a shape, its outline, made
        /// the first time it is asked for (the renderer draws such a stroke from `stroke`
        /// without it).
        public var path: Path {
            get { box.fields.stroke?.outline ?? box.fields.path }
            set {
                fields.path = newValue
                fields.stroke = nil
            }
        }
        /// The stroke whose outline `path` is, when the leaf was lowered from one
        /// (`shape.stroke(…)`) and its outline cannot be refused: the renderer strokes it
        /// straight into the rasterizer's edges (`Canvas.fill(_ stroke:…)`).
        public var stroke: PathStroke? { box.fields.stroke?.stroke }
        /// Whether `path` is made and kept (asked for by planning or `explain`): then drawing
        /// it is cheaper than stroking again.
        var hasOutline: Bool { box.fields.stroke?.hasOutline ?? true }
        public var fill: ShapeFill {
            get { box.fields.fill }
            set { fields.fill = newValue }
        }
        public var fillRule: FillRule {
            get { box.fields.fillRule }
            set { fields.fillRule = newValue }
        }
        public var blendMode: BlendMode {
            get { box.fields.blendMode }
            set { fields.blendMode = newValue }
        }
        public var clips: [ClipPath] {
            get { box.fields.clips }
            set { fields.clips = newValue }
        }
        public var shadows: [DropShadow] {
            get { box.fields.shadows }
            set { fields.shadows = newValue }
        }
        /// Text drawn from cached glyph masks: the glyphs whose coverage this leaf fills (its
        /// `path` is then the union of the glyphs' boxes, for bounds only). Nil for shapes, and
        /// for text drawn from its outlines (see `GlyphRun`).
        public var glyphs: GlyphRun? {
            get { box.fields.glyphs }
            set { fields.glyphs = newValue }
        }
        /// For text: what it says and what draws it (fonts, sizes, glyphs), for `explain`.
        public var text: String? {
            get { textSummary?.description }
            set { textSummary = newValue.map { .literal($0) } }
        }
        /// What `text` says, kept as its parts: a render never formats it (only `explain` does).
        var textSummary: TextSummary? {
            get { box.fields.textSummary }
            set { fields.textSummary = newValue }
        }
        /// Where a scene file wrote the view this leaf comes from (nil: not from a scene file,
        /// or not known). Not part of equality: two leaves that draw the same are equal.
        public var source: SourceLine? {
            get { box.fields.sourceTag.location }
            set { fields.sourceTag.location = newValue }
        }
        var sourceTag: SourceTag {
            get { box.fields.sourceTag }
            set { fields.sourceTag = newValue }
        }
        /// Whether `path` is a stroke's outline (`shape.stroke(…)`, an SVG stroke): its windings
        /// then have one sign by construction, so under the non-zero rule its coverage is
        /// accumulated, even at `.exact`, where the outline overlaps itself (DESIGN.md,
        /// "Rasterization quality": only opposite windings are resolved exactly). Off by at
        /// most the area a pixel has covered twice, where a part of it is covered twice and a
        /// part not at all (`CoverageQualityTests`). Set it only on a path made by
        /// `Path.strokedPath` (transformed, not combined with other paths).
        public var strokeOutline: Bool {
            get { box.fields.strokeOutline }
            set { fields.strokeOutline = newValue }
        }

        public init(path: Path, fill: ShapeFill, fillRule: FillRule = .nonZero, blendMode: BlendMode = .normal,
                    clips: [ClipPath] = [], shadows: [DropShadow] = [], glyphs: GlyphRun? = nil, text: String? = nil,
                    strokeOutline: Bool = false) {
            self.init(path: path, fill: fill, fillRule: fillRule, blendMode: blendMode, clips: clips, shadows: shadows, glyphs: glyphs,
                      textSummary: text.map { .literal($0) }, strokeOutline: strokeOutline)
        }

        init(path: Path, fill: ShapeFill, fillRule: FillRule, blendMode: BlendMode, clips: [ClipPath], shadows: [DropShadow],
             glyphs: GlyphRun?, textSummary: TextSummary?, strokeOutline: Bool = false) {
            box = Box(Fields(path: path, fill: fill, fillRule: fillRule, blendMode: blendMode, clips: clips, shadows: shadows,
                             glyphs: glyphs, textSummary: textSummary, strokeOutline: strokeOutline))
        }

        /// A stroke's leaf, kept as the stroke (its outline made only if asked for); only for
        /// strokes with `PathStroke.streamBounds`, whose outline cannot be refused.
        init(stroke: PathStroke, fill: ShapeFill, blendMode: BlendMode, clips: [ClipPath], shadows: [DropShadow]) {
            box = Box(Fields(path: Path(), fill: fill, fillRule: .nonZero, blendMode: blendMode, clips: clips, shadows: shadows,
                             glyphs: nil, textSummary: nil, strokeOutline: true, stroke: StrokeSource(stroke)))
        }

        /// Equal when they draw the same (the source is not compared). A stroke kept as the
        /// stroke and its outline kept as a path draw the same yet compare unequal: equality
        /// never says more than it knows.
        public static func == (a: Leaf, b: Leaf) -> Bool { a.box === b.box || a.box.fields == b.box.fields }
        public func hash(into hasher: inout Hasher) { box.fields.hash(into: &hasher) }
    }

    /// Items drawn into an offscreen layer of their own (isolated from what lies behind), the
    /// layer prepared as `isolation` says, then composited onto the parent once with
    /// `composite`.
    public struct Group: Hashable, Sendable {
        public var composite: Composite
        public var isolation: Isolation
        public var children: [DisplayItem]
        /// Where a scene file wrote the view this group comes from (nil: not known). Not part
        /// of equality.
        public var source: SourceLine? {
            get { sourceTag.location }
            set { sourceTag.location = newValue }
        }
        var sourceTag = SourceTag()

        public init(composite: Composite = Composite(), isolation: Isolation = .layer, children: [DisplayItem]) {
            self.composite = composite
            self.isolation = isolation
            self.children = children
        }
    }

    /// How a group's finished layer goes onto its parent: once, with the effects written
    /// outside the boundary.
    public struct Composite: Hashable, Sendable {
        public var opacity: Double = 1
        public var blendMode: BlendMode = .normal
        /// In the parent's device space; the layer keeps their combined coverage.
        public var clips: [ClipPath] = []
        /// Cast from the layer's alpha (faded by `opacity`).
        public var shadows: [DropShadow] = []

        public init(opacity: Double = 1, blendMode: BlendMode = .normal, clips: [ClipPath] = [], shadows: [DropShadow] = []) {
            self.opacity = Opacity(opacity).value
            self.blendMode = blendMode
            self.clips = clips
            self.shadows = shadows
        }
    }

    /// Why a group has a layer, and what happens to the layer before it is composited.
    public enum Isolation: Hashable, Sendable {
        /// `compositingGroup()`: the layer as drawn.
        case layer
        /// Colour effects written outside a boundary (or on an image): the layer's colours go
        /// through the matrix.
        case colorMatrix(ColorMatrix)
        /// The layer's luminance becomes its alpha (an SVG luminance mask's content): alpha =
        /// 0.2125 R + 0.7154 G + 0.0721 B of the premultiplied sRGB-encoded colour, so a
        /// colour's luminance is weighted by its own alpha.
        case luminanceToAlpha
        /// `blur(radius:)`: a Gaussian of `sigma` device pixels (edges repeated when `opaque`).
        case blur(sigma: Double, opaque: Bool)
        /// `mask`: the layer kept where these items (drawn into a second layer) have alpha.
        case mask([DisplayItem])
        /// An SVG filter: the layer (the filter's region, as far as it lies on the surface) is
        /// the graph's source graphic and becomes its result; `images` are the pictures of
        /// its `image` primitives, each drawn into a layer of the same pixels.
        case filter(FilterGraph, images: [[DisplayItem]])
        /// `drawingGroup()`: the children are in the image's own pixels; the image is cached,
        /// converted to the parent's encoding and placed by `image.placement`.
        case image(GroupImage)

        /// One line, for printing.
        var summary: String {
            switch self {
            case .layer: "compositingGroup"
            case .colorMatrix: "colorFilter"
            case .luminanceToAlpha: "luminanceToAlpha"
            case let .blur(sigma, opaque): String(format: "blur σ %.2f%@", sigma, opaque ? " opaque" : "")
            case .mask: "mask"
            case .filter(let graph, _): "filter \(graph.primitives.count) primitive\(graph.primitives.count == 1 ? "" : "s")"
            case .image(let image):
                "drawingGroup \(image.colorMode.rawValue)\(image.opaque ? " opaque" : "") \(image.width)×\(image.height)"
            }
        }
    }

    /// Where the item's view was written (nil: not known).
    public var source: SourceLine? {
        switch self {
        case .leaf(let l): l.source
        case .group(let g): g.source
        }
    }

    /// Gives `source` to this item and everything inside it that has none (a view written at
    /// one place in a scene file: its groups, its leaves, a mask's items). Items that have one
    /// were tagged by a view written inside, whose own contents are tagged already.
    func inheritingSource(_ source: SourceLine) -> DisplayItem {
        switch self {
        case .leaf(let leaf):
            guard leaf.source == nil else { return self }
            var tagged = leaf
            tagged.source = source
            return .leaf(tagged)
        case .group(let group):
            guard group.source == nil else { return self }
            var tagged = group
            tagged.source = source
            tagged.children = group.children.map { $0.inheritingSource(source) }
            switch group.isolation {
            case .mask(let items):
                tagged.isolation = .mask(items.map { $0.inheritingSource(source) })
            case let .filter(graph, images):
                tagged.isolation = .filter(graph, images: images.map { $0.map { $0.inheritingSource(source) } })
            case .layer, .colorMatrix, .luminanceToAlpha, .blur, .image:
                break
            }
            return .group(tagged)
        }
    }

    /// The leaf, if this is one.
    public var leaf: Leaf? { if case .leaf(let l) = self { l } else { nil } }
    /// The group, if this is one.
    public var group: Group? { if case .group(let g) = self { g } else { nil } }

    /// Device bounds of the ink (for sizing layers): a leaf's path, a group's content spread by
    /// its blur, cut by its mask, or a drawing group's placed image.
    var inkBounds: CGRect {
        switch self {
        case .leaf(let leaf):
            return leaf.path.boundingRect
        case .group(let group):
            let content = group.children.reduce(CGRect.null) { $0.union($1.inkBounds) }
            switch group.isolation {
            case .layer, .colorMatrix, .luminanceToAlpha:
                return content
            case let .blur(sigma, opaque):
                let spread = opaque ? 0 : CGFloat(gaussianExtent(sigma: sigma))
                return content.isNull ? content : content.insetBy(dx: -spread, dy: -spread)
            case .mask(let mask):
                return content.intersection(mask.reduce(CGRect.null) { $0.union($1.inkBounds) })
            case .filter(let graph, _):
                // A filter can make pixels from nothing (flood, image, an alpha offset), so
                // its whole region may be ink.
                return graph.region
            case .image(let image):
                return image.frame
            }
        }
    }
}

/// A place in a scene file: the line and column where a view was written (1-based).
public struct SourceLine: Hashable, Sendable, Codable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
    /// `line:column`, as compilers print it after a file name.
    public var description: String { "\(line):\(column)" }
}

/// A source line kept beside what is drawn, equal to every other: where a view was written
/// does not change what it draws, so display lists (and drawing-group cache keys) stay equal.
struct SourceTag: Hashable, Sendable {
    var location: SourceLine?
    static func == (a: SourceTag, b: SourceTag) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}

/// Something a render noticed that a user may not expect, and where the view was written when
/// a scene file says (`line` and `column` nil otherwise).
public struct RenderWarning: Hashable, Sendable, Codable, CustomStringConvertible {
    public var message: String
    public var line: Int?
    public var column: Int?
    public init(_ message: String, source: SourceLine? = nil) {
        self.message = message
        line = source?.line
        column = source?.column
    }
    public var source: SourceLine? { line.flatMap { l in column.map { SourceLine(line: l, column: $0) } } }
    /// `line:column: message`, or the message alone.
    public var description: String { source.map { "\($0): \(message)" } ?? message }
}

/// A device-space clip: drawing keeps the coverage of `path`.
public struct ClipPath: Hashable, Sendable {
    public var path: Path
    public var fillRule: FillRule
    public init(path: Path, fillRule: FillRule = .nonZero) {
        self.path = path
        self.fillRule = fillRule
    }
}

/// A drawing group's image: rasterized in the group's own space at its layout size × the
/// render scale, in the pixel format of its colour mode, then placed by `placement` (the
/// frame's origin and every transform written outside the group).
public struct GroupImage: Hashable, Sendable {
    public var opaque: Bool
    public var colorMode: ColorRenderingMode
    /// The image in pixels (the layout size × the render scale, rounded up).
    public var width: Int
    public var height: Int
    /// From image pixels to device pixels.
    public var placement: CGAffineTransform

    /// The pixel format the image is drawn in: no alpha when opaque, else 8-bit sRGB-encoded
    /// (`.nonLinear`), 8-bit linear (`.linear`) or 32-bit float linear (`.extendedLinear`).
    public var format: PixelFormat {
        opaque ? .xrgb32 : colorMode == .linear ? .argb32Linear : colorMode == .extendedLinear ? .rgbaFloat : .argb32
    }

    /// The placement's offset in whole pixels relative to `origin`, when it is a translation by
    /// whole pixels (the image is then composited exactly, without resampling); else nil.
    func wholePixelOffset(from origin: (x: Int, y: Int)) -> (x: Int, y: Int)? {
        let p = placement
        let tx = p.tx - CGFloat(origin.x), ty = p.ty - CGFloat(origin.y)
        guard p.a == 1, p.b == 0, p.c == 0, p.d == 1, tx == tx.rounded(), ty == ty.rounded(), abs(tx) < 1e9, abs(ty) < 1e9 else { return nil }
        return (Int(tx), Int(ty))
    }

    /// Device bounds of the placed image.
    public var frame: CGRect {
        CGRect(x: 0, y: 0, width: width, height: height).applying(placement)
    }
}

/// A leaf's stroke and, once asked for, its outline (`DisplayItem.Leaf.path`): made at most
/// once, under a lock, since a display list's leaves may be read from several threads.
/// Compared and hashed by the stroke (equal strokes have equal outlines).
final class StrokeSource: Hashable, @unchecked Sendable {
    let stroke: PathStroke
    private let made = Locked<Path?>(nil)

    init(_ stroke: PathStroke) { self.stroke = stroke }

    /// The outline (`PathStroke.outline()`); the leaf holds only strokes that cannot be
    /// refused, so the empty path stands for nothing that happens.
    var outline: Path {
        made.withLock { made in
            if let made { return made }
            let outline = (try? stroke.outline()) ?? Path()
            made = outline
            return outline
        }
    }

    var hasOutline: Bool { made.withLock { $0 != nil } }

    static func == (a: StrokeSource, b: StrokeSource) -> Bool { a === b || a.stroke == b.stroke }
    func hash(into hasher: inout Hasher) { hasher.combine(stroke) }
}
