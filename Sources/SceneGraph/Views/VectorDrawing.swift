import Foundation

/// Vector art that draws itself as display items: what an `Image` of an SVG file shows. Like
/// pixels, it has a natural size and stretches to its frame when the image is resizable; the
/// modifiers written on the image apply to the drawing as one piece (its inner groups and
/// effects are its own), exactly as they apply to an image's pixels.
///
/// The SVG module's document conforms; conform your own type to draw other vector formats.
public protocol VectorDrawing: Sendable {
    /// The size in points the drawing takes when it is not resizable.
    var naturalSize: CGSize { get }

    /// The drawing fitted to a frame of `size` points (its own space: origin top-left), mapped
    /// to device pixels by `transform`: leaves and groups in device space. Strokes are outlined
    /// within `limits` (throw the refusal to stop the render).
    func displayItems(size: CGSize, transform: CGAffineTransform, limits: StrokeLimits) throws(StrokeRefusal) -> [DisplayItem]

    /// Whether `other` is the same drawing (drawing groups reuse their image while it is).
    func isSameDrawing(as other: any VectorDrawing) -> Bool
}

extension Image {
    /// An image of vector art (for example an SVG document), at its natural size unless made
    /// `resizable()`.
    ///
    /// ```swift
    /// let icon = Image(drawing: try SVGDocument(contentsOfFile: "icon.svg"))
    /// icon.resizable().frame(width: 48, height: 48)
    /// ```
    public init(drawing: any VectorDrawing) {
        self.init(source: .drawing(drawing))
    }
}

extension Lowering {
    /// A vector drawing stretched to `rect`: its own items, spliced in as they are when nothing
    /// is written above it; else in a group that takes the opacity, blend mode, clips, shadows
    /// and colour effects once, as a picture's pixels would.
    func lowerDrawing(_ drawing: any VectorDrawing, in rect: CGRect, _ context: LowerContext,
                      into items: inout [DisplayItem]) throws(StrokeRefusal) {
        guard context.opacity > 0, rect.width > 0, rect.height > 0 else { return }
        let place = CGAffineTransform(translationX: rect.minX, y: rect.minY).concatenating(context.transform)
        let drawn = try drawing.displayItems(size: rect.size, transform: place, limits: limits)
        guard !drawn.isEmpty else { return }
        let plain = context.opacity == 1 && (context.blendMode ?? .normal) == .normal && context.clips.isEmpty
            && context.shadows.isEmpty && context.colorMatrix == nil
        if plain {
            items += drawn
        } else {
            let isolation: DisplayItem.Isolation = context.colorMatrix.map { .colorMatrix($0) } ?? .layer
            items.append(.group(.init(composite: context.composite, isolation: isolation, children: drawn)))
        }
    }
}
