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
    // Break offsets increase: one walk over the scalars turns them into UTF-8 offsets.
    var result: [(offset: Int, hard: Bool)] = []
    result.reserveCapacity(Int(count))
    var k = 0, u16 = 0, u8 = 0
    units.withUnsafeBufferPointer { u in
        func emit(_ at16: Int) {
            while k < Int(count), Int(out[k]) <= at16 {
                let hard = ctext_line_break_is_hard(u.baseAddress, Int32(u.count), out[k]) != 0
                result.append((u8, hard))
                k += 1
            }
        }
        for scalar in text.unicodeScalars {
            emit(u16)
            u16 += scalar.utf16.count
            u8 += UTF8.width(scalar)
        }
        emit(Int.max)
    }
    return result
}
