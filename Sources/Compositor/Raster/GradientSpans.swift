import CPixman
import CRasterKernels
import Foundation

/// Linear gradients that change along one axis of the device only, composited by the fused
/// compositor from their cells (RASTER.md §3.4: "gradient constant along a row" → a solid
/// span per row), with pixman's colours and pixman's arithmetic, so the bytes are pixman's.
///
/// A vertical gradient (SwiftUI's `.top` to `.bottom`, in any translated or scaled frame) has
/// one colour per device row, a horizontal one one per column. pixman computes each colour
/// from the gradient's position t at the pixel's centre; along a vertical gradient's rows t
/// does not depend on x, not even by a rounding (see `LinearGradientAxis`), so pixman gives
/// every pixel of a row the colour of any one of them: the same bytes. Along a horizontal
/// gradient's rows pixman steps t in floating point from the first pixel of the rectangle it
/// composites, so its colours may differ by a level between two rectangles starting at
/// different columns (as between the 8-row chunks it was given before); here they are those
/// of the fill's region. The colours of the fill's rows (columns) are asked of pixman once
/// per fill, one pixel each (`evaluate`); the
/// spans then blend them as a solid colour's spans blend theirs: the colour times the
/// coverage, then source-over (`over_n_8_8888`'s arithmetic, which pixman's general path
/// repeats for a gradient through a mask). Without this the gradient went through an A8 mask
/// and one pixman call per 8-row chunk: S2's disc was a quarter of that scene's instructions.
enum LinearGradientAxis {
    /// One colour per row.
    case rows
    /// One colour per column.
    case columns

    /// The axis along which `paint` (a linear gradient from its coordinates to device pixels
    /// by `transform`) is constant, as pixman evaluates it; nil when it varies along both.
    ///
    /// pixman maps a pixel centre (X, Y) to the gradient's space with its 16.16 matrix m
    /// (the inverse of `transform`), each coordinate rounded: u = ⌊m00·X + m01·Y + m02⌉,
    /// v = ⌊m10·X + m11·Y + m12⌉, and t is linear in dx·u + dy·v, (dx, dy) the gradient's
    /// vector in 16.16. So t ignores X exactly when each of u, v ignores X or is multiplied by
    /// 0: (dx = 0 or m00 = 0) and (dy = 0 or m10 = 0); likewise for Y.
    init?(_ paint: Paint, transform: CGAffineTransform) {
        guard case let .linearGradient(_, start, end) = paint else { return nil }
        // In 64 bits: two 16.16 coordinates 2¹⁵ px apart overflow 32 (found by the raster fuzz
        // target). Only whether each is 0 matters, which wrapping would not change.
        let dx = Int64(fixed(end.x)) - Int64(fixed(start.x)), dy = Int64(fixed(end.y)) - Int64(fixed(start.y))
        // `setTransform` sets no transform for the identity: pixman's identity matrix.
        let m: (a: pixman_fixed_t, b: pixman_fixed_t, c: pixman_fixed_t, d: pixman_fixed_t)
        if transform.isIdentity {
            m = (1 << 16, 0, 0, 1 << 16)
        } else {
            let inv = transform.inverted()
            m = (fixed(inv.a), fixed(inv.b), fixed(inv.c), fixed(inv.d))
        }
        if (dx == 0 || m.a == 0) && (dy == 0 || m.b == 0) {
            self = .rows
        } else if (dx == 0 || m.c == 0) && (dy == 0 || m.d == 0) {
            self = .columns
        } else {
            return nil
        }
    }
}

extension Rasterizer {
    /// A linear gradient constant along one device axis, composited source-over onto 8-bit
    /// ARGB rows straight from the cells (see `LinearGradientAxis`).
    struct GradientTarget {
        /// The gradient as pixman draws it (device space), which gives the colours.
        var source: OpaquePointer
        var axis: LinearGradientAxis
        /// Device pixel (0, 0) of the rows.
        var pixels: UnsafeMutableRawPointer
        var stride: Int
    }

    /// The gradient's premultiplied colours for each row (or column) of `region`, asked of
    /// pixman one pixel each (its SRC operator into an image over `colours`).
    static func evaluate(_ target: GradientTarget, over region: PixelRect, into colours: inout ScratchBuffer<UInt32>) -> Bool {
        let count = target.axis == .rows ? region.height : region.width
        colours.resize(count: count)
        let (w, h) = target.axis == .rows ? (1, count) : (count, 1)
        guard let image = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(w), Int32(h), colours.base, Int32(4 * w)) else { return false }
        defer { pixman_image_unref(image) }
        pixman_image_composite32(PIXMAN_OP_SRC, target.source, nil, image, Int32(region.x), Int32(region.y), 0, 0, 0, 0,
                                 Int32(w), Int32(h))
        return true
    }
}

/// The fused compositor's sink for a gradient constant along rows or columns: a solid colour's
/// arithmetic (`SolidOverSink`) with the colour of the pixel's row or column.
struct GradientOverSink: CoverageSink {
    private var rows: BandRows
    /// The colour of each region row (`rows`) or column.
    let colours: UnsafePointer<UInt32>
    let alongRows: Bool

    /// `origin`: pixel (0, 0) of the region.
    init(origin: UnsafeMutableRawPointer, stride: Int, colours: UnsafePointer<UInt32>, axis: LinearGradientAxis) {
        rows = BandRows(origin: origin, stride: stride)
        self.colours = colours
        alongRows = axis == .rows
    }

    mutating func band(top: Int, rows: Int) { self.rows.band(top: top) }
    func endBand() {}

    @inline(__always)
    func span(_ row: Int, _ x: Int, _ count: Int, _ m: UInt32) {
        let p = rows.pixels(row, x)
        if alongRows {
            SpanKernels.solidSpan(p, count: count, colours[rows.top + row], m)
        } else {
            // Each pixel its column's colour, times one coverage: the layer kernel's arithmetic.
            SpanKernels.compositeLayer(p, colours + x, count: count, m)
        }
    }

    @inline(__always)
    func quad(_ row: Int, _ x: Int, _ m: SIMD4<UInt32>) {
        if !any(m .!= 0) { return }
        let sources = alongRows ? SIMD4(repeating: colours[rows.top + row])
            : UnsafeRawPointer(colours + x).loadUnaligned(as: SIMD4<UInt32>.self)
        SpanKernels.blendQuad(rows.pixels(row, x), sources: sources, coverage: m)
    }

    func prefetch(_ row: Int, _ x: Int, _ end: Int) {}

    @inline(__always)
    func pixel(_ row: Int, _ x: Int, _ m: UInt32) {
        SpanKernels.solidPixel(rows.pixels(row, x), alongRows ? colours[rows.top + row] : colours[x], m)
    }

    /// Along the rows each row is one colour: the whole band by the solid colours' AVX2 kernel
    /// in C where the CPU has it (`raster_walk_band_solid` with a colour per row, the same bytes).
    @inline(__always)
    func walk(_ cells: UnsafeMutablePointer<Int32>, stride: Int, rows: Int, first: UnsafeMutablePointer<Int32>,
              last: UnsafeMutablePointer<Int32>, width: Int, fold: CoverageFold) -> Bool {
        guard alongRows else { return false }
        var f = fold.kernelFold
        return raster_walk_band_solid(cells, stride, rows, first, last, width, &f, self.rows.pixels(0, 0), self.rows.stride / 4, 0,
                                      colours + self.rows.top) != 0
    }
}
