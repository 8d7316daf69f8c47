import Foundation
import Compositor

extension Resolver {
    /// The path of a basic shape or `path` element in user units; nil when SVG says it is not
    /// rendered (a zero or negative size, no path data).
    mutating func geometry(_ i: Int, _ context: Context) -> Path? {
        let e = tree.elements[i]
        func len(_ name: String, _ axis: SVGLength.Axis) -> Double { length(i, name, axis, context) }
        func given(_ name: String) -> Bool { cascade.specified[i][name] != nil || e.attributes[name] != nil }
        switch e.name {
        case "rect":
            let x = len("x", .x), y = len("y", .y), w = len("width", .x), h = len("height", .y)
            guard w > 0, h > 0 else { return nil }
            // rx and ry: a missing or `auto` one takes the other's value; each at most half
            // the side (SVG 2 §10.2).
            var rx = given("rx") ? len("rx", .x) : -1, ry = given("ry") ? len("ry", .y) : -1
            if rx < 0 && ry < 0 { rx = 0; ry = 0 } else if rx < 0 { rx = ry } else if ry < 0 { ry = rx }
            rx = min(rx, w / 2); ry = min(ry, h / 2)
            let rect = CGRect(x: x, y: y, width: w, height: h)
            if rx <= 0 || ry <= 0 { return Path(rect) }
            return roundedRect(rect, rx: rx, ry: ry)
        case "circle":
            let r = len("r", .other)
            guard r > 0 else { return nil }
            return ellipse(cx: len("cx", .x), cy: len("cy", .y), rx: r, ry: r)
        case "ellipse":
            var rx = given("rx") ? len("rx", .x) : -1, ry = given("ry") ? len("ry", .y) : -1
            if rx < 0 && ry < 0 { return nil } else if rx < 0 { rx = ry } else if ry < 0 { ry = rx }
            guard rx > 0, ry > 0 else { return nil }
            return ellipse(cx: len("cx", .x), cy: len("cy", .y), rx: rx, ry: ry)
        case "line":
            var p = Path()
            p.move(to: CGPoint(x: len("x1", .x), y: len("y1", .y)))
            p.addLine(to: CGPoint(x: len("x2", .x), y: len("y2", .y)))
            return p
        case "polyline", "polygon":
            // Numbers up to the first error; an odd last one is dropped (SVG 1.1 §F.2).
            var scanner = NumberScanner(e.attributes["points"] ?? "")
            var values: [Double] = []
            while true {
                scanner.skipSeparators()
                guard !scanner.atEnd, let n = scanner.number() else { break }
                values.append(n)
            }
            guard values.count >= 4 else { return nil }
            var p = Path()
            p.move(to: CGPoint(x: values[0], y: values[1]))
            for k in stride(from: 2, to: values.count - 1, by: 2) { p.addLine(to: CGPoint(x: values[k], y: values[k + 1])) }
            if e.name == "polygon" { p.closeSubpath() }
            return p
        case "path":
            guard let d = e.attributes["d"] else { return nil }
            let (path, error) = Path.readingSVGPath(d)
            if let error { warn(i, "path data: \(error): drawn up to there") }
            return path.isEmpty ? nil : path
        default:
            return nil
        }
    }

    /// An ellipse of four cubic arcs (control points at 0.5523 of the radius), starting at
    /// (cx + rx, cy) and going towards +y, as SVG 2 §10.4 draws it (where dashes and markers
    /// start).
    func ellipse(cx: Double, cy: Double, rx: Double, ry: Double) -> Path {
        let k = 0.5522847498307936
        var p = Path()
        p.move(to: CGPoint(x: cx + rx, y: cy))
        p.addCurve(to: CGPoint(x: cx, y: cy + ry), control1: CGPoint(x: cx + rx, y: cy + k * ry), control2: CGPoint(x: cx + k * rx, y: cy + ry))
        p.addCurve(to: CGPoint(x: cx - rx, y: cy), control1: CGPoint(x: cx - k * rx, y: cy + ry), control2: CGPoint(x: cx - rx, y: cy + k * ry))
        p.addCurve(to: CGPoint(x: cx, y: cy - ry), control1: CGPoint(x: cx - rx, y: cy - k * ry), control2: CGPoint(x: cx - k * rx, y: cy - ry))
        p.addCurve(to: CGPoint(x: cx + rx, y: cy), control1: CGPoint(x: cx + k * rx, y: cy - ry), control2: CGPoint(x: cx + rx, y: cy - k * ry))
        p.closeSubpath()
        return p
    }

    /// A rectangle with elliptical corners, starting at (x + rx, y) as SVG 2 §10.2 draws it.
    func roundedRect(_ r: CGRect, rx: Double, ry: Double) -> Path {
        let k = 0.5522847498307936
        var p = Path()
        p.move(to: CGPoint(x: r.minX + rx, y: r.minY))
        p.addLine(to: CGPoint(x: r.maxX - rx, y: r.minY))
        p.addCurve(to: CGPoint(x: r.maxX, y: r.minY + ry), control1: CGPoint(x: r.maxX - rx + k * rx, y: r.minY),
                   control2: CGPoint(x: r.maxX, y: r.minY + ry - k * ry))
        p.addLine(to: CGPoint(x: r.maxX, y: r.maxY - ry))
        p.addCurve(to: CGPoint(x: r.maxX - rx, y: r.maxY), control1: CGPoint(x: r.maxX, y: r.maxY - ry + k * ry),
                   control2: CGPoint(x: r.maxX - rx + k * rx, y: r.maxY))
        p.addLine(to: CGPoint(x: r.minX + rx, y: r.maxY))
        p.addCurve(to: CGPoint(x: r.minX, y: r.maxY - ry), control1: CGPoint(x: r.minX + rx - k * rx, y: r.maxY),
                   control2: CGPoint(x: r.minX, y: r.maxY - ry + k * ry))
        p.addLine(to: CGPoint(x: r.minX, y: r.minY + ry))
        p.addCurve(to: CGPoint(x: r.minX + rx, y: r.minY), control1: CGPoint(x: r.minX, y: r.minY + ry - k * ry),
                   control2: CGPoint(x: r.minX + rx - k * rx, y: r.minY))
        p.closeSubpath()
        return p
    }

    /// A shape element with its fill, stroke and markers; nil when nothing of it is drawn.
    mutating func shape(_ i: Int, _ context: Context) -> SVGShape? {
        guard let path = geometry(i, context) else { return nil }
        let style = context.style
        let visible = (style["visibility"] ?? "visible") == "visible"
        let bbox = path.boundingRect
        var shape = SVGShape(path: path)
        // The steps listed, then the others in the normal order (fill, stroke, markers).
        // An unknown or repeated word makes the whole value invalid: the normal order.
        var order: [SVGShape.Step] = []
        for word in (style["paint-order"] ?? "normal").split(whereSeparator: \.isWhitespace) where word != "normal" {
            guard let step = SVGShape.Step(rawValue: String(word)), !order.contains(step) else {
                warn(i, "cannot read paint-order '\(style["paint-order"] ?? "")': the normal order is used")
                order = []
                break
            }
            order.append(step)
        }
        for step in SVGShape.Step.allCases where !order.contains(step) { order.append(step) }
        shape.order = order
        let rendering = style["shape-rendering"] ?? "auto"
        shape.aliased = rendering == "crispEdges" || rendering == "optimizeSpeed"
        if visible {
            if let paint = paint(style["fill"] ?? "black", context, bbox: bbox, owner: i) {
                let rule: FillRule = style["fill-rule"] == "evenodd" ? .evenOdd : .nonZero
                shape.fill = SVGFill(paint: paint, opacity: SVGValue.opacity(style["fill-opacity"]) ?? 1, rule: rule)
            }
            if let strokeStyle = strokeStyle(i, context), let paint = paint(style["stroke"] ?? "none", context, bbox: strokeBox(bbox, strokeStyle), owner: i) {
                shape.stroke = SVGStroke(paint: paint, opacity: SVGValue.opacity(style["stroke-opacity"]) ?? 1, style: strokeStyle)
            }
        }
        shape.markers = markers(i, path, context, stroke: shape.stroke, fill: shape.fill)
        if shape.fill == nil && shape.stroke == nil && shape.markers.isEmpty { return nil }
        return shape
    }

    /// The box a stroke's paint server is sized by: the fill's (SVG 1.1 uses the geometry's
    /// bounding box for both).
    func strokeBox(_ bbox: CGRect, _ style: StrokeStyle) -> CGRect { bbox }

    /// The stroke's style; nil when there is no stroke to draw (width zero or invalid).
    mutating func strokeStyle(_ i: Int, _ context: Context) -> StrokeStyle? {
        let style = context.style
        guard let s = style["stroke"], s != "none" else { return nil }
        var width = 1.0
        let em = fontSize(context)
        if let text = style["stroke-width"], let l = SVGLength(text) { width = l.resolved(.other, viewport: context.viewport, fontSize: em) }
        guard width > 0, width.isFinite else { return nil }
        var out = StrokeStyle(lineWidth: width)
        switch style["stroke-linecap"] {
        case "round": out.lineCap = .round
        case "square": out.lineCap = .square
        default: out.lineCap = .butt
        }
        switch style["stroke-linejoin"] {
        case "round": out.lineJoin = .round
        case "bevel": out.lineJoin = .bevel
        default: out.lineJoin = .miter
        }
        // SVG's initial miter limit is 4 (SwiftUI's is 10); below 1 is invalid.
        out.miterLimit = 4
        if let m = style["stroke-miterlimit"].flatMap(SVGValue.number), m >= 1 { out.miterLimit = m }
        if let text = style["stroke-dasharray"], text != "none" {
            let parts = text.split(whereSeparator: { $0 == "," || $0.isWhitespace })
            let lengths = parts.map { SVGLength(String($0))?.resolved(.other, viewport: context.viewport, fontSize: em) }
            if !lengths.isEmpty, lengths.allSatisfy({ $0 != nil && $0! >= 0 }) {
                var dash = lengths.map { $0! }
                if dash.reduce(0, +) > 0 {
                    if dash.count % 2 == 1 { dash += dash }
                    out.dash = dash.map { CGFloat($0) }
                    if let offset = style["stroke-dashoffset"].flatMap(SVGLength.init) {
                        out.dashPhase = offset.resolved(.other, viewport: context.viewport, fontSize: em)
                    }
                }
            }
        }
        return out
    }
}
