import Foundation

/// Where a view's drawing goes offscreen and what each image costs, read from the same layer
/// plan the renderer draws by (`LayerPlan`), before anything is drawn: the tree of leaves and
/// groups, every offscreen image (group layers, a mask's second layer, a drawing group's image,
/// placement and conversion, every shadow's mask) with its device bounds, pixel format and
/// bytes, how many leaves carry each per-leaf effect, and warnings. The images are those a
/// render with a cold drawing-group cache makes, in the order it makes them, so `images` equals
/// `RenderStats.layers` of that render. `compose explain` prints it; `json()` is the same as
/// data.
public struct Explanation: Codable, Sendable, Equatable {
    public struct Node: Codable, Sendable, Equatable {
        /// `leaf`, `compositingGroup`, `colorFilter`, `luminanceToAlpha`, `drawingGroup`, `blur`,
        /// `mask` or `filter`.
        public var kind: String
        /// One line: the paint and rule of a leaf, the parameters of a group.
        public var summary: String
        /// Why the group has a layer (nil for a leaf).
        public var reason: String?
        /// Device bounds [x, y, width, height] of a leaf's ink or a group's layer.
        public var bounds: [Int]?
        /// A group's layer: pixel format and colour mode (nil when nothing is drawn).
        public var format: String?
        public var colorMode: String?
        /// Bytes of this node's own images (a leaf's shadow masks; a group's layer and the
        /// images it makes itself), not those inside it.
        public var bytes: Int?
        /// This node's own offscreen images, in the order they are made.
        public var images: [RenderStats.Layer]
        /// Leaves inside (a leaf counts itself).
        public var leaves: Int
        public var children: [Node]
        /// Where a scene file wrote the view (nil: not known).
        public var source: SourceLine?
    }

    /// Leaves carrying each per-leaf effect: `translucent` (opacity or colour alpha below 1),
    /// `blendMode`, `clip`, `shadow`.
    public struct PerLeaf: Codable, Sendable, Equatable {
        public var translucent = 0
        public var blendMode = 0
        public var clip = 0
        public var shadow = 0
    }

    /// Canvas in device pixels [width, height].
    public var canvas: [Int]
    public var leaves: Int
    /// Offscreen images the render makes (group layers and shadow masks alike).
    public var layers: Int
    /// Their bytes, summed.
    public var layerBytes: Int
    /// Every offscreen image in the order the render makes them (what `RenderStats.layers`
    /// lists for a render with a cold cache).
    public var images: [RenderStats.Layer]
    public var perLeaf: PerLeaf
    public var tree: [Node]
    /// What the render will do that a user may not expect, with the line and column of the
    /// view in its scene file where known.
    public var warnings: [RenderWarning]

    /// The display list of `view` explained, for a canvas of `size` points at `scale`, with a
    /// default renderer's limits (`Renderer.explain` uses a renderer's own).
    public init<V: View>(_ view: V, size: CGSize, scale: Double = 1) throws {
        self = try Renderer().explain(view, size: size, scale: scale)
    }

    init(list: DisplayList, plan: LayerPlan, canvas area: PixelRect) {
        canvas = [area.width, area.height]
        var perLeaf = PerLeaf()
        var warnings = list.warnings

        func walk(_ items: [PlannedItem]) -> [Node] {
            items.map { item in
                switch item {
                case let .leaf(leaf, plan):
                    if leaf.fill.isTranslucent { perLeaf.translucent += 1 }
                    if leaf.blendMode != .normal { perLeaf.blendMode += 1 }
                    if !leaf.clips.isEmpty { perLeaf.clip += 1 }
                    if !leaf.shadows.isEmpty { perLeaf.shadow += 1 }
                    var summary = (leaf.text.map { $0 + "; " } ?? "") + "fill \(leaf.fill) \(leaf.fillRule.rawValue)"
                    if leaf.blendMode != .normal { summary += ", blend \(leaf.blendMode.rawValue)" }
                    if !leaf.clips.isEmpty { summary += ", \(leaf.clips.count) clip\(leaf.clips.count == 1 ? "" : "s")" }
                    if !leaf.shadows.isEmpty { summary += ", \(leaf.shadows.count) shadow\(leaf.shadows.count == 1 ? "" : "s") (an A8 mask each)" }
                    if !plan.visible { summary += "; clipped away, not drawn" }
                    let images = item.images.map(RenderStats.Layer.init)
                    let node = Node(kind: "leaf", summary: summary, reason: nil, bounds: Explanation.pixels(leaf.path.boundingRect),
                                    format: nil, colorMode: nil, bytes: images.isEmpty ? nil : images.reduce(0) { $0 + $1.bytes },
                                    images: images, leaves: 1, children: [], source: leaf.source)
                    // Groups folded into the leaf: shown where they were written, without a layer.
                    return plan.foldedFrom.reversed().reduce(node) { inner, group in
                        Node(kind: "compositingGroup", summary: Explanation.compositeSummary(group.composite) + "; folded, no layer",
                             reason: "compositingGroup() around one leaf: its opacity is drawn into the leaf's paint, "
                                + "which gives what a layer would (within 1 level for an opaque colour, 2 for a translucent one or nested groups)", bounds: nil, format: nil, colorMode: nil,
                             bytes: nil, images: [], leaves: 1, children: [inner], source: group.source)
                    }
                case let .group(group, plan):
                    return groupNode(group, plan)
                }
            }
        }

        func groupNode(_ group: DisplayItem.Group, _ plan: GroupPlan) -> Node {
            let c = group.composite
            var node = Node(kind: "", summary: Explanation.compositeSummary(c), reason: nil, bounds: nil, format: nil, colorMode: nil,
                            bytes: nil, images: [], leaves: 0, children: walk(plan.children), source: group.source)
            switch group.isolation {
            case .layer:
                node.kind = "compositingGroup"
                node.reason = "compositingGroup(): its content is composited first" + Explanation.outerEffects(c)
            case .colorMatrix:
                node.kind = "colorFilter"
                node.reason = "colour effects written outside a boundary, or on an image: applied once to the composite"
            case .luminanceToAlpha:
                node.kind = "luminanceToAlpha"
                node.reason = "a luminance mask's content: its luminance becomes the mask's alpha"
            case let .blur(sigma, opaque):
                node.kind = "blur"
                node.summary = String(format: "σ %.2f px%@, ", sigma, opaque ? ", opaque" : "") + node.summary
                node.reason = "blur(radius:) blurs its content as one"
            case .mask(let maskItems):
                node.kind = "mask"
                node.summary += "; \(maskItems.count) mask item\(maskItems.count == 1 ? "" : "s") in a second layer"
                node.reason = "mask: the content is kept where a second layer has alpha"
                if case .mask(_, let planned) = plan.preparation { node.children += walk(planned) }
            case let .filter(graph, images):
                node.kind = "filter"
                node.summary = graph.primitives.map(\.kind.name).joined(separator: ", ") + "; " + node.summary
                node.reason = "filter: its content is the source graphic of \(graph.primitives.count) primitive\(graph.primitives.count == 1 ? "" : "s")"
                    + (images.isEmpty ? "" : ", \(images.count) image\(images.count == 1 ? "" : "s") drawn in layers of their own")
                if case .filter(_, let planned) = plan.preparation { node.children += planned.flatMap { walk($0.1) } }
            case .image(let image):
                node.kind = "drawingGroup"
                node.colorMode = image.colorMode.rawValue
                node.reason = "drawingGroup(): rasterized into a cached image in its own space"
                var placement = ""
                if case let .image(_, p, conversion) = plan.preparation {
                    switch p {
                    case .wholePixels: placement = "placed at whole pixels"
                    case .direct: placement = "resampled (bilinear) straight onto its parent"
                    case .resampled: placement = "resampled (bilinear) into a placed layer"
                    }
                    if conversion != nil { placement += ", converted to the parent's format" }
                }
                node.summary = "\(image.colorMode.rawValue)\(image.opaque ? ", opaque" : ""), " + node.summary
                    + "; image \(image.width)×\(image.height) px in its own space (children below in its pixels)"
                    + (placement.isEmpty ? "" : ", " + placement) + ", cached"
                let ink = group.children.reduce(CGRect.null) { $0.union($1.inkBounds) }
                if !ink.isNull, !CGRect(x: 0, y: 0, width: image.width, height: image.height).insetBy(dx: -0.5, dy: -0.5).contains(ink) {
                    warnings.append(RenderWarning("drawingGroup at \(Explanation.pixels(image.frame) ?? []): ink outside its frame is clipped, as in SwiftUI",
                                                  source: group.source))
                }
            }
            node.images = plan.ownImages.map(RenderStats.Layer.init)
            if let layer = plan.layer {
                node.bounds = [layer.bounds.x, layer.bounds.y, layer.bounds.width, layer.bounds.height]
                node.format = layer.format.rawValue
                node.bytes = node.images.reduce(0) { $0 + $1.bytes }
            } else {
                node.summary += "; nothing visible, not drawn"
            }
            node.leaves = node.children.reduce(0) { $0 + $1.leaves }
            if case .image(let image) = group.isolation, plan.layer != nil, node.leaves <= 1, !group.children.contains(where: \.isGroup) {
                warnings.append(RenderWarning("drawingGroup at \(Explanation.pixels(image.frame) ?? []) holds \(node.leaves) lea\(node.leaves == 1 ? "f" : "ves"): an offscreen image of \(image.width * image.height * image.format.bytesPerPixel) bytes with nothing worth caching",
                                              source: group.source))
            }
            let content = DisplayItem.group(group).inkBounds
            // (A filter's region is its own clip, routinely wider than what is on the canvas.)
            let filtered = if case .filter = group.isolation { true } else { false }
            if !content.isNull, !filtered, content.width > Double(area.width) || content.height > Double(area.height) {
                // (Content can be unbounded: a filter's region around a huge shape.)
                func side(_ v: Double) -> String { v.isFinite && v < 1e15 ? "\(Int(v.rounded(.up)))" : "unbounded" }
                warnings.append(RenderWarning("\(node.kind) content of \(side(content.width))×\(side(content.height)) px is larger than the \(area.width)×\(area.height) canvas; its layer is cut to the canvas",
                                              source: group.source))
            }
            return node
        }

        tree = walk(plan.items)
        images = plan.images.map(RenderStats.Layer.init)
        leaves = tree.reduce(0) { $0 + $1.leaves }
        layers = images.count
        layerBytes = images.reduce(0) { $0 + $1.bytes }
        self.perLeaf = perLeaf
        self.warnings = warnings
    }

    private static func pixels(_ r: CGRect) -> [Int]? {
        PixelRect(enclosing: r).map { [$0.x, $0.y, $0.width, $0.height] }
    }

    private static func compositeSummary(_ c: DisplayItem.Composite) -> String {
        var parts = [String(format: "opacity %.3f", c.opacity)]
        if c.blendMode != .normal { parts.append("blend \(c.blendMode.rawValue)") }
        if !c.clips.isEmpty { parts.append("\(c.clips.count) clip\(c.clips.count == 1 ? "" : "s")") }
        if !c.shadows.isEmpty { parts.append("\(c.shadows.count) shadow\(c.shadows.count == 1 ? "" : "s")") }
        return parts.joined(separator: ", ")
    }

    /// What a boundary's outer effects add to the reason it is a layer.
    private static func outerEffects(_ c: DisplayItem.Composite) -> String {
        var parts: [String] = []
        if c.opacity < 1 { parts.append("opacity") }
        if c.blendMode != .normal { parts.append("blendMode") }
        if !c.clips.isEmpty { parts.append("clip") }
        if !c.shadows.isEmpty { parts.append("shadow") }
        return parts.isEmpty ? "" : "; " + parts.joined(separator: ", ") + " after it appl\(parts.count == 1 ? "ies" : "y") once to the result"
    }

    /// The tree as indented text, then the totals and warnings.
    public var text: String { text(sourceName: nil) }

    /// The tree as indented text, then the totals and warnings; a warning with a source line
    /// starts with `sourceName:line:column:` as a compiler's does (`line:column:` without a
    /// name).
    public func text(sourceName: String?) -> String {
        var lines = ["canvas \(canvas[0])×\(canvas[1]) px: \(leaves) lea\(leaves == 1 ? "f" : "ves"), \(layers) offscreen image\(layers == 1 ? "" : "s") (\(layerBytes) bytes)"]
        func walk(_ nodes: [Node], _ depth: Int) {
            for node in nodes {
                let pad = String(repeating: "  ", count: depth + 1)
                var line = pad + node.kind + " " + node.summary
                if let b = node.bounds { line += " [\(b.map(String.init).joined(separator: ", "))]" }
                if node.kind != "leaf", let f = node.format, let bytes = node.bytes { line += " — layer \(f), \(bytes) bytes" }
                lines.append(line)
                if let reason = node.reason { lines.append(pad + "  why: " + reason) }
                for image in node.images where node.kind == "leaf" || node.images.count > 1 {
                    lines.append(pad + "  image \(image.kind.rawValue) \(image.bounds), \(image.bytes) bytes")
                }
                walk(node.children, depth + 1)
            }
        }
        walk(tree, 0)
        lines.append("per-leaf effects (distributed, no layer): \(perLeaf.translucent) translucent, \(perLeaf.blendMode) blended, "
                     + "\(perLeaf.clip) clipped, \(perLeaf.shadow) with shadows")
        lines += warnings.map { w in
            guard let source = w.source else { return "warning: \(w.message)" }
            return (sourceName.map { "\($0):" } ?? "") + "\(source): warning: \(w.message)"
        }
        return lines.joined(separator: "\n")
    }

    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }
}

extension DisplayItem {
    var isGroup: Bool { if case .group = self { true } else { false } }
}

extension ShapeFill {
    /// Whether any colour of the fill has alpha below 1.
    var isTranslucent: Bool {
        switch self {
        case .color(let c): c.alpha < 1
        case .linearGradient(let g, _, _, _), .radialGradient(let g, _, _, _, _), .angularGradient(let g, _, _, _, _),
             .focalRadialGradient(let g, _, _, _, _, _):
            g.stops.contains { $0.color.alpha < 1 }
        case .image(let i): i.opacity < 1
        }
    }
}
