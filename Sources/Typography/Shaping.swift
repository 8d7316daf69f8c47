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
        guard !text.isEmpty, let buffer = hb_buffer_create() else { return [] }
        defer { hb_buffer_destroy(buffer) }
        let utf8 = Array(text.utf8)
        utf8.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                hb_buffer_add_utf8(buffer, chars.baseAddress, Int32(chars.count), 0, Int32(chars.count))
            }
        }
        hb_buffer_guess_segment_properties(buffer)
        hb_buffer_set_direction(buffer, HB_DIRECTION_LTR)
        var parsed: [hb_feature_t] = features.compactMap { f in
            var feature = hb_feature_t()
            return hb_feature_from_string(f, -1, &feature) != 0 ? feature : nil
        }
        hb_shape(font, buffer, &parsed, UInt32(parsed.count))
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count), let positions = hb_buffer_get_glyph_positions(buffer, &count) else {
            return []
        }
        return (0..<Int(count)).map { i in
            ShapedGlyph(glyph: infos[i].codepoint, cluster: Int(infos[i].cluster), advance: Double(positions[i].x_advance),
                        offsetX: Double(positions[i].x_offset), offsetY: Double(positions[i].y_offset))
        }
    }
}
