import Foundation
import Compositor
import SceneGraph

/// Draws the resolved tree as display items: leaves in device space, a group wherever SVG
/// isolates (opacity, blend, `isolation`, clip path, mask, viewport clip).
struct SVGDrawer {
    let limits: StrokeLimits

    func items(_ nodes: [SVGNode], _ t: CGAffineTransform) throws(StrokeRefusal) -> [DisplayItem] {
        var out: [DisplayItem] = []
        for node in nodes { try draw(node, t, into: &out) }
        return out
    }

    func draw(_ node: SVGNode, _ t: CGAffineTransform, into out: inout [DisplayItem]) throws(StrokeRefusal) {
        switch node {
        case .shape(let shape): try draw(shape, t, opacity: 1, into: &out)
        case .image(let image): try draw(image, t, into: &out)
        case .group(let group): try draw(group, t, into: &out)
        }
    }

    func draw(_ group: SVGGroup, _ parent: CGAffineTransform, into out: inout [DisplayItem]) throws(StrokeRefusal) {
        let t = group.transform.concatenating(parent)
        guard group.opacity > 0 else { return }
        // A lone shape whose only effect is opacity takes it into its paint (no layer), when
        // it has only one of fill and stroke and no markers: the result is the same.
        if group.opacity < 1, group.blendMode == .normal, !group.isolate, group.clip == nil, group.mask == nil, group.viewportClip == nil,
           group.filters.isEmpty, group.children.count == 1, case .shape(let s) = group.children[0], s.markers.isEmpty, (s.fill == nil) != (s.stroke == nil) {
            try draw(s, t, opacity: group.opacity, into: &out)
            return
        }
        var content = try items(group.children, t)
        guard !content.isEmpty || !group.filters.isEmpty else { return }
        guard group.needsLayer else {
            out += content
            return
        }
        // Innermost first: the viewport clip, the filters, the clip path, then the mask;
        // opacity and blend on the outermost group.
        var layers: [(DisplayItem.Isolation, [ClipPath])] = []
        if let rect = group.viewportClip { layers.append((.layer, [ClipPath(path: Path(rect).applying(t))])) }
        for filter in group.filters {
            var images: [[DisplayItem]] = []
            for picture in filter.images { images.append(try items(picture, t)) }
            layers.append((.filter(filter.graph(t), images: images), []))
        }
        if let clip = group.clip { layers.append((.mask(try clipItems(clip, t)), [])) }
        if let mask = group.mask { layers.append((.mask(try maskItems(mask, t)), [])) }
        if layers.isEmpty { layers.append((.layer, [])) }
        for (k, (isolation, clips)) in layers.enumerated() {
            let outermost = k == layers.count - 1
            let composite = DisplayItem.Composite(opacity: outermost ? group.opacity : 1, blendMode: outermost ? group.blendMode : .normal,
                                                  clips: clips)
            if case .mask(let m) = isolation, m.isEmpty { return }
            content = [.group(.init(composite: composite, isolation: isolation, children: content))]
        }
        out += content
    }

    /// A clip path as mask items: its shapes filled opaque, each by its clip rule.
    func clipItems(_ clip: SVGClip, _ t: CGAffineTransform) throws(StrokeRefusal) -> [DisplayItem] {
        let ct = clip.transform.concatenating(t)
        var items = try self.items(clip.children, ct)
        if let nested = clip.clip, !items.isEmpty {
            let inner = try clipItems(nested, t)
            items = inner.isEmpty ? [] : [.group(.init(isolation: .mask(inner), children: items))]
        }
        return items
    }

    /// A mask as mask items: its content within its region, its luminance turned into alpha.
    func maskItems(_ mask: SVGMask, _ t: CGAffineTransform) throws(StrokeRefusal) -> [DisplayItem] {
        var items = try self.items(mask.children, mask.contentTransform.concatenating(t))
        guard !items.isEmpty else { return [] }
        let region = ClipPath(path: Path(mask.region).applying(t))
        items = [.group(.init(composite: .init(clips: [region]), isolation: mask.luminance ? .luminanceToAlpha : .layer, children: items))]
        if let nested = mask.mask {
            let inner = try maskItems(nested, t)
            items = inner.isEmpty ? [] : [.group(.init(isolation: .mask(inner), children: items))]
        }
        return items
    }

    func draw(_ shape: SVGShape, _ t: CGAffineTransform, opacity: Double, into out: inout [DisplayItem]) throws(StrokeRefusal) {
        for step in shape.order {
            switch step {
            case .fill:
                if let fill = shape.fill, let paint = try shapeFill(fill.paint, t, opacity: fill.opacity * opacity) {
                    out.append(.leaf(.init(path: shape.path.applying(t), fill: paint, fillRule: fill.rule)))
                }
            case .stroke:
                if let stroke = shape.stroke, let paint = try shapeFill(stroke.paint, t, opacity: stroke.opacity * opacity) {
                    // Outlined in user space (a non-uniform transform shapes the pen, as SVG
                    // says), within the device tolerance divided by the largest scale.
                    let tolerance = strokeFlatteningTolerance / max(1e-6, maximumScale(t))
                    let outline = try shape.path.strokedPath(stroke.style, tolerance: tolerance, limits: limits)
                    // Accumulated as the scene graph's strokes are (one sign of winding).
                    if !outline.isEmpty { out.append(.leaf(.init(path: outline.applying(t), fill: paint, strokeOutline: true))) }
                }
            case .markers:
                for marker in shape.markers { try draw(marker, t, into: &out) }
            }
        }
    }

    /// The engine's fill for `paint` under `t`, faded by `opacity`: a pattern's tile
    /// rasterized now at the device scale and repeated; nil when nothing is painted.
    func shapeFill(_ paint: SVGPaint, _ t: CGAffineTransform, opacity: Double) throws(StrokeRefusal) -> ShapeFill? {
        guard case .pattern(let pattern) = paint else { return paint.shapeFill(t, opacity: opacity) }
        guard opacity > 0 else { return nil }
        let full = pattern.transform.concatenating(t)
        let tile = pattern.tile
        let sx = Double(hypot(full.a, full.b)), sy = Double(hypot(full.c, full.d))
        guard sx > 0, sy > 0, sx.isFinite, sy.isFinite else { return nil }
        // Whole pixels per tile (so tiles meet exactly), at most `maximumTileSide` a side.
        func pixels(_ v: Double) -> Int { Int(min(Double(Self.maximumTileSide), max(1, v.rounded(.up)))) }
        let w = pixels(tile.width * sx), h = pixels(tile.height * sy)
        let px = Double(w) / tile.width, py = Double(h) / tile.height
        let items = try self.items(pattern.content, CGAffineTransform(scaleX: px, y: py))
        guard !items.isEmpty, let surface = try? Surface(width: w, height: h),
              (try? Renderer().render(DisplayList(items: items), into: surface, background: nil)) != nil,
              let content = try? ImageContent(copying: surface, scale: 1) else { return nil }
        let imageTransform = CGAffineTransform(scaleX: 1 / px, y: 1 / py)
            .concatenating(CGAffineTransform(translationX: tile.minX, y: tile.minY))
            .concatenating(pattern.transform)
        return .image(ImageFill(content: content, imageTransform: imageTransform, filter: .bilinear, opacity: opacity, transform: t,
                                repeats: true))
    }

    /// The largest side of a pattern's rasterized tile, in pixels.
    static let maximumTileSide = 2048

    func draw(_ image: SVGImageNode, _ parent: CGAffineTransform, into out: inout [DisplayItem]) throws(StrokeRefusal) {
        let t = image.transform.concatenating(parent)
        var items: [DisplayItem] = []
        switch image.content {
        case .pixels(let pixels):
            let rect = image.naturalRect
            let fill = ShapeFill.image(ImageFill(content: pixels, imageTransform: .identity, filter: image.smooth ? .bicubic : .nearest,
                                                 transform: t, clampsToEdge: true))
            items = [.leaf(.init(path: Path(rect).applying(t), fill: fill))]
        case .document(let document):
            items = try document.items(transform: t, limits: limits)
        }
        guard !items.isEmpty else { return }
        if let clip = image.clip {
            out.append(.group(.init(composite: .init(clips: [ClipPath(path: Path(clip).applying(parent))]), children: items)))
        } else {
            out += items
        }
    }
}

extension SVGFilter {
    /// The graph in device pixels: the region and subregions as the bounding boxes of their
    /// images under `t`, lengths scaled by `t`'s scale along each axis (resvg's approach: a
    /// rotated or skewed element's filter runs axis-aligned on the device).
    func graph(_ t: CGAffineTransform) -> FilterGraph {
        let sx = Double(hypot(t.a, t.b)), sy = Double(hypot(t.c, t.d))
        func box(_ r: CGRect) -> CGRect { r.isEmpty ? .zero : r.applying(t) }
        return FilterGraph(region: box(region), primitives: primitives.map { p in
            let kind: FilterPrimitive.Kind
            switch p.kind {
            case let .gaussianBlur(x, y): kind = .gaussianBlur(sigmaX: x * sx, sigmaY: y * sy)
            case let .offset(dx, dy): kind = .offset(dx: dx * sx, dy: dy * sy)
            case let .dropShadow(x, y, dx, dy, color): kind = .dropShadow(sigmaX: x * sx, sigmaY: y * sy, dx: dx * sx, dy: dy * sy, color: color)
            case let .morphology(dilate, rx, ry): kind = .morphology(dilate: dilate, radiusX: rx * sx, radiusY: ry * sy)
            default: kind = p.kind
            }
            return FilterPrimitive(kind, inputs: p.inputs, subregion: box(p.subregion), linearRGB: p.linearRGB)
        })
    }
}

/// The largest factor by which `t` stretches a length (its largest singular value).
func maximumScale(_ t: CGAffineTransform) -> Double {
    let (a, b, c, d) = (Double(t.a), Double(t.b), Double(t.c), Double(t.d))
    let s = a * a + b * b + c * c + d * d
    let det = a * d - b * c
    let disc = max(0, s * s / 4 - det * det)
    return (s / 2 + disc.squareRoot()).squareRoot()
}

extension SVGPaint {
    /// The engine's fill for this paint in the shape's coordinates, mapped by `t` to device
    /// pixels, faded by `opacity`; nil when nothing is painted.
    func shapeFill(_ t: CGAffineTransform, opacity: Double) -> ShapeFill? {
        guard opacity > 0 else { return nil }
        switch self {
        case .color(let c):
            return c.alpha * opacity > 0 ? .color(c.opacity(opacity)) : nil
        case let .linear(stops, start, end, transform, spread):
            return ShapeFill.linearGradient(Gradient(stops: stops, spread: spread), start: start, end: end,
                                            transform: transform.concatenating(t)).opacity(opacity)
        case let .radial(stops, center, radius, focus, focalRadius, transform, spread):
            let gradient = Gradient(stops: stops, spread: spread)
            if focus == center, focalRadius == 0 {
                return ShapeFill.radialGradient(gradient, center: center, startRadius: 0, endRadius: radius,
                                                transform: transform.concatenating(t)).opacity(opacity)
            }
            return ShapeFill.focalRadialGradient(gradient, focus: focus, focalRadius: focalRadius, center: center, radius: radius,
                                                 transform: transform.concatenating(t)).opacity(opacity)
        case .pattern:
            return nil
        }
    }
}
