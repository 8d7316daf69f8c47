import Foundation
import Compositor

extension Resolver {
    /// The bounding box of `nodes` (fills' geometry, without strokes) in the coordinates
    /// `transform` maps them to; nil when they have none.
    func boundingBox(of nodes: [SVGNode], transform: CGAffineTransform) -> CGRect? {
        var box: CGRect?
        func add(_ r: CGRect) { box = box.map { $0.union(r) } ?? r }
        for node in nodes {
            switch node {
            case .shape(let s):
                if !s.path.isEmpty { add(s.path.applying(transform).boundingRect) }
            case .group(let g):
                if let b = boundingBox(of: g.children, transform: g.transform.concatenating(transform)) { add(b) }
            case .image(let image):
                let r = image.naturalRect.applying(image.transform)
                add((image.clip.map { r.intersection($0) } ?? r).applying(transform))
            }
        }
        return box
    }

    /// The element's style as drawn from where it is defined (a clip path's, mask's or
    /// pattern's content inherits from its own ancestors, not from what references it).
    func definitionContext(_ i: Int, _ context: Context) -> Context {
        var out = context
        out.style = ancestorStyle(i)
        out.contextFill = nil
        out.contextStroke = nil
        return out
    }

    /// A `clipPath` for an element of bounding box `bbox`; nil when it cannot be made (a loop,
    /// or objectBoundingBox units with an empty box): the element is then not drawn.
    mutating func clip(_ i: Int, bbox: CGRect?, _ context: Context) -> SVGClip? {
        guard enter(i, "a clipPath that refers to itself is invalid: the element it clips is not drawn") else { return nil }
        defer { active.remove(i) }
        var transform = attribute(i, "transform").flatMap(SVGValue.transform) ?? .identity
        if attribute(i, "clipPathUnits") == "objectBoundingBox" {
            guard let b = bbox, b.width > 0, b.height > 0 else { return nil }
            transform = transform.concatenating(CGAffineTransform(a: b.width, b: 0, c: 0, d: b.height, tx: b.minX, ty: b.minY))
        }
        let own = definitionContext(i, context)
        var children: [SVGNode] = []
        for child in tree.elements[i].children {
            guard conditionsHold(child) else { continue }
            var target = child
            var placement = CGAffineTransform.identity
            var childContext = own
            childContext.style = own.style.child(cascade.specified[child])
            if tree.elements[child].name == "use" {
                // A use in a clip path may point only at a shape (SVG 1.1 §14.3.5).
                guard let t = element(SVGValue.fragment(href(child))), Self.shapeNames.contains(tree.elements[t].name) else { continue }
                placement = CGAffineTransform(translationX: length(child, "x", .x, own), y: length(child, "y", .y, own))
                if let ut = elementTransform(child, childContext) { placement = placement.concatenating(ut) }
                target = t
                childContext.style = childContext.style.child(cascade.specified[t])
            }
            guard Self.shapeNames.contains(tree.elements[target].name) else {
                if tree.elements[target].name == "text" { warn(target, "text in a clipPath is not supported yet") }
                continue
            }
            guard childContext.style["display"] != "none", (childContext.style["visibility"] ?? "visible") == "visible",
                  let path = geometry(target, childContext) else { continue }
            var group = SVGGroup()
            let rule: FillRule = childContext.style["clip-rule"] == "evenodd" ? .evenOdd : .nonZero
            group.children = [.shape(SVGShape(path: path, fill: SVGFill(paint: .color(.black), opacity: 1, rule: rule)))]
            group.transform = placement
            if let t = elementTransform(target, childContext) { group.transform = t.concatenating(group.transform) }
            // A child's own clip-path clips that child.
            if let c = referenced(cascade.specified[target]["clip-path"] ?? (target != child ? cascade.specified[child]["clip-path"] : nil),
                                  "clipPath") {
                if active.contains(c) {
                    warn(target, "a clip-path that refers back to a clipPath being made is ignored")
                } else {
                    let childBox = boundingBox(of: group.children, transform: .identity)
                    guard let nested = clip(c, bbox: childBox, context) else { continue }
                    group.clip = nested
                }
            }
            children.append(.group(group))
        }
        var result = SVGClip(transform: transform, children: children, clip: nil)
        if let value = cascade.specified[i]["clip-path"], SVGValue.urlReference(value) != nil {
            if let c = referenced(value, "clipPath"), active.contains(c) {
                warn(i, "a clipPath clipped by itself: the clip-path is ignored")
            } else {
                guard let c = referenced(value, "clipPath"), let nested = clip(c, bbox: bbox, context) else { return nil }
                result.clip = nested
            }
        }
        return result
    }

    /// Marks `i` as being referenced now; false (with `loopWarning`) when it already is.
    mutating func enter(_ i: Int, _ loopWarning: String) -> Bool {
        guard !active.contains(i) else {
            warn(i, loopWarning)
            return false
        }
        active.insert(i)
        return true
    }

    static let shapeNames: Set<String> = ["rect", "circle", "ellipse", "line", "polyline", "polygon", "path"]

    /// A `mask` for an element of bounding box `bbox`; nil when it cannot be made (a loop, an
    /// empty box in objectBoundingBox units): the element is then not drawn.
    mutating func mask(_ i: Int, bbox: CGRect?, _ context: Context) -> SVGMask? {
        guard enter(i, "a mask that refers to itself is invalid: the element it masks is not drawn") else { return nil }
        defer { active.remove(i) }
        let userUnits = attribute(i, "maskUnits") == "userSpaceOnUse"
        func side(_ name: String, _ axis: SVGLength.Axis, _ fallback: String) -> SVGLength {
            attribute(i, name).flatMap(SVGLength.init) ?? SVGLength(fallback)!
        }
        let lx = side("x", .x, "-10%"), ly = side("y", .y, "-10%"), lw = side("width", .x, "120%"), lh = side("height", .y, "120%")
        let region: CGRect
        if userUnits {
            region = CGRect(x: lx.resolved(.x, viewport: context.viewport), y: ly.resolved(.y, viewport: context.viewport),
                            width: lw.resolved(.x, viewport: context.viewport), height: lh.resolved(.y, viewport: context.viewport))
        } else {
            guard let b = bbox, b.width > 0, b.height > 0 else { return nil }
            region = CGRect(x: b.minX + lx.fractionOfBox * b.width, y: b.minY + ly.fractionOfBox * b.height,
                            width: lw.fractionOfBox * b.width, height: lh.fractionOfBox * b.height)
        }
        guard region.width > 0, region.height > 0 else { return nil }
        var contentTransform = CGAffineTransform.identity
        if attribute(i, "maskContentUnits") == "objectBoundingBox" {
            guard let b = bbox, b.width > 0, b.height > 0 else { return nil }
            contentTransform = CGAffineTransform(a: b.width, b: 0, c: 0, d: b.height, tx: b.minX, ty: b.minY)
        }
        let own = definitionContext(i, context)
        let children = self.children(of: i, own)
        let type = cascade.specified[i]["mask-type"] ?? "luminance"
        var result = SVGMask(region: region, contentTransform: contentTransform, children: children, luminance: type != "alpha", mask: nil)
        if let value = cascade.specified[i]["mask"], SVGValue.urlReference(value) != nil {
            if let m = referenced(value, "mask"), active.contains(m) {
                warn(i, "a mask masked by itself: the mask property is ignored")
            } else {
                guard let m = referenced(value, "mask"), let nested = mask(m, bbox: bbox, context) else { return nil }
                result.mask = nested
            }
        }
        return result
    }
}
