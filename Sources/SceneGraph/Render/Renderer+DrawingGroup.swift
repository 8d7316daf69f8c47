import Foundation

/// The key of a cached drawing-group image: the group's children lowered in its own pixel
/// space (so a change of colour, path or child is a different key, and moving the group is
/// not), the image size at the render scale, and the pixel format (opaque flag and colour mode).
public struct DrawingGroupKey: Hashable, Sendable {
    public var children: [DisplayItem]
    public var width: Int
    public var height: Int
    public var format: PixelFormat
    /// The coverage quality it was drawn at (an image drawn `.fast` is not an `.exact` one).
    public var coverageQuality: CoverageQuality = .exact
}

/// The drawing-group image cache a `Renderer` keeps (see `ImageCache`).
public typealias DrawingGroupCache = ImageCache<DrawingGroupKey>

extension Renderer {
    /// A drawing group: its image (from the cache, or drawn now), placed as planned (whole
    /// pixels, straight onto the canvas, or resampled into a layer), converted to the
    /// parent's format, then finished like any group.
    func drawImage(_ group: DisplayItem.Group, _ plan: GroupPlan, _ planned: PlannedImage, _ image: GroupImage,
                   _ placement: GroupPlan.ImagePlacement, _ conversion: PlannedImage?, on canvas: Canvas,
                   origin: (x: Int, y: Int)) throws {
        let picture = try groupImage(group.children, plan.children, image, planned)
        defer { recorder.release(picture.liveBytes) }
        let c = group.composite
        let surface = canvas.surface
        var layer: Surface, dx: Int, dy: Int
        var placedBytes = 0
        defer { if placedBytes > 0 { recorder.release(placedBytes) } }
        switch placement {
        case .wholePixels(let x, let y):
            (layer, dx, dy) = (picture.surface, x, y)
        case .direct:
            // The quad filled with the image resampled bilinearly, clamped at its edges, at the
            // group's opacity: one pass, no layer.
            let shift = CGAffineTransform(translationX: CGFloat(-origin.x), y: CGFloat(-origin.y))
            let source = try Surface(sharingPixelsOf: picture.surface)
            try recorder.time(.composition) {
                try canvas.fill(Path(CGRect(x: 0, y: 0, width: image.width, height: image.height)),
                                with: .image(source, transform: .identity, filter: .bilinear, clampToEdge: true),
                                transform: image.placement.concatenating(shift), opacity: c.opacity)
            }
            return
        case .resampled(let placedImage):
            // Resampled bilinearly, as a GPU samples a texture, into a layer covering the placed
            // image's device bounds within the surface.
            let bounds = placedImage.bounds
            let (placed, bytes) = try makeLayer(placedImage, width: bounds.width, height: bounds.height)
            placedBytes = bytes
            let toLayer = image.placement.concatenating(CGAffineTransform(translationX: CGFloat(-bounds.x), y: CGFloat(-bounds.y)))
            try recorder.time(.composition) {
                try Canvas(placed, rasterizer: rasterizer).fill(
                    Path(CGRect(x: 0, y: 0, width: image.width, height: image.height)),
                    with: .image(picture.surface, transform: .identity, filter: .bilinear, clampToEdge: true), transform: toLayer)
            }
            (layer, dx, dy) = (placed, bounds.x - origin.x, bounds.y - origin.y)
        }
        var convertedBytes = 0
        defer { if convertedBytes > 0 { recorder.release(convertedBytes) } }
        if let conversion {
            // Into the parent's encoding (an opaque image stays opaque), then composited.
            try checkOffscreenBudget(conversion.bytes)
            layer = try recorder.time(.composition) { try layer.converted(to: conversion.format) }
            convertedBytes = recorder.allocate(conversion)
        }
        let extended = layer.format == .rgbaFloat && surface.format != .rgbaFloat
        try finish(group, plan, layer, at: dx, dy, on: canvas, origin: origin) { layer, dx, dy, mask in
            if extended {
                // Encoded with the extended transfer function before the opacity applies.
                surface.compositeExtended(layer, at: dx, y: dy, opacity: c.opacity)
            } else {
                try surface.composite(layer, at: dx, y: dy, opacity: c.opacity, blendMode: c.blendMode, clipMask: mask, threads: threads)
            }
        }
    }

    /// A drawing group's image: from the cache (a hit: nothing rasterized), or drawn now from
    /// its children in its own space and stored (a miss). `liveBytes` is what the render holds
    /// for it until it is composited (the miss's new image; 0 for a hit).
    private func groupImage(_ children: [DisplayItem], _ planned: [PlannedItem], _ image: GroupImage,
                            _ layer: PlannedImage) throws -> (surface: Surface, liveBytes: Int) {
        let key = DrawingGroupKey(children: children, width: image.width, height: image.height, format: image.format,
                                  coverageQuality: coverageQuality)
        usedKeys.insert(key)
        // A renderer on another thread drawing the same image now is waited for, not
        // duplicated (`ImageCache.image(for:orMake:)`).
        var bytes = 0
        let (surface, made) = try cache.image(for: key) {
            let (surface, allocated) = try makeLayer(layer, width: image.width, height: image.height)
            bytes = allocated
            recorder.stats.cache.misses += 1
            try draw(planned, on: surface, origin: (0, 0))
            return surface
        }
        if !made { recorder.reused(layer.bounds, bytes: surface.byteCount) }
        return (surface, bytes)
    }
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

    /// The same rectangle moved by (`dx`, `dy`).
    func offsetBy(dx: Int, dy: Int) -> PixelRect {
        PixelRect(x: x + dx, y: y + dy, width: width, height: height)
    }
}
