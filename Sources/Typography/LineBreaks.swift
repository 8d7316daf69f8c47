import CTextICU
import Foundation

/// Where lines may break in `text` (ICU's UAX #14 rules): UTF-8 offsets at which a line may
/// start, increasing, the last being the text's length, each marked hard when the break is
/// mandatory (after a newline or a paragraph separator).
public func lineBreakOpportunities(_ text: String) -> [(offset: Int, hard: Bool)] {
    let units = Array(text.utf16)
    guard !units.isEmpty else { return [] }
    var out = [Int32](repeating: 0, count: units.count + 1)
    let count = units.withUnsafeBufferPointer { u in
        out.withUnsafeMutableBufferPointer { o in
            ctext_line_breaks(u.baseAddress, Int32(u.count), o.baseAddress, Int32(o.count))
        }
    }
    // ICU failing (it does not for valid UTF-16): one unbreakable line.
    guard count > 0, Int(count) <= out.count else { return [(text.utf8.count, false)] }
    return units.withUnsafeBufferPointer { u in
        (0..<Int(count)).map { k in
            let offset16 = Int(out[k])
            let hard = ctext_line_break_is_hard(u.baseAddress, Int32(u.count), out[k]) != 0
            return (utf8Offset(text, utf16: offset16), hard)
        }
    }
}

/// The UTF-8 offset of the UTF-16 offset `utf16` in `text` (break offsets fall between
/// scalars).
func utf8Offset(_ text: String, utf16: Int) -> Int {
    let index = text.utf16.index(text.utf16.startIndex, offsetBy: utf16, limitedBy: text.utf16.endIndex) ?? text.utf16.endIndex
    return text.utf8.distance(from: text.utf8.startIndex, to: index.samePosition(in: text.utf8) ?? text.utf8.endIndex)
}
