import Foundation

/// Where a view's drawing goes offscreen and what each boundary costs, read from its display
/// list before anything is drawn: the tree of leaves and groups, each layer's device bounds,
/// pixel format, colour mode and bytes, how many leaves carry each per-leaf effect, and
/// warnings. `compose explain` prints it; `json()` is the same as data.
public struct Explanation: Codable, Sendable, Equatable {
    public struct Node: Codable, Sendable, Equatable {
        /// `leaf`, `compositingGroup`, `drawingGroup`, `blur` or `mask`.
        public var kind: String
        /// One line: the paint and rule of a leaf, the parameters of a group.
        public var summary: String
        /// Device bounds [x, y, width, height] of a leaf's ink or a group's layer.
        public var bounds: [Int]?
        /// A group's layer: pixel format and bytes (nil when drawn in place, without a layer).
        public var format: String?
        public var colorMode: String?
        public var bytes: Int?
        /// Leaves inside (a leaf counts itself).
        public var leaves: Int
        public var children: [Node]
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
    /// Offscreen layers the render allocates for groups (leaf shadow scratch masks excluded).
    public var layers: Int
    /// Their bytes, summed (each group's layer; nested layers are alive at once).
    public var layerBytes: Int
    public var perLeaf: PerLeaf
    public var tree: [Node]
    public var warnings: [String]

    /// The display list of `view` explained, for a canvas of `size` points at `scale`.
    public init<V: View>(_ view: V, size: CGSize, scale: Double = 1) {
        let list = Renderer().displayList(for: view, size: size, scale: scale)
        let canvasRect = PixelRect(x: 0, y: 0, width: Int((size.width * scale).rounded(.up)), height: Int((size.height * scale).rounded(.up)))
        canvas = [canvasRect.width, canvasRect.height]
        var perLeaf = PerLeaf()
        var warnings = list.warnings
        var layers = 0, layerBytes = 0

        func walk(_ items: [DisplayItem], within visible: PixelRect, format parentFormat: PixelFormat) -> [Node] {
            /// A boundary drawn into `images` ARGB layers at its bounds (none when invisible).
            func layered(_ kind: String, _ summary: String, _ item: DisplayItem, _ children: [DisplayItem], images: Int = 1) -> Node {
                var node = Node(kind: kind, summary: summary, bounds: nil, format: PixelFormat.argb32.rawValue, colorMode: "nonLinear",
                                bytes: nil, leaves: 0, children: [])
                if let bounds = Renderer.layerBounds(item, within: visible) {
                    layers += images
                    node.bounds = [bounds.x, bounds.y, bounds.width, bounds.height]
                    node.bytes = images * bounds.width * bounds.height * PixelFormat.argb32.bytesPerPixel
                    layerBytes += node.bytes!
                    node.children = walk(children, within: bounds, format: .argb32)
                }
                node.leaves = node.children.reduce(0) { $0 + $1.leaves }
                return node
            }
            return items.map { item in
                switch item {
                case let .fill(path, fill, rule, blend, clips, shadows):
                    if fill.isTranslucent { perLeaf.translucent += 1 }
                    if blend != .normal { perLeaf.blendMode += 1 }
                    if !clips.isEmpty { perLeaf.clip += 1 }
                    if !shadows.isEmpty { perLeaf.shadow += 1 }
                    var summary = "fill \(fill) \(rule.rawValue)"
                    if blend != .normal { summary += ", blend \(blend.rawValue)" }
                    if !clips.isEmpty { summary += ", \(clips.count) clip\(clips.count == 1 ? "" : "s")" }
                    if !shadows.isEmpty { summary += ", \(shadows.count) shadow\(shadows.count == 1 ? "" : "s") (mask-sized scratch)" }
                    return Node(kind: "leaf", summary: summary, bounds: Explanation.pixels(path.boundingRect), leaves: 1, children: [])
                case let .compositingGroup(opacity, blend, clips, shadows, children):
                    Explanation.checkBeyondCanvas(item, canvasRect, "compositingGroup", &warnings)
                    return layered("compositingGroup", Explanation.groupSummary(opacity, blend, clips, shadows), item, children)
                case let .colorFilter(_, opacity, blend, clips, shadows, children):
                    return layered("compositingGroup", "colour effects on the result, " + Explanation.groupSummary(opacity, blend, clips, shadows),
                                   item, children)
                case let .blur(sigma, opaque, opacity, blend, clips, shadows, children):
                    return layered("blur", String(format: "σ %.2f px%@, ", sigma, opaque ? ", opaque" : "")
                                       + Explanation.groupSummary(opacity, blend, clips, shadows), item, children)
                case let .mask(opacity, blend, clips, shadows, maskItems, children):
                    return layered("mask", Explanation.groupSummary(opacity, blend, clips, shadows)
                                       + "; \(maskItems.count) mask item\(maskItems.count == 1 ? "" : "s") in a second layer",
                                   item, children, images: 2)
                case let .drawingGroup(opaque, mode, opacity, blend, image, clips, shadows, children):
                    let format = Renderer.layerFormat(opaque: opaque, colorMode: mode)
                    let p = image.placement
                    let translated = p.a == 1 && p.b == 0 && p.c == 0 && p.d == 1 && p.tx == p.tx.rounded() && p.ty == p.ty.rounded()
                    let summary = "\(mode.rawValue)\(opaque ? ", opaque" : ""), " + Explanation.groupSummary(opacity, blend, clips, shadows)
                        + "; image \(image.width)×\(image.height) px in its own space (children below in its pixels), "
                        + (translated ? "placed at whole pixels" : "resampled (bilinear) by the outer transform") + ", cached"
                    var node = Node(kind: "drawingGroup", summary: summary, bounds: Explanation.pixels(image.frame), format: format.rawValue,
                                    colorMode: mode.rawValue, bytes: image.width * image.height * format.bytesPerPixel, leaves: 0,
                                    children: [])
                    layers += 1
                    layerBytes += node.bytes!
                    node.children = walk(children, within: PixelRect(x: 0, y: 0, width: image.width, height: image.height), format: format)
                    node.leaves = node.children.reduce(0) { $0 + $1.leaves }
                    let ink = children.reduce(CGRect.null) { $0.union($1.inkBounds) }
                    if !ink.isNull, !CGRect(x: 0, y: 0, width: image.width, height: image.height).insetBy(dx: -0.5, dy: -0.5).contains(ink) {
                        warnings.append("drawingGroup at \(Explanation.pixels(image.frame) ?? []): ink outside its frame is clipped, as in SwiftUI")
                    }
                    if node.leaves <= 1, !children.contains(where: \.isGroup) {
                        warnings.append("drawingGroup at \(Explanation.pixels(image.frame) ?? []) holds \(node.leaves) lea\(node.leaves == 1 ? "f" : "ves"): an offscreen image of \(node.bytes ?? 0) bytes with nothing worth caching")
                    }
                    Explanation.checkBeyondCanvas(item, canvasRect, "drawingGroup", &warnings)
                    return node
                }
            }
        }
        tree = walk(list.items, within: canvasRect, format: .argb32)
        leaves = tree.reduce(0) { $0 + $1.leaves }
        self.perLeaf = perLeaf
        self.layers = layers
        self.layerBytes = layerBytes
        self.warnings = warnings
    }

    private static func pixels(_ r: CGRect) -> [Int]? {
        PixelRect(enclosing: r).map { [$0.x, $0.y, $0.width, $0.height] }
    }

    private static func groupSummary(_ opacity: Double, _ blend: BlendMode, _ clips: [ClipPath], _ shadows: [DropShadow]) -> String {
        var parts = [String(format: "opacity %.3f", opacity)]
        if blend != .normal { parts.append("blend \(blend.rawValue)") }
        if !clips.isEmpty { parts.append("\(clips.count) clip\(clips.count == 1 ? "" : "s")") }
        if !shadows.isEmpty { parts.append("\(shadows.count) shadow\(shadows.count == 1 ? "" : "s")") }
        return parts.joined(separator: ", ")
    }

    private static func checkBeyondCanvas(_ item: DisplayItem, _ canvas: PixelRect, _ kind: String, _ warnings: inout [String]) {
        let ink = item.inkBounds
        guard !ink.isNull else { return }
        if ink.width > Double(canvas.width) || ink.height > Double(canvas.height) {
            warnings.append("\(kind) content of \(Int(ink.width.rounded(.up)))×\(Int(ink.height.rounded(.up))) px is larger than the \(canvas.width)×\(canvas.height) canvas; its layer is cut to the canvas")
        }
    }

    /// The tree as indented text, then the totals and warnings.
    public var text: String {
        var lines = ["canvas \(canvas[0])×\(canvas[1]) px: \(leaves) lea\(leaves == 1 ? "f" : "ves"), \(layers) offscreen layer\(layers == 1 ? "" : "s") (\(layerBytes) bytes)"]
        func walk(_ nodes: [Node], _ depth: Int) {
            for node in nodes {
                var line = String(repeating: "  ", count: depth + 1) + node.kind + " " + node.summary
                if let b = node.bounds { line += " [\(b.map(String.init).joined(separator: ", "))]" }
                if let f = node.format, let bytes = node.bytes { line += " — layer \(f), \(bytes) bytes" }
                lines.append(line)
                walk(node.children, depth + 1)
            }
        }
        walk(tree, 0)
        lines.append("per-leaf effects (distributed, no layer): \(perLeaf.translucent) translucent, \(perLeaf.blendMode) blended, "
                     + "\(perLeaf.clip) clipped, \(perLeaf.shadow) with shadows")
        lines += warnings.map { "warning: \($0)" }
        return lines.joined(separator: "\n")
    }

    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }
}

extension DisplayItem {
    var isGroup: Bool { if case .fill = self { false } else { true } }
}

extension ShapeFill {
    /// Whether any colour of the fill has alpha below 1.
    var isTranslucent: Bool {
        switch self {
        case .color(let c): c.alpha < 1
        case .linearGradient(let g, _, _, _), .radialGradient(let g, _, _, _, _), .angularGradient(let g, _, _, _, _):
            g.stops.contains { $0.color.alpha < 1 }
        case .image(let i): i.opacity < 1
        }
    }
}
