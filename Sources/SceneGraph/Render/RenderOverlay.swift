import Foundation

/// A debugging picture of what a render sent offscreen, drawn over its result.
public enum RenderOverlay: String, Sendable, CaseIterable {
    /// Tints every region that went through an offscreen image made by this render yellow at
    /// 50 %, once however many layers overlap there (as the iOS Simulator's "Color
    /// Offscreen-Rendered" does), and every region drawn from a cached drawing-group image green.
    case offscreen
    /// Outlines each offscreen image's bounds, 1 device pixel inside them, in its kind's colour:
    /// compositing groups red, drawing groups blue, shadow masks purple, blurs orange, masks teal, filters yellow,
    /// cached images green.
    case layers

    /// The tint and outline of images reused from the drawing-group cache.
    public static let cachedColour = Color.green

    /// The outline colour of `kind` in `.layers`.
    public static func colour(of kind: RenderStats.LayerKind) -> Color {
        switch kind {
        case .compositingGroup: .red
        case .drawingGroup: .blue
        case .shadow: .purple
        case .blur: .orange
        case .mask: .teal
        case .filter: .yellow
        }
    }
}

extension RenderStats {
    /// Draws `overlay` for these statistics onto `surface`, the render they describe.
    ///
    /// ```swift
    /// let surface = try renderer.render(view, size: size, scale: 3)
    /// try renderer.lastStats.drawOverlay(.offscreen, on: surface)
    /// ```
    public func drawOverlay(_ overlay: RenderOverlay, on surface: Surface) throws {
        let canvas = Canvas(surface)
        func rect(_ layer: Layer, inset: Double = 0) -> CGRect {
            CGRect(x: Double(layer.bounds[0]) + inset, y: Double(layer.bounds[1]) + inset,
                   width: Double(layer.bounds[2]) - 2 * inset, height: Double(layer.bounds[3]) - 2 * inset)
        }
        switch overlay {
        case .offscreen:
            // One path of every rectangle under the non-zero rule: their union, tinted once.
            var union = Path()
            for layer in layers { union.addRect(rect(layer)) }
            if !union.isEmpty { try canvas.fill(union, with: .color(Color.yellow.opacity(0.5))) }
            var cached = Path()
            for layer in reusedImages { cached.addRect(rect(layer)) }
            if !cached.isEmpty { try canvas.fill(cached, with: .color(RenderOverlay.cachedColour.opacity(0.5))) }
        case .layers:
            for (layer, colour) in layers.map({ ($0, RenderOverlay.colour(of: $0.kind)) }) + reusedImages.map({ ($0, RenderOverlay.cachedColour) }) {
                var frame = Path(rect(layer))
                if layer.bounds[2] > 2, layer.bounds[3] > 2 { frame.addRect(rect(layer, inset: 1)) }
                try canvas.fill(frame, with: .color(colour), fillRule: .evenOdd)
            }
        }
    }
}
