import CPixman
import Foundation

extension Surface {
    /// Composites `layer` onto this surface at (`x`, `y`) with `opacity` and `blendMode`, the way
    /// a group's layer returns to its parent. Throws only when the scratch layer the HSL modes and
    /// `plusDarker` need cannot be allocated. pixman converts between formats as it reads and
    /// writes; colour-space conversion between encoded and linear surfaces is the caller's job.
    public func composite(_ layer: Surface, at x: Int = 0, y: Int = 0, opacity: Double = 1,
                          blendMode: BlendMode = .normal, clipMask: CoverageMask? = nil) throws {
        let a = Opacity(opacity).value
        guard a > 0 else { return }
        if let clipMask {
            // Through the clip: fill the layer's rectangle with the layer as an image paint.
            try Canvas(self).fill(Path(CGRect(x: x, y: y, width: layer.width, height: layer.height)),
                                  with: .image(layer, transform: CGAffineTransform(translationX: CGFloat(x), y: CGFloat(y)),
                                               filter: .nearest),
                                  opacity: a, blendMode: blendMode, clipMask: clipMask)
            return
        }
        var maskImage: OpaquePointer?
        if a < 1 {
            var c = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16((a * 65535).rounded()))
            maskImage = pixman_image_create_solid_fill(&c)
        }
        defer { if let m = maskImage { pixman_image_unref(m) } }
        if blendMode.needsPremaskedSource {
            let canvas = Canvas(self)
            try canvas.fill(Path(CGRect(x: x, y: y, width: layer.width, height: layer.height)),
                             with: .image(layer, transform: CGAffineTransform(translationX: CGFloat(x), y: CGFloat(y)),
                                          filter: .nearest),
                             opacity: a, blendMode: blendMode)
            return
        }
        pixman_image_composite32(blendMode.pixmanOperator!, layer.image, maskImage, image, 0, 0, 0, 0,
                                 Int32(x), Int32(y), Int32(layer.width), Int32(layer.height))
    }
}

extension Surface {
    /// Copies `source`'s pixels over this surface's (pixman's SRC operator, converting the
    /// format as pixman does), as far as both extend.
    public func copyPixels(from source: Surface) {
        pixman_image_composite32(PIXMAN_OP_SRC, source.image, nil, image, 0, 0, 0, 0, 0, 0,
                                 Int32(min(width, source.width)), Int32(min(height, source.height)))
    }
}

extension Surface {
    /// Keeps each pixel in proportion to `mask`'s alpha at the same place (both surfaces the
    /// same size): what a mask does to its content (pixman's IN_REVERSE).
    public func keep(alphaOf mask: Surface) {
        precondition(mask.width == width && mask.height == height, "a mask covers its content exactly")
        pixman_image_composite32(PIXMAN_OP_IN_REVERSE, mask.image, nil, image, 0, 0, 0, 0, 0, 0, Int32(width), Int32(height))
    }
}
