import CPixman
import CRasterKernels
import Foundation

extension Surface {
    /// Composites `layer` onto this surface at (`x`, `y`) with `opacity` and `blendMode`, the way
    /// a group's layer returns to its parent. Throws only when the scratch layer the HSL modes and
    /// `plusDarker` need cannot be allocated. pixman converts between formats as it reads and
    /// writes; colour-space conversion between encoded and linear surfaces is the caller's job.
    ///
    /// An 8-bit ARGB layer composited normally onto 8-bit ARGB without a clip (every
    /// `compositingGroup()`'s layer) goes through the engine's own kernel, with pixman's
    /// arithmetic and so pixman's bytes, its rows shared among up to `threads` threads when
    /// there are at least `Surface.parallelCompositePixels` of them (each row on its own, so
    /// the same bytes at any count).
    public func composite(_ layer: Surface, at x: Int = 0, y: Int = 0, opacity: Double = 1,
                          blendMode: BlendMode = .normal, clipMask: CoverageMask? = nil, threads: Int = 1) throws {
        let a = Opacity(opacity).value
        guard a > 0 else { return }
        if clipMask == nil, blendMode == .normal, layer.format == .argb32, format == .argb32 {
            compositeLayer(layer, at: x, y: y, m: Opacity(a).layerAlpha8, threads: threads)
            return
        }
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
    /// Layers of at least this many pixels are composited on several threads when a render has
    /// them: 2¹⁶ (a 256 × 256 layer, about 20 µs of kernel time), below which starting a thread
    /// costs more than it saves.
    public static let parallelCompositePixels = 1 << 16

    /// `layer` (8-bit ARGB) scaled by `m`/255 and composited source-over onto this 8-bit ARGB
    /// surface with its pixel (0, 0) at (`x`, `y`), as far as the two overlap.
    func compositeLayer(_ layer: Surface, at x: Int, y: Int, m: UInt32, threads: Int) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + layer.width), y1 = min(height, y + layer.height)
        guard x1 > x0, y1 > y0 else { return }
        let count = x1 - x0, rows = y1 - y0
        nonisolated(unsafe) let target = data + y0 * stride + x0 * 4
        nonisolated(unsafe) let source = UnsafeRawPointer(layer.data) + (y0 - y) * layer.stride + (x0 - x) * 4
        let (targetStride, sourceStride) = (stride, layer.stride)
        let parts = min(max(1, threads), rows)
        guard parts > 1, count * rows >= Surface.parallelCompositePixels else {
            Surface.compositeLayerRows(target, targetStride, source, sourceStride, count: count, rows: 0..<rows, m: m)
            return
        }
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            Surface.compositeLayerRows(target, targetStride, source, sourceStride, count: count,
                                       rows: rows * part / parts..<rows * (part + 1) / parts, m: m)
        }
    }

    private static func compositeLayerRows(_ target: UnsafeMutableRawPointer, _ targetStride: Int, _ source: UnsafeRawPointer,
                                           _ sourceStride: Int, count: Int, rows: Range<Int>, m: UInt32) {
        for r in rows {
            SpanKernels.compositeLayer((target + r * targetStride).assumingMemoryBound(to: UInt32.self),
                                       (source + r * sourceStride).assumingMemoryBound(to: UInt32.self), count: count, m)
        }
    }

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
