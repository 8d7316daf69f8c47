import CHarfBuzz
import Foundation

/// One glyph of shaped text, in font units.
public struct ShapedGlyph: Hashable, Sendable {
    public var glyph: UInt32
    /// The UTF-8 offset, in the shaped text, of the first character this glyph draws.
    public var cluster: Int
    /// How far the pen moves after it.
    public var advance: Double
    /// Where it is drawn relative to the pen (a mark above its base, a kerned pair's shift).
    public var offsetX: Double
    public var offsetY: Double
}

extension FontInstance {
    /// `text` shaped by HarfBuzz with the font's default features (kerning, ligatures,
    /// contextual alternates …) plus `features` (OpenType feature strings as HarfBuzz reads
    /// them: `tnum`, `-liga`), left to right, its script guessed from the text.
    public func shape(_ text: String, features: [String] = []) -> [ShapedGlyph] {
        shape(text, range: 0..<text.utf8.count, rightToLeft: false, features: features)
    }

    /// The UTF-8 `range` of `text` shaped (the text around it is context: Arabic joins across
    /// the edge), left to right or right to left, its script guessed from the range. Glyphs
    /// come in logical order (clusters increasing, even for right-to-left text, whose visual
    /// order is the reverse), clusters as UTF-8 offsets in `text`.
    public func shape(_ text: String, range: Range<Int>, rightToLeft: Bool, features: [String] = []) -> [ShapedGlyph] {
        guard !range.isEmpty, range.upperBound <= text.utf8.count, let buffer = hb_buffer_create() else { return [] }
        defer { hb_buffer_destroy(buffer) }
        var utf8 = text
        utf8.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                hb_buffer_add_utf8(buffer, chars.baseAddress, Int32(chars.count), UInt32(range.lowerBound), Int32(range.count))
            }
        }
        hb_buffer_guess_segment_properties(buffer)
        hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        var parsed: [hb_feature_t] = features.compactMap { f in
            var feature = hb_feature_t()
            return hb_feature_from_string(f, -1, &feature) != 0 ? feature : nil
        }
        hb_shape(font, buffer, &parsed, UInt32(parsed.count))
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count), let positions = hb_buffer_get_glyph_positions(buffer, &count) else {
            return []
        }
        let glyphs = (0..<Int(count)).map { i in
            ShapedGlyph(glyph: infos[i].codepoint, cluster: Int(infos[i].cluster), advance: Double(positions[i].x_advance),
                        offsetX: Double(positions[i].x_offset), offsetY: Double(positions[i].y_offset))
        }
        return rightToLeft ? glyphs.reversed() : glyphs
    }
}
