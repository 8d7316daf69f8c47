import Foundation
import Compositor

extension Resolver {
    /// The markers of a shape: `marker-start` at the first vertex, `marker-mid` at every
    /// other vertex but the last, `marker-end` at the last (SVG 1.1 §11.6), each placed by
    /// its `refX`/`refY`, `orient`, `markerUnits` and viewBox, clipped to its viewport unless
    /// `overflow` is visible.
    mutating func markers(_ i: Int, _ path: Path, _ context: Context, stroke: SVGStroke?, fill: SVGFill?) -> [SVGNode] {
        // Every shape takes markers (SVG 2 §13.7.2: `marker-*` apply to shapes; SVG 1.1 had
        // only path, line, polyline and polygon): a rect, circle or ellipse at the vertices of
        // its equivalent path (`geometry`), as resvg draws them.
        let style = context.style
        func marker(_ name: String) -> Int? { referenced(style[name], "marker") }
        let start = marker("marker-start"), mid = marker("marker-mid"), end = marker("marker-end")
        guard start != nil || mid != nil || end != nil else { return [] }
        let vertices = Self.vertices(of: path)
        guard !vertices.isEmpty else { return [] }
        var strokeWidth = 1.0
        if let text = style["stroke-width"], let l = SVGLength(text) { strokeWidth = l.resolved(.other, viewport: context.viewport) }
        var out: [SVGNode] = []
        for (k, v) in vertices.enumerated() {
            let which: Int?
            if k == 0 { which = start } else if k == vertices.count - 1 { which = end } else { which = mid }
            guard let m = which else { continue }
            if let node = instantiateMarker(m, at: v, isStart: k == 0, strokeWidth: strokeWidth, context, stroke: stroke, fill: fill) {
                out.append(node)
            }
        }
        return out
    }

    /// A vertex of a path with the directions (in radians) of the segments into and out of it.
    struct Vertex {
        var point: CGPoint
        var incoming: Double?
        var outgoing: Double?

        /// The marker's angle for `orient="auto"`: the bisector of the two directions, or the
        /// one that exists. Where they are exactly opposite (a cusp) either side bisects them;
        /// as resvg (and the suite's renders) do, both are taken in [0, 2π) and the bisector
        /// is the one turned from the incoming direction by half their difference, so a path
        /// going up into a cusp and back down points its marker left (−x), not right.
        var bisector: Double {
            switch (incoming, outgoing) {
            case let (a?, b?):
                let i = a < 0 ? a + 2 * .pi : a, o = b < 0 ? b + 2 * .pi : b
                let d = (o - i) / 2
                return abs(d) > .pi / 2 ? i + d - .pi : i + d
            case let (a?, nil): return a
            case let (nil, b?): return b
            default: return 0
            }
        }
    }

    /// Every vertex of `path` in order, with the directions of its segments (a closed
    /// subpath's start also ends it: that vertex gets the closing segment as its incoming
    /// direction).
    static func vertices(of path: Path) -> [Vertex] {
        var out: [Vertex] = []
        var current = CGPoint.zero, subpathStart = CGPoint.zero, startIndex = 0
        func angle(_ a: CGPoint, _ b: CGPoint) -> Double? {
            let dx = b.x - a.x, dy = b.y - a.y
            return dx == 0 && dy == 0 ? nil : atan2(dy, dx)
        }
        func segment(to end: CGPoint, first c1: CGPoint, last c2: CGPoint) {
            let outDir = angle(current, c1) ?? angle(current, c2) ?? angle(current, end)
            let inDir = angle(c2, end) ?? angle(c1, end) ?? angle(current, end)
            if !out.isEmpty { out[out.count - 1].outgoing = outDir }
            out.append(Vertex(point: end, incoming: inDir, outgoing: nil))
            current = end
        }
        path.forEach { element in
            switch element {
            case .move(let p):
                out.append(Vertex(point: p, incoming: nil, outgoing: nil))
                current = p; subpathStart = p; startIndex = out.count - 1
            case .line(let p): segment(to: p, first: p, last: current)
            case .quadCurve(let p, let c): segment(to: p, first: c, last: c)
            case .curve(let p, let c1, let c2): segment(to: p, first: c1, last: c2)
            case .closeSubpath:
                if current != subpathStart { segment(to: subpathStart, first: subpathStart, last: current) }
                // The closing vertex joins the last segment to the first.
                if out.count > startIndex + 1 {
                    out[out.count - 1].outgoing = out[startIndex].outgoing
                    out[startIndex].incoming = out[out.count - 1].incoming
                }
                current = subpathStart
            }
        }
        return out
    }

    mutating func instantiateMarker(_ m: Int, at v: Vertex, isStart: Bool, strokeWidth: Double, _ context: Context,
                                    stroke: SVGStroke?, fill: SVGFill?) -> SVGNode? {
        guard enter(m, "a marker drawn inside itself is not drawn again") else { return nil }
        defer { active.remove(m) }
        let own = definitionContext(m, context)
        let mw = length(m, "markerWidth", .x, own, default: 3), mh = length(m, "markerHeight", .y, own, default: 3)
        guard mw > 0, mh > 0 else { return nil }
        let orient = attribute(m, "orient") ?? "0"
        let degrees: Double
        switch orient {
        case "auto": degrees = v.bisector * 180 / .pi
        case "auto-start-reverse": degrees = v.bisector * 180 / .pi + (isStart ? 180 : 0)
        default:
            // An angle in any CSS unit (deg, grad, rad, turn; SVG 2), or a number of degrees;
            // anything else is the initial value, 0.
            degrees = (SVGValue.number(orient) ?? Self.angle(orient)).flatMap { $0.isFinite ? $0 : nil } ?? 0
        }
        let scale = attribute(m, "markerUnits") == "userSpaceOnUse" ? 1 : strokeWidth
        let viewport = CGRect(x: 0, y: 0, width: mw, height: mh)
        let fit: CGAffineTransform
        if let box = viewBox(m) {
            let aspect = attribute(m, "preserveAspectRatio").flatMap(AspectRatio.init) ?? AspectRatio()
            fit = aspect.transform(box: box, into: viewport)
        } else {
            fit = .identity
        }
        let ref = CGPoint(x: length(m, "refX", .x, own), y: length(m, "refY", .y, own)).applying(fit)
        var group = SVGGroup()
        group.transform = fit.concatenating(CGAffineTransform(translationX: -ref.x, y: -ref.y))
            .concatenating(CGAffineTransform(scaleX: scale, y: scale))
            .concatenating(SVGValue.rotation(degrees))
            .concatenating(CGAffineTransform(translationX: v.point.x, y: v.point.y))
        var inner = own
        inner.contextFill = fill?.paint
        inner.contextStroke = stroke?.paint
        inner.contextSpace = group.transform
        group.children = children(of: m, inner)
        let overflow = cascade.specified[m]["overflow"] ?? "hidden"
        if overflow == "hidden" || overflow == "scroll" {
            group.viewportClip = viewport.applying(fit.inverted())
        }
        return group.children.isEmpty ? nil : .group(group)
    }
}
