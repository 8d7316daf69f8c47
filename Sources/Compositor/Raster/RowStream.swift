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
struct RowScratch {
    var edges = ScratchBuffer<Edge>()
    var startCount = ScratchBuffer<Int32>()
    var startOrder = ScratchBuffer<Int32>()
    var active = ScratchBuffer<Int32>()
    var merged = ScratchBuffer<Int32>()
    var incoming = ScratchBuffer<Int32>()
    var row = ScratchBuffer<Piece>()
    var exact = ScratchBuffer<Bool>()
    /// Per row, the first and last accumulation cell its pieces touched (first > last: none),
    /// so the sweep can fill the rest of the row without reading it.
    var touchedFirst = ScratchBuffer<Int32>()
    var touchedLast = ScratchBuffer<Int32>()
    var runs = ScratchBuffer<Run>()
    var exactScratch = ExactRowScratch()

    func free() {
        edges.free(); startCount.free(); startOrder.free(); active.free(); merged.free(); incoming.free(); row.free()
        exact.free(); runs.free(); exactScratch.free(); touchedFirst.free(); touchedLast.free()
    }

    /// Accumulates a band of `rows` rows; returns how many rows went through the exact path.
    mutating func accumulate(segments: [Double], contours: [Int32], originX: Double, originY: Double,
                             width: Double, rows: Int, into acc: UnsafeMutablePointer<Float>, stride: Int,
                             fillRule: FillRule) -> Int {
        // Band-local x: the guard column is [0, 1), the band's pixels [1, width + 1).
        let right = width + 1
        // Edges clipped to the band's rows, in segment order.
        edges.removeAll()
        let height = Double(rows)
        segments.withUnsafeBufferPointer { s in
            var i = 0
            while i < s.count {
                var x0 = s[i] - originX, y0 = s[i + 1] - originY, x1 = s[i + 2] - originX, y1 = s[i + 3] - originY
                let contour = contours[i / 4]
                i += 4
                if (y0 <= 0 && y1 <= 0) || (y0 >= height && y1 >= height) || (x0 >= right && x1 >= right) { continue }
                let dir: Int32 = y0 < y1 ? 1 : -1
                if dir < 0 { swap(&x0, &x1); swap(&y0, &y1) }
                let slope = (x1 - x0) / (y1 - y0)
                if y0 < 0 { x0 += -y0 * slope; y0 = 0 }
                if y1 > height { x1 -= (y1 - height) * slope; y1 = height }
                guard y1 > y0 else { continue }
                edges.append(Edge(xa: x0, ya: y0, xb: x1, yb: y1, slope: slope, dir: dir, contour: contour))
            }
        }
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
            var a = 0, b = 0
            while a < active.count || b < incoming.count {
                let takeActive = b >= incoming.count || (a < active.count && active[a] < incoming[b])
                let i = takeActive ? active[a] : incoming[b]
                if takeActive { a += 1 } else { b += 1 }
                if edges[Int(i)].yb > top { merged.append(i) }
            }
            swap(&active, &merged)
            defer { r += h }
            guard !active.isEmpty else { continue }
            // Cut this strip's pieces.
            row.removeAll()
            for n in 0..<active.count {
                let i = active[n]
                let e = edges[Int(i)]
                let y0 = max(e.ya, top), y1 = min(e.yb, bottom)
                guard y1 > y0 else { continue }
                appendClipped(&row, e, segment: i, y0, y1, right: right)
            }
            guard !row.isEmpty else { continue }
            let pieces = row.buffer
            // Cells a piece can touch: its rows, and columns ⌊xmin⌋ … ⌊xmax⌋ + 1.
            for p in pieces {
                let c0 = Int32(p.xmin), c1 = Int32(p.xmax) + 1
                var rr = Int(p.ya)
                let rEnd = min(r + h, Int(p.yb.rounded(.up)))
                while rr < rEnd {
                    if c0 < touchedFirst[rr] { touchedFirst[rr] = c0 }
                    if c1 > touchedLast[rr] { touchedLast[rr] = c1 }
                    rr += 1
                }
            }
            if rowIsSimple(pieces, runs: &runs) {
                for p in pieces {
                    if p.dir > 0 { accumulateLine(acc, stride: stride, Float(p.xa), Float(p.ya), Float(p.xb), Float(p.yb)) }
                    else { accumulateLine(acc, stride: stride, Float(p.xb), Float(p.yb), Float(p.xa), Float(p.ya)) }
                }
            } else {
                resolveRowExactly(pieces, rowTop: top, rowBottom: bottom, width: right, fillRule: fillRule,
                                  scratch: &exactScratch, acc: acc, stride: stride)
                for row in r..<(r + h) { exact[row] = true }
                exactCount += h
            }
        }
        return exactCount
    }
}

/// The part of edge `e` between heights y0 and y1 as row pieces, clipped to the band
/// [1, `right`]. Parts right of the band are dropped (they reach no pixel). Parts left of it
/// still wind every pixel to their right, so they are kept as verticals inside the guard
/// column [0, 1), each segment at an x of its own (`guardX`): clamping them all to one line
/// would make them coincide, and exact resolution needs no two pieces to tie.
@inline(__always)
private func appendClipped(_ out: inout ScratchBuffer<Piece>, _ e: Edge, segment: Int32, _ y0: Double, _ y1: Double,
                           right: Double) {
    let left = 1.0
    let x0 = e.x(at: y0), x1 = e.x(at: y1)
    if x0 >= right && x1 >= right { return }
    if x0 >= left && x1 >= left && x0 <= right && x1 <= right {
        out.append(Piece(xa: x0, ya: y0, xb: x1, yb: y1, slope: e.slope, dir: e.dir, segment: segment, contour: e.contour))
        return
    }
    let gx = guardX(segment)
    if x0 <= left && x1 <= left {
        out.append(Piece(xa: gx, ya: y0, xb: gx, yb: y1, slope: 0, dir: e.dir, segment: segment, contour: e.contour))
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
            out.append(Piece(xa: gx, ya: ya, xb: gx, yb: yb, slope: 0, dir: e.dir, segment: segment, contour: e.contour))
        } else if mid <= right {
            let pa = min(right, max(left, xa)), pb = min(right, max(left, xb))
            out.append(Piece(xa: pa, ya: ya, xb: pb, yb: yb, slope: (pb - pa) / (yb - ya),
                             dir: e.dir, segment: segment, contour: e.contour))
        }
    }
}

/// Where segment `s`'s parts left of the band go: a vertical in [0.25, 0.75), distinct for
/// distinct segments (golden-ratio spacing).
@inline(__always)
private func guardX(_ s: Int32) -> Double {
    let f = Double(s) * 0.618_033_988_749_894_8
    return 0.25 + 0.5 * (f - f.rounded(.down))
}
