import Foundation
import SceneGraph

/// One offscreen image of a render as the report's layer tree shows it: where it sits in the
/// tree of views, why it exists, its format and what it cost.
public struct LayerRow: Sendable, Equatable {
    /// Its position in `RenderStats.layers` (the order the render made the images).
    public var index: Int
    /// Nesting: images made by groups inside other groups' layers sit deeper.
    public var depth: Int
    public var layer: RenderStats.Layer
    /// Why the image exists ("compositingGroup(): its content is composited first; opacity …",
    /// "shadow of a leaf …").
    public var reason: String
    /// The explain tree's one-line summary of the leaf or group that made it.
    public var summary: String
    /// Pixel format (and colour mode for a drawing group's image).
    public var format: String
    /// Microseconds from the image's allocation to its release (a shadow's mask: the call
    /// that made, blurred and composited it), from the trace; nil when the trace lacks it.
    public var microseconds: Double?
    /// Where the scene file wrote the view that made it.
    public var source: SourceLine?
}

extension SceneReport {
    /// Every image of `stats.layers` once, in the order of the explain tree (a group's images,
    /// then those of what it holds), each matched to the tree node that made it. The plan
    /// lists the images a cold render makes in the order it makes them; images are matched by
    /// kind, bounds and bytes, so two equal images may trade places, which changes nothing
    /// shown. An image the plan does not list (never, for a report's own cold render) comes
    /// last, with only what the statistics know.
    public var layerRows: [LayerRow] {
        struct Candidate { var node: Explanation.Node; var imageIndex: Int; var depth: Int }
        var candidates: [Candidate] = []
        func walk(_ nodes: [Explanation.Node], _ depth: Int) {
            for node in nodes {
                for k in node.images.indices { candidates.append(Candidate(node: node, imageIndex: k, depth: depth)) }
                walk(node.children, node.images.isEmpty ? depth : depth + 1)
            }
        }
        walk(explanation.tree, 0)

        var durations: [Int: Double] = [:]
        for span in trace.spans where span.category == "layer" {
            if let text = span.args["index"], let index = Int(text) { durations[index] = span.duration }
        }
        var assigned: [Int?] = Array(repeating: nil, count: candidates.count)
        var unmatched: [Int] = []
        for (index, layer) in stats.layers.enumerated() {
            if let c = candidates.indices.first(where: { assigned[$0] == nil && candidates[$0].node.images[candidates[$0].imageIndex] == layer }) {
                assigned[c] = index
            } else {
                unmatched.append(index)
            }
        }
        var rows: [LayerRow] = []
        for (c, index) in assigned.enumerated() {
            guard let index else { continue }
            let candidate = candidates[c]
            rows.append(LayerRow(index: index, depth: candidate.depth, layer: stats.layers[index],
                                 reason: SceneReport.reason(candidate.node, candidate.imageIndex),
                                 summary: candidate.node.kind + " " + candidate.node.summary,
                                 format: SceneReport.format(candidate.node, candidate.imageIndex),
                                 microseconds: durations[index], source: candidate.node.source))
        }
        for index in unmatched {
            let layer = stats.layers[index]
            rows.append(LayerRow(index: index, depth: 0, layer: layer, reason: SceneReport.kindDescription(layer.kind), summary: layer.kind.rawValue,
                                 format: SceneReport.format(bytesPerPixel: layer.pixels > 0 ? layer.bytes / layer.pixels : 0, kind: layer.kind),
                                 microseconds: durations[index], source: nil))
        }
        return rows
    }

    /// Why image `k` of `node` exists: a group's first image is its layer, for the reason the
    /// explanation gives; the others are named by kind.
    static func reason(_ node: Explanation.Node, _ k: Int) -> String {
        let image = node.images[k]
        let shadows = node.images.filter { $0.kind == .shadow }.count
        let shadowNumber = node.images[...k].filter { $0.kind == .shadow }.count
        let which = shadows > 1 ? " (shadow \(shadowNumber) of \(shadows))" : ""
        if node.kind == "leaf" {
            return "shadow of a leaf: its shape's blurred A8 mask\(which)"
        }
        if k == 0 { return node.reason ?? kindDescription(image.kind) }
        switch image.kind {
        case .mask: return "the mask's second layer: where its alpha is, the content is kept"
        case .filter: return "a filter's image primitive (feImage), drawn in a layer of its own"
        case .shadow: return "shadow of the \(node.kind): a blurred A8 mask of its finished layer's alpha\(which)"
        case .drawingGroup:
            // After the image itself: the placed layer (when resampled into one), then the
            // conversion to the parent's format.
            let placed = node.summary.contains("into a placed layer")
            return placed && k == 1 ? "the drawing group's image resampled (bilinear) into a placed layer: clips, shadows, blend modes or a float image need placed pixels"
                : "the drawing group's image converted to its parent's pixel format"
        case .compositingGroup, .blur: return kindDescription(image.kind)
        }
    }

    /// The pixel format of image `k` of `node`: a group's layer says its own; the others
    /// follow from their kind and bytes a pixel.
    static func format(_ node: Explanation.Node, _ k: Int) -> String {
        if k == 0, node.kind != "leaf", let format = node.format {
            return format + (node.colorMode.map { " (\($0))" } ?? "")
        }
        let image = node.images[k]
        return format(bytesPerPixel: image.pixels > 0 ? image.bytes / image.pixels : 0, kind: image.kind)
    }

    static func format(bytesPerPixel: Int, kind: RenderStats.LayerKind) -> String {
        switch (kind, bytesPerPixel) {
        case (.shadow, _), (_, 1): "a8"
        case (.mask, _), (.filter, _), (.compositingGroup, _), (.blur, _): "argb32"
        case (_, 16): "rgbaFloat"
        default: "\(bytesPerPixel) bytes a pixel"
        }
    }

    static func kindDescription(_ kind: RenderStats.LayerKind) -> String {
        switch kind {
        case .compositingGroup: "a compositing group's layer"
        case .drawingGroup: "a drawing group's image"
        case .shadow: "a shadow's blurred A8 mask"
        case .blur: "a blur's content, composited and blurred as one"
        case .mask: "a mask's layer"
        case .filter: "a filter's source graphic"
        }
    }
}
