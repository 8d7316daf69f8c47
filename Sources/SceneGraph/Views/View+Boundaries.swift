import Foundation

// Boundaries: the content is composited into an offscreen layer first, and the modifiers
// written after one apply once to the result.

extension View {
    /// Composites the content into an offscreen layer first; modifiers written after this apply
    /// once to the result.
    public func compositingGroup() -> _ModifiedView<Self> {
        modified(.boundary(.compositingGroup))
    }
    /// Rasterizes the content into an offscreen image first (SwiftUI's `drawingGroup`):
    /// `.nonLinear` blends as the parent does, `.linear` in linear light (8-bit), and
    /// `.extendedLinear` in linear floats where colour may exceed 1; `opaque` starts the image
    /// black with no alpha. Modifiers written after it apply once to the image, which is
    /// converted to the parent's encoding first.
    public func drawingGroup(opaque: Bool = false, colorMode: ColorRenderingMode = .nonLinear) -> _ModifiedView<Self> {
        modified(.boundary(.drawingGroup(opaque: opaque, colorMode: colorMode)))
    }
    /// Blurs the composited content with a Gaussian of σ = `radius` points (SwiftUI documents
    /// the radius as the standard deviation). Always a boundary: the content is composited
    /// into a layer first, then blurred as one. With `opaque`, the blur repeats the content's
    /// edge pixels instead of fading into transparency beyond them.
    public func blur(radius: CGFloat, opaque: Bool = false) -> _ModifiedView<Self> {
        modified(.boundary(.blur(radius: max(0, radius.isNaN ? 0 : radius), opaque: opaque)))
    }
    /// Keeps the content where `mask`, laid out in the content's frame with `alignment`, has
    /// alpha (its colour is ignored). Always a boundary: the content is composited first.
    public func mask<Mask: View>(alignment: Alignment = .center, @ViewBuilder _ mask: () -> Mask) -> _ModifiedView<Self> {
        modified(.boundary(.mask(resolve(mask()), alignment: alignment)))
    }
}

/// How a drawing group stores and blends colour (SwiftUI's `ColorRenderingMode`).
public enum ColorRenderingMode: String, Hashable, Sendable {
    /// 8-bit sRGB-encoded, blending as the parent does.
    case nonLinear
    /// 8-bit, blending in linear light (`a8r8g8b8_sRGB`).
    case linear
    /// 32-bit float linear light; colour values outside [0, 1] survive inside the group.
    case extendedLinear
}
