import Foundation

/// The key of a cached drawing-group image: the group's children lowered in its own pixel
/// space (so a change of colour, path or child is a different key, and moving the group is
/// not), the image size at the render scale, and the pixel format (opaque flag and colour mode).
public struct DrawingGroupKey: Hashable, Sendable {
    public var children: [DisplayItem]
    public var width: Int
    public var height: Int
    public var format: PixelFormat
}

/// The drawing-group image cache a `Renderer` keeps (see `ImageCache`).
public typealias DrawingGroupCache = ImageCache<DrawingGroupKey>

extension Renderer {
    /// A drawing group's image: from the cache (a hit: nothing rasterized), or drawn now from
    /// its children in its own space and stored (a miss). `liveBytes` is what the render holds
    /// for it until it is composited (the miss's new image; 0 for a hit).
    func groupImage(_ children: [DisplayItem], _ image: GroupImage, format: PixelFormat) throws -> (surface: Surface, liveBytes: Int) {
        let key = DrawingGroupKey(children: children, width: image.width, height: image.height, format: format)
        usedKeys.insert(key)
        let deviceBounds = PixelRect(enclosing: image.frame) ?? PixelRect(x: 0, y: 0, width: 0, height: 0)
        if let cached = cache.image(for: key) {
            recorder.reused(deviceBounds, bytes: cached.byteCount)
            return (cached, 0)
        }
        let (surface, bytes) = try makeLayer(.drawingGroup, width: image.width, height: image.height, format: format,
                                             recordedAs: deviceBounds)
        recorder.stats.cache.misses += 1
        try draw(children, on: surface, origin: (0, 0))
        cache.insert(surface, for: key)
        return (surface, bytes)
    }

    /// Draws a transformed drawing-group image straight onto the canvas in one pass (its quad
    /// filled with the image resampled bilinearly, clamped at its edges, at `opacity`) when
    /// nothing needs the placed image as a layer first: an 8-bit image into an 8-bit parent,
    /// the normal blend, no clip, no shadow, and a placement that is not a whole-pixel
    /// translation (those composite exactly below). False when it does not apply.
    func placeDirectly(_ picture: Surface, _ image: GroupImage, opacity: Double, blend: BlendMode, clips: [ClipPath],
                       shadows: [DropShadow], on canvas: Canvas, origin: (x: Int, y: Int)) throws -> Bool {
        let p = image.placement
        guard image.wholePixelOffset(from: origin) == nil, picture.format == .argb32, canvas.surface.format == .argb32, blend == .normal,
              clips.isEmpty, shadows.isEmpty else { return false }
        let shift = CGAffineTransform(translationX: CGFloat(-origin.x), y: CGFloat(-origin.y))
        let source = try Surface(sharingPixelsOf: picture)
        try recorder.time("composition") {
            try canvas.fill(Path(CGRect(x: 0, y: 0, width: picture.width, height: picture.height)),
                            with: .image(source, transform: .identity, filter: .bilinear, clampToEdge: true),
                            transform: p.concatenating(shift), opacity: opacity)
        }
        return true
    }

    /// `picture` placed on `surface` (whose pixel (0, 0) is device pixel `origin`): returned as
    /// is with its integer offset when the placement is a whole-pixel translation (exact), else
    /// resampled bilinearly, as a GPU samples a texture, into a layer covering `bounds` (the
    /// placed image's device bounds within the surface).
    func place(_ picture: Surface, _ image: GroupImage, bounds: PixelRect, on surface: Surface,
               origin: (x: Int, y: Int)) throws -> (Surface, Int, Int)? {
        let p = image.placement
        if let offset = image.wholePixelOffset(from: origin) { return (picture, offset.x, offset.y) }
        // An opaque image keeps no alpha; resampled, its corners outside the quad must stay
        // transparent, so the placed layer has alpha.
        let format: PixelFormat = picture.format == .xrgb32 ? .argb32 : picture.format
        let (placed, bytes) = try makeLayer(.drawingGroup, width: bounds.width, height: bounds.height, format: format,
                                            recordedAs: bounds)
        defer { recorder.release(bytes) }
        let toLayer = p.concatenating(CGAffineTransform(translationX: CGFloat(-bounds.x), y: CGFloat(-bounds.y)))
        try recorder.time("composition") {
            try Canvas(placed, rasterizer: rasterizer).fill(
                Path(CGRect(x: 0, y: 0, width: picture.width, height: picture.height)),
                with: .image(picture, transform: .identity, filter: .bilinear, clampToEdge: true), transform: toLayer)
        }
        return (placed, bounds.x - origin.x, bounds.y - origin.y)
    }
}

extension Renderer {
    /// An offscreen surface for a layer, within `maximumOffscreenBytes` of everything the render
    /// holds at once, recorded in the statistics (release its bytes when it is gone).
    /// `pooled`: the layer may come from the pool (the caller gives it back with `recycle`);
    /// `cleared`: it must start transparent (false when the first drawing covers it).
    func makeLayer(_ kind: RenderStats.LayerKind, width: Int, height: Int, format: PixelFormat,
                   recordedAs bounds: PixelRect, pooled: Bool = false, cleared: Bool = true) throws -> (Surface, Int) {
        let bytes = width * height * format.bytesPerPixel
        guard recorder.liveBytes + bytes <= maximumOffscreenBytes else {
            throw RenderError.offscreenLimit(needed: recorder.liveBytes + bytes, limit: maximumOffscreenBytes)
        }
        let surface: Surface
        if pooled, let reused = layerPool.take(width: width, height: height, format: format) {
            if cleared { recorder.time("composition") { reused.clear() } }
            surface = reused
        } else {
            surface = try Surface(width: width, height: height, format: format)
        }
        return (surface, recorder.allocate(kind, bounds, bytesPerPixel: format.bytesPerPixel))
    }

    /// A pooled layer this render has finished with, for the next one.
    func recycle(_ layer: Surface) { layerPool.give(layer) }
}

extension PixelRect {
    /// The whole pixels touched by `rect`; nil for a null, non-finite or absurdly far one
    /// (beyond ±10^9 px, which no surface reaches and `Int` conversion must not see).
    init?(enclosing rect: CGRect) {
        guard !rect.isNull, rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite,
              abs(rect.minX) < 1e9, abs(rect.minY) < 1e9, abs(rect.maxX) < 1e9, abs(rect.maxY) < 1e9 else { return nil }
        let x0 = Int(rect.minX.rounded(.down)), y0 = Int(rect.minY.rounded(.down))
        self.init(x: x0, y: y0, width: Int(rect.maxX.rounded(.up)) - x0, height: Int(rect.maxY.rounded(.up)) - y0)
    }

    /// The whole pixels of `rect` within `area`; nil when none are (or `rect` is null or not
    /// finite).
    init?(cut rect: CGRect, to area: PixelRect) {
        guard !rect.isNull, rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite else { return nil }
        let clipped = rect.intersection(CGRect(x: area.x, y: area.y, width: area.width, height: area.height))
        guard let bounds = PixelRect(enclosing: clipped), !bounds.isEmpty else { return nil }
        self = bounds.intersection(area)
        if isEmpty { return nil }
    }
}
