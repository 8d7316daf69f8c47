import CRasterKernels
import Foundation

/// How a cell sum becomes an 8-bit coverage: the fill rule's fold, then the opacity.
struct CoverageFold {
    /// A full pixel's cell sum: 2·one² for `shift` fixed-point bits.
    let full: Int32
    /// Bits dropped from `full` to leave 2¹⁶.
    private let cut: UInt32
    let evenOdd: Bool
    /// opacity × 255 × 256, rounded: coverage·scale/2²⁴ is coverage × opacity in 1/255.
    let scale: UInt32

    init(fillRule: FillRule, opacity: Double, shift: Int) {
        full = Int32(1) << (2 * shift + 1)
        cut = UInt32(2 * shift + 1 - 16)
        evenOdd = fillRule == .evenOdd
        scale = UInt32((Opacity(opacity).value * 65280).rounded())
    }

    /// The same fold for the C kernels (`raster_walk_band_solid`).
    var kernelFold: raster_fold {
        raster_fold(full: full, cut: cut, even_odd: evenOdd ? 1 : 0, scale: scale)
    }

    /// The 8-bit coverage of a pixel whose cells sum to `sum` (`full` a full pixel): non-zero
    /// takes min(1, |a|), even-odd folds |a| with period 2; then × opacity, rounded.
    /// (The coverage is cut to 16 bits first: 2¹⁶ × 65,280 < 2³², so the product fits.)
    @inline(__always)
    func coverage(_ sum: Int32) -> UInt32 {
        let sign = sum >> 31
        let magnitude = UInt32(bitPattern: (sum ^ sign) &- sign)
        let c: UInt32
        if evenOdd {
            let d = Int32(bitPattern: magnitude & UInt32(bitPattern: 2 &* full &- 1)) &- full
            let s = d >> 31
            c = UInt32(bitPattern: full &- ((d ^ s) &- s))
        } else {
            c = min(magnitude, UInt32(full))
        }
        return ((c &>> cut) &* scale &+ (1 << 23)) >> 24
    }

    /// `coverage` of four sums at once (integer lanes only: RASTER.md §3.5).
    @inline(__always)
    func coverage(_ sums: SIMD4<Int32>) -> SIMD4<UInt32> {
        let sign = sums &>> 31
        let magnitude = SIMD4<UInt32>(truncatingIfNeeded: (sums ^ sign) &- sign)
        let c: SIMD4<UInt32>
        if evenOdd {
            let d = SIMD4<Int32>(truncatingIfNeeded: magnitude & UInt32(bitPattern: 2 &* full &- 1)) &- full
            let s = d &>> 31
            c = SIMD4<UInt32>(truncatingIfNeeded: full &- ((d ^ s) &- s))
        } else {
            // |sum| ≤ 2³¹: as signed lanes, min against `full` is one compare (pminsd needs
            // SSE4.1); 2³¹ itself reads as negative.
            let signed = SIMD4<Int32>(truncatingIfNeeded: magnitude)
            let over = (signed .> SIMD4<Int32>(repeating: full)) .| (signed .< 0)
            let mask = SIMD4<UInt32>(truncatingIfNeeded: unsafeBitCast(over, to: SIMD4<Int32>.self))
            c = (SIMD4<UInt32>(repeating: UInt32(full)) & mask) | (magnitude & ~mask)
        }
        return ((c &>> cut) &* scale &+ (1 << 23)) &>> 24
    }
}

/// Where the cell rasterizer's coverage goes, row by row: a fused compositor or a mask.
/// Coverages are 0…255, already × opacity.
protocol CoverageSink {
    /// A band of `rows` rows starting at region row `top` is about to be walked.
    mutating func band(top: Int, rows: Int)
    /// The band's rows have all been walked.
    mutating func endBand() throws
    /// Pixels `x ..< x + count` of row `row` (of the band) all have coverage `m` (not 0).
    mutating func span(_ row: Int, _ x: Int, _ count: Int, _ m: UInt32)
    /// Pixels `x ..< x + 4` have the coverages `m`.
    mutating func quad(_ row: Int, _ x: Int, _ m: SIMD4<UInt32>)
    /// Pixel `x` has coverage `m`.
    mutating func pixel(_ row: Int, _ x: Int, _ m: UInt32)
    /// Pixels `x ..< end` of row `row` will be written soon.
    func prefetch(_ row: Int, _ x: Int, _ end: Int)
    /// Walks the band's `rows` rows of cells (`stride` apart; row r's touched range is
    /// `first[r] ..< last[r]`) with a kernel of the sink's own, as `walkRow` would row by row,
    /// and resets the ranges (`first[r] = .max`, `last[r] = 0`). Returns false, touching
    /// nothing, to have `walkRow` do it.
    func walk(_ cells: UnsafeMutablePointer<Int32>, stride: Int, rows: Int, first: UnsafeMutablePointer<Int32>,
              last: UnsafeMutablePointer<Int32>, width: Int, fold: CoverageFold) -> Bool
}

extension CoverageSink {
    @inline(__always)
    func walk(_ cells: UnsafeMutablePointer<Int32>, stride: Int, rows: Int, first: UnsafeMutablePointer<Int32>,
              last: UnsafeMutablePointer<Int32>, width: Int, fold: CoverageFold) -> Bool {
        false
    }
}

/// Whether eight cells are all zero: one vector compare.
@inline(__always)
private func allZero(_ p: UnsafeMutablePointer<Int32>) -> Bool {
    !any(UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Int32>.self) .!= SIMD8<Int32>(repeating: 0))
}

/// Walks one row of cells (`first ..< last` touched), prefix-summing them into coverage for
/// `sink` and zeroing them for the next band. Runs of eight untouched cells are one span of
/// the running coverage (skipped when it is 0): interiors cost a compare per eight pixels.
@inline(__always)
func walkRow<Sink: CoverageSink>(_ cells: UnsafeMutablePointer<Int32>, first: Int, last: Int, width: Int,
                                 fold: CoverageFold, row: Int, sink: inout Sink) {
    guard first < last else { return }
    var sum: Int32 = 0
    var x = first
    let end = min(last, width)
    while x < end {
        if x + 8 <= end, allZero(cells + x) {
            var run = x + 8
            while run + 8 <= end, allZero(cells + run) { run += 8 }
            let m = fold.coverage(sum)
            if m != 0 { sink.span(row, x, run - x, m) }
            x = run
            continue
        }
        if x + 4 <= end {
            let p = UnsafeMutableRawPointer(cells + x)
            var v = p.loadUnaligned(as: SIMD4<Int32>.self)
            p.storeBytes(of: .zero, as: SIMD4<Int32>.self)
            v &+= SIMD4(0, v[0], v[1], v[2])
            v &+= SIMD4(0, 0, v[0], v[1])
            v &+= SIMD4(repeating: sum)
            sum = v[3]
            sink.quad(row, x, fold.coverage(v))
            x += 4
        } else {
            sum &+= cells[x]
            cells[x] = 0
            let m = fold.coverage(sum)
            if m != 0 { sink.pixel(row, x, m) }
            x += 1
        }
    }
    if end < width {
        // Past the last touched cell the winding is constant (edges right of the region
        // were dropped, so it need not return to 0).
        let m = fold.coverage(sum)
        if m != 0 { sink.span(row, end, width - end, m) }
    }
    // Cells right of the region, which edges on its right side touch.
    var c = max(width, first)
    while c < last { cells[c] = 0; c += 1 }
}

/// A solid premultiplied colour composited source-over onto 8-bit (A/X)RGB rows through the
/// coverage, with pixman's arithmetic (`over_n_8_8888`: the colour × coverage per channel,
/// then `UN8x4_MUL_UN8_ADD_UN8x4`), so the pixels are pixman's for the same coverage.
struct SolidOverSink: CoverageSink {
    private var rows: BandRows
    let source: UInt32
    private let opaque: Bool

    /// `origin`: pixel (0, 0) of the region.
    init(origin: UnsafeMutableRawPointer, stride: Int, source: UInt32) {
        rows = BandRows(origin: origin, stride: stride)
        self.source = source
        opaque = source >> 24 == 255
    }

    mutating func band(top: Int, rows: Int) { self.rows.band(top: top) }
    func endBand() {}

    @inline(__always)
    private func pixels(_ row: Int, _ x: Int) -> UnsafeMutablePointer<UInt32> { rows.pixels(row, x) }

    @inline(__always)
    func span(_ row: Int, _ x: Int, _ count: Int, _ m: UInt32) {
        SpanKernels.solidSpan(pixels(row, x), count: count, source, m)
    }

    @inline(__always)
    func quad(_ row: Int, _ x: Int, _ m: SIMD4<UInt32>) {
        if !any(m .!= 0) { return }
        let p = pixels(row, x)
        if opaque, all(m .== 255) {
            UnsafeMutableRawPointer(p).storeBytes(of: SIMD4<UInt32>(repeating: source), as: SIMD4<UInt32>.self)
            return
        }
        SpanKernels.blendQuad(p, sources: SIMD4(repeating: source), coverage: m)
    }

    @inline(__always)
    func prefetch(_ row: Int, _ x: Int, _ end: Int) {
        guard end > x else { return }
        let p = pixels(row, x)
        raster_prefetch_for_write(p)
        if end - x > 16 { raster_prefetch_for_write(p + (end - x - 1)) }
    }

    @inline(__always)
    func pixel(_ row: Int, _ x: Int, _ m: UInt32) { SpanKernels.solidPixel(pixels(row, x), source, m) }

    /// The whole band by the AVX2 kernel in C where the CPU has it (`raster_walk_band_solid`:
    /// eight cells at a time, the same bytes).
    @inline(__always)
    func walk(_ cells: UnsafeMutablePointer<Int32>, stride: Int, rows: Int, first: UnsafeMutablePointer<Int32>,
              last: UnsafeMutablePointer<Int32>, width: Int, fold: CoverageFold) -> Bool {
        var f = fold.kernelFold
        return raster_walk_band_solid(cells, stride, rows, first, last, width, &f, pixels(0, 0), self.rows.stride / 4, source, nil) != 0
    }
}

/// Where a band's rows of a region lie in the destination: what the fused sinks share.
struct BandRows {
    /// Pixel (0, 0) of the region.
    let origin: UnsafeMutableRawPointer
    let stride: Int
    /// Region row of the band's first row, and where that row's pixels start.
    private(set) var top = 0
    private var first: UnsafeMutableRawPointer

    init(origin: UnsafeMutableRawPointer, stride: Int) {
        self.origin = origin
        self.stride = stride
        first = origin
    }

    @inline(__always)
    mutating func band(top: Int) {
        self.top = top
        first = origin + top * stride
    }

    /// Pixel `x` of the band's row `row`.
    @inline(__always)
    func pixels(_ row: Int, _ x: Int) -> UnsafeMutablePointer<UInt32> {
        (first + row * stride).assumingMemoryBound(to: UInt32.self) + x
    }
}

/// Coverage bytes into an 8-bit mask band (row stride `stride`), noting per chunk of
/// `spanChunkRows` rows the columns that hold coverage, for compositing only those.
struct MaskSink: CoverageSink {
    let mask: UnsafeMutablePointer<UInt8>
    let stride: Int
    let width: Int
    /// Per chunk of the band: the first and one past the last column with coverage.
    let chunkLo: UnsafeMutablePointer<Int32>
    let chunkHi: UnsafeMutablePointer<Int32>
    private(set) var top = 0, rows = 0
    let endOfBand: (_ top: Int, _ rows: Int) throws -> Void

    init(mask: UnsafeMutablePointer<UInt8>, stride: Int, width: Int, chunkLo: UnsafeMutablePointer<Int32>,
         chunkHi: UnsafeMutablePointer<Int32>, endOfBand: @escaping (_ top: Int, _ rows: Int) throws -> Void) {
        self.mask = mask
        self.stride = stride
        self.width = width
        self.chunkLo = chunkLo
        self.chunkHi = chunkHi
        self.endOfBand = endOfBand
    }

    mutating func band(top: Int, rows: Int) {
        self.top = top
        self.rows = rows
        mask.update(repeating: 0, count: stride * rows)
        let chunks = (rows + spanChunkRows - 1) / spanChunkRows
        chunkLo.update(repeating: .max, count: chunks)
        chunkHi.update(repeating: 0, count: chunks)
    }

    func endBand() throws { try endOfBand(top, rows) }

    @inline(__always)
    private func note(_ row: Int, _ lo: Int, _ hi: Int) {
        let c = row / spanChunkRows
        if Int32(lo) < chunkLo[c] { chunkLo[c] = Int32(lo) }
        if Int32(hi) > chunkHi[c] { chunkHi[c] = Int32(hi) }
    }

    @inline(__always)
    func span(_ row: Int, _ x: Int, _ count: Int, _ m: UInt32) {
        (mask + row * stride + x).update(repeating: UInt8(truncatingIfNeeded: m), count: count)
        note(row, x, x + count)
    }

    @inline(__always)
    func quad(_ row: Int, _ x: Int, _ m: SIMD4<UInt32>) {
        if !any(m .!= 0) { return }
        let bytes = m[0] | m[1] << 8 | m[2] << 16 | m[3] << 24
        UnsafeMutableRawPointer(mask + row * stride + x).storeBytes(of: bytes, as: UInt32.self)
        note(row, x, x + 4)
    }

    func prefetch(_ row: Int, _ x: Int, _ end: Int) {}

    @inline(__always)
    func pixel(_ row: Int, _ x: Int, _ m: UInt32) {
        mask[row * stride + x] = UInt8(truncatingIfNeeded: m)
        note(row, x, x + 1)
    }
}

/// The fused compositor's SIMD kernels: pixman's source-over arithmetic on four pixels at a
/// time, each pixel's blue and red (and green and alpha) in two 16-bit lanes of a
/// `SIMD8<UInt16>` (RASTER.md §3.5: plain SSE2, no calls; `make check-kernels` checks).
enum SpanKernels {
    @inline(__always)
    static func scale(_ x: SIMD8<UInt16>, _ a: SIMD8<UInt16>) -> SIMD8<UInt16> {
        let t = x &* a &+ SIMD8<UInt16>(repeating: 0x80)
        return (t &+ (t &>> 8)) &>> 8
    }

    /// Lanes of at most 510 cut to 255, as pixman saturates a sum (`pointwiseMin` on
    /// `SIMD8<UInt16>` is an outlined generic call: RASTER.md §3.5).
    @inline(__always)
    static func saturate(_ t: SIMD8<UInt16>) -> SIMD8<UInt16> {
        (t | (SIMD8<UInt16>(repeating: 0) &- (t &>> 8))) & SIMD8<UInt16>(repeating: 0xff)
    }

    @inline(__always)
    static func lanes(_ v: SIMD4<UInt32>) -> SIMD8<UInt16> { unsafeBitCast(v, to: SIMD8<UInt16>.self) }

    /// Four destination pixels under four scaled sources whose blue/red and green/alpha lanes
    /// are `sourceRB` and `sourceAG`.
    @inline(__always)
    static func over(_ p: UnsafeMutablePointer<UInt32>, _ sourceRB: SIMD8<UInt16>, _ sourceAG: SIMD8<UInt16>) {
        let alpha = unsafeBitCast(sourceAG, to: SIMD4<UInt32>.self) &>> 16
        let keep = 255 &- alpha
        let keep16 = lanes(keep | (keep &<< 16))
        let d = UnsafeRawPointer(p).loadUnaligned(as: SIMD4<UInt32>.self)
        let rb = saturate(scale(lanes(d & 0x00ff_00ff), keep16) &+ sourceRB)
        let ag = saturate(scale(lanes((d &>> 8) & 0x00ff_00ff), keep16) &+ sourceAG)
        let out = unsafeBitCast(rb, to: SIMD4<UInt32>.self) | (unsafeBitCast(ag, to: SIMD4<UInt32>.self) &<< 8)
        UnsafeMutableRawPointer(p).storeBytes(of: out, as: SIMD4<UInt32>.self)
    }

    /// Four pixels under their four sources (one colour repeated, or a gradient's), each
    /// scaled by its coverage in `coverage`.
    @inline(never)
    static func blendQuad(_ p: UnsafeMutablePointer<UInt32>, sources s: SIMD4<UInt32>, coverage: SIMD4<UInt32>) {
        let m = lanes(coverage | (coverage &<< 16))
        over(p, scale(lanes(s & 0x00ff_00ff), m), scale(lanes((s &>> 8) & 0x00ff_00ff), m))
    }

    /// `count` pixels under the one scaled source `s`: eight at a time by the AVX2 kernel in
    /// C where the CPU has it (`raster_blend_constant`, the same bytes), the rest by
    /// `blendConstantSSE2`.
    @inline(__always)
    static func blendConstant(_ p: UnsafeMutablePointer<UInt32>, count: Int, _ s: UInt32) {
        let done = count >= 16 ? raster_blend_constant(p, count, s) : 0
        if done < count { blendConstantSSE2(p + done, count: count - done, s) }
    }

    /// `count` pixels under one colour at one coverage `m` (not 0): stored where both are
    /// full, else the colour × `m` blended source-over (`over_n_8_8888`'s arithmetic).
    @inline(__always)
    static func solidSpan(_ p: UnsafeMutablePointer<UInt32>, count: Int, _ source: UInt32, _ m: UInt32) {
        if m == 255, source >> 24 == 255 {
            p.update(repeating: source, count: count)
            return
        }
        blendConstant(p, count: count, m == 255 ? source : MaskKernels.multiply(source, m))
    }

    /// One pixel under one colour at coverage `m`.
    @inline(__always)
    static func solidPixel(_ p: UnsafeMutablePointer<UInt32>, _ source: UInt32, _ m: UInt32) {
        MaskKernels.blend1(p, m == 255 ? source : MaskKernels.multiply(source, m))
    }

    /// `count` pixels of a premultiplied ARGB layer row, each scaled by `m` (0…255: the layer's
    /// opacity), composited source-over onto `p`: pixman's `over_8888_n_8888` arithmetic,
    /// eight at a time by the AVX2 kernel in C where the CPU has it (`raster_composite_layer`,
    /// the same bytes), the rest by `compositeLayerSSE2`.
    @inline(__always)
    static func compositeLayer(_ p: UnsafeMutablePointer<UInt32>, _ layer: UnsafePointer<UInt32>, count: Int, _ m: UInt32) {
        let done = count >= 16 ? raster_composite_layer(p, layer, count, m) : 0
        if done < count { compositeLayerSSE2(p + done, layer + done, count: count - done, m) }
    }

    /// `compositeLayer` four pixels at a time in SSE2 lanes; transparent layer pixels are
    /// skipped and, at full opacity, opaque ones stored. Kept out of line so `make
    /// check-kernels` can check it makes no call.
    @inline(never)
    static func compositeLayerSSE2(_ p: UnsafeMutablePointer<UInt32>, _ layer: UnsafePointer<UInt32>, count: Int, _ m: UInt32) {
        let m16 = SIMD8<UInt16>(repeating: UInt16(truncatingIfNeeded: m))
        let alpha = SIMD4<UInt32>(repeating: 0xff00_0000)
        var i = 0
        while i + 4 <= count {
            let s = UnsafeRawPointer(layer + i).loadUnaligned(as: SIMD4<UInt32>.self)
            if any(s .!= 0) {
                if m == 255, all((s & alpha) .== alpha) {
                    UnsafeMutableRawPointer(p + i).storeBytes(of: s, as: SIMD4<UInt32>.self)
                } else {
                    over(p + i, scale(lanes(s & 0x00ff_00ff), m16), scale(lanes((s &>> 8) & 0x00ff_00ff), m16))
                }
            }
            i += 4
        }
        while i < count {
            let s = layer[i]
            if s != 0 { MaskKernels.blend1(p + i, m == 255 ? s : MaskKernels.multiply(s, m)) }
            i += 1
        }
    }

    /// `count` pixels under the one scaled source `s`, four at a time in SSE2 lanes. Kept out
    /// of line so `make check-kernels` can check it makes no call.
    @inline(never)
    static func blendConstantSSE2(_ p: UnsafeMutablePointer<UInt32>, count: Int, _ s: UInt32) {
        let v = SIMD4<UInt32>(repeating: s)
        let rb = lanes(v & 0x00ff_00ff), ag = lanes((v &>> 8) & 0x00ff_00ff)
        var i = 0
        while i + 4 <= count {
            over(p + i, rb, ag)
            i += 4
        }
        while i < count {
            MaskKernels.blend1(p + i, s)
            i += 1
        }
    }
}
