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
    private static let lastSources = Locked<(key: UInt64, table: [UInt32])?>(nil)

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
        fill(masks: masks, source: source, alpha8: alpha8, rect: rect, destination: destination)
    }

    /// The premultiplied `source` as pixman scales it under each coverage byte `m`: IN by the
    /// opacity's `alpha8` first (`m · alpha8 / 255`), then the colour times that
    /// (`UN8x4_MUL_UN8`; full coverage keeps the colour as it is). A fill looks its 256 values
    /// up instead of multiplying per pixel.
    static func scaledSources(_ source: UInt32, _ alpha8: UInt32) -> [UInt32] {
        (0..<256).map { (m: UInt32) in
            let c = alpha8 == 255 ? m : multiply8(m, alpha8)
            return c == 255 ? source : multiply(source, c)
        }
    }

    /// One pixel at `p` under the scaled source `s`: pixman's OVER.
    @inline(__always)
    static func blend1(_ p: UnsafeMutablePointer<UInt32>, _ s: UInt32) {
        p.pointee = pack(multiplyAdd(spread(p.pointee), UInt64(255 - (s >> 24)), spread(s)))
    }

    /// Four pixels at `p` under the four coverage bytes `c` (the first in the low byte), their
    /// scaled sources from `table`: the same arithmetic as `multiplyAdd`, each pixel's blue and
    /// red (and green and alpha) in two 16-bit lanes of a `SIMD8<UInt16>`, the form RASTER.md
    /// §3.5 found to compile to plain SSE2 (`pmullw`, `paddw`, `psrlw`, no calls).
    @inline(__always)
    static func blend4(_ p: UnsafeMutablePointer<UInt32>, _ c: UInt32, _ table: UnsafePointer<UInt32>) {
        let s = SIMD4<UInt32>(table[Int(c & 0xff)], table[Int((c >> 8) & 0xff)], table[Int((c >> 16) & 0xff)], table[Int(c >> 24)])
        SpanKernels.over(p, SpanKernels.lanes(s & 0x00ff_00ff), SpanKernels.lanes((s &>> 8) & 0x00ff_00ff))
    }

    /// Blends `count` pixels of one row from `coverage` onto the destination from `row`, four
    /// at a time where they have coverage, the scaled sources from `table`.
    ///
    /// `reach` (≥ `count`): how far the row's coverage bytes may be read and its pixels
    /// rewritten. The row's last pixels are then one more quad, its bytes past `count` masked
    /// off (so whatever they hold counts as 0, and coverage 0 leaves a pixel exactly as it is).
    ///
    /// Kept out of line (one call per row of a mask) so `make check-kernels` can disassemble it
    /// and fail on any call inside: the SIMD code must compile to plain SSE2.
    @inline(never)
    static func blendRow(_ c: UnsafePointer<UInt8>, count: Int, reach: Int, onto row: UnsafeMutablePointer<UInt32>,
                                 _ table: UnsafePointer<UInt32>) {
        let whole = count & ~3, rest = count - whole
        // A fully covered quad whose scaled source is opaque gives that source itself (pixman's
        // arithmetic: the destination times 255 − 255 is exactly 0): stored, not blended.
        let full = table[255]
        let opaque = full >> 24 == 255
        var i = 0
        while i < whole {
            let quad = UnsafeRawPointer(c + i).loadUnaligned(as: UInt32.self)
            if quad == 0 {
            } else if opaque, quad == UInt32.max {
                UnsafeMutableRawPointer(row + i).storeBytes(of: SIMD4<UInt32>(repeating: full), as: SIMD4<UInt32>.self)
            } else {
                blend4(row + i, quad, table)
            }
            i += 4
        }
        guard rest > 0 else { return }
        if whole + 4 <= reach {
            let keep = UInt32.max >> (32 - 8 * UInt32(rest))
            let quad = UnsafeRawPointer(c + i).loadUnaligned(as: UInt32.self) & keep
            if quad != 0 { blend4(row + i, quad, table) }
            return
        }
        while i < count {
            if c[i] != 0 { blend1(row + i, table[Int(c[i])]) }
            i += 1
        }
    }

    /// Sorts `a` (stably) by merging its ascending runs pairwise until one is left: linear
    /// for a sequence already in order, about n · log2(runs) for one made of a few ordered runs
    /// (a band crossing two or three lines of glyphs, each line in reading order), n · log n at
    /// worst. `scratch` and `starts` are buffers kept between calls.
    @inline(__always)
    private static func sortMergingRuns<T>(_ a: inout [T], scratch: inout [T], starts: inout [Int], next: inout [Int],
                                           by less: (T, T) -> Bool) {
        let n = a.count
        guard n > 1 else { return }
        starts.removeAll(keepingCapacity: true)
        starts.append(0)
        for i in 1..<n where less(a[i], a[i - 1]) { starts.append(i) }
        starts.append(n)
        while starts.count > 2 {
            let runs = starts.count - 1
            scratch.removeAll(keepingCapacity: true)
            next.removeAll(keepingCapacity: true)
            next.append(0)
            var r = 0
            while r < runs {
                let lo = starts[r], mid = starts[r + 1], hi = r + 1 < runs ? starts[r + 2] : mid
                var i = lo, j = mid
                while i < mid, j < hi {
                    // Ties take the left run's element first: stable.
                    if less(a[j], a[i]) {
                        scratch.append(a[j])
                        j += 1
                    } else {
                        scratch.append(a[i])
                        i += 1
                    }
                }
                scratch.append(contentsOf: a[i..<mid])
                scratch.append(contentsOf: a[j..<hi])
                next.append(hi)
                r += 2
            }
            swap(&a, &scratch)
            swap(&starts, &next)
        }
    }

    /// Works band by band. In each band, masks whose boxes meet (directly or through others)
    /// form a cluster: a lone mask is blended straight from its own rows (the sum of the masks
    /// is that mask wherever it has coverage, as no other box reaches those pixels); a cluster's
    /// masks are added in a scratch buffer the size of the cluster's box first. Either way each
    /// pixel gets the saturated sum of every mask over it, blended once, as pixman's route does.
    private static func fill(masks: [(mask: Surface, x: Int, y: Int)], source: UInt32, alpha8: UInt32, rect: PixelRect,
                             destination: Surface) {
        // Each mask's rows and its box clipped to `rect`; by top row, so each band meets a
        // contiguous, growing run of them.
        struct Box {
            var data: UnsafePointer<UInt8>, stride: Int, x: Int, y: Int
            var left: Int, top: Int, right: Int, bottom: Int
            /// How far from `left` each row may be read (to the end of the mask's row: pixman's
            /// A8 rows are whole 4-byte words) and rewritten (to the end of `rect`).
            var reach: Int
        }
        var boxes: [Box] = []
        boxes.reserveCapacity(masks.count)
        for m in masks {
            let left = max(rect.x, m.x), right = min(rect.maxX, m.x + m.mask.width)
            let top = max(rect.y, m.y), bottom = min(rect.maxY, m.y + m.mask.height)
            guard left < right, top < bottom else { continue }
            let reach = min(m.mask.stride - (left - m.x), rect.maxX - left)
            boxes.append(Box(data: UnsafePointer(m.mask.data.assumingMemoryBound(to: UInt8.self)), stride: m.mask.stride,
                             x: m.x, y: m.y, left: left, top: top, right: right, bottom: bottom, reach: reach))
        }
        guard !boxes.isEmpty else { return }
        // In order of their first band (a counting sort, linear: a page has thousands of boxes,
        // and each band below only needs the boxes that start in it).
        let bandCount = (rect.height + bandRows - 1) / bandRows
        var starts = [Int](repeating: 0, count: bandCount + 1)
        for b in boxes { starts[(b.top - rect.y) / bandRows + 1] += 1 }
        for i in 0..<bandCount { starts[i + 1] += starts[i] }
        boxes = [Box](unsafeUninitializedCapacity: boxes.count) { sorted, count in
            for b in boxes {
                let band = (b.top - rect.y) / bandRows
                (sorted.baseAddress! + starts[band]).initialize(to: b)
                starts[band] += 1
            }
            count = boxes.count
        }
        let base = destination.data.assumingMemoryBound(to: UInt32.self)
        // The table of the last colour and opacity is kept: interfaces draw many texts in one.
        let key = UInt64(source) << 8 | UInt64(alpha8)
        let sources: [UInt32]
        if let kept = lastSources.withLock({ $0?.key == key ? $0?.table : nil }) {
            sources = kept
        } else {
            sources = scaledSources(source, alpha8)
            lastSources.withLock { $0 = (key, sources) }
        }
        let table = UnsafeMutablePointer<UInt32>.allocate(capacity: 256)
        table.initialize(from: sources, count: 256)
        defer { table.deallocate() }
        let pixelsPerRow = destination.stride / 4
        var scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        var scratchCapacity = 1
        defer { scratch.deallocate() }
        // Per band: the boxes that reach it, sorted by left edge; union-find parents; boxes still
        // open in the sweep; each cluster's members as a linked list.
        var active: [Int] = [], order: [Int] = [], parent: [Int] = [], open: [Int] = [], head: [Int] = [], link: [Int] = []
        // What covers a band: a lone mask's rows or a cluster's region of the scratch arena, as
        // a pointer to its row 0, column `left` (rows `stride` bytes apart).
        struct Segment {
            var coverage: UnsafePointer<UInt8>?, stride: Int, left: Int, right: Int, top: Int, bottom: Int, reach: Int
            var scratch: Int
            var firstMember = -1
        }
        var segments: [Segment] = []
        // Buffers of the sorts, kept from band to band.
        var orderScratch: [Int] = [], segmentScratch: [Segment] = [], runStarts: [Int] = [], runNext: [Int] = []
        var next = 0
        var y0 = boxes[0].top - (boxes[0].top - rect.y) % bandRows
        while y0 < rect.maxY {
            let y1 = min(rect.maxY, y0 + bandRows)
            while next < boxes.count, boxes[next].top < y1 {
                active.append(next)
                next += 1
            }
            active.removeAll { boxes[$0].bottom <= y0 }
            if active.isEmpty {
                guard next < boxes.count else { break }
                // Straight to the band of the next box.
                y0 = boxes[next].top - (boxes[next].top - rect.y) % bandRows
                continue
            }
            order = active
            sortMergingRuns(&order, scratch: &orderScratch, starts: &runStarts, next: &runNext) { boxes[$0].left < boxes[$1].left }
            let n = order.count
            parent.removeAll(keepingCapacity: true)
            parent.append(contentsOf: 0..<n)
            func root(_ i: Int) -> Int {
                var r = i
                while parent[r] != r { r = parent[r] }
                var k = i
                while parent[k] != r { (k, parent[k]) = (parent[k], r) }
                return r
            }
            // Boxes meet when their columns and their rows within the band overlap.
            open.removeAll(keepingCapacity: true)
            for i in 0..<n {
                let b = boxes[order[i]]
                open.removeAll { boxes[order[$0]].right <= b.left }
                let top = max(b.top, y0), bottom = min(b.bottom, y1)
                for j in open {
                    let o = boxes[order[j]]
                    if max(o.top, y0) < bottom, top < min(o.bottom, y1) {
                        let (ri, rj) = (root(i), root(j))
                        if ri != rj { parent[ri] = rj }
                    }
                }
                open.append(i)
            }
            head.removeAll(keepingCapacity: true)
            head.append(contentsOf: repeatElement(-1, count: n))
            link.removeAll(keepingCapacity: true)
            link.append(contentsOf: repeatElement(-1, count: n))
            for i in 0..<n {
                let r = root(i)
                link[i] = head[r]
                head[r] = i
            }
            // Each cluster's coverage: a lone mask's own rows, or its masks added in the scratch
            // arena (one region per cluster, laid end to end).
            segments.removeAll(keepingCapacity: true)
            var used = 0
            for r in 0..<n where head[r] >= 0 {
                let first = head[r]
                if link[first] < 0 {
                    let b = boxes[order[first]]
                    segments.append(Segment(coverage: b.data + (b.left - b.x) - b.y * b.stride, stride: b.stride, left: b.left,
                                            right: b.right, top: max(b.top, y0), bottom: min(b.bottom, y1), reach: b.reach, scratch: -1))
                    continue
                }
                var left = Int.max, right = Int.min, top = Int.max, bottom = Int.min
                var k = first
                while k >= 0 {
                    let b = boxes[order[k]]
                    left = min(left, b.left); right = max(right, b.right)
                    top = min(top, max(b.top, y0)); bottom = max(bottom, min(b.bottom, y1))
                    k = link[k]
                }
                // Rows of whole 4-byte words: the last pixels are a quad too.
                let stride = (right - left + 3) & ~3
                segments.append(Segment(coverage: nil, stride: stride, left: left, right: right, top: top, bottom: bottom,
                                        reach: min(stride, rect.maxX - left), scratch: used))
                used += stride * (bottom - top)
                // Members: added into the region once it exists (below).
                segments[segments.count - 1].firstMember = first
            }
            if used > scratchCapacity {
                scratch.deallocate()
                scratchCapacity = max(used, 2 * scratchCapacity)
                scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: scratchCapacity)
            }
            if used > 0 { scratch.initialize(repeating: 0, count: used) }
            for s in segments.indices where segments[s].scratch >= 0 {
                let region = scratch + segments[s].scratch
                let (left, top, bottom, width) = (segments[s].left, segments[s].top, segments[s].bottom, segments[s].stride)
                // Origin of the region as if it started at row 0, column `left` (as a mask's rows).
                segments[s].coverage = UnsafePointer(region - top * width)
                var k = segments[s].firstMember
                while k >= 0 {
                    let b = boxes[order[k]]
                    let bt = max(b.top, top), bb = min(b.bottom, bottom)
                    let count = b.right - b.left
                    for y in bt..<bb {
                        let from = b.data + (y - b.y) * b.stride + (b.left - b.x)
                        let to = region + (y - top) * width + (b.left - left)
                        var i = 0
                        while i + 8 <= count {
                            let a = UnsafeRawPointer(to + i).loadUnaligned(as: UInt64.self)
                            let c = UnsafeRawPointer(from + i).loadUnaligned(as: UInt64.self)
                            UnsafeMutableRawPointer(to + i).storeBytes(of: addSaturating(a, c), as: UInt64.self)
                            i += 8
                        }
                        while i < count {
                            let sum = UInt16(to[i]) &+ UInt16(from[i])
                            to[i] = sum > 255 ? 255 : UInt8(truncatingIfNeeded: sum)
                            i += 1
                        }
                    }
                    k = link[k]
                }
            }
            // Row by row, left to right, so the destination is read in order (it is rarely in
            // cache, and a glyph-by-glyph order defeats the prefetcher).
            sortMergingRuns(&segments, scratch: &segmentScratch, starts: &runStarts, next: &runNext) { $0.left < $1.left }
            for y in max(y0, rect.y)..<y1 {
                let row = base + y * pixelsPerRow
                for segment in segments where segment.top <= y && y < segment.bottom {
                    blendRow(segment.coverage! + y * segment.stride, count: segment.right - segment.left, reach: segment.reach,
                             onto: row + segment.left, table)
                }
            }
            y0 = y1
        }
    }
}
