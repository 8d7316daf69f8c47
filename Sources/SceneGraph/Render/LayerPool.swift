import Foundation

/// Offscreen layers a render has finished with, kept for the next one by size and format: a
/// frame of groups allocates (and the kernel zeroes) nothing after the first frame. A layer
/// taken from the pool is cleared unless its first drawing covers it opaquely. Bounded by
/// `budgetBytes` (what does not fit is freed); the drawing-group cache's images never come
/// here.
final class LayerPool {
    private struct Key: Hashable {
        var width: Int, height: Int, format: PixelFormat
    }
    /// 256 MiB: the 32 nested 1024² layers of S6 (128 MiB) and more.
    var budgetBytes = 256 << 20
    private var free: [Key: [Surface]] = [:]
    private(set) var bytes = 0

    func take(width: Int, height: Int, format: PixelFormat) -> Surface? {
        let key = Key(width: width, height: height, format: format)
        guard let surface = free[key]?.popLast() else { return nil }
        bytes -= surface.byteCount
        return surface
    }

    func give(_ surface: Surface) {
        guard bytes + surface.byteCount <= budgetBytes else { return }
        free[Key(width: surface.width, height: surface.height, format: surface.format), default: []].append(surface)
        bytes += surface.byteCount
    }

    func removeAll() {
        free = [:]
        bytes = 0
    }
}

extension DisplayItem {
    /// Whether drawing this first onto a layer covering `bounds` (device pixels) sets every
    /// pixel regardless of what was there: an opaque colour filling a rectangle that contains
    /// the layer, with the normal blend, no clip and no shadow.
    func coversOpaquely(_ bounds: PixelRect) -> Bool {
        guard case .leaf(let leaf) = self, case .color(let color) = leaf.fill, leaf.blendMode == .normal, leaf.clips.isEmpty,
              leaf.shadows.isEmpty, leaf.glyphs == nil, color.alpha >= 1, let rect = leaf.path.axisAlignedRectangle() else { return false }
        return rect.contains(CGRect(x: bounds.x, y: bounds.y, width: bounds.width, height: bounds.height))
    }
}
