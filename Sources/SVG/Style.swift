import Foundation

/// The cascade: each element's specified properties from its presentation attributes, the
/// document's style sheets and its `style` attribute, in CSS's order of precedence.
struct Cascade {
    /// Properties read from style sheets and `style` attributes (SVG 2's presentation
    /// attributes, less text, and the compositing properties).
    static let properties: Set<String> = [
        "clip-path", "clip-rule", "color", "color-interpolation", "color-interpolation-filters", "display", "fill",
        "fill-opacity", "fill-rule", "filter", "flood-color", "flood-opacity", "image-rendering", "isolation",
        "lighting-color", "marker-start", "marker-mid", "marker-end", "mask", "mask-type", "mix-blend-mode", "opacity",
        "overflow", "paint-order", "shape-rendering", "stop-color", "stop-opacity", "stroke", "stroke-dasharray",
        "stroke-dashoffset", "stroke-linecap", "stroke-linejoin", "stroke-miterlimit", "stroke-opacity", "stroke-width",
        "transform", "transform-origin", "visibility", "font-size",
    ]
    /// Properties that may also be written as presentation attributes: all but
    /// `mix-blend-mode` and `isolation`, which CSS Compositing defines as properties only (an
    /// attribute `mix-blend-mode="overlay"` is ignored, as in browsers and resvg).
    static let presentationAttributes = properties.subtracting(["mix-blend-mode", "isolation"])
    /// Properties a child takes from its parent unless it specifies them.
    static let inherited: Set<String> = [
        "clip-rule", "color", "color-interpolation", "color-interpolation-filters", "fill", "fill-opacity", "fill-rule",
        "image-rendering", "marker-start", "marker-mid", "marker-end", "paint-order", "shape-rendering", "stroke",
        "stroke-dasharray", "stroke-dashoffset", "stroke-linecap", "stroke-linejoin", "stroke-miterlimit", "stroke-opacity",
        "stroke-width", "visibility", "font-size",
    ]
    /// Geometry properties CSS may set (SVG 2), beside the presentation attributes.
    static let geometryProperties: Set<String> = ["x", "y", "width", "height", "r", "rx", "ry", "cx", "cy"]

    /// Per element index: property → specified value.
    var specified: [[String: String]]
    var warnings: [String] = []

    init(_ tree: XMLTree) {
        var sheet = StyleSheet()
        for e in tree.elements where e.name == "style" {
            let type = (e.attributes["type"] ?? "text/css").trimmingCharacters(in: .whitespaces)
            guard type.isEmpty || type == "text/css" else { continue }
            sheet.add(e.text)
        }
        warnings = sheet.warnings
        // The style sheet's declarations for each element, in order of specificity, then
        // document order (later wins).
        let ordered = sheet.rules.sorted { a, b in
            let (x, y) = (a.selector.specificity, b.selector.specificity)
            return x != y ? x < y : a.order < b.order
        }
        specified = tree.elements.indices.map { i in
            let e = tree.elements[i]
            var props: [String: String] = [:]
            for (name, value) in e.attributes where Cascade.presentationAttributes.contains(name) {
                props[name] = value.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            var important: [String: String] = [:]
            func apply(_ d: StyleSheet.Declaration) {
                guard Cascade.properties.contains(d.name) || Cascade.geometryProperties.contains(d.name)
                        || d.name == "marker" else { return }
                if d.name == "marker" {
                    for side in ["marker-start", "marker-mid", "marker-end"] {
                        if d.important { important[side] = d.value } else { props[side] = d.value }
                    }
                    return
                }
                if d.important { important[d.name] = d.value } else { props[d.name] = d.value }
            }
            if !ordered.isEmpty {
                for rule in ordered where rule.selector.matches(i, in: tree) {
                    rule.declarations.forEach(apply)
                }
            }
            if let style = e.attributes["style"] {
                parseDeclarations(style).forEach(apply)
            }
            props.merge(important) { _, new in new }
            return props
        }
    }
}

/// The computed properties of an element as drawn: its own specified values, with inherited
/// ones from its parent (an element instantiated by `use` inherits from the `use`).
struct ComputedStyle {
    var values: [String: String]

    static let root = ComputedStyle(values: [:])

    /// `specified` applied over this (the parent's) style.
    func child(_ specified: [String: String]) -> ComputedStyle {
        var out: [String: String] = [:]
        for (k, v) in values where Cascade.inherited.contains(k) { out[k] = v }
        for (k, v) in specified {
            if v == "inherit" {
                out[k] = values[k]
            } else if (k == "fill" || k == "stroke"), !ComputedStyle.isPaint(v) {
                // An invalid paint is as if not specified: the inherited one, else the initial.
                out[k] = values[k]
            } else {
                out[k] = v
            }
        }
        return ComputedStyle(values: out)
    }

    subscript(_ name: String) -> String? { values[name] }

    /// Whether `value` reads as a `fill` or `stroke` paint.
    static func isPaint(_ value: String) -> Bool {
        let v = value.trimmingCharacters(in: .whitespaces)
        return ["none", "currentColor", "context-fill", "context-stroke"].contains(v) || SVGValue.urlReference(v) != nil
            || SVGValue.color(v) != nil
    }
}
