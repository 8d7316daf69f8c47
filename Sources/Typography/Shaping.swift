import CHarfBuzz
import Compositor
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
        withShaped(text, range: range, rightToLeft: rightToLeft, features: features) { glyphs in
            (0..<glyphs.count).map { k in
                let position = glyphs.position(k)
                return ShapedGlyph(glyph: glyphs.glyph(k), cluster: glyphs.cluster(k), advance: Double(position.x_advance),
                                   offsetX: Double(position.x_offset), offsetY: Double(position.y_offset))
            }
        }
    }

    /// `body` given HarfBuzz's own output for `range` of `text` (see `shape(_:range:rightToLeft:features:)`),
    /// valid only during the call: no glyph array is made, and the buffer is one reused from
    /// earlier calls, so shaping a page allocates (and faults in) no fresh memory.
    func withShaped<R>(_ text: String, range: Range<Int>, rightToLeft: Bool, features: [String],
                       _ body: (ShapedGlyphs) -> R) -> R {
        guard !range.isEmpty, range.upperBound <= text.utf8.count else {
            return body(ShapedGlyphs(infos: nil, positions: nil, count: 0, rightToLeft: rightToLeft))
        }
        let buffer = ShapingBuffers.take()
        defer { ShapingBuffers.give(buffer) }
        var utf8 = text
        utf8.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                hb_buffer_add_utf8(buffer, chars.baseAddress, Int32(chars.count), UInt32(range.lowerBound), Int32(range.count))
            }
        }
        hb_buffer_guess_segment_properties(buffer)
        hb_buffer_set_direction(buffer, rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        if features.isEmpty {
            hb_shape(font, buffer, nil, 0)
        } else {
            var parsed: [hb_feature_t] = features.compactMap { f in
                var feature = hb_feature_t()
                return hb_feature_from_string(f, -1, &feature) != 0 ? feature : nil
            }
            hb_shape(font, buffer, &parsed, UInt32(parsed.count))
        }
        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)
        let positions = hb_buffer_get_glyph_positions(buffer, nil)
        let ok = infos != nil && positions != nil
        return body(ShapedGlyphs(infos: infos, positions: positions, count: ok ? Int(count) : 0, rightToLeft: rightToLeft))
    }
}

/// HarfBuzz's glyphs for one shaped range, in logical order through `index(_:)` (HarfBuzz
/// gives right-to-left text in visual order). Valid only inside `withShaped`.
struct ShapedGlyphs {
    let infos: UnsafeMutablePointer<hb_glyph_info_t>?
    let positions: UnsafeMutablePointer<hb_glyph_position_t>?
    let count: Int
    let rightToLeft: Bool

    /// HarfBuzz's index of the `k`-th glyph in logical order.
    @inline(__always) func index(_ k: Int) -> Int { rightToLeft ? count - 1 - k : k }
    @inline(__always) func glyph(_ k: Int) -> UInt32 { infos![index(k)].codepoint }
    @inline(__always) func cluster(_ k: Int) -> Int { Int(infos![index(k)].cluster) }
    @inline(__always) func position(_ k: Int) -> hb_glyph_position_t { positions![index(k)] }
}

/// HarfBuzz buffers kept between shaping calls. A buffer keeps its allocation when cleared,
/// so a long text's glyph arrays are allocated once, not once per text; each thread takes
/// its own. At most `limit` are kept.
private enum ShapingBuffers {
    struct Buffer: @unchecked Sendable { let pointer: OpaquePointer }
    static let pool = Locked<[Buffer]>([])
    static let limit = 8
    /// Glyphs of the longest text whose buffer is kept (a page is about 10,000).
    static let largestKept: UInt32 = 1 << 16

    static func take() -> OpaquePointer {
        if let kept = pool.withLock({ $0.popLast() }) { return kept.pointer }
        return hb_buffer_create()
    }

    static func give(_ buffer: OpaquePointer) {
        // A buffer that failed to grow (HarfBuzz's allocation error) is not kept, nor one that
        // grew for a text of more than `largestKept` glyphs (its memory would stay held).
        guard hb_buffer_allocation_successful(buffer) != 0, hb_buffer_get_length(buffer) <= largestKept else {
            hb_buffer_destroy(buffer)
            return
        }
        hb_buffer_clear_contents(buffer)
        let kept = pool.withLock { pool in
            guard pool.count < limit else { return false }
            pool.append(Buffer(pointer: buffer))
            return true
        }
        if !kept { hb_buffer_destroy(buffer) }
    }
}
