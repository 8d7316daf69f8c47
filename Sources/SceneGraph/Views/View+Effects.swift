import Foundation

// Per-leaf effects: written on a container they apply to every leaf inside separately (each
// blends with what lies behind it, siblings included); written after a boundary
// (`compositingGroup()` …) they apply once to its result.

extension View {
    /// Multiplies into every leaf's opacity (each leaf blends on its own, overlaps show through),
    /// or into a compositing group's single composite when written after `compositingGroup()`.
    public func opacity(_ opacity: Double) -> _ModifiedView<Self> {
        modified(.effect(.opacity(Opacity(opacity).value)))
    }
    /// Blends every leaf with what lies behind it using `mode`; the innermost mode written on a
    /// leaf's path wins. Inside a `compositingGroup()`, "behind" is the group's own content.
    public func blendMode(_ mode: BlendMode) -> _ModifiedView<Self> {
        modified(.effect(.blendMode(mode)))
    }
    /// Clips every leaf to `shape` (laid out in this view's frame), each with its own
    /// anti-aliased coverage, so shared edges show a fringe; after `compositingGroup()` the clip
    /// applies once to the composite.
    public func clipShape<S: Shape>(_ shape: S, style: FillStyle = FillStyle()) -> _ModifiedView<Self> {
        modified(.effect(.clip(ShapeGeometry(shape), style.isEOFilled ? .evenOdd : .nonZero)))
    }
    /// Clips the drawing to the view's frame. `antialiased` is kept for SwiftUI's signature;
    /// the clip's edges are always anti-aliased (a frame on whole pixels clips exactly).
    public func clipped(antialiased: Bool = false) -> _ModifiedView<Self> {
        clipShape(Rectangle())
    }
    /// Gives every leaf its own shadow (a child's shadow falls on its siblings), or, after
    /// `compositingGroup()`, one shadow of the combined content. The blur is a Gaussian of
    /// σ = radius / 2 (Core Animation's convention); the default colour is SwiftUI's,
    /// black at 0.33 in linear sRGB.
    public func shadow(color: Color = Color(.sRGBLinear, white: 0, opacity: 0.33), radius: CGFloat,
                       x: CGFloat = 0, y: CGFloat = 0) -> _ModifiedView<Self> {
        modified(.effect(.shadow(color, radius: max(0, radius), offset: CGSize(width: x, height: y))))
    }

    /// Multiplies every colour channel by `color`'s (SwiftUI's `colorMultiply`). Like every
    /// colour effect it transforms each leaf's paint (and the shadows written inside it), or,
    /// after a boundary (`compositingGroup()` …), the boundary's result once.
    public func colorMultiply(_ color: Color) -> _ModifiedView<Self> { colorEffect(.multiply(color)) }
    /// Adds `amount` (−1…1) to red, green and blue.
    public func brightness(_ amount: Double) -> _ModifiedView<Self> { colorEffect(.brightness(amount)) }
    /// Scales distances from mid-grey by `amount` (0: grey, 1: unchanged).
    public func contrast(_ amount: Double) -> _ModifiedView<Self> { colorEffect(.contrast(amount)) }
    /// 0: luminance grey, 1: unchanged, above 1: more saturated (Rec. 709 luminance).
    public func saturation(_ amount: Double) -> _ModifiedView<Self> { colorEffect(.saturation(amount)) }
    /// `amount` of the way to luminance grey.
    public func grayscale(_ amount: Double) -> _ModifiedView<Self> { colorEffect(.grayscale(amount)) }
    /// Turns hues by `angle`, keeping luminance.
    public func hueRotation(_ angle: Angle) -> _ModifiedView<Self> { colorEffect(.hueRotation(angle)) }
    /// Inverts red, green and blue.
    public func colorInvert() -> _ModifiedView<Self> { colorEffect(.invert) }
    private func colorEffect(_ matrix: ColorMatrix) -> _ModifiedView<Self> {
        modified(.effect(.color(matrix)))
    }

    /// Rotates the drawing about `anchor` of the view's frame (clockwise on screen for positive
    /// angles), without changing layout. Composes into every leaf's transform.
    public func rotationEffect(_ angle: Angle, anchor: UnitPoint = .center) -> _ModifiedView<Self> {
        modified(.effect(.transform(.rotation(radians: angle.radians), anchor: anchor)))
    }
    /// Scales the drawing about `anchor` of the view's frame, without changing layout.
    public func scaleEffect(_ scale: CGFloat, anchor: UnitPoint = .center) -> _ModifiedView<Self> {
        scaleEffect(x: scale, y: scale, anchor: anchor)
    }
    public func scaleEffect(x: CGFloat = 1, y: CGFloat = 1, anchor: UnitPoint = .center) -> _ModifiedView<Self> {
        modified(.effect(.transform(.scale(x: x, y: y), anchor: anchor)))
    }
    public func scaleEffect(_ scale: CGSize, anchor: UnitPoint = .center) -> _ModifiedView<Self> {
        scaleEffect(x: scale.width, y: scale.height, anchor: anchor)
    }
    /// Applies `transform` to the drawing (in the view's coordinates, origin at its frame's
    /// top-leading corner), without changing layout.
    public func transformEffect(_ transform: CGAffineTransform) -> _ModifiedView<Self> {
        modified(.effect(.transform(.affine(transform), anchor: .topLeading)))
    }
}
