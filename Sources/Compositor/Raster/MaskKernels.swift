import Foundation

/// The engine's own kernel for the commonest text draw: glyph masks added into one coverage
/// and a solid colour composited through it, source-over, onto 8-bit premultiplied ARGB.
///
/// pixman's route for the same thing (saturating ADD of each mask into an A8 image the size
/// of the whole text, IN by the opacity, then OVER through that image) touches every pixel of
/// the text's box three times and allocates the box, which for a page of text is 2 MB each
/// frame. This kernel works band by band (`bandRows` rows, a buffer that stays in cache),
/// adds only the rows of masks that meet the band, and blends only the 8-byte groups of the
/// band that hold coverage.
///
/// The arithmetic is pixman's, operation for operation (pixman-combine32.h: `UN8x4_MUL_UN8`,
/// `UN8x4_MUL_UN8_ADD_UN8x4`, saturating `UN8_ADD`), so the pixels are identical to pixman's;
/// `MaskKernelTests` compares the two on random masks, colours, opacities and destinations.
enum MaskKernels {
    static let bandRows = 32

    /// x · a / 255 per channel, rounded as pixman rounds (`UN8x4_MUL_UN8`).
    @inline(__always)
    static func multiply(_ x: UInt32, _ a: UInt32) -> UInt32 {
        var t = (x & 0x00ff_00ff) &* a &+ 0x0080_0080
        t = ((t &+ ((t >> 8) & 0x00ff_00ff)) >> 8) & 0x00ff_00ff
        var u = ((x >> 8) & 0x00ff_00ff) &* a &+ 0x0080_0080
        u = (u &+ ((u >> 8) & 0x00ff_00ff)) & 0xff00_ff00
        return t | u
    }

    /// x + y per channel, saturating (`UN8x4_ADD_UN8x4`).
    @inline(__always)
    static func add(_ x: UInt32, _ y: UInt32) -> UInt32 {
        var t = (x & 0x00ff_00ff) &+ (y & 0x00ff_00ff)
        t = (t | (0x0100_0100 &- ((t >> 8) & 0x00ff_00ff))) & 0x00ff_00ff
        var u = ((x >> 8) & 0x00ff_00ff) &+ ((y >> 8) & 0x00ff_00ff)
        u = (u | (0x0100_0100 &- ((u >> 8) & 0x00ff_00ff))) & 0x00ff_00ff
        return t | (u << 8)
    }

    /// a · b / 255 for one channel, rounded as pixman rounds (`UN8_MUL_UN8`... `DIV_ONE_UN8`).
    @inline(__always)
    static func multiply8(_ a: UInt32, _ b: UInt32) -> UInt32 {
        let t = a &* b &+ 0x80
        return (t &+ (t >> 8)) >> 8
    }

    /// A pixel's four channels in 16-bit lanes of one word (blue, red, green, alpha), so one
    /// multiplication scales all four as `multiply` does two.
    @inline(__always)
    static func spread(_ x: UInt32) -> UInt64 {
        UInt64(x & 0x00ff_00ff) | UInt64(x & 0xff00_ff00) << 24
    }

    @inline(__always)
    static func pack(_ t: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: t & 0x00ff_00ff) | UInt32(truncatingIfNeeded: (t >> 24) & 0xff00_ff00)
    }

    /// d · a / 255 + s per channel (d and s in lanes of `spread`, a one number), rounded and saturated as pixman's
    /// `UN8x4_MUL_UN8_ADD_UN8x4` is.
    @inline(__always)
    static func multiplyAdd(_ d: UInt64, _ a: UInt64, _ s: UInt64) -> UInt64 {
        let lanes: UInt64 = 0x00ff_00ff_00ff_00ff
        var t = d &* a &+ 0x0080_0080_0080_0080
        t = ((t &+ ((t >> 8) & lanes)) >> 8) & lanes
        t = t &+ s
        return (t | (0x0100_0100_0100_0100 &- ((t >> 8) & lanes))) & lanes
    }

    /// Eight coverage bytes added to eight others, each sum saturated at 255.
    @inline(__always)
    static func addSaturating(_ a: UInt64, _ b: UInt64) -> UInt64 {
        let high: UInt64 = 0x8080_8080_8080_8080
        let low = (a & ~high) &+ (b & ~high)
        let sum = low ^ ((a ^ b) & high)
        // A byte overflowed where both top bits were set, or one was and the carry cleared it.
        let carry = ((a & b) | ((a | b) & ~sum)) & high
        return sum | ((carry >> 7) &* 0xff)
    }

    /// `masks` (A8 surfaces at device positions) added, multiplied by `alpha8` (pixman's 8-bit
    /// alpha of the opacity) and composited with the premultiplied `source` over `destination`
    /// within `rect` (already inside the destination).
    static func fillSolidOver(masks: [(mask: Surface, x: Int, y: Int)], source: UInt32, alpha8: UInt32,
                              rect: PixelRect, destination: Surface) {
        // Per coverage value: the source in it (pixman's IN, the opacity applied first) and
        // what the destination keeps (255 − its alpha), in lanes.
        withUnsafeTemporaryAllocation(of: (source: UInt64, keep: UInt64).self, capacity: 256) { table in
            for m in 0..<256 {
                let c = alpha8 == 255 ? UInt32(m) : multiply8(UInt32(m), alpha8)
                let s = c == 255 ? source : multiply(source, c)
                table[m] = (spread(s), UInt64(255 - (s >> 24)))
            }
            fill(masks: masks, table: UnsafePointer(table.baseAddress!), rect: rect, destination: destination)
        }
    }

    private static func fill(masks: [(mask: Surface, x: Int, y: Int)], table: UnsafePointer<(source: UInt64, keep: UInt64)>,
                             rect: PixelRect, destination: Surface) {
        let width = rect.width
        // The masks' rows and boxes, by top row, so each band meets a contiguous, growing run.
        struct Box { var data: UnsafePointer<UInt8>; var stride: Int; var x: Int; var y: Int; var width: Int; var height: Int }
        var boxes: [Box] = []
        boxes.reserveCapacity(masks.count)
        for m in masks where m.mask.width > 0 && m.mask.height > 0 {
            boxes.append(Box(data: UnsafePointer(m.mask.data.assumingMemoryBound(to: UInt8.self)), stride: m.mask.stride,
                             x: m.x, y: m.y, width: m.mask.width, height: m.mask.height))
        }
        boxes.sort { $0.y < $1.y }
        // Whole 8-byte groups, so the zero test never reads past the row.
        let rowBytes = (width + 7) & ~7
        let band = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes * bandRows)
        defer { band.deallocate() }
        var active: [Int] = []
        var next = 0
        let base = destination.data.assumingMemoryBound(to: UInt32.self)
        let pixelsPerRow = destination.stride / 4
        var y0 = rect.y
        while y0 < rect.maxY {
            let y1 = min(rect.maxY, y0 + bandRows)
            let rows = y1 - y0
            while next < boxes.count, boxes[next].y < y1 {
                active.append(next)
                next += 1
            }
            active.removeAll { boxes[$0].y + boxes[$0].height <= y0 }
            if active.isEmpty {
                y0 = y1
                continue
            }
            band.initialize(repeating: 0, count: rowBytes * rows)
            for k in active {
                let m = boxes[k]
                let top = max(y0, m.y), bottom = min(y1, m.y + m.height)
                let left = max(rect.x, m.x), right = min(rect.maxX, m.x + m.width)
                guard top < bottom, left < right else { continue }
                let count = right - left
                for y in top..<bottom {
                    let from = m.data + (y - m.y) * m.stride + (left - m.x)
                    let to = band + (y - y0) * rowBytes + (left - rect.x)
                    var i = 0
                    while i + 8 <= count {
                        let a = UnsafeRawPointer(to + i).loadUnaligned(as: UInt64.self)
                        let b = UnsafeRawPointer(from + i).loadUnaligned(as: UInt64.self)
                        UnsafeMutableRawPointer(to + i).storeBytes(of: addSaturating(a, b), as: UInt64.self)
                        i += 8
                    }
                    while i < count {
                        let sum = UInt16(to[i]) &+ UInt16(from[i])
                        to[i] = sum > 255 ? 255 : UInt8(truncatingIfNeeded: sum)
                        i += 1
                    }
                }
            }
            for y in 0..<rows {
                let coverage = band + y * rowBytes
                let row = base + (y0 + y) * pixelsPerRow + rect.x
                var x = 0
                while x < width {
                    if UnsafeRawPointer(coverage + x).loadUnaligned(as: UInt64.self) == 0 {
                        x += 8
                        continue
                    }
                    // Branch-free within the group: coverage 0 keeps the pixel exactly
                    // (d · 255 / 255 + 0), and coverage patterns defeat branch prediction.
                    for i in x..<min(width, x + 8) {
                        let entry = table[Int(coverage[i])]
                        row[i] = pack(multiplyAdd(spread(row[i]), entry.keep, entry.source))
                    }
                    x += 8
                }
            }
            y0 = y1
        }
    }
}
