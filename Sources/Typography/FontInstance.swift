import CHarfBuzz
import Compositor
import Foundation

/// A face at a weight (its `wght` axis, for a variable font): what text is shaped and drawn
/// with. Sizes are applied by scaling its font units, so one instance serves every size. Its
/// HarfBuzz font is immutable and its outline cache locked, so threads share it.
public final class FontInstance: @unchecked Sendable, Hashable, CustomStringConvertible {
    public let face: FontFace
    /// The `wght` axis value asked for (100 thin … 900 black; clamped by HarfBuzz to the
    /// font's range), nil for a font without one.
    public let weight: Double?
    let font: OpaquePointer
    private let outlines = Locked<[UInt32: Path]>([:])
    private let bounds = Locked<[UInt32: CGRect]>([:])
    /// The line's extent above and below the baseline, per em: the font's own (its `hhea`
    /// or OS/2 ascender and descender, plus the line gap below), or SF Pro's for the system
    /// font (so its lines are as tall as SwiftUI's).
    public let ascender: Double
    public let descender: Double
    /// Whether its glyphs are colour bitmaps (CBDT, as Noto Color Emoji's): drawn as images,
    /// not outlines.
    public let hasColorBitmaps: Bool

    init(face: FontFace, weight: Double?, metrics: (ascender: Double, descender: Double)? = nil) {
        self.face = face
        self.weight = weight
        name = face.description + (weight.map { " wght \(Int($0))" } ?? "")
        let font = hb_font_create(face.face)!
        let upem = Int32(face.unitsPerEm)
        hb_font_set_scale(font, upem, upem)
        if let weight {
            var variation = hb_variation_t(tag: hb_tag_from_string("wght", -1), value: Float(weight))
            hb_font_set_variations(font, &variation, 1)
        }
        hb_font_make_immutable(font)
        self.font = font
        hasColorBitmaps = hb_ot_color_has_png(face.face) != 0
        if let metrics {
            (ascender, descender) = metrics
        } else {
            func metric(_ tag: hb_ot_metrics_tag_t) -> Double {
                var value: hb_position_t = 0
                hb_ot_metrics_get_position_with_fallback(font, tag, &value)
                return Double(value) / Double(upem)
            }
            ascender = metric(HB_OT_METRICS_TAG_HORIZONTAL_ASCENDER)
            descender = -metric(HB_OT_METRICS_TAG_HORIZONTAL_DESCENDER) + max(0, metric(HB_OT_METRICS_TAG_HORIZONTAL_LINE_GAP))
        }
    }

    deinit { hb_font_destroy(font) }

    public var unitsPerEm: Int { face.unitsPerEm }

    public static func == (a: FontInstance, b: FontInstance) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    public var description: String { name }
    private let name: String

    /// The glyph's outline in font units, y up (as the font stores it), cached.
    public func outline(of glyph: UInt32) -> Path {
        if let known = outlines.withLock({ $0[glyph] }) { return known }
        let sink = OutlineSink()
        let funcs = OutlineSink.funcs
        hb_font_get_glyph_shape(font, glyph, funcs, Unmanaged.passUnretained(sink).toOpaque())
        let path = sink.path
        outlines.withLock { $0[glyph] = path }
        return path
    }

    /// The bounding box of the glyph's outline in font units (null for a glyph without one),
    /// cached.
    public func outlineBounds(of glyph: UInt32) -> CGRect {
        if let known = bounds.withLock({ $0[glyph] }) { return known }
        let box = outline(of: glyph).boundingRect
        bounds.withLock { $0[glyph] = box }
        return box
    }

    /// The glyph for `scalar`, if the font has one.
    public func glyph(for scalar: Unicode.Scalar) -> UInt32? {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(font, scalar.value, &glyph) != 0 ? glyph : nil
    }

    /// Whether the font draws every scalar of `character` that is drawn (joiners, variation
    /// selectors and skin-tone modifiers aside, which fonts compose or ignore).
    public func covers(_ character: Character) -> Bool {
        character.unicodeScalars.allSatisfy { scalar in
            FontInstance.isModifier(scalar) || glyph(for: scalar) != nil
        }
    }

    /// Joiners, variation selectors, skin tones and tag characters: parts of a grapheme that a
    /// font need not map on their own.
    static func isModifier(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200C, 0x200D, 0xFE00...0xFE0F, 0x1F3FB...0x1F3FF, 0xE0020...0xE007F, 0xE0100...0xE01EF: true
        default: scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format
        }
    }

    /// The PNG of a colour glyph and where it goes: its box in font units (y up: the left and
    /// top of the image, its width and height), from the font's CBDT table. Nil when the glyph
    /// has none.
    public func colorBitmap(of glyph: UInt32) -> (png: [UInt8], x: Double, y: Double, width: Double, height: Double)? {
        guard hasColorBitmaps, let blob = hb_ot_color_glyph_reference_png(font, glyph) else { return nil }
        defer { hb_blob_destroy(blob) }
        var length: UInt32 = 0
        guard let data = hb_blob_get_data(blob, &length), length > 0 else { return nil }
        let bytes = [UInt8](UnsafeRawBufferPointer(start: UnsafeRawPointer(data), count: Int(length)))
        var extents = hb_glyph_extents_t()
        guard hb_font_get_glyph_extents(font, glyph, &extents) != 0, extents.width != 0, extents.height != 0 else { return nil }
        return (bytes, Double(extents.x_bearing), Double(extents.y_bearing), Double(extents.width), Double(-extents.height))
    }

    /// The horizontal advance of `glyph`, font units.
    public func advance(of glyph: UInt32) -> Double {
        Double(hb_font_get_glyph_h_advance(font, glyph))
    }
}

/// Collects HarfBuzz's drawing callbacks into a `Path` (C callbacks cannot capture, so this
/// object travels through `draw_data`).
private final class OutlineSink {
    var path = Path()

    nonisolated(unsafe) static let funcs: OpaquePointer = {
        let f = hb_draw_funcs_create()!
        hb_draw_funcs_set_move_to_func(f, { _, data, _, x, y, _ in
            Unmanaged<OutlineSink>.fromOpaque(data!).takeUnretainedValue().path.move(to: CGPoint(x: CGFloat(x), y: CGFloat(y)))
        }, nil, nil)
        hb_draw_funcs_set_line_to_func(f, { _, data, _, x, y, _ in
            Unmanaged<OutlineSink>.fromOpaque(data!).takeUnretainedValue().path.addLine(to: CGPoint(x: CGFloat(x), y: CGFloat(y)))
        }, nil, nil)
        hb_draw_funcs_set_quadratic_to_func(f, { _, data, _, cx, cy, x, y, _ in
            Unmanaged<OutlineSink>.fromOpaque(data!).takeUnretainedValue().path.addQuadCurve(
                to: CGPoint(x: CGFloat(x), y: CGFloat(y)), control: CGPoint(x: CGFloat(cx), y: CGFloat(cy)))
        }, nil, nil)
        hb_draw_funcs_set_cubic_to_func(f, { _, data, _, c1x, c1y, c2x, c2y, x, y, _ in
            Unmanaged<OutlineSink>.fromOpaque(data!).takeUnretainedValue().path.addCurve(
                to: CGPoint(x: CGFloat(x), y: CGFloat(y)), control1: CGPoint(x: CGFloat(c1x), y: CGFloat(c1y)),
                control2: CGPoint(x: CGFloat(c2x), y: CGFloat(c2y)))
        }, nil, nil)
        hb_draw_funcs_set_close_path_func(f, { _, data, _, _ in
            Unmanaged<OutlineSink>.fromOpaque(data!).takeUnretainedValue().path.closeSubpath()
        }, nil, nil)
        hb_draw_funcs_make_immutable(f)
        return f
    }()
}
