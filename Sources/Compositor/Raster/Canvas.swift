import CPixman
import Foundation

/// Draws filled paths onto a surface: exact-area coverage from a `Rasterizer`, composited by
/// pixman with a paint, an opacity and a blend mode.
///
/// ```swift
/// let surface = try Surface(width: 100, height: 100)
/// let canvas = Canvas(surface)
/// surface.fill(.white)
/// try canvas.fill(Path(ellipseIn: CGRect(x: 10, y: 10, width: 80, height: 80)), with: .color(.blue))
/// ```
public final class Canvas {
    public let surface: Surface
    /// Device pixels outside this rectangle are never touched.
    public var clip: PixelRect
    public let rasterizer: Rasterizer

    public init(_ surface: Surface, rasterizer: Rasterizer = Rasterizer()) {
        self.surface = surface
        self.clip = surface.bounds
        self.rasterizer = rasterizer
    }

    /// Fills `path`, mapped to device pixels by `transform`.
    ///
    /// - Parameters:
    ///   - path: the shape to fill, in its own coordinates.
    ///   - paint: colours, gradients and images are given in the path's own coordinates.
    ///   - fillRule: which self-overlapping regions are inside (non-zero by default).
    ///   - transform: from the path's coordinates to device pixels.
    ///   - paintTransform: from the paint's coordinates to device pixels (nil: `transform`).
    ///   - opacity: multiplies the coverage, in [0, 1].
    ///   - blendMode: how the paint combines with the pixels below.
    ///   - clipMask: coverage the fill is multiplied by (nil: none).
    ///   - tolerance: how far, in device pixels, the lines that replace the path's curves may
    ///     stray from them (see `Rasterizer.rasterize`); text asks for 0.02.
    ///   - coverageQuality: this fill's coverage quality (nil: the rasterizer's). The scene
    ///     graph fills a stroke's outline `.fast`: its windings have one sign by construction,
    ///     so accumulation is off only where the stroke covers part of a pixel twice
    ///     (`CoverageQuality.exact`).
    /// - Throws: `RasterError.nonFiniteGeometry` for NaN or infinite device coordinates; nothing
    ///   is drawn then.
    public func fill(_ path: Path, with paint: Paint, fillRule: FillRule = .nonZero,
                     transform: CGAffineTransform = .identity, paintTransform: CGAffineTransform? = nil,
                     opacity: Double = 1, blendMode: BlendMode = .normal, clipMask: CoverageMask? = nil,
                     tolerance: Double = flatteningTolerance, coverageQuality: CoverageQuality? = nil) throws {
        let region = clip.intersection(surface.bounds)
        guard !region.isEmpty else { return }
        if clipMask == nil, case .color(let color) = paint,
           try fillFloat(path, color: color, fillRule: fillRule, transform: transform, opacity: opacity, blendMode: blendMode,
                         tolerance: tolerance) {
            return
        }
        // A pixel-aligned box needs no coverage: pixman fills it, unless it is a translucent
        // colour blended normally while a batch draws this surface, which keeps the band in
        // cache across fills (S7's eight full-frame layers folded into eight boxes: one pass
        // over memory instead of eight). The cells give such a box coverage 0 or 1 exactly,
        // and the batch blends it with pixman's arithmetic: the same bytes.
        if clipMask == nil, opacity >= 1, !blendMode.needsPremaskedSource, case .color(let color) = paint,
           !(color.alpha < 1 && blendMode == .normal && rasterizer.isBatching(onto: surface)),
           let rect = path.axisAlignedRectangle(transform: transform), let box = PixelRect(exactly: rect) {
            try rasterizer.flushBatch()
            fillBox(box.intersection(region), color: color, blendMode: blendMode)
            return
        }
        // A solid colour, source-over onto 8-bit (A/X)RGB: the cell rasterizer composites it
        // straight from its cells where its coverage is exact (no mask, no pixman image).
        var solid: Rasterizer.SolidTarget?
        if clipMask == nil, blendMode == .normal, surface.format == .argb32 || surface.format == .xrgb32,
           case .color(let color) = paint {
            let c = pixmanColor(premultiplied: color, for: surface.format)
            let source = UInt32(c.alpha >> 8) << 24 | UInt32(c.red >> 8) << 16 | UInt32(c.green >> 8) << 8 | UInt32(c.blue >> 8)
            solid = Rasterizer.SolidTarget(source: source, pixels: surface.data, stride: surface.stride)
        }
        var pixmanSource: PixmanSource?
        // A linear gradient along one device axis, normal blend onto 8-bit ARGB: from the cells
        // too, its colours asked of pixman once per row or column (`LinearGradientAxis`).
        var gradient: Rasterizer.GradientTarget?
        if clipMask == nil, blendMode == .normal, surface.format == .argb32,
           let axis = LinearGradientAxis(paint, transform: paintTransform ?? transform),
           let source = paint.pixmanSource(transform: paintTransform ?? transform, format: surface.format) {
            pixmanSource = source
            gradient = Rasterizer.GradientTarget(source: source.image, axis: axis, pixels: surface.data, stride: surface.stride)
        }
        try rasterizer.rasterize(path, transform: transform, fillRule: fillRule, clip: region,
                                 opacity: opacity, tolerance: tolerance, quality: coverageQuality, solid: solid,
                                 gradient: gradient) { mask, stride, rect in
            try composite(mask, stride: stride, rect: rect, paint: paint, paintTransform: paintTransform ?? transform,
                          clipMask: clipMask, blendMode: blendMode, source: &pixmanSource)
        }
    }

    /// Fills a stroke's outline (`PathStroke`, mapped by `transform`) with `paint`, as
    /// `fill(stroke.outline(), with: paint, …, coverageQuality: .fast)` does, to the byte. A
    /// solid colour blended normally onto 8-bit (A/X)RGB without a clip mask is drawn from the
    /// stroke itself, its outline sent straight into the rasterizer's edges as it is made
    /// (`Rasterizer.rasterize(_ stroke:…)`); anything else fills the outline as a path.
    /// (Such a stroke never takes `fill`'s pixel-aligned box: the cells give a box coverage 0
    /// or 1 exactly, and blend it with pixman's arithmetic, so the bytes are the same.)
    ///
    /// - Throws: as `fill`, and the stroke's `StrokeRefusal` where its limits refuse it.
    public func fill(_ stroke: PathStroke, with paint: Paint, transform: CGAffineTransform = .identity,
                     paintTransform: CGAffineTransform? = nil, opacity: Double = 1, blendMode: BlendMode = .normal,
                     clipMask: CoverageMask? = nil) throws {
        let region = clip.intersection(surface.bounds)
        guard !region.isEmpty else { return }
        guard clipMask == nil, blendMode == .normal, surface.format == .argb32 || surface.format == .xrgb32,
              case .color(let color) = paint else {
            return try fill(stroke.outline(), with: paint, fillRule: .nonZero, transform: transform, paintTransform: paintTransform,
                            opacity: opacity, blendMode: blendMode, clipMask: clipMask, coverageQuality: .fast)
        }
        let c = pixmanColor(premultiplied: color, for: surface.format)
        let source = UInt32(c.alpha >> 8) << 24 | UInt32(c.red >> 8) << 16 | UInt32(c.green >> 8) << 8 | UInt32(c.blue >> 8)
        let solid = Rasterizer.SolidTarget(source: source, pixels: surface.data, stride: surface.stride)
        var pixmanSource: PixmanSource?
        try rasterizer.rasterize(stroke, transform: transform, clip: region, opacity: opacity, solid: solid) { mask, stride, rect in
            try composite(mask, stride: stride, rect: rect, paint: paint, paintTransform: paintTransform ?? transform,
                          clipMask: nil, blendMode: blendMode, source: &pixmanSource)
        }
    }

    /// Composites `paint` through a band of coverage (`mask`, 8-bit, `stride` bytes a row,
    /// covering `rect`) and `clipMask`: what `fill` does with each band the rasterizer emits.
    private func composite(_ mask: UnsafePointer<UInt8>, stride: Int, rect: PixelRect, paint: Paint, paintTransform: CGAffineTransform,
                           clipMask: CoverageMask?, blendMode: BlendMode, source pixmanSource: inout PixmanSource?) throws {
        if pixmanSource == nil { pixmanSource = paint.pixmanSource(transform: paintTransform, format: surface.format) }
        guard let source = pixmanSource else { return }
        guard let maskImage = pixman_image_create_bits(
            PIXMAN_a8, Int32(rect.width), Int32(rect.height),
            UnsafeMutableRawPointer(mutating: mask).assumingMemoryBound(to: UInt32.self), Int32(stride))
        else { return }
        defer { pixman_image_unref(maskImage) }
        if let clipMask {
            // Coverage × clip coverage: pixman's IN keeps the destination's alpha scaled by
            // the source's. Outside the clip mask's extent the clip covers nothing.
            let clipRect = clipMask.bounds.intersection(rect)
            if clipRect.isEmpty { return }
            if clipRect != rect { clearOutside(clipRect, in: rect, mask: UnsafeMutablePointer(mutating: mask), stride: stride) }
            pixman_image_composite32(PIXMAN_OP_IN, clipMask.surface.image, nil, maskImage,
                                     Int32(clipRect.x - clipMask.bounds.x), Int32(clipRect.y - clipMask.bounds.y), 0, 0,
                                     Int32(clipRect.x - rect.x), Int32(clipRect.y - rect.y),
                                     Int32(clipRect.width), Int32(clipRect.height))
        }
        if blendMode.needsPremaskedSource {
            try compositePremasked(source.image, maskImage, rect: rect, blendMode: blendMode)
        } else {
            // Only the chunks of the mask that hold coverage.
            let op = blendMode.pixmanOperator!
            for span in rasterizer.bandSpans {
                pixman_image_composite32(op, source.image, maskImage, surface.image,
                                         Int32(span.x), Int32(span.y), Int32(span.x - rect.x), Int32(span.y - rect.y),
                                         Int32(span.x), Int32(span.y), Int32(span.width), Int32(span.height))
            }
        }
    }

    /// Fills the coverage of `masks` (A8 surfaces, each with the device position of its top-left
    /// pixel) with `paint`: the masks are added into one coverage mask (pixman's saturating
    /// ADD: exact where they do not overlap, as glyphs of a line of text do not), which is then
    /// composited as `fill(_:with:…)` composites a path's coverage, with the same opacity,
    /// blend modes and clip mask.
    public func fill(masks: [(mask: Surface, x: Int, y: Int)], with paint: Paint, paintTransform: CGAffineTransform = .identity,
                     opacity: Double = 1, blendMode: BlendMode = .normal, clipMask: CoverageMask? = nil) throws {
        try rasterizer.flushBatch()
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        for m in masks where m.mask.width > 0 && m.mask.height > 0 {
            minX = min(minX, m.x); minY = min(minY, m.y)
            maxX = max(maxX, m.x + m.mask.width); maxY = max(maxY, m.y + m.mask.height)
        }
        guard minX < maxX, minY < maxY else { return }
        let rect = PixelRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY).intersection(clip.intersection(surface.bounds))
        guard !rect.isEmpty, opacity > 0 else { return }
        if clipMask == nil, blendMode == .normal, surface.format == .argb32, case .color(let color) = paint {
            // The commonest case by the engine's own kernel: the same pixels, without the
            // text-sized A8 image (see `MaskKernels`).
            let c = pixmanColor(premultiplied: color, for: surface.format)
            let source = UInt32(c.alpha >> 8) << 24 | UInt32(c.red >> 8) << 16 | UInt32(c.green >> 8) << 8 | UInt32(c.blue >> 8)
            // pixman's 8-bit alpha of the opacity's 16-bit solid colour (its top byte).
            let alpha8 = opacity < 1 ? UInt32(UInt16(max(0, min(1, opacity)) * 65535 + 0.5) >> 8) : 255
            MaskKernels.fillSolidOver(masks: masks, source: source, alpha8: alpha8, rect: rect, destination: surface)
            return
        }
        try fillWithPixman(masks: masks, rect: rect, paint: paint, paintTransform: paintTransform, opacity: opacity,
                           blendMode: blendMode, clipMask: clipMask)
    }

    /// `fill(masks:…)` by pixman alone, within `rect` (the masks' box inside the clip).
    func fillWithPixman(masks: [(mask: Surface, x: Int, y: Int)], rect: PixelRect, paint: Paint, paintTransform: CGAffineTransform,
                        opacity: Double, blendMode: BlendMode, clipMask: CoverageMask?) throws {
        guard let source = paint.pixmanSource(transform: paintTransform, format: surface.format) else { return }
        let run = try Surface(width: rect.width, height: rect.height, format: .a8)
        for m in masks {
            pixman_image_composite32(PIXMAN_OP_ADD, m.mask.image, nil, run.image, 0, 0, 0, 0,
                                     Int32(m.x - rect.x), Int32(m.y - rect.y), Int32(m.mask.width), Int32(m.mask.height))
        }
        if opacity < 1 {
            var c = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16(max(0, min(1, opacity)) * 65535 + 0.5))
            if let solid = pixman_image_create_solid_fill(&c) {
                pixman_image_composite32(PIXMAN_OP_IN, solid, nil, run.image, 0, 0, 0, 0, 0, 0, Int32(rect.width), Int32(rect.height))
                pixman_image_unref(solid)
            }
        }
        if let clipMask {
            let clipRect = clipMask.bounds.intersection(rect)
            if clipRect.isEmpty { return }
            if clipRect != rect { clearOutside(clipRect, in: rect, mask: run.data.assumingMemoryBound(to: UInt8.self), stride: run.stride) }
            pixman_image_composite32(PIXMAN_OP_IN, clipMask.surface.image, nil, run.image,
                                     Int32(clipRect.x - clipMask.bounds.x), Int32(clipRect.y - clipMask.bounds.y), 0, 0,
                                     Int32(clipRect.x - rect.x), Int32(clipRect.y - rect.y), Int32(clipRect.width), Int32(clipRect.height))
        }
        if blendMode.needsPremaskedSource {
            try compositePremasked(source.image, run.image, rect: rect, blendMode: blendMode)
        } else {
            pixman_image_composite32(blendMode.pixmanOperator!, source.image, run.image, surface.image, Int32(rect.x), Int32(rect.y), 0, 0,
                                     Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height))
        }
    }

    /// A pixel-aligned rectangle of one colour at full opacity: the coverage would be 1 inside
    /// and 0 outside, so pixman composites the colour over the box directly (an opaque colour
    /// with source-over is a plain fill), pixel for pixel what the rasterized path gives.
    private func fillBox(_ box: PixelRect, color: Color, blendMode: BlendMode) {
        guard !box.isEmpty else { return }
        var c = pixmanColor(premultiplied: color, for: surface.format)
        if blendMode == .normal, color.alpha >= 1, surface.format != .rgbaFloat {
            var b = pixman_box32_t(x1: Int32(box.x), y1: Int32(box.y), x2: Int32(box.maxX), y2: Int32(box.maxY))
            pixman_image_fill_boxes(PIXMAN_OP_SRC, surface.image, &c, 1, &b)
            return
        }
        guard let solid = pixman_image_create_solid_fill(&c) else { return }
        defer { pixman_image_unref(solid) }
        pixman_image_composite32(blendMode.pixmanOperator!, solid, nil, surface.image, 0, 0, 0, 0,
                                 Int32(box.x), Int32(box.y), Int32(box.width), Int32(box.height))
    }

    /// Zeroes the mask outside `keep` (both in device pixels; the mask covers `rect`).
    private func clearOutside(_ keep: PixelRect, in rect: PixelRect, mask: UnsafeMutablePointer<UInt8>, stride: Int) {
        for y in 0..<rect.height {
            let row = mask + y * stride
            let dy = rect.y + y
            if dy < keep.y || dy >= keep.maxY {
                row.update(repeating: 0, count: rect.width)
                continue
            }
            if keep.x > rect.x { row.update(repeating: 0, count: keep.x - rect.x) }
            if keep.maxX < rect.maxX { (row + (keep.maxX - rect.x)).update(repeating: 0, count: rect.maxX - keep.maxX) }
        }
    }

    /// Renders source × coverage into a scratch layer of the band's size, then blends that
    /// layer without a mask: pixman's HSL operators are right without a mask, and
    /// `plusDarker` is computed here.
    private func compositePremasked(_ source: OpaquePointer, _ mask: OpaquePointer, rect: PixelRect,
                                    blendMode: BlendMode) throws {
        let scratchFormat: PixelFormat = surface.format == .rgbaFloat ? .rgbaFloat
            : surface.format == .argb32Linear ? .argb32Linear : .argb32
        let scratch = try Surface(width: rect.width, height: rect.height, format: scratchFormat)
        pixman_image_composite32(PIXMAN_OP_SRC, source, mask, scratch.image,
                                 Int32(rect.x), Int32(rect.y), 0, 0, 0, 0, Int32(rect.width), Int32(rect.height))
        if let op = blendMode.pixmanOperator {
            pixman_image_composite32(op, scratch.image, nil, surface.image, 0, 0, 0, 0,
                                     Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height))
        } else {
            plusDarker(scratch, onto: surface, at: rect)
        }
    }
}

/// Core Graphics' plus-darker, B(s, d) = max(0, 1 − ((1 − s) + (1 − d))) = max(0, s + d − 1),
/// combined with alpha by the separable blend formula R = S·(1 − Da) + D·(1 − Sa) + Sa·Da·B(S/Sa, D/Da).
/// For premultiplied S and D the last term is max(0, S·Da + D·Sa − Sa·Da),
/// and Ra = Sa + Da − Sa·Da. Opaque over opaque this is max(0, S + D − 1) per channel; a
/// transparent source leaves the backdrop alone.
func plusDarker(_ source: Surface, onto target: Surface, at rect: PixelRect) {
    @inline(__always) func blend(_ s: Double, _ d: Double, _ sa: Double, _ da: Double) -> Double {
        s * (1 - da) + d * (1 - sa) + max(0, s * da + d * sa - sa * da)
    }
    if target.format == .argb32 || target.format == .xrgb32 {
        // 8-bit encoded values, blended without linearisation like every other mode here.
        for y in 0..<rect.height {
            let src = (source.data + y * source.stride).assumingMemoryBound(to: UInt32.self)
            let dst = (target.data + (rect.y + y) * target.stride).assumingMemoryBound(to: UInt32.self) + rect.x
            for x in 0..<rect.width {
                let s = src[x], d = dst[x]
                let sa = Double(s >> 24) / 255, da = target.format == .xrgb32 ? 1 : Double(d >> 24) / 255
                func ch(_ shift: UInt32) -> UInt32 {
                    let v = blend(Double((s >> shift) & 0xFF) / 255, Double((d >> shift) & 0xFF) / 255, sa, da)
                    return UInt32((min(1, max(0, v)) * 255).rounded()) << shift
                }
                let a = UInt32((min(1, sa + da - sa * da) * 255).rounded())
                dst[x] = (target.format == .xrgb32 ? 0xFF00_0000 : a << 24) | ch(16) | ch(8) | ch(0)
            }
        }
        return
    }
    // Linear formats: blend linear premultiplied values.
    for y in 0..<rect.height {
        for x in 0..<rect.width {
            let s = source.encodedPixel(x: x, y: y), d = target.encodedPixel(x: rect.x + x, y: rect.y + y)
            let sa = s.a, da = d.a
            let ra = sa + da - sa * da
            guard ra > 0 else { target.setEncodedPixel(x: rect.x + x, y: rect.y + y, EncodedPixel(r: 0, g: 0, b: 0, a: 0)); continue }
            func ch(_ se: Double, _ de: Double) -> Double {
                srgbEncode(blend(srgbDecode(se) * sa, srgbDecode(de) * da, sa, da) / ra)
            }
            target.setEncodedPixel(x: rect.x + x, y: rect.y + y,
                                   EncodedPixel(r: ch(s.r, d.r), g: ch(s.g, d.g), b: ch(s.b, d.b), a: ra))
        }
    }
}

/// A clip's coverage as an 8-bit mask over device `bounds` (see `CoverageMask.make`).
public struct CoverageMask {
    public let surface: Surface
    public let bounds: PixelRect

    /// The coverage of `path` (device space) within `clip`, as an A8 surface over the path's
    /// bounds; nil when it covers nothing there. Several clips multiply (`intersected`).
    public static func make(_ path: Path, fillRule: FillRule = .nonZero, within clip: PixelRect,
                            rasterizer: Rasterizer) throws -> CoverageMask? {
        guard let bounds = bounds(of: path.boundingRect, within: clip) else { return nil }
        let surface = try Surface(width: bounds.width, height: bounds.height, format: .a8)
        try rasterizer.rasterize(path, fillRule: fillRule, clip: bounds) { mask, stride, rect in
            for y in 0..<rect.height {
                memcpy(surface.data + (rect.y - bounds.y + y) * surface.stride + (rect.x - bounds.x), mask + y * stride, rect.width)
            }
        }
        return CoverageMask(surface: surface, bounds: bounds)
    }

    /// The coverage of `path` (in pixels of the mask) as an A8 surface of `width` × `height`
    /// pixels, (0, 0) at its top-left: what is outside is cut off. For masks whose placement is
    /// known beforehand (a glyph's box).
    public static func surface(of path: Path, fillRule: FillRule = .nonZero, width: Int, height: Int,
                               rasterizer: Rasterizer) throws -> Surface {
        let surface = try Surface(width: width, height: height, format: .a8)
        try rasterizer.rasterize(path, fillRule: fillRule, clip: surface.bounds) { mask, stride, rect in
            for y in 0..<rect.height {
                memcpy(surface.data + (rect.y + y) * surface.stride + rect.x, mask + y * stride, rect.width)
            }
        }
        return surface
    }

    /// The pixels a mask of a path with bounding box `pathBounds` covers within `clip`: its
    /// bounding box rounded out to whole pixels; nil when that is empty, null or not finite.
    public static func bounds(of pathBounds: CGRect, within clip: PixelRect) -> PixelRect? {
        let b = pathBounds
        guard !b.isNull, b.minX.isFinite, b.minY.isFinite, b.maxX.isFinite, b.maxY.isFinite,
              abs(b.minX) < 1e15, abs(b.minY) < 1e15, abs(b.maxX) < 1e15, abs(b.maxY) < 1e15 else { return nil }
        let bounds = PixelRect(x: Int(b.minX.rounded(.down)), y: Int(b.minY.rounded(.down)),
                               width: Int(b.maxX.rounded(.up)) - Int(b.minX.rounded(.down)),
                               height: Int(b.maxY.rounded(.up)) - Int(b.minY.rounded(.down))).intersection(clip)
        return bounds.isEmpty ? nil : bounds
    }

    /// This mask multiplied by `other` (coverage of both clips), over the overlap.
    public func intersected(_ other: CoverageMask) throws -> CoverageMask? {
        let bounds = self.bounds.intersection(other.bounds)
        guard !bounds.isEmpty else { return nil }
        let out = try Surface(width: bounds.width, height: bounds.height, format: .a8)
        pixman_image_composite32(PIXMAN_OP_SRC, surface.image, nil, out.image, Int32(bounds.x - self.bounds.x),
                                 Int32(bounds.y - self.bounds.y), 0, 0, 0, 0, Int32(bounds.width), Int32(bounds.height))
        pixman_image_composite32(PIXMAN_OP_IN, other.surface.image, nil, out.image, Int32(bounds.x - other.bounds.x),
                                 Int32(bounds.y - other.bounds.y), 0, 0, 0, 0, Int32(bounds.width), Int32(bounds.height))
        return CoverageMask(surface: out, bounds: bounds)
    }
}
