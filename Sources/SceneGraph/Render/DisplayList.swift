import Foundation

/// A resolved, absolute drawing: every leaf's device-space path, paint and accumulated per-leaf
/// effects, and the group boundaries between them. Equatable, and printable for inspection.
public struct DisplayList: Equatable, CustomStringConvertible {
    public var items: [DisplayItem]
    /// What lowering noticed that a user may not expect (an outer blend mode a nearer one
    /// overrides). Not part of equality: two lists that draw the same are equal.
    public var warnings: [String] = []

    public init(items: [DisplayItem], warnings: [String] = []) {
        self.items = items
        self.warnings = warnings
    }

    public static func == (a: DisplayList, b: DisplayList) -> Bool { a.items == b.items }

    public var description: String {
        var lines: [String] = []
        func walk(_ items: [DisplayItem], _ depth: Int) {
            let pad = String(repeating: "  ", count: depth)
            for item in items {
                switch item {
                case let .fill(path, color, rule, blend, clips, shadows):
                    let b = path.boundingRect
                    lines.append(pad + String(format: "fill %@ %@ bounds [%.1f, %.1f, %.1f, %.1f]", color.description,
                                              rule.rawValue, b.minX, b.minY, b.width, b.height)
                                 + (blend == .normal ? "" : " blend \(blend.rawValue)") + (clips.isEmpty ? "" : " clipped \(clips.count)")
                                 + (shadows.isEmpty ? "" : " shadows \(shadows.count)"))
                case let .compositingGroup(opacity, blend, _, _, children):
                    lines.append(pad + String(format: "compositingGroup opacity %.3f", opacity)
                                 + (blend == .normal ? "" : " blend \(blend.rawValue)"))
                    walk(children, depth + 1)
                case let .colorFilter(_, opacity, blend, _, _, children):
                    lines.append(pad + String(format: "colorFilter opacity %.3f", opacity) + (blend == .normal ? "" : " blend \(blend.rawValue)"))
                    walk(children, depth + 1)
                case let .blur(sigma, opaque, opacity, blend, _, _, children):
                    lines.append(pad + String(format: "blur σ %.2f%@ opacity %.3f", sigma, opaque ? " opaque" : "", opacity)
                                 + (blend == .normal ? "" : " blend \(blend.rawValue)"))
                    walk(children, depth + 1)
                case let .mask(opacity, blend, _, _, mask, children):
                    lines.append(pad + String(format: "mask opacity %.3f", opacity) + (blend == .normal ? "" : " blend \(blend.rawValue)"))
                    walk(children, depth + 1)
                    lines.append(pad + "  with mask")
                    walk(mask, depth + 2)
                case let .drawingGroup(opaque, mode, opacity, blend, image, _, _, children):
                    lines.append(pad + String(format: "drawingGroup %@%@ %d×%d opacity %.3f", mode.rawValue, opaque ? " opaque" : "",
                                              image.width, image.height, opacity)
                                 + (blend == .normal ? "" : " blend \(blend.rawValue)"))
                    walk(children, depth + 1)
                }
            }
        }
        walk(items, 0)
        return lines.joined(separator: "\n")
    }
}

/// A device-space clip: drawing keeps the coverage of `path`.
public struct ClipPath: Hashable, Sendable {
    public var path: Path
    public var fillRule: FillRule
}

/// Where a drawing group's image goes: rasterized in the group's own space at its layout size ×
/// the render scale, then placed by `placement` (the frame's origin and every transform written
/// outside the group).
public struct GroupImage: Hashable, Sendable {
    /// The image in pixels (the layout size × the render scale, rounded up).
    public var width: Int
    public var height: Int
    /// From image pixels to device pixels.
    public var placement: CGAffineTransform
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

public indirect enum DisplayItem: Hashable, Sendable {
    /// A leaf: a device-space path filled with a colour or gradient whose opacity already
    /// includes every per-leaf opacity above it, blended with `blendMode`.
    case fill(Path, ShapeFill, FillRule, blendMode: BlendMode = .normal, clips: [ClipPath] = [], shadows: [DropShadow] = [])
    /// Children composited into a transparent layer, then onto the parent once, with `opacity`
    /// and `blendMode`.
    case compositingGroup(opacity: Double, blendMode: BlendMode = .normal, clips: [ClipPath] = [],
                          shadows: [DropShadow] = [], [DisplayItem])
    /// Children, lowered in the group's own pixel space, rasterized into an image of the
    /// group's colour mode (ink outside its frame is clipped), converted to the parent's
    /// encoding and composited through `image.placement` with `opacity` and `blendMode`.
    case drawingGroup(opaque: Bool, colorMode: ColorRenderingMode, opacity: Double, blendMode: BlendMode,
                      image: GroupImage, clips: [ClipPath] = [], shadows: [DropShadow] = [], [DisplayItem])

    /// Children composited into a layer, blurred as one with a Gaussian of `sigma` device
    /// pixels (edges repeated when `opaque`), then composited with `opacity` and `blendMode`.
    case blur(sigma: Double, opaque: Bool, opacity: Double, blendMode: BlendMode = .normal, clips: [ClipPath] = [],
              shadows: [DropShadow] = [], [DisplayItem])
    /// Children composited into a layer whose colours go through `matrix` (colour effects
    /// written outside a boundary), then composited with `opacity` and `blendMode`.
    case colorFilter(matrix: ColorMatrix, opacity: Double, blendMode: BlendMode = .normal, clips: [ClipPath] = [],
                     shadows: [DropShadow] = [], [DisplayItem])
    /// Children composited into a layer and kept where the `mask` items have alpha, then
    /// composited with `opacity` and `blendMode`.
    case mask(opacity: Double, blendMode: BlendMode = .normal, clips: [ClipPath] = [], shadows: [DropShadow] = [],
              mask: [DisplayItem], [DisplayItem])

    /// Device bounds of the ink (for sizing layers).
    var inkBounds: CGRect {
        switch self {
        case let .blur(sigma, opaque, _, _, _, _, children):
            let ink = children.reduce(CGRect.null) { $0.union($1.inkBounds) }
            let spread = opaque ? 0 : CGFloat(gaussianExtent(sigma: sigma))
            return ink.isNull ? ink : ink.insetBy(dx: -spread, dy: -spread)
        case let .mask(_, _, _, _, mask, children):
            return children.reduce(CGRect.null) { $0.union($1.inkBounds) }.intersection(mask.reduce(CGRect.null) { $0.union($1.inkBounds) })
        case .colorFilter(_, _, _, _, _, let children): return children.reduce(CGRect.null) { $0.union($1.inkBounds) }
        case .fill(let path, _, _, _, _, _): return path.boundingRect
        case .compositingGroup(_, _, _, _, let children): return children.reduce(CGRect.null) { $0.union($1.inkBounds) }
        case .drawingGroup(_, _, _, _, let image, _, _, _): return image.frame
        }
    }
}

/// Lowering state: where points land in device space, and the opacity leaves inherit.
struct LowerContext {
    var transform: CGAffineTransform
    var opacity: Double
    /// The innermost blend mode written above (nil: none yet, normal).
    var blendMode: BlendMode?
    /// Clips written above, in device space; every leaf keeps each one's coverage.
    var clips: [ClipPath] = []
    /// Shadows written above, in device space; every leaf casts each.
    var shadows: [DropShadow] = []
    /// Where lowering reports what `explain` warns about (shared by every copy).
    var notes: LoweringNotes? = nil
    /// Device pixels per point: a drawing group's image is rasterized at this scale in its own
    /// space, whatever the transforms around it.
    var scale: Double = 1
    /// Colour effects written above, composed (inner first): applied to each leaf's paint.
    var colorMatrix: ColorMatrix? = nil
    /// The environment's foreground style (nil: black).
    var foreground: (any ShapeStyle)? = nil
}

/// Warnings collected while lowering, once each.
final class LoweringNotes {
    private(set) var warnings: [String] = []
    func warn(_ text: String) { if !warnings.contains(text) { warnings.append(text) } }
}

/// A frame's own space (origin (0, 0), its size) and the transform from it to device pixels.
private func localSpace(_ rect: CGRect, _ transform: CGAffineTransform) -> (CGRect, CGAffineTransform) {
    (CGRect(origin: .zero, size: rect.size),
     CGAffineTransform(translationX: rect.minX, y: rect.minY).concatenating(transform))
}

/// Places `node` in `rect` (points) and appends its drawing to `items`.
func lower(_ node: ViewNode, in rect: CGRect, context: LowerContext, into items: inout [DisplayItem]) {
    if let matrix = context.colorMatrix, node.isBoundary {
        // Colour effects written outside a boundary apply once to its result: the boundary is
        // lowered plain and wrapped in a filter layer that takes the outer opacity, blend mode,
        // clips and shadows.
        let inner = lowerIsolated(node, in: rect, context: context)
        if !inner.isEmpty, context.opacity > 0 {
            items.append(.colorFilter(matrix: matrix, opacity: context.opacity, blendMode: context.blendMode ?? .normal,
                                      clips: context.clips, shadows: context.shadows, inner))
        }
        return
    }
    switch node {
    case .empty:
        break
    case let .shape(geometry, style, rule):
        guard context.opacity > 0 else { return }
        // As in SwiftUI, a shape draws in its own space, (0, 0) at its frame's origin: a `Path`
        // view's coordinates are relative to where layout put it.
        let (local, place) = localSpace(rect, context.transform)
        var fill = resolveForeground(style, context.foreground)._fill(in: local)
        if let matrix = context.colorMatrix { fill = fill.mapColors(matrix.apply(to:)) }
        fill = fill.transformed(by: place).opacity(context.opacity)
        items.append(.fill(geometry.path(local).applying(place), fill, rule,
                           blendMode: context.blendMode ?? .normal, clips: context.clips,
                           shadows: context.shadows.map { var s = $0; s.color = s.color.opacity(context.opacity); return s }))
    case let .image(content, _, filter):
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
            items.append(.colorFilter(matrix: matrix, opacity: context.opacity, blendMode: context.blendMode ?? .normal,
                                      clips: context.clips, shadows: context.shadows, [.fill(path, fill, .nonZero)]))
        } else {
            items.append(.fill(path, fill.opacity(context.opacity), .nonZero, blendMode: context.blendMode ?? .normal, clips: context.clips,
                               shadows: context.shadows.map { var s = $0; s.color = s.color.opacity(context.opacity); return s }))
        }
    case .spacer:
        break
    case .sequence, .zstack, .stack, .padding, .frame, .flexibleFrame, .placed, .offset, .position, .fixedSize, .layered, .aspectRatio,
         .layoutPriority, .identity, .geometryGroup, .transition:
        for (child, childRect) in childRects(of: node, in: rect) {
            lower(child, in: childRect, context: context, into: &items)
        }
    case let .transformEffect(t, anchor, child):
        // About the anchor, in points, then on to device space: a transform written outside
        // composes after (to the left of) the ones inside.
        let a = anchor.point(in: rect)
        let local = CGAffineTransform(translationX: -a.x, y: -a.y).concatenating(t.matrix)
            .concatenating(CGAffineTransform(translationX: a.x, y: a.y))
        var inner = context
        inner.transform = local.concatenating(context.transform)
        lower(child, in: rect, context: inner, into: &items)
    case let .opacity(a, child):
        var inner = context
        inner.opacity *= a
        lower(child, in: rect, context: inner, into: &items)
    case let .blendMode(mode, child):
        // Modifiers wrap from the outside in, so the first mode met is the outermost; an inner
        // one (closer to the leaf) replaces it.
        if let outer = context.blendMode, outer != mode {
            context.notes?.warn("blendMode(.\(outer.rawValue)) written outside is overridden by blendMode(.\(mode.rawValue)) nearer the leaves: the nearest mode wins")
        }
        var inner = context
        inner.blendMode = mode
        lower(child, in: rect, context: inner, into: &items)
    case let .shadow(color, radius, offset, child):
        // To device space: the offset through the transform's linear part, σ scaled by the
        // transform's mean scale.
        let t = context.transform
        let scale = abs(t.a * t.d - t.b * t.c).squareRoot()
        let d = CGSize(width: t.a * offset.width + t.c * offset.height, height: t.b * offset.width + t.d * offset.height)
        var inner = context
        // Colour effects written outside the shadow colour it too (it is part of what they
        // affect); those written inside do not.
        let shadowColor = context.colorMatrix.map { $0.apply(to: color) } ?? color
        inner.shadows.append(DropShadow(color: shadowColor, sigma: Double(radius) / 2 * scale, offset: d))
        lower(child, in: rect, context: inner, into: &items)
    case let .clip(geometry, rule, child):
        var inner = context
        let (local, place) = localSpace(rect, context.transform)
        inner.clips.append(ClipPath(path: geometry.path(local).applying(place), fillRule: rule))
        lower(child, in: rect, context: inner, into: &items)
    case let .drawingGroup(opaque, mode, _):
        // Lowered in the group's own space: origin at its frame's top-left, in pixels at the
        // render scale, so the same subtree lowers to the same children wherever it is placed
        // (the cache's key). Outer transforms only move the finished image.
        let s = context.scale
        let width = Int((rect.width * s - 1e-9).rounded(.up)), height = Int((rect.height * s - 1e-9).rounded(.up))
        var local = LowerContext(transform: CGAffineTransform(scaleX: s, y: s), opacity: 1, blendMode: nil, notes: context.notes, scale: s)
        local.foreground = context.foreground
        var children: [DisplayItem] = []
        for (content, contentRect) in childRects(of: node, in: rect) {
            lower(content, in: contentRect, context: local, into: &children)
        }
        guard width > 0, height > 0, (!children.isEmpty || opaque), context.opacity > 0 else { return }
        let placement = CGAffineTransform(scaleX: 1 / s, y: 1 / s)
            .concatenating(CGAffineTransform(translationX: rect.minX, y: rect.minY)).concatenating(context.transform)
        items.append(.drawingGroup(opaque: opaque, colorMode: mode, opacity: context.opacity,
                                   blendMode: context.blendMode ?? .normal,
                                   image: GroupImage(width: width, height: height, placement: placement),
                                   clips: context.clips, shadows: context.shadows, children))
    case let .foregroundStyle(style, child):
        var inner = context
        inner.foreground = resolveForeground(style, context.foreground)
        lower(child, in: rect, context: inner, into: &items)
    case let .colorEffect(matrix, child):
        var inner = context
        inner.colorMatrix = context.colorMatrix.map { matrix.followed(by: $0) } ?? matrix
        lower(child, in: rect, context: inner, into: &items)
    case let .blur(radius, opaque, child):
        let children = lowerIsolated(child, in: rect, context: context)
        let t = context.transform
        let sigma = Double(radius) * Double(abs(t.a * t.d - t.b * t.c).squareRoot())
        if !children.isEmpty, context.opacity > 0 {
            items.append(.blur(sigma: sigma, opaque: opaque, opacity: context.opacity, blendMode: context.blendMode ?? .normal,
                               clips: context.clips, shadows: context.shadows, children))
        }
    case .mask:
        let parts = childRects(of: node, in: rect)
        let children = lowerIsolated(parts[0].0, in: parts[0].1, context: context)
        let maskItems = lowerIsolated(parts[1].0, in: parts[1].1, context: context)
        if !children.isEmpty, !maskItems.isEmpty, context.opacity > 0 {
            items.append(.mask(opacity: context.opacity, blendMode: context.blendMode ?? .normal, clips: context.clips,
                               shadows: context.shadows, mask: maskItems, children))
        }
    case .compositingGroup(let child):
        let children = lowerIsolated(child, in: rect, context: context)
        if !children.isEmpty, context.opacity > 0 {
            items.append(.compositingGroup(opacity: context.opacity, blendMode: context.blendMode ?? .normal,
                                           clips: context.clips, shadows: context.shadows, children))
        }
    }
}

/// A boundary's content, lowered in a fresh context: the boundary itself takes the outer
/// opacity, blend mode, clips and shadows, once, for its composite.
private func lowerIsolated(_ child: ViewNode, in rect: CGRect, context: LowerContext) -> [DisplayItem] {
    var inner = context
    inner.opacity = 1
    inner.blendMode = nil
    inner.clips = []
    inner.shadows = []
    inner.colorMatrix = nil
    var children: [DisplayItem] = []
    lower(child, in: rect, context: inner, into: &children)
    return children
}

extension ViewNode {
    /// Whether the node isolates its content (composites it into a layer first).
    var isBoundary: Bool {
        switch self {
        case .compositingGroup, .drawingGroup, .blur, .mask: true
        default: false
        }
    }
}
