import CRasterKernels
import Foundation

/// Fixed-point bits per pixel of the cell rasterizer for paths proven single-wound: 19.12.
/// AGG and Blend2D use 24.8, which places a vertex within 1/512 px and splits a row's height
/// between cells in steps of 1/256 px: up to a level of coverage each, enough to put S2's
/// capsules 3 levels off the exact area. At 1/4,096 px both are a sixteenth of that. A full
/// pixel is then 2²⁵ in a cell sum, so a pixel's winding may reach only ±63 before the sum
/// wraps: no concern where every winding is 0 or ±1 (`ContourShapeCheck`).
let cellShiftSimple = 12

/// Fixed-point bits for `CoverageQuality.fast`, where windings pile up (S4): 22.10, windings
/// up to ±1,023 per pixel (Blend2D's 24.8 allows ±16,383), vertices within 1/2,048 px.
let cellShiftFast = 10

/// The widest and tallest region the cell rasterizer takes: x · 4,096 must fit an Int32.
let cellMaximumExtent = 1 << 19

/// The most cells one band of the cell rasterizer holds: 64 Ki Int32 (256 KiB), so a band's
/// cells stay in L2 while its pixels are composited (RASTER.md §3.2: Blend2D's band rule).
let cellBandBytes = 1 << 18

/// A fixed-point precision of the cell walk, `shift` bits per pixel: a type, so the walk is
/// specialized with it as a constant (`CellRasterizer.rasterize`).
protocol CellPrecision {
    static var shift: Int { get }
}

/// `cellShiftSimple` bits.
enum SimplePrecision: CellPrecision {
    @inline(__always) static var shift: Int { cellShiftSimple }
}

/// `cellShiftFast` bits.
enum FastPrecision: CellPrecision {
    @inline(__always) static var shift: Int { cellShiftFast }
}

/// One flattened edge in region-local fixed point (`CellRasterizer.shift` bits), top end first:
/// x0, y0, x1, y1, and `dir`, +1 where the segment ran down (y growing), −1 where it ran up;
/// a line drawn several times at once has that weight instead
/// (`LineSink.line(_:_:_:_:weight:)`). The C kernels' struct, so they can write edges.
typealias FixedEdge = raster_fixed_edge

/// A region's cells, every row, for edges drawn as they are made (`CellRasterizer.directLines`).
struct CellLines {
    let cells: UnsafeMutablePointer<Int32>
    let stride: Int, shift: Int
    /// The region's bottom, fixed point.
    let bottom: Int32
    let first: ScratchView<Int32>, last: ScratchView<Int32>

    /// Adds `edge` (region-local, inside the region) to the cells.
    @inline(__always) func draw(_ edge: FixedEdge) {
        CellRasterizer.rasterize(edge, top: 0, bottom: bottom, cells: cells, stride: stride, shift: shift, first: first, last: last)
    }
}

/// Coverage of a polygon by signed-area accumulation in integer cells, band by band: the
/// fast tier of the rasterizer (RASTER.md §3.2).
///
/// Each edge adds, to every cell it crosses, its signed height there (`cover`, in units of
/// 2⁻ˢʰⁱᶠᵗ px) and the area between it and the cell's left side (`area`); both go into one
/// Int32 per cell, merged as Blend2D merges them: `cell[x] += cover·2·one − area`,
/// `cell[x + 1] += area`. The prefix sum of a row is then each pixel's signed covered area,
/// 2·one² for a full pixel (`fullCoverage`),
/// and the fill rule folds it. Rows are walked with an integer DDA (AGG's `render_line` and
/// `render_hline`): no division per row, no floating point.
///
/// The fold is exact wherever a pixel holds winding numbers {k, k ± 1} only: every pixel a
/// single chain of edges crosses (convex shapes, circles, rounded rectangles, capsules). Where
/// opposite windings meet in one pixel it is Blend2D's approximation (`CoverageQuality.fast`).
/// `Rasterizer` uses it for paths it can prove simple (`ContourShapeCheck`), for `.fast`, and
/// for the strip resolver's lines under `.exact` (`FixedLines`), whose windings are exact.
///
/// Limits: coordinates are clipped to the region first (in `Double`), so any finite input
/// is safe; a region is at most `cellMaximumExtent` px wide and high. Windings beyond the
/// precision's limit (`cellShiftSimple`, `cellShiftFast`) make that pixel's coverage wrong,
/// never a trap (wrapping arithmetic).
///
/// Not thread-safe: one per `Rasterizer`.
///
/// Its stored properties opt out of Swift's dynamic exclusivity checks (`@exclusivity(unchecked)`):
/// one thread uses it at a time, and the checks on its scratch buffers cost S3-10k about 17 M
/// instructions a frame (S3-1k 1.7 M, S2-noshadow 0.1 M).
final class CellRasterizer {
    @exclusivity(unchecked) private var edges = ScratchBuffer<FixedEdge>()
    @exclusivity(unchecked) private var bandCounts = ScratchBuffer<Int32>()
    /// The edges grouped by the band they start in, and those carried from band to band.
    @exclusivity(unchecked) private var byBand = ScratchBuffer<FixedEdge>()
    @exclusivity(unchecked) private var carried = ScratchBuffer<FixedEdge>()
    @exclusivity(unchecked) private var carriedNext = ScratchBuffer<FixedEdge>()
    /// Per row of the band: the first touched cell and one past the last (first ≥ last: none).
    @exclusivity(unchecked) private var rowFirst = ScratchBuffer<Int32>()
    @exclusivity(unchecked) private var rowLast = ScratchBuffer<Int32>()
    @exclusivity(unchecked) private var cells: UnsafeMutablePointer<Int32>
    @exclusivity(unchecked) private var cellCapacity: Int
    @exclusivity(unchecked) private(set) var width = 0
    @exclusivity(unchecked) private(set) var height = 0
    /// Cells per row: the region's columns, two more that edges on its right side touch,
    /// rounded up to 8 so vector loads stay inside the row.
    @exclusivity(unchecked) private(set) var stride = 0
    /// Fixed-point bits per pixel of this polygon.
    @exclusivity(unchecked) private(set) var shift = cellShiftSimple
    private var one: Int { 1 &<< shift }

    init() {
        cellCapacity = 1 << 12
        cells = .allocate(capacity: cellCapacity)
        cells.initialize(repeating: 0, count: cellCapacity)
    }

    deinit { cells.deallocate() }

    /// Starts a polygon over a region of `width` × `height` pixels (its top-left is local (0, 0)),
    /// with `shift` fixed-point bits per pixel.
    func begin(width: Int, height: Int, shift: Int) {
        precondition(shift == cellShiftSimple || shift == cellShiftFast, "the cell rasterizer's precisions are 12 and 10 bits")
        // Lines drawn directly that no walk read (the last `run` stopped early, or never ran).
        if drawnDirectly { discardDirectLines() }
        self.shift = shift
        self.width = width
        self.height = height
        stride = (width + 2 + 7) & ~7
        edges.removeAll()
    }

    var edgeCount: Int { edges.count }

    /// Exchanges the polygon's edges with `other`: region-local fixed point with `shift` bits,
    /// top end first (y0 < y1), inside the region's rows and columns (`FixedLines` makes them).
    func exchangeEdges(_ other: inout ScratchBuffer<FixedEdge>) {
        swap(&other, &edges)
    }

    /// Adds the segments in `segments` (x0, y0, x1, y1 each, device pixels), moved by
    /// −`origin` into the region's coordinates.
    func add(segments: UnsafeBufferPointer<Double>, origin: (x: Double, y: Double)) {
        // Appends go to a local buffer: on the class's property every append would be a
        // dynamic exclusivity check.
        var local = ScratchBuffer<FixedEdge>(capacity: 1)
        swap(&local, &edges)
        let clip = EdgeClip(width: Double(width), height: Double(height), one: Double(one))
        let total = segments.count / 4
        var i = 0
        // (Without AVX2, or with the kernels switched off, the kernel declines at once.)
        var kernel = true
        while i < total {
            // Segments inside the region in C (the same edges), up to the first that is not.
            if kernel, let base = segments.baseAddress {
                // Room for one edge a segment left; doubling, since the Swift clip may have
                // added up to three pieces a segment since the last call (growing by just what
                // is needed would copy the edges again at every call).
                let needed = local.count + total - i
                if needed > local.capacity { local.reserve(max(needed, 2 * local.capacity)) }
                var written = 0
                let taken = raster_fix_inside_segments(base + 4 * i, total - i, origin.x, origin.y, Double(one), Double(width),
                                                       Double(height), local.base + local.count, &written)
                if taken < 0 {
                    kernel = false
                } else {
                    local.resize(count: local.count + written)
                    i += taken
                }
            }
            // The Swift clip for the segment the kernel stopped at and a few after it (a path
            // crossing the region's sides often has runs of them), or for all without it.
            let end = kernel ? min(total, i + 8) : total
            while i < end {
                let s = 4 * i
                clip.add(segments[s] - origin.x, segments[s + 1] - origin.y, segments[s + 2] - origin.x, segments[s + 3] - origin.y,
                         to: &local)
                i += 1
            }
        }
        swap(&local, &edges)
    }

    /// Whether lines were drawn into the cells since `begin` (`directLines`): then `run` walks
    /// the whole region as one band.
    @exclusivity(unchecked) private var drawnDirectly = false
    /// Whether the next `run` walks the whole region as one band (lines were drawn directly).
    var drawsWholeRegion: Bool { drawnDirectly }

    /// Cells for every row of the region (after `begin`), for lines drawn as they are made
    /// (`FixedLines.direct`) rather than stored and sorted into bands: valid until `run`, which
    /// then adds the stored edges and walks the whole region as one band. The same sums as
    /// storing the lines (the cells add integers), so the same coverage.
    func directLines() -> CellLines {
        reserve(cells: stride * height)
        if rowFirst.count < height {
            rowFirst.reset(count: height, to: .max)
            rowLast.reset(count: height, to: 0)
        }
        drawnDirectly = true
        return CellLines(cells: cells, stride: stride, shift: shift, bottom: Int32(height &<< shift),
                         first: rowFirst.view, last: rowLast.view)
    }

    /// Zeroes the cells of every row still holding lines drawn directly and forgets them, so
    /// the cells are clear for the next polygon (`begin` after `directLines` with no `run`).
    private func discardDirectLines() {
        for r in 0..<min(height, rowFirst.count) where rowFirst[r] < rowLast[r] {
            let lo = Int(rowFirst[r]), hi = Int(rowLast[r])
            (cells + r * stride + lo).update(repeating: 0, count: hi - lo)
            rowFirst[r] = .max
            rowLast[r] = 0
        }
        drawnDirectly = false
    }

    /// Rasterizes the polygon band by band (`bandRows` rows each) and hands each band's rows to
    /// `sink`, which reads their coverage through `walkRow` (and so clears the cells).
    func run<Sink: CoverageSink>(bandRows: Int, fillRule: FillRule, opacity: Double, sink: inout Sink) throws {
        let direct = drawnDirectly
        guard edges.count > 0 || direct, width > 0, height > 0 else { return }
        // Lines drawn directly are in the cells of every row: one band.
        let bandRows = direct ? height : max(1, min(bandRows, height))
        let bands = (height + bandRows - 1) / bandRows
        reserve(cells: stride * bandRows)
        // Edges copied into groups by the band they start in (a counting sort), so each band
        // reads its edges in sequence: gathered through a list of indices from an edge array of
        // many megabytes (S4: 450,000 edges), the loads missed the cache.
        bandCounts.reset(count: bands + 1, to: 0)
        byBand.resize(count: edges.count)
        carried.removeAll()
        let e = edges.view, counts = bandCounts.view, grouped = byBand.view
        let shift = self.shift
        for i in 0..<e.count { counts[(Int(e[i].y0) &>> shift) / bandRows + 1] &+= 1 }
        for b in 0..<bands { counts[b + 1] &+= counts[b] }
        for i in 0..<e.count {
            let b = (Int(e[i].y0) &>> shift) / bandRows
            grouped[Int(counts[b])] = e[i]
            counts[b] &+= 1
        }
        // counts[b] now ends band b's group.
        let fold = CoverageFold(fillRule: fillRule, opacity: opacity, shift: shift)
        var next = 0
        // (Lines drawn directly keep the rows' ranges they touched; the walk resets them.)
        if !direct {
            rowFirst.reset(count: bandRows, to: .max)
            rowLast.reset(count: bandRows, to: 0)
        }
        for b in 0..<bands {
            let top = b * bandRows, rows = min(bandRows, height - top)
            let fixedTop = Int32(top &<< shift), fixedBottom = Int32((top + rows) &<< shift)
            let end = Int(counts[b])
            guard carried.count > 0 || end > next || direct else { continue }
            let first = rowFirst.view, last = rowLast.view, stride = self.stride
            // The edges carried from the bands above, then the band's own; those reaching
            // below it are carried on (a few: S4's 450,000 edges carry about 20,000 in all).
            if shift == cellShiftSimple {
                drawCarried(SimplePrecision.self, grouped: grouped.base + next, count: end - next, top: fixedTop,
                            bottom: fixedBottom, first: first, last: last)
            } else {
                drawCarried(FastPrecision.self, grouped: grouped.base + next, count: end - next, top: fixedTop,
                            bottom: fixedBottom, first: first, last: last)
            }
            next = end
            swap(&carried, &carriedNext)
            // (One band when drawn directly: every row is walked before `endBand` may throw.)
            try walkBand(top: top, rows: rows, width: width, stride: stride, fold: fold, sink: &sink)
        }
        drawnDirectly = false
    }

    /// Adds to a band's cells the edges carried from the bands above and the `count` edges
    /// starting in it (at `grouped`), and carries on those reaching below it.
    private func drawCarried<P: CellPrecision>(_ precision: P.Type, grouped: UnsafePointer<FixedEdge>, count: Int, top: Int32,
                                               bottom: Int32, first: ScratchView<Int32>, last: ScratchView<Int32>) {
        let cells = self.cells, stride = self.stride
        carriedNext.removeAll()
        for n in 0..<(carried.count + count) {
            let edge = n < carried.count ? carried[n] : grouped[n - carried.count]
            Self.rasterize(edge, top: top, bottom: bottom, cells: cells, stride: stride, precision, first: first, last: last)
            if edge.y1 > bottom { carriedNext.append(edge) }
        }
    }

    /// Draws rows `top ..< top + rows` of a region `width` px wide from `pieces` (region-local
    /// fixed point with `shift` bits: whole edges, each cut to those rows here): the band of
    /// one command of a `FillBatch`.
    func drawBand<Sink: CoverageSink>(_ pieces: UnsafeBufferPointer<FixedEdge>, width: Int, top: Int, rows: Int, shift: Int,
                                      fold: CoverageFold, sink: inout Sink) throws {
        let stride = (width + 2 + 7) & ~7
        reserve(cells: stride * rows)
        if rowFirst.count < rows {
            rowFirst.reset(count: rows, to: .max)
            rowLast.reset(count: rows, to: 0)
        }
        let first = rowFirst.view, last = rowLast.view, cells = self.cells
        let fixedTop = Int32(top &<< shift), fixedBottom = Int32((top + rows) &<< shift)
        Self.rasterize(pieces, top: fixedTop, bottom: fixedBottom, cells: cells, stride: stride, shift: shift, first: first, last: last)
        try walkBand(top: top, rows: rows, width: width, stride: stride, fold: fold, sink: &sink)
    }

    /// Hands the band's rows to `sink`, clearing the cells and the rows' touched ranges.
    @inline(__always)
    private func walkBand<Sink: CoverageSink>(top: Int, rows: Int, width: Int, stride: Int, fold: CoverageFold,
                                              sink: inout Sink) throws {
        let first = rowFirst.view, last = rowLast.view, cells = self.cells
        sink.band(top: top, rows: rows)
        if sink.walk(cells, stride: stride, rows: rows, first: first.base, last: last.base, width: width, fold: fold) {
            try sink.endBand()
            return
        }
        if rows > 0 { sink.prefetch(0, Int(first[0]), min(width, Int(last[0]))) }
        for r in 0..<rows {
            let lo = Int(first[r]), hi = Int(last[r])
            first[r] = .max; last[r] = 0
            // The next row's pixels are a stride away: start loading them now.
            if r + 1 < rows { sink.prefetch(r + 1, Int(first[r + 1]), min(width, Int(last[r + 1]))) }
            walkRow(cells + r * stride, first: lo, last: hi, width: width, fold: fold, row: r, sink: &sink)
        }
        try sink.endBand()
    }

    /// The polygon's edges (valid until the next `begin`).
    var edgeView: ScratchView<FixedEdge> { edges.view }

    private func reserve(cells count: Int) {
        guard count > cellCapacity else { return }
        cells.deallocate()
        cellCapacity = count
        cells = .allocate(capacity: count)
        cells.initialize(repeating: 0, count: count)
    }

    /// Adds the parts of `edges` between the band's rows `top` and `bottom` to the cells.
    @inline(__always)
    fileprivate static func rasterize(_ edges: UnsafeBufferPointer<FixedEdge>, top: Int32, bottom: Int32,
                                      cells: UnsafeMutablePointer<Int32>, stride: Int, shift: Int,
                                      first: ScratchView<Int32>, last: ScratchView<Int32>) {
        rasterize(edges.count, top: top, bottom: bottom, cells: cells, stride: stride, shift: shift, first: first, last: last) { edges[$0] }
    }

    /// `rasterize(_:top:…)` of `count` edges, the nth `edge(n)`: one loop per precision, so
    /// each walks with its shift a constant (`CellPrecision`).
    @inline(__always)
    fileprivate static func rasterize(_ count: Int, top: Int32, bottom: Int32, cells: UnsafeMutablePointer<Int32>, stride: Int,
                                      shift: Int, first: ScratchView<Int32>, last: ScratchView<Int32>, edge: (Int) -> FixedEdge) {
        @inline(__always) func loop<P: CellPrecision>(_ precision: P.Type) {
            for n in 0..<count {
                rasterize(edge(n), top: top, bottom: bottom, cells: cells, stride: stride, precision, first: first, last: last)
            }
        }
        if shift == cellShiftSimple { loop(SimplePrecision.self) } else { loop(FastPrecision.self) }
    }

    /// `rasterize(_:top:…:precision:…)` with the precision of `shift`.
    @inline(__always)
    fileprivate static func rasterize(_ edge: FixedEdge, top: Int32, bottom: Int32, cells: UnsafeMutablePointer<Int32>, stride: Int,
                                      shift: Int, first: ScratchView<Int32>, last: ScratchView<Int32>) {
        if shift == cellShiftSimple {
            rasterize(edge, top: top, bottom: bottom, cells: cells, stride: stride, SimplePrecision.self, first: first, last: last)
        } else {
            rasterize(edge, top: top, bottom: bottom, cells: cells, stride: stride, FastPrecision.self, first: first, last: last)
        }
    }

    /// Adds the part of `edge` between the band's rows `top` and `bottom` (fixed point) to the
    /// cells: AGG's `render_line`, rows walked with an integer DDA.
    ///
    /// The arithmetic wraps (`&+`, `&*`) instead of checking for overflow: every value is
    /// bounded by the region (x and y below 2³¹ fixed-point units, products of two of them
    /// below 2⁶²), and the checks were about half of the walk's conditional branches.
    ///
    /// Generic over the precision so that each specialization has its shift, `one` and the
    /// fraction mask as constants, inlined or not: with them in registers the walk spilled
    /// values to the stack on every row (S1a's walk: 14 % fewer instructions).
    @inline(__always)
    fileprivate static func rasterize<P: CellPrecision>(_ edge: FixedEdge, top: Int32, bottom: Int32, cells: UnsafeMutablePointer<Int32>,
                                                        stride: Int, _ precision: P.Type,
                                                        first: ScratchView<Int32>, last: ScratchView<Int32>) {
        let shift = P.shift
        var ya = Int(edge.y0), yb = Int(edge.y1)
        var xa = Int(edge.x0), xb = Int(edge.x1)
        let ex0 = xa, ey0 = ya, dxAll = Int(edge.x1) &- Int(edge.x0), dyAll = Int(edge.y1) &- Int(edge.y0)
        // x at the band's top and bottom, from the edge's own ends (the same value for the
        // bottom of one band and the top of the next, so they join).
        @inline(__always) func x(at y: Int) -> Int { edgeX(at: y, ex0, ey0, dxAll, dyAll) }
        if ya < Int(top) { ya = Int(top); xa = x(at: ya) }
        if yb > Int(bottom) { yb = Int(bottom); xb = x(at: yb) }
        guard yb > ya else { return }
        ya = ya &- Int(top); yb = yb &- Int(top)
        let dir = edge.dir
        let one = 1 &<< shift, fraction = one &- 1
        let row0 = ya &>> shift, rowEnd = yb &>> shift
        let fy0 = ya & fraction, fy1 = yb & fraction
        if row0 == rowEnd {
            Self.hline(cells + row0 &* stride, xa, fy0, xb, fy1, dir, precision, row0, first, last)
            return
        }
        if dxAll == 0 {
            // Vertical: one cell per row, its area from the fixed x.
            let ex = xa &>> shift, twoFx = Int32(truncatingIfNeeded: (xa & fraction) &* 2)
            var row = row0
            var from = fy0
            while row < rowEnd || (row == rowEnd && fy1 > 0) {
                let to = row == rowEnd ? fy1 : one
                let d = Int32(truncatingIfNeeded: to &- from) &* dir
                let p = cells + (row &* stride &+ ex)
                p[0] &+= d &* Int32(truncatingIfNeeded: 2 &* one) &- twoFx &* d
                p[1] &+= twoFx &* d
                Self.touch(row, ex, ex &+ 1, first, last)
                from = 0
                row &+= 1
            }
            return
        }
        // Every row boundary's x is the edge's own x there (`edgeX`), however the edge was cut
        // into bands: the first by one division, the others by a DDA seeded with the same
        // quotient and remainder.
        let boundary = (row0 &+ 1) &<< shift &+ Int(top)
        let p = (boundary &- ey0) &* dxAll, q = floorDivide(p, dyAll)
        var x = ex0 &+ q   // edgeX(at: boundary)
        Self.hline(cells + row0 &* stride, xa, fy0, x, one, dir, precision, row0, first, last)
        var row = row0 &+ 1
        if row != rowEnd {
            var step = DDAStep(one &* dxAll, over: dyAll, carry: p &- q &* dyAll)
            while row != rowEnd {
                let x2 = x &+ step.next()
                Self.hline(cells + row &* stride, x, 0, x2, one, dir, precision, row, first, last)
                x = x2
                row &+= 1
            }
        }
        if fy1 > 0 { Self.hline(cells + row &* stride, x, 0, xb, fy1, dir, precision, row, first, last) }
    }

    /// One row's part of an edge, from (x1, y1) to (x2, y2), 0 ≤ y1 ≤ y2 ≤ one within the row:
    /// AGG's `render_hline`, each cell's share of the height found with an integer DDA.
    @inline(__always)
    private static func hline<P: CellPrecision>(_ line: UnsafeMutablePointer<Int32>, _ x1: Int, _ y1: Int, _ x2: Int, _ y2: Int,
                                                _ dir: Int32, _ precision: P.Type, _ row: Int, _ first: ScratchView<Int32>,
                                                _ last: ScratchView<Int32>) {
        let shift = P.shift
        guard y2 > y1 else { return }
        let one = 1 &<< shift, fraction = one &- 1
        let ex1 = x1 &>> shift, ex2 = x2 &>> shift
        let fx1 = x1 & fraction, fx2 = x2 & fraction
        @inline(__always) func add(_ ex: Int, _ cover: Int, _ area: Int) {
            let c = Int32(truncatingIfNeeded: cover) &* dir, a = Int32(truncatingIfNeeded: area) &* dir
            line[ex] &+= c &* Int32(truncatingIfNeeded: 2 &* one) &- a
            line[ex &+ 1] &+= a
        }
        if ex1 == ex2 {
            let d = y2 &- y1
            add(ex1, d, (fx1 &+ fx2) &* d)
            Self.touch(row, ex1, ex1 &+ 1, first, last)
            return
        }
        Self.touch(row, min(ex1, ex2), max(ex1, ex2) &+ 1, first, last)
        var dx = x2 &- x1
        let dy = y2 &- y1
        let p: Int, firstEdge: Int, direction: Int
        if dx > 0 {
            p = (one &- fx1) &* dy; firstEdge = one; direction = 1
        } else {
            p = fx1 &* dy; firstEdge = 0; direction = -1; dx = 0 &- dx
        }
        // p ≥ 0 and dx > 0: the quotient and remainder of non-negative values, in 32 bits
        // (p and one · dy are below one², 2²⁴; dx below 2³², the ends being `Int32`s): the
        // narrower division is the faster one, and this one runs on every row of a flat edge.
        let divisor = UInt32(truncatingIfNeeded: dx)
        var delta = Int(UInt32(truncatingIfNeeded: p) / divisor)
        let mod = p &- delta &* dx
        var ex = ex1
        var y = y1
        add(ex, delta, (fx1 &+ firstEdge) &* delta)
        ex &+= direction
        y &+= delta
        if ex != ex2 {
            var step = DDAStep(nonNegative: UInt32(truncatingIfNeeded: one &* dy), over: divisor, carry: mod)
            while ex != ex2 {
                delta = step.next()
                add(ex, delta, one &* delta)
                y &+= delta
                ex &+= direction
            }
        }
        let d = y2 &- y
        add(ex, d, (fx2 &+ one &- firstEdge) &* d)
    }

    @inline(__always)
    private static func touch(_ row: Int, _ lo: Int, _ hi: Int, _ first: ScratchView<Int32>, _ last: ScratchView<Int32>) {
        if Int32(truncatingIfNeeded: lo) < first[row] { first[row] = Int32(truncatingIfNeeded: lo) }
        if Int32(truncatingIfNeeded: hi &+ 1) > last[row] { last[row] = Int32(truncatingIfNeeded: hi &+ 1) }
    }
}

/// Steps of `total / denominator`, whole numbers that add up exactly: each is the quotient,
/// plus one whenever the carried remainder passes the denominator (AGG's lift, rem and mod).
struct DDAStep {
    private let lift: Int, remainder: Int, denominator: Int
    private var carry: Int

    /// `carry`: the remainder left by the first, partial step (0 ≤ carry < denominator).
    @inline(__always)
    init(_ total: Int, over denominator: Int, carry: Int) {
        lift = floorDivide(total, denominator)
        remainder = total &- lift &* denominator
        self.denominator = denominator
        self.carry = carry &- denominator
    }

    /// The same steps for a total ≥ 0 and a denominator > 0 that fit in 32 bits (one 32-bit
    /// division, no flooring of negative quotients).
    @inline(__always)
    init(nonNegative total: UInt32, over denominator: UInt32, carry: Int) {
        let quotient = total / denominator
        lift = Int(quotient)
        remainder = Int(total &- quotient &* denominator)
        self.denominator = Int(denominator)
        self.carry = carry &- Int(denominator)
    }

    @inline(__always)
    mutating func next() -> Int {
        carry &+= remainder
        if carry >= 0 {
            carry &-= denominator
            return lift &+ 1
        }
        return lift
    }
}

/// x on the line through (x0, y0) and (x1, y1) at height y, interpolated between the ends
/// (t in [0, 1] for y between them: no product of a huge coordinate and a huge slope).
@inline(__always)
func interpolatedX(at y: Double, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Double {
    let t = (y - y0) / (y1 - y0)
    return x0 * (1 - t) + x1 * t
}

/// x (fixed point) of the edge from (x0, y0) running dx, dy (dy > 0) at height y: the value
/// the row walk reaches there, so an edge cut at a row boundary continues exactly.
@inline(__always)
func edgeX(at y: Int, _ x0: Int, _ y0: Int, _ dx: Int, _ dy: Int) -> Int {
    x0 &+ floorDivide((y &- y0) &* dx, dy)
}

/// ⌊a / b⌋ for b > 0.
@inline(__always)
func floorDivide(_ a: Int, _ b: Int) -> Int {
    let q = a / b
    return (a &- q &* b != 0 && a < 0) ? q &- 1 : q
}

/// Cuts segments to a region and stores them as fixed-point edges (`CellRasterizer.add`).
private struct EdgeClip {
    let width: Double, height: Double
    /// Fixed-point units per pixel.
    let one: Double

    /// Adds the segment from (x0, y0) to (x1, y1), in region-local pixels (any finite values).
    /// Parts above or below the region and right of it are dropped (they cover none of its
    /// pixels); parts left of it become vertical edges on its left side, which wind every
    /// pixel to their right just as they did.
    @inline(__always)
    func add(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, to edges: inout ScratchBuffer<FixedEdge>) {
        guard y0 != y1 else { return }
        var (xa, ya, xb, yb) = y0 < y1 ? (x0, y0, x1, y1) : (x1, y1, x0, y0)
        let dir: Int32 = y0 < y1 ? 1 : -1
        let h = height, w = width
        if yb <= 0 || ya >= h || (xa >= w && xb >= w) { return }
        if ya < 0 || yb > h {
            // Cut to the region's rows between the original ends (t in [0, 1]: no product of a
            // huge coordinate and a huge slope).
            let (ox0, oy0, ox1, oy1) = (xa, ya, xb, yb)
            if ya < 0 { xa = interpolatedX(at: 0, ox0, oy0, ox1, oy1); ya = 0 }
            if yb > h { xb = interpolatedX(at: h, ox0, oy0, ox1, oy1); yb = h }
        }
        if xa >= 0, xb >= 0, xa <= w, xb <= w {
            push(&edges, xa, ya, xb, yb, dir)
            return
        }
        // x is linear in y: the segment crosses each side at most once. Cut it there, and
        // keep each piece by where its middle lies.
        @inline(__always) func crossing(_ bound: Double) -> (y: Double, x: Double)? {
            guard (xa < bound) != (xb < bound) else { return nil }
            return (min(yb, max(ya, ya + (bound - xa) / (xb - xa) * (yb - ya))), bound)
        }
        @inline(__always) func piece(_ pya: Double, _ pxa: Double, _ pyb: Double, _ pxb: Double) {
            guard pyb > pya else { return }
            let mid = (pxa + pxb) / 2
            if mid < 0 {
                push(&edges, 0, pya, 0, pyb, dir)
            } else if mid <= w {
                push(&edges, min(w, max(0, pxa)), pya, min(w, max(0, pxb)), pyb, dir)
            }
        }
        var c1 = crossing(0), c2 = crossing(w)
        if let a = c1, let b = c2, b.y < a.y { (c1, c2) = (b, a) }
        var y = ya, x = xa
        if let cut = c1 { piece(y, x, cut.y, cut.x); (y, x) = cut }
        if let cut = c2 { piece(y, x, cut.y, cut.x); (y, x) = cut }
        piece(y, x, yb, xb)
    }

    /// Stores a segment already inside the region, top end first, in fixed point.
    @inline(__always)
    private func push(_ edges: inout ScratchBuffer<FixedEdge>, _ xa: Double, _ ya: Double, _ xb: Double, _ yb: Double, _ dir: Int32) {
        // Non-negative values: adding ½ and truncating rounds them.
        let fy0 = Int32(ya * one + 0.5), fy1 = Int32(yb * one + 0.5)
        guard fy1 > fy0 else { return }
        edges.append(FixedEdge(x0: Int32(xa * one + 0.5), y0: fy0, x1: Int32(xb * one + 0.5), y1: fy1, dir: dir))
    }
}
