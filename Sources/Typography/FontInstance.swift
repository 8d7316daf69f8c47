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

    init(face: FontFace, weight: Double?) {
        self.face = face
        self.weight = weight
        let font = hb_font_create(face.face)!
        let upem = Int32(face.unitsPerEm)
        hb_font_set_scale(font, upem, upem)
        if let weight {
            var variation = hb_variation_t(tag: hb_tag_from_string("wght", -1), value: Float(weight))
            hb_font_set_variations(font, &variation, 1)
        }
        hb_font_make_immutable(font)
        self.font = font
    }

    deinit { hb_font_destroy(font) }

    public var unitsPerEm: Int { face.unitsPerEm }

    public static func == (a: FontInstance, b: FontInstance) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    public var description: String { face.description + (weight.map { " wght \(Int($0))" } ?? "") }

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

    /// The glyph for `scalar`, if the font has one.
    public func glyph(for scalar: Unicode.Scalar) -> UInt32? {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(font, scalar.value, &glyph) != 0 ? glyph : nil
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
