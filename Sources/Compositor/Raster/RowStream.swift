import Foundation

/// One flattened segment of a band, top end first (band-local coordinates, `ya < yb`).
struct Edge {
    var xa: Double, ya: Double, xb: Double, yb: Double
    var slope: Double
    var dir: Int32
    var contour: Int32

    /// x on the edge at height y; exact at both ends so connected pieces meet bit for bit.
    @inline(__always) func x(at y: Double) -> Double {
        y <= ya ? xa : y >= yb ? xb : xa + (y - ya) * slope
    }
}

/// Streams a band strip by strip through an active-edge table: edges are bucketed by their
/// first row, the active list stays in segment order (so connected pieces sit side by side),
/// and each strip's pieces are cut into a small buffer that is reused, so memory stays
/// proportional to the edges crossing one strip.
struct RowScratch: ~Copyable {
    var edges = ScratchBuffer<Edge>()
    var startCount = ScratchBuffer<Int32>()
    var startOrder = ScratchBuffer<Int32>()
    /// The edges crossing the current strip, copied in segment order, and their indices: the
    /// strip reads them in sequence (read through their indices, each strip's edges were
    /// scattered over a slab's edge list, a cache miss apiece: 5 % of S4's time).
    var active = ScratchBuffer<Edge>()
    var activeIndex = ScratchBuffer<Int32>()
    var merged = ScratchBuffer<Edge>()
    var mergedIndex = ScratchBuffer<Int32>()
    var incoming = ScratchBuffer<Int32>()
    var row = ScratchBuffer<Piece>()
    var exact = ScratchBuffer<Bool>()
    /// Per row, the first and last accumulation cell its pieces touched (first > last: none),
    /// so the sweep can fill the rest of the row without reading it.
    var touchedFirst = ScratchBuffer<Int32>()
    var touchedLast = ScratchBuffer<Int32>()
    var runs = ScratchBuffer<Run>()
    var guardSteps = ScratchBuffer<GuardStep>()
    var exactScratch = ExactRowScratch()
    var sampleCrossings = ScratchBuffer<SampleCrossing>()
    /// Rows of crowded strips drawn by `resolveRowBySampling` (read and reset by the caller).
    var sampledRows = 0

    /// Accumulates a band of `rows` rows; returns how many rows went through the exact path.
    /// Without `exactOverlaps` (`CoverageQuality.fast`) every strip is accumulated.
    /// `only`: the indices of the segments that may reach the band, in increasing order (nil:
    /// every segment is looked at).
    mutating func accumulate<Out: LineSink & ~Copyable>(segments: [Double], contours: [Int32], only: UnsafeBufferPointer<Int32>? = nil,
                                                        originX: Double, originY: Double, width: Double, rows: Int,
                                                        into out: inout Out, fillRule: FillRule,
                                                        exactOverlaps: Bool = true) -> Int {
        // Band-local x: the guard column is [0, 1), the band's pixels [1, width + 1).
        let right = width + 1
        // Edges clipped to the band's rows, in segment order.
        edges.removeAll()
        let height = Double(rows)
        segments.withUnsafeBufferPointer { s in
            let total = only?.count ?? s.count / 4
            var n = 0
            while n < total {
                let segment = only.map { Int($0[n]) } ?? n
                n += 1
                let i = 4 * segment
                var x0 = s[i] - originX, y0 = s[i + 1] - originY, x1 = s[i + 2] - originX, y1 = s[i + 3] - originY
                let contour = contours[segment]
                if (y0 <= 0 && y1 <= 0) || (y0 >= height && y1 >= height) || (x0 >= right && x1 >= right) { continue }
                let dir: Int32 = y0 < y1 ? 1 : -1
                if dir < 0 { swap(&x0, &x1); swap(&y0, &y1) }
                // Cut to the band's rows by interpolating between the original ends (t in
                // [0, 1], so no product of a huge coordinate and a huge slope), then the slope of
                // what is left (0 for a run so flat that it overflows: its height is nil).
                let (ox0, oy0, ox1, oy1) = (x0, y0, x1, y1)
                if y0 < 0 { x0 = interpolatedX(at: 0, ox0, oy0, ox1, oy1); y0 = 0 }
                if y1 > height { x1 = interpolatedX(at: height, ox0, oy0, ox1, oy1); y1 = height }
                guard y1 > y0 else { continue }
                let slope = (x1 - x0) / (y1 - y0)
                edges.append(Edge(xa: x0, ya: y0, xb: x1, yb: y1, slope: slope.isFinite ? slope : 0, dir: dir, contour: contour))
            }
        }
        out.begin(edgeCount: edges.count)
        // Edges by first row (a stable counting sort keeps segment order within a row).
        startCount.reset(count: rows + 1, to: 0)
        for i in 0..<edges.count { startCount[Int(edges[i].ya) + 1] &+= 1 }
        for r in 0..<rows { startCount[r + 1] &+= startCount[r] }
        startOrder.reset(count: edges.count, to: 0)
        for i in 0..<edges.count {
            let r = Int(edges[i].ya)
            startOrder[Int(startCount[r])] = Int32(i)
            startCount[r] &+= 1
        }
        // startCount[r] now ends row r's bucket; row r's bucket starts where row r − 1's ended.
        exact.reset(count: rows, to: false)
        touchedFirst.reset(count: rows, to: .max)
        touchedLast.reset(count: rows, to: -1)
        active.removeAll()
        activeIndex.removeAll()
        var exactCount = 0
        var bucketStart = 0
        var r = 0
        while r < rows {
            let h = min(stripHeight, rows - r)
            let top = Double(r), bottom = Double(r + h)
            // Edges starting in this strip, in index order (each row's bucket already is).
            let bucketEnd = Int(startCount[r + h - 1])
            incoming.removeAll()
            for n in bucketStart..<bucketEnd { incoming.append(startOrder[n]) }
            if h > 1 {
                var sortable = UnsafeMutableBufferPointer(start: incoming.base, count: incoming.count)
                sortable.sort()
            }
            bucketStart = bucketEnd
            // Drop finished edges; merge in the new ones, both in index order.
            merged.removeAll()
            mergedIndex.removeAll()
            var a = 0, b = 0
            while a < active.count || b < incoming.count {
                let takeActive = b >= incoming.count || (a < active.count && activeIndex[a] < incoming[b])
                let i = takeActive ? activeIndex[a] : incoming[b]
                let e = takeActive ? active[a] : edges[Int(i)]
                if takeActive { a += 1 } else { b += 1 }
                if e.yb > top {
                    merged.append(e)
                    mergedIndex.append(i)
                }
            }
            swap(&active, &merged)
            swap(&activeIndex, &mergedIndex)
            defer { r += h }
            guard !active.isEmpty else { continue }
            // Cut this strip's pieces.
            row.removeAll()
            guardSteps.removeAll()
            for n in 0..<active.count {
                let i = activeIndex[n]
                let e = active[n]
                let y0 = max(e.ya, top), y1 = min(e.yb, bottom)
                guard y1 > y0 else { continue }
                appendClipped(&row, &guardSteps, e, segment: i, y0, y1, right: right)
            }
            let guardWinding = appendGuardPieces(&row, &guardSteps)
            guard !row.isEmpty else { continue }
            let pieces = row.buffer
            // Cells a piece can touch: its rows, and columns ⌊xmin⌋ … ⌊xmax⌋ + 1 (for the
            // `Float` sweep only: the cell rasterizer keeps its own).
            for p in pieces where out.needsTouchedCells {
                let c0 = Int32(p.xmin), c1 = Int32(p.xmax) + 1
                var rr = Int(p.ya)
                let rEnd = min(r + h, Int(p.yb.rounded(.up)))
                while rr < rEnd {
                    if c0 < touchedFirst[rr] { touchedFirst[rr] = c0 }
                    if c1 > touchedLast[rr] { touchedLast[rr] = c1 }
                    rr += 1
                }
            }
            if !exactOverlaps || (guardWinding <= 1 && rowIsSimple(pieces, runs: &runs)) {
                for p in pieces { out.piece(p) }
            } else {
                if !resolveRowExactly(pieces, rowTop: top, rowBottom: bottom, width: right, fillRule: fillRule,
                                      scratch: &exactScratch, out: &out) {
                    resolveRowBySampling(pieces, rowTop: top, rowBottom: bottom, fillRule: fillRule, crossings: &sampleCrossings,
                                         out: &out)
                    sampledRows += h
                }
                for row in r..<(r + h) { exact[row] = true }
                exactCount += h
            }
        }
        return exactCount
    }
}

/// dx/dy from (x0, y0) to (x1, y1), y1 > y0; 0 when that overflows (a piece too flat to have
/// height: any x between its ends will do).
@inline(__always)
private func chordSlope(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Double {
    let s = (x1 - x0) / (y1 - y0)
    return s.isFinite ? s : 0
}

/// A change of winding in the guard column at height `y` (a part of an edge left of the band
/// starting, +dir, or ending, −dir).
struct GuardStep {
    var y: Double
    var delta: Int32
}

/// The contour of the pieces that stand for everything left of the band (see `appendGuardPieces`).
let guardContour: Int32 = -1

/// The part of edge `e` between heights y0 and y1 as row pieces, clipped to the band
/// [1, `right`]. Parts right of the band are dropped (they reach no pixel). Parts left of it
/// still wind every pixel to their right; they are recorded as winding steps in `guardSteps`
/// and become a few guard pieces per strip (`appendGuardPieces`).
@inline(__always)
private func appendClipped(_ out: inout ScratchBuffer<Piece>, _ guardSteps: inout ScratchBuffer<GuardStep>, _ e: Edge,
                           segment: Int32, _ y0: Double, _ y1: Double, right: Double) {
    let left = 1.0
    let x0 = e.x(at: y0), x1 = e.x(at: y1)
    if x0 >= right && x1 >= right { return }
    if x0 >= left && x1 >= left && x0 <= right && x1 <= right {
        // The piece's own slope, not the edge's: x inside the piece is then interpolated from
        // its ends, which lie in the band, rather than extrapolated from an edge start that may
        // be 10^15 px away (where rounding alone moves it pixels, out of the band's cells).
        out.append(Piece(xa: x0, ya: y0, xb: x1, yb: y1, slope: chordSlope(x0, y0, x1, y1), dir: e.dir, segment: segment,
                         contour: e.contour))
        return
    }
    @inline(__always) func leftPart(_ ya: Double, _ yb: Double) {
        guardSteps.append(GuardStep(y: ya, delta: e.dir))
        guardSteps.append(GuardStep(y: yb, delta: -e.dir))
    }
    if x0 <= left && x1 <= left {
        leftPart(y0, y1)
        return
    }
    // x is linear in y, so the edge crosses each bound at most once. Breakpoints carry their
    // exact x so that neighbouring parts meet bit for bit.
    var ys: [(y: Double, x: Double)] = [(y0, x0)]
    for bound in [left, right] where (x0 < bound) != (x1 < bound) {
        ys.append((min(y1, max(y0, y0 + (bound - x0) / (x1 - x0) * (y1 - y0))), bound))
    }
    ys.append((y1, x1))
    ys.sort { $0.y < $1.y }
    for k in 0..<(ys.count - 1) {
        let (ya, xa) = ys[k], (yb, xb) = ys[k + 1]
        guard yb > ya else { continue }
        let mid = (xa + xb) / 2
        if mid < left {
            leftPart(ya, yb)
        } else if mid <= right {
            let pa = min(right, max(left, xa)), pb = min(right, max(left, xb))
            out.append(Piece(xa: pa, ya: ya, xb: pb, yb: yb, slope: chordSlope(pa, ya, pb, yb),
                             dir: e.dir, segment: segment, contour: e.contour))
        }
    }
}

/// Replaces everything left of the band in one strip by the winding it adds to the pixels on
/// its right: W(y), the sum of the directions of the left parts present at height y, which
/// changes only at their ends. Each interval where W is constant and non-zero becomes one
/// vertical guard piece at x = 0.5 with `dir` W (contour `guardContour`), appended after the
/// strip's other pieces in order of y. However many edges lie left of the band (a spiral
/// clipped away, a curve's thousands of flattened segments), a strip then holds at most one
/// guard piece per change of W, no two of which overlap, and nothing else lies in the guard
/// column, so nothing there needs ordering or crossing tests. Returns the largest |W|: the
/// simple accumulation draws each piece with weight ±1, so a strip with |W| > 1 is resolved
/// exactly.
func appendGuardPieces(_ out: inout ScratchBuffer<Piece>, _ steps: inout ScratchBuffer<GuardStep>) -> Int32 {
    guard steps.count > 0 else { return 0 }
    var sortable = UnsafeMutableBufferPointer(start: steps.base, count: steps.count)
    sortable.sort { $0.y < $1.y }
    var w: Int32 = 0, largest: Int32 = 0
    var openY = steps[0].y
    var n = 0
    while n < steps.count {
        let y = steps[n].y
        var d: Int32 = 0
        while n < steps.count, steps[n].y == y { d &+= steps[n].delta; n += 1 }
        guard d != 0 else { continue }
        if w != 0, y > openY {
            out.append(Piece(xa: 0.5, ya: openY, xb: 0.5, yb: y, slope: 0, dir: w, segment: -1, contour: guardContour))
            largest = max(largest, w == .min ? .max : abs(w))
        }
        w &+= d
        openY = y
    }
    return largest
}
