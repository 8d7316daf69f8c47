import Foundation
import Compositor
import SceneGraph

/// The resolved tree of an SVG document (usvg's idea): references and `use` resolved, styles
/// computed, units converted, every paint server in the coordinates of the shape it fills.
/// Groups remain only where isolation needs them; a group's transform maps its children's
/// coordinates into its parent's.
indirect enum SVGNode: Sendable {
    case group(SVGGroup)
    case shape(SVGShape)
    case image(SVGImageNode)
}

struct SVGGroup: Sendable {
    var transform: CGAffineTransform = .identity
    var opacity: Double = 1
    var blendMode: BlendMode = .normal
    /// `isolation: isolate`: a layer even at full opacity and the normal blend.
    var isolate = false
    var clip: SVGClip? = nil
    var mask: SVGMask? = nil
    /// A viewport's rectangle (nested `svg`, `symbol`) in the children's coordinates: what
    /// lies outside is clipped.
    var viewportClip: CGRect? = nil
    /// Applied in order, innermost first, before the clip, the mask and opacity.
    var filters: [SVGFilter] = []
    var children: [SVGNode] = []

    /// Whether the group needs a layer of its own.
    var needsLayer: Bool {
        opacity < 1 || blendMode != .normal || isolate || clip != nil || mask != nil || viewportClip != nil || !filters.isEmpty
    }
}

/// A painted path. Its coordinates are user units of the enclosing group.
struct SVGShape: Sendable {
    var path: Path
    var fill: SVGFill?
    var stroke: SVGStroke?
    /// The markers, instantiated (in the shape's coordinates).
    var markers: [SVGNode] = []
    /// `paint-order`: which of fill, stroke and markers is drawn first.
    var order: [Step] = Step.allCases
    enum Step: String, CaseIterable, Sendable { case fill, stroke, markers }
    /// `shape-rendering: crispEdges` / `optimizeSpeed`: drawn without anti-aliasing.
    var aliased = false
}

struct SVGFill: Sendable {
    var paint: SVGPaint
    var opacity: Double
    var rule: FillRule
}

struct SVGStroke: Sendable {
    var paint: SVGPaint
    var opacity: Double
    var style: StrokeStyle
}

/// A paint in the coordinates of the shape it paints.
enum SVGPaint: Sendable {
    case color(Color)
    /// From `start` to `end` in gradient coordinates, which `transform` maps to the shape's.
    case linear(stops: [Gradient.Stop], start: CGPoint, end: CGPoint, transform: CGAffineTransform, spread: GradientSpread)
    case radial(stops: [Gradient.Stop], center: CGPoint, radius: Double, focus: CGPoint, focalRadius: Double,
                transform: CGAffineTransform, spread: GradientSpread)
    /// One tile, drawn as `content` in tile coordinates and repeated: `tile` is the tile's
    /// rectangle and `transform` maps tile space into the shape's.
    case pattern(SVGPattern)
}

struct SVGPattern: Sendable {
    var tile: CGRect
    var transform: CGAffineTransform
    var content: [SVGNode]
}


/// An image element: pixels (from a PNG) or another document, placed into `viewport` by
/// `preserveAspectRatio`.
struct SVGImageNode: Sendable {
    enum Content: Sendable {
        case pixels(ImageContent)
        case document(SVGDocument)
    }
    var content: Content
    /// The image's own rectangle in user units (its pixels, or the document's viewBox) mapped
    /// to user space by `transform`, kept within `clip` (the viewport; nil: not clipped).
    var transform: CGAffineTransform
    var clip: CGRect?
    var smooth: Bool

    /// The image's own rectangle: its pixels, or the document's viewBox (else its size).
    var naturalRect: CGRect {
        switch content {
        case .pixels(let p): CGRect(x: 0, y: 0, width: p.pixelWidth, height: p.pixelHeight)
        case .document(let d): d.viewBox ?? CGRect(origin: .zero, size: d.naturalSize)
        }
    }
}

/// A `clipPath`: the union of its children's shapes, each by its own clip rule, in the
/// coordinates `transform` maps to the clipped element's; itself clipped by `clip`.
struct SVGClip: Sendable {
    var transform: CGAffineTransform
    var children: [SVGNode]
    /// (In an array, which breaks the type's recursion.)
    private var nested: [SVGClip] = []
    var clip: SVGClip? {
        get { nested.first }
        set { nested = newValue.map { [$0] } ?? [] }
    }

    init(transform: CGAffineTransform, children: [SVGNode], clip: SVGClip?) {
        self.transform = transform
        self.children = children
        self.clip = clip
    }
}

/// A `mask`: its children drawn, their luminance (or alpha) keeping the element, within
/// `region` (the mask's rectangle in the element's coordinates).
struct SVGMask: Sendable {
    var region: CGRect
    var contentTransform: CGAffineTransform
    var children: [SVGNode]
    var luminance: Bool
    private var nested: [SVGMask] = []
    var mask: SVGMask? {
        get { nested.first }
        set { nested = newValue.map { [$0] } ?? [] }
    }

    init(region: CGRect, contentTransform: CGAffineTransform, children: [SVGNode], luminance: Bool, mask: SVGMask?) {
        self.region = region
        self.contentTransform = contentTransform
        self.children = children
        self.luminance = luminance
        self.mask = mask
    }
}

/// A `filter` (or a list of CSS filter functions) resolved for one element, in the element's
/// user space: the region, and the primitives with their lengths in user units. The drawer
/// maps it to device pixels.
struct SVGFilter: Sendable {
    var region: CGRect
    var primitives: [SVGFilterPrimitive]
    /// The pictures of `feImage` primitives (`FilterPrimitive.Kind.image(k)` is `images[k]`),
    /// in the element's user space.
    var images: [[SVGNode]] = []
}

struct SVGFilterPrimitive: Sendable {
    /// Lengths (σ, offsets, radii) in user units.
    var kind: FilterPrimitive.Kind
    var inputs: [FilterPrimitive.Input]
    var subregion: CGRect
    var linearRGB: Bool
}

extension SVGPaint {
    /// This paint, given in some element's coordinates, in the coordinates `toThere` maps to
    /// that element's (a context paint used by transformed content); nil when `toThere`
    /// cannot be inverted.
    func seen(from toThere: CGAffineTransform) -> SVGPaint? {
        guard toThere != .identity else { return self }
        let det = Double(toThere.a * toThere.d - toThere.b * toThere.c)
        guard det != 0, det.isFinite else { return nil }
        let back = toThere.inverted()
        switch self {
        case .color: return self
        case let .linear(stops, start, end, transform, spread):
            return .linear(stops: stops, start: start, end: end, transform: transform.concatenating(back), spread: spread)
        case let .radial(stops, center, radius, focus, focalRadius, transform, spread):
            return .radial(stops: stops, center: center, radius: radius, focus: focus, focalRadius: focalRadius,
                           transform: transform.concatenating(back), spread: spread)
        case .pattern(var p):
            p.transform = p.transform.concatenating(back)
            return .pattern(p)
        }
    }
}
