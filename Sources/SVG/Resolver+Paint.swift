import Foundation
import Compositor

extension Resolver {
    /// A `fill` or `stroke` value as a paint for a shape whose bounding box is `bbox` (nil:
    /// none known, for `context-fill` of a `use`); nil for `none` or a paint that draws
    /// nothing.
    mutating func paint(_ raw: String, _ context: Context, bbox: CGRect?, owner: Int) -> SVGPaint? {
        let value = raw.trimmingCharacters(in: .whitespaces)
        switch value {
        case "none": return nil
        case "currentColor": return .color(currentColor(context))
        case "context-fill": return context.contextFill?.seen(from: context.contextSpace)
        case "context-stroke": return context.contextStroke?.seen(from: context.contextSpace)
        default: break
        }
        if let (id, fallback) = SVGValue.urlReference(value) {
            if let target = element(id) {
                // A server in objectBoundingBox units cannot paint a shape without area: the
                // fallback does, when there is one.
                if !fallback.isEmpty, needsBoundingBox(target), bbox.map({ $0.width <= 0 || $0.height <= 0 }) ?? true {
                    return paint(fallback, context, bbox: bbox, owner: owner)
                }
                switch tree.elements[target].name {
                case "linearGradient", "radialGradient":
                    // A server that draws nothing (no stops, an empty box) draws nothing; its
                    // fallback is only for a reference that cannot be resolved.
                    return gradient(target, context, bbox: bbox)
                case "pattern":
                    return pattern(target, context, bbox: bbox)
                default: break
                }
            }
            if fallback.isEmpty {
                warn(owner, "paint '\(value)' refers to no gradient or pattern: not painted")
                return nil
            }
            return paint(fallback, context, bbox: bbox, owner: owner)
        }
        if let color = SVGValue.color(value) { return .color(color) }
        // An invalid paint is as if not specified: the parent's, else black (fill) or none.
        warn(owner, "cannot read the paint '\(value)'")
        return nil
    }

    /// A paint server's `gradientTransform` or `patternTransform` (`text`) about its
    /// `transform-origin`; the identity when there is none or it is singular.
    func serverTransform(_ i: Int, _ text: String?, _ context: Context) -> CGAffineTransform {
        guard let t = text.flatMap(SVGValue.invertibleTransform) else { return .identity }
        guard let origin = cascade.specified[i]["transform-origin"], let (ox, oy) = transformOrigin(origin, context) else { return t }
        return CGAffineTransform(translationX: -ox, y: -oy).concatenating(t).concatenating(CGAffineTransform(translationX: ox, y: oy))
    }

    /// Whether paint server `i` is laid out on the painted shape's bounding box.
    func needsBoundingBox(_ i: Int) -> Bool {
        let chain = hrefChain(i)
        switch tree.elements[i].name {
        case "linearGradient", "radialGradient": return inherited(chain, "gradientUnits") != "userSpaceOnUse"
        case "pattern":
            return inherited(chain, "patternUnits") != "userSpaceOnUse" || inherited(chain, "patternContentUnits") == "objectBoundingBox"
        default: return false
        }
    }

    func currentColor(_ context: Context) -> Color {
        context.style["color"].flatMap(SVGValue.color) ?? .black
    }

    /// The chain of `href`s from `i` (itself first), stopping at a loop.
    func hrefChain(_ i: Int) -> [Int] {
        var chain = [i]
        var current = i
        while let next = element(SVGValue.fragment(href(current))), !chain.contains(next), chain.count < 64 {
            chain.append(next)
            current = next
        }
        return chain
    }

    /// The first value of `name` along a gradient's `href` chain (`sameKind`: only from
    /// elements of the gradient's own kind, for its geometry).
    func inherited(_ chain: [Int], _ name: String, sameKind: Bool = false) -> String? {
        let kind = tree.elements[chain[0]].name
        for i in chain where !sameKind || tree.elements[i].name == kind {
            if let v = attribute(i, name) { return v }
        }
        return nil
    }

    /// A linear or radial gradient for a shape of bounding box `bbox`.
    mutating func gradient(_ i: Int, _ context: Context, bbox: CGRect?) -> SVGPaint? {
        let chain = hrefChain(i).filter { ["linearGradient", "radialGradient"].contains(tree.elements[$0].name) }
        // Stops from the first element in the chain that has any.
        guard let withStops = chain.first(where: { e in tree.elements[e].children.contains { tree.elements[$0].name == "stop" } }) else {
            return nil
        }
        let stops = gradientStops(withStops)
        if stops.isEmpty { return nil }
        if stops.count == 1 { return .color(stops[0].color) }
        let userSpace = inherited(chain, "gradientUnits") == "userSpaceOnUse"
        var transform = serverTransform(i, inherited(chain, "gradientTransform"), context)
        if !userSpace {
            guard let b = bbox, b.width > 0, b.height > 0 else { return nil }
            transform = transform.concatenating(CGAffineTransform(a: b.width, b: 0, c: 0, d: b.height, tx: b.minX, ty: b.minY))
        }
        let spread = inherited(chain, "spreadMethod").flatMap(GradientSpread.init(rawValue:)) ?? .pad
        func coordinate(_ name: String, _ axis: SVGLength.Axis, _ fallback: String) -> Double {
            let l = SVGLength(inherited(chain, name, sameKind: true) ?? fallback) ?? SVGLength(fallback)!
            return userSpace ? l.resolved(axis, viewport: context.viewport) : l.fractionOfBox
        }
        if tree.elements[i].name == "linearGradient" {
            let start = CGPoint(x: coordinate("x1", .x, "0%"), y: coordinate("y1", .y, "0%"))
            let end = CGPoint(x: coordinate("x2", .x, "100%"), y: coordinate("y2", .y, "0%"))
            // No length along it: the last stop's colour (SVG 1.1 §13.2.2).
            if start == end { return .color(stops.last!.color) }
            return .linear(stops: stops, start: start, end: end, transform: transform, spread: spread)
        }
        let center = CGPoint(x: coordinate("cx", .x, "50%"), y: coordinate("cy", .y, "50%"))
        let r = coordinate("r", .other, "50%")
        let fx = inherited(chain, "fx", sameKind: true) != nil ? coordinate("fx", .x, "50%") : center.x
        let fy = inherited(chain, "fy", sameKind: true) != nil ? coordinate("fy", .y, "50%") : center.y
        let fr = coordinate("fr", .other, "0%")
        guard r > 0 else { return r == 0 ? .color(stops.last!.color) : nil }
        return .radial(stops: stops, center: center, radius: r, focus: CGPoint(x: fx, y: fy), focalRadius: max(0, fr),
                       transform: transform, spread: spread)
    }

    /// A gradient's stops: offsets clamped to [0, 1] and never decreasing, colours with their
    /// `stop-opacity`.
    func gradientStops(_ gradient: Int) -> [Gradient.Stop] {
        var stops: [Gradient.Stop] = []
        // The gradient's own style, inherited by its stops (for `currentColor` and `inherit`).
        let style = ancestorStyle(gradient)
        var last = 0.0
        for child in tree.elements[gradient].children where tree.elements[child].name == "stop" {
            let own = style.child(cascade.specified[child])
            var offset = attribute(child, "offset").flatMap(SVGValue.fraction) ?? 0
            offset = max(last, min(1, max(0, offset.isFinite ? offset : 0)))
            last = offset
            let colorText = own["stop-color"] ?? "black"
            var color = colorText == "currentColor" ? (own["color"].flatMap(SVGValue.color) ?? .black) : (SVGValue.color(colorText) ?? .black)
            color = color.opacity(SVGValue.opacity(own["stop-opacity"]) ?? 1)
            stops.append(Gradient.Stop(color: color, location: offset))
        }
        return stops
    }
}

extension Resolver {
    /// A `pattern` paint server for a shape of bounding box `bbox`: its tile (x, y, width,
    /// height by `patternUnits`), its content (by `viewBox` or `patternContentUnits`) and
    /// `patternTransform`, each from the first pattern along the `href` chain that has it;
    /// nil when the tile is empty or the pattern refers back to itself.
    mutating func pattern(_ i: Int, _ context: Context, bbox: CGRect?) -> SVGPaint? {
        let chain = hrefChain(i).filter { tree.elements[$0].name == "pattern" }
        guard enter(i, "a pattern that refers to itself is invalid: not painted") else { return nil }
        defer { active.remove(i) }
        let box = bbox.flatMap { $0.width > 0 && $0.height > 0 ? $0 : nil }
        let userUnits = inherited(chain, "patternUnits") == "userSpaceOnUse"
        func side(_ name: String, _ axis: SVGLength.Axis) -> Double? {
            let l = inherited(chain, name).flatMap(SVGLength.init) ?? SVGLength(value: 0, unit: .none)
            if userUnits { return l.resolved(axis, viewport: context.viewport) }
            guard let b = box else { return nil }
            switch name {
            case "x": return b.minX + l.fractionOfBox * b.width
            case "y": return b.minY + l.fractionOfBox * b.height
            default: return l.fractionOfBox * (axis == .x ? b.width : b.height)
            }
        }
        guard let x = side("x", .x), let y = side("y", .y), let w = side("width", .x), let h = side("height", .y),
              w > 0, h > 0, w.isFinite, h.isFinite, x.isFinite, y.isFinite else { return nil }
        let tile = CGRect(x: x, y: y, width: w, height: h)
        var content = CGAffineTransform.identity
        if let owner = chain.first(where: { viewBox($0) != nil }), let vb = viewBox(owner) {
            let aspect = inherited(chain, "preserveAspectRatio").flatMap(AspectRatio.init) ?? AspectRatio()
            content = aspect.transform(box: vb, into: CGRect(x: 0, y: 0, width: w, height: h))
        } else if inherited(chain, "patternContentUnits") == "objectBoundingBox" {
            guard let b = box else { return nil }
            content = CGAffineTransform(scaleX: b.width, y: b.height)
        }
        let transform = serverTransform(i, inherited(chain, "patternTransform"), context)
        let owner = chain.first { !tree.elements[$0].children.isEmpty } ?? i
        var group = SVGGroup()
        group.transform = content
        group.children = children(of: owner, definitionContext(owner, context))
        guard !group.children.isEmpty else { return nil }
        return .pattern(SVGPattern(tile: tile, transform: transform, content: [.group(group)]))
    }
}
