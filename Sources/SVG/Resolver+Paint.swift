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
        case "context-fill": return context.contextFill
        case "context-stroke": return context.contextStroke
        default: break
        }
        if let (id, fallback) = SVGValue.urlReference(value) {
            if let target = element(id) {
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
        var transform = inherited(chain, "gradientTransform").flatMap(SVGValue.transform) ?? .identity
        if !userSpace {
            guard let b = bbox, b.width > 0, b.height > 0 else { return nil }
            transform = transform.concatenating(CGAffineTransform(a: b.width, b: 0, c: 0, d: b.height, tx: b.minX, ty: b.minY))
        }
        let spread = inherited(chain, "spreadMethod").flatMap(SpreadMethod.init(rawValue:)) ?? .pad
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
    /// A `pattern` paint server. Tiling is not supported yet: the shape is painted with the
    /// reference's fallback behaviour (nothing), with a warning.
    mutating func pattern(_ i: Int, _ context: Context, bbox: CGRect?) -> SVGPaint? {
        warn(i, "<pattern> paint servers are not supported yet: not painted")
        return nil
    }
}
