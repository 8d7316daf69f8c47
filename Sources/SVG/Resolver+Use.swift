import Foundation
import Compositor

extension Resolver {
    /// A nested `svg`'s viewport: its position and viewBox fit onto `group` (with a clip to
    /// the viewport unless `overflow` is visible); the size percentages inside refer to.
    /// Nil when its width or height is zero (it draws nothing).
    mutating func nestedViewport(_ i: Int, _ context: Context, into group: inout SVGGroup, size: CGSize? = nil) -> CGSize? {
        let x = length(i, "x", .x, context), y = length(i, "y", .y, context)
        let w = size.map { Double($0.width) } ?? length(i, "width", .x, context, default: context.viewport.width)
        let h = size.map { Double($0.height) } ?? length(i, "height", .y, context, default: context.viewport.height)
        guard w > 0, h > 0 else { return nil }
        let viewport = CGRect(x: x, y: y, width: w, height: h)
        let aspect = attribute(i, "preserveAspectRatio").flatMap(AspectRatio.init) ?? AspectRatio()
        var inner = viewport.size
        if let box = viewBox(i) {
            group.transform = aspect.transform(box: box, into: viewport)
            inner = box.size
        } else {
            group.transform = CGAffineTransform(translationX: x, y: y)
        }
        let overflow = cascade.specified[i]["overflow"] ?? "hidden"
        if overflow == "hidden" || overflow == "scroll" {
            // The clip is in the viewport's (parent's) coordinates: undo the group's transform.
            group.viewportClip = viewport.applying(group.transform.inverted())
        }
        return inner
    }

    /// `use`: the referenced element drawn at (x, y), inheriting from the `use`; a `symbol` or
    /// `svg` gets a viewport of the `use`'s width and height. Nil for a missing or looping
    /// reference.
    mutating func use(_ i: Int, _ context: Context, into group: inout SVGGroup) -> SVGNode? {
        guard let target = element(SVGValue.fragment(href(i))) else {
            if href(i) != nil { warn(i, "<use> refers to '\(href(i)!)', which is not an element of this file") }
            return nil
        }
        guard !active.contains(target), target != i, !isAncestor(target, of: i) else {
            warn(i, "<use> refers to itself or an ancestor: not drawn")
            return nil
        }
        guard active.count < options.maximumReferenceDepth else {
            warn(i, "<use> nested more than \(options.maximumReferenceDepth) deep: not drawn")
            return nil
        }
        active.insert(target)
        defer { active.remove(target) }
        let x = length(i, "x", .x, context), y = length(i, "y", .y, context)
        var inner = context
        inner.contextSpace = CGAffineTransform(translationX: x, y: y)
        let fillText = context.style["fill"] ?? "black", strokeText = context.style["stroke"] ?? "none"
        // Paint servers on the `use` are laid out on its content's bounding box: found by
        // resolving the content once without them.
        var bbox: CGRect?
        if SVGValue.urlReference(fillText) != nil || SVGValue.urlReference(strokeText) != nil, tree.elements[target].name != "symbol",
           tree.elements[target].name != "svg" {
            let saved = warnings
            var probe = inner
            probe.contextFill = .color(.black)
            probe.contextStroke = .color(.black)
            bbox = node(target, probe).flatMap { boundingBox(of: [$0], transform: inner.contextSpace) }
            warnings = saved
        }
        inner.contextFill = paint(fillText, context, bbox: bbox, owner: i)
        inner.contextStroke = paint(strokeText, context, bbox: bbox, owner: i)
        let name = tree.elements[target].name
        if name == "symbol" || name == "svg" {
            var viewport = SVGGroup()
            var style = inner
            style.style = context.style.child(cascade.specified[target])
            if style.style["display"] == "none" { return nil }
            let w = attribute(i, "width").flatMap(SVGLength.init).map { $0.resolved(.x, viewport: context.viewport) }
            let h = attribute(i, "height").flatMap(SVGLength.init).map { $0.resolved(.y, viewport: context.viewport) }
            let size = CGSize(width: w ?? length(target, "width", .x, context, default: context.viewport.width),
                              height: h ?? length(target, "height", .y, context, default: context.viewport.height))
            guard let vp = nestedViewport(target, style, into: &viewport, size: size) else { return nil }
            style.viewport = vp
            viewport.children = children(of: target, style)
            if let t = elementTransform(target, style) {
                viewport.transform = viewport.transform.concatenating(t)
            }
            applyGroupEffects(target, style, to: &viewport)
            group.transform = CGAffineTransform(translationX: x, y: y)
            return viewport.children.isEmpty ? nil : .group(viewport)
        }
        guard let node = node(target, inner) else { return nil }
        group.transform = CGAffineTransform(translationX: x, y: y)
        return node
    }

    func isAncestor(_ a: Int, of i: Int) -> Bool {
        var p = tree.elements[i].parent
        while let q = p {
            if q == a { return true }
            p = tree.elements[q].parent
        }
        return false
    }
}
