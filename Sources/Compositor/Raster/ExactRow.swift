import CRasterKernels

/// A crossing of two pieces inside a row, seen from one of them: at height `y` the winding on
/// its left changes by `delta` (the other piece's direction, signed by which way it passes).
/// The height first: 16 bytes, not the 24 that padding around it would make (S4 writes,
/// groups and sorts millions of these a frame).
struct CrossingEvent {
    var y: Double
    var piece: Int32
    var delta: Int32

    @inline(__always) init(piece: Int32, y: Double, delta: Int32) {
        self.y = y
        self.piece = piece
        self.delta = delta
    }
}

/// A point inside a row where pieces start or end, with the net change of winding it causes
/// for pieces passing to its right: Σ dir of pieces starting there − Σ dir of those ending.
struct EndPoint {
    var x: Double, y: Double
    var net: Int32
}

/// A sort key and the piece it belongs to.
struct SortKey {
    var key: Double
    var tie: Double
    var index: Int32
}

/// Scratch for `resolveRowExactly`, reused from row to row; its buffers are freed with it.
struct ExactRowScratch: ~Copyable {
    /// Crossings found in the rows resolved exactly since the owner last read them (statistics).
    var crossings = 0
    var sorted = ScratchBuffer<Piece>()
    var sortedIndex = ScratchBuffer<Int32>()
    var keys = ScratchBuffer<SortKey>()
    var columnCount = ScratchBuffer<Int32>()
    var slots = ScratchBuffer<Int32>()
    var sortKeys = ScratchBuffer<Double>()
    var endPoints = ScratchBuffer<EndPoint>()
    var events = ScratchBuffer<CrossingEvent>()
    var sortedEvents = ScratchBuffer<CrossingEvent>()
    var eventStart = ScratchBuffer<Int32>()
    var windingTop = ScratchBuffer<Int32>()
    var totalDelta = ScratchBuffer<Int32>()
    var resolved = ScratchBuffer<Bool>()
    var chain = ScratchBuffer<Int32>()
    /// Pieces met while counting the windings of pieces that start inside a strip with no
    /// chain piece above them, since the owner last read it (statistics and tests: linear in
    /// the strip's pieces, never their square).
    var countingWork = 0
    /// Strips above this many counting steps (starts × pieces) count in one sweep (tests set
    /// it to 0 or `Int.max` to compare the two ways).
    var countingBudget: Int?
    /// A piece's crossing events are insertion-sorted up to this many, else sorted (tests set
    /// it to compare the two).
    var insertionSortLimit = 32
    var counted = ScratchBuffer<Int32>()
    var starts = ScratchBuffer<Int32>()
    var columnLow = ScratchBuffer<Int32>()
    var columnHigh = ScratchBuffer<Int32>()
    var columnStart = ScratchBuffer<Int32>()
    var columnPieces = ScratchBuffer<Int32>()
    var sweep = ScratchBuffer<SweepStep>()
    var startOrder = ScratchBuffer<SweepStep>()
    /// Where the next piece of each column goes in `columnPieces`.
    var columnNext = ScratchBuffer<Int32>()
    var fenwick = ScratchBuffer<Int32>()
    /// Per piece, the sum of its events' sizes |delta|.
    var deltaMagnitude = ScratchBuffer<Int64>()
    /// Whether pieces that cannot draw skip the grouping and sorting of their events (tests
    /// turn it off to compare), and how many did since the owner last read it.
    var skipsPiecesInside = true
    var piecesSkipped = 0
    /// Whether even-odd draws each piece whole plus the runs of its parts drawn the other way
    /// (`drawEvenOddPieces`), or part by part (tests turn it off to compare).
    var drawsWholePieces = true
    /// The sorted pieces one field per array, for the AVX2 crossing search
    /// (`raster_exact_crossings`).
    var fieldXmin = ScratchBuffer<Double>(), fieldXmax = ScratchBuffer<Double>()
    var fieldXa = ScratchBuffer<Double>(), fieldYa = ScratchBuffer<Double>()
    var fieldXb = ScratchBuffer<Double>(), fieldYb = ScratchBuffer<Double>(), fieldSlope = ScratchBuffer<Double>()
    var fieldDir = ScratchBuffer<Int32>(), fieldContour = ScratchBuffer<Int32>()
    /// How many pieces the field arrays hold for the strip being resolved (−1: none), so
    /// `countStartWindings` reads them only when step 1 built them for this strip.
    var fieldCount = -1
}

/// A height where a piece enters or leaves the sweep of `countStartWindings`, or a start
/// whose winding it finds there.
struct SweepStep {
    var y: Double
    var delta: Int32
    var index: Int32
}

/// Accumulates one strip of rows (`rowTop` to `rowBottom`) so that the fill rule is applied
/// per region, not per pixel: exact coverage however many edges share a pixel. (Nothing here
/// needs the strip to be one pixel tall; pieces spanning several rows accumulate as lines.)
///
/// Every piece separates a region of winding w (its left) from one of w + dir (its right).
/// It bounds the filled area exactly where one side is inside and the other not; there it is
/// accumulated as a left boundary (+1) or a right boundary (−1), elsewhere not at all. The
/// inside regions are then disjoint with winding 0 or 1, so the row's prefix sums are exact
/// covered areas. A piece's left winding changes only where another piece crosses it, so it is
/// found once per piece (from the order at the row's top, from the chain piece above it at a
/// pass-through vertex, or from the pieces to its left at other vertices:
/// `countStartWindings`) and updated at each crossing and where it passes between the two ends
/// of a horizontal edge. Cost: O(k log k + width + the cells the pieces span + pairs whose x
/// ranges overlap) for k pieces, never k²: both orders it needs come from counting sorts by
/// pixel column, and a piece's crossings are sorted.
///
/// Returns false, having drawn nothing, when the strip holds more pairs of pieces whose x
/// ranges overlap than `crossingPairBudget(k)` allows (a star of thousands of long edges
/// crossing one another: the crossings alone would be hundreds of millions): the caller then
/// draws it with `resolveRowBySampling`.
@discardableResult
/// 1 for true, 0 for false: comparisons combined without branching.
@inline(__always) private func bit(_ b: Bool) -> UInt8 { unsafeBitCast(b, to: UInt8.self) }

/// `c ? a : b`, from the bits (no branch).
@inline(__always) private func select(_ c: Bool, _ a: Double, _ b: Double) -> Double {
    let m = 0 &- UInt64(bit(c))
    return Double(bitPattern: (a.bitPattern & m) | (b.bitPattern & ~m))
}

func resolveRowExactly<Out: LineSink & ~Copyable>(_ p: UnsafeBufferPointer<Piece>, rowTop: Double, rowBottom: Double,
                                                 width: Double, fillRule: FillRule, scratch s: inout ExactRowScratch,
                                                 out: inout Out) -> Bool {
    let k = p.count
    let columns = Int(width) + 1
    s.fieldCount = -1

    // 1. Crossings, among pairs whose x ranges overlap: pieces copied in order of their left
    // end (a counting sort by column, then insertion sort inside each column, which holds about
    // one piece), so the sweep reads memory sequentially and stops at the first piece that
    // starts right of the current one's end.
    s.sortKeys.removeAll()
    for i in 0..<k { s.sortKeys.append(p[i].xmin) }
    countingSortByColumn(columns: columns, keys: s.sortKeys, counts: &s.columnCount, slots: &s.slots)
    // (Local views of the buffers: through `s`, every store might change them, so each
    // access would load the buffer's address again.)
    s.sorted.resize(count: s.slots.count)
    s.sortedIndex.resize(count: s.slots.count)
    do {
        let slots = s.slots.view, sorted = s.sorted.view, sortedIndex = s.sortedIndex.view
        for a in 0..<slots.count {
            let i = Int(slots[a])
            let piece = p[i]
            let key = piece.xmin
            // Insertion into place (only ever moves within one column's bucket).
            var b = a
            while b > 0, sorted[b - 1].xmin > key {
                sorted[b] = sorted[b - 1]
                sortedIndex[b] = sortedIndex[b - 1]
                b -= 1
            }
            sorted[b] = piece
            sortedIndex[b] = Int32(i)
        }
    }
    s.events.removeAll()
    let q = s.sorted.buffer
    // Pairs looked at, against the budget: a crowded strip stops here, before step 3 draws.
    var pairs = 0
    let budget = crossingPairBudget(k)
    // Four pairs at a time with AVX2 where the CPU has it (the same events, in the same order);
    // else the loop below.
    let searched = findCrossingsWithKernel(k: k, budget: budget, &s)
    if searched == false { return false }
    for a in 0..<(searched == true ? 0 : k) {
        let pi = q[a]
        // Guard pieces cross nothing: they are verticals at x = 0.5, disjoint in y, and every
        // other piece lies at x ≥ 1 (sorted after them, so never met in this inner loop).
        if pi.contour == guardContour { continue }
        let i = s.sortedIndex[a]
        let right = pi.xmax
        var b = a + 1
        while b < k {
            let pj = q[b]
            if pj.xmin > right { break }
            b += 1
            pairs &+= 1
            // Whether they cross inside their common height [y0, y1], without a branch on
            // each comparison (they go either way at random: mispredicted, they were about a
            // third of the strip's time). Each x is `Piece.x(at:)`'s, to the bit: y0 is at or
            // below both tops, so the line from each top gives it (at a top, exactly its x);
            // y1 is at or above both bottoms, and at a bottom the bottom's own x is taken.
            // Without a common height the values mean nothing and the test is false.
            let y0 = max(pi.ya, pj.ya), y1 = min(pi.yb, pj.yb)
            let d0 = (pi.xa + (y0 - pi.ya) * pi.slope) - (pj.xa + (y0 - pj.ya) * pj.slope)
            let d1 = select(y1 >= pi.yb, pi.xb, pi.xa + (y1 - pi.ya) * pi.slope)
                - select(y1 >= pj.yb, pj.xb, pj.xa + (y1 - pj.ya) * pj.slope)
            let crosses = bit(y1 > y0) & ((bit(d0 < 0) & bit(d1 > 0)) | (bit(d0 > 0) & bit(d1 < 0)))
            // The two events are written whether or not they cross, and kept only if they
            // do (the count moves on by 0 or 2): whether a pair crosses is as random as the
            // comparisons were, and a branch on it was mispredicted. Where they do not cross,
            // the height and the deltas written mean nothing and are written over.
            let yc = min(y1, max(y0, y0 + (y1 - y0) * (d0 / (d0 - d1))))
            let j = s.sortedIndex[b - 1]
            // i left of j at y0 and right of it at y1: j joins i's left side, and i leaves j's.
            let sign = 1 &- 2 &* Int32(bit(d0 > 0))
            let n = s.events.count
            s.events.resize(count: n + 2)
            s.events[n] = CrossingEvent(piece: i, y: yc, delta: sign &* pj.dir)
            s.events[n + 1] = CrossingEvent(piece: j, y: yc, delta: 0 &- sign &* pi.dir)
            s.events.count = n + 2 &* Int(crosses)
        }
        if pairs > budget { return false }
    }
    s.crossings &+= s.events.count / 2
    // Ends of horizontal edges. Pieces that start or end inside the row usually do so in
    // balanced pairs at one point (a pass-through vertex: one ends, the next starts, same
    // direction; a turning point: two start or two end, opposite directions), which changes
    // no other piece's left winding. A horizontal edge (dropped, it has no height) separates
    // its two ends: every piece passing between them gains the net of the left end there.
    // A vertex's two edges usually sit side by side in the row's list (segment order) and
    // cancel; only endpoints without such a neighbour are collected.
    s.endPoints.removeAll()
    @inline(__always) func neighbourMeets(_ i: Int, _ x: Double, _ y: Double) -> Bool {
        if i > 0 {
            let q = p[i - 1]
            if (q.xa == x && q.ya == y) || (q.xb == x && q.yb == y) { return true }
        }
        if i + 1 < k {
            let q = p[i + 1]
            if (q.xa == x && q.ya == y) || (q.xb == x && q.yb == y) { return true }
        }
        return false
    }
    for i in 0..<k {
        let c = p[i]
        if c.contour == guardContour { continue }
        if c.ya > rowTop, !neighbourMeets(i, c.xa, c.ya) { s.endPoints.append(EndPoint(x: c.xa, y: c.ya, net: c.dir)) }
        if c.yb < rowBottom, !neighbourMeets(i, c.xb, c.yb) { s.endPoints.append(EndPoint(x: c.xb, y: c.yb, net: -c.dir)) }
    }
    if s.endPoints.count > 0 {
        let pts = s.endPoints.view
        // Sort by (y, x) and merge equal points; keep the unbalanced ones. (Few points: ends
        // of horizontal edges, band-edge splits, a contour's first and last segments.)
        for a in 1..<pts.count {
            let e = pts[a]
            var b = a - 1
            while b >= 0, pts[b].y > e.y || (pts[b].y == e.y && pts[b].x > e.x) { pts[b + 1] = pts[b]; b -= 1 }
            pts[b + 1] = e
        }
        var unbalanced = 0
        var a = 0
        while a < pts.count {
            var e = pts[a]
            var b = a + 1
            while b < pts.count, pts[b].y == e.y, pts[b].x == e.x { e.net &+= pts[b].net; b += 1 }
            if e.net != 0 { pts[unbalanced] = e; unbalanced += 1 }
            a = b
        }
        for u in 0..<unbalanced {
            let e = pts[u]
            for i in 0..<k {
                let c = p[i]
                if c.ya < e.y, e.y < c.yb, c.x(at: e.y) > e.x {
                    s.events.append(CrossingEvent(piece: Int32(i), y: e.y, delta: e.net))
                }
            }
        }
    }

    // Changes of the guard column's winding W (guard pieces are last, in order of y): every
    // other piece passing a change gains it on its left.
    var guardFirst = k
    while guardFirst > 0, p[guardFirst - 1].contour == guardContour { guardFirst -= 1 }
    if guardFirst < k {
        s.endPoints.removeAll()
        @inline(__always) func step(_ y: Double, _ net: Int32) {
            guard rowTop < y, y < rowBottom else { return }
            let n = s.endPoints.count
            if n > 0, s.endPoints[n - 1].y == y { s.endPoints[n - 1].net &+= net }
            else { s.endPoints.append(EndPoint(x: 0.5, y: y, net: net)) }
        }
        for g in guardFirst..<k {
            step(p[g].ya, p[g].dir)
            step(p[g].yb, -p[g].dir)
        }
        let steps = s.endPoints.view
        if steps.count > 0 {
            for i in 0..<guardFirst {
                let c = p[i]
                // The first change below the piece's top (binary search), then each one it spans.
                var lo = 0, hi = steps.count
                while lo < hi { let m = (lo + hi) / 2; if steps[m].y <= c.ya { lo = m + 1 } else { hi = m } }
                while lo < steps.count, steps[lo].y < c.yb {
                    if steps[lo].net != 0 { s.events.append(CrossingEvent(piece: Int32(i), y: steps[lo].y, delta: steps[lo].net)) }
                    lo += 1
                }
            }
        }
    }

    // Each piece's events: how many, their net change of winding (for the chains of step 2)
    // and the sum of their sizes (how far the winding can stray along the piece).
    s.eventStart.reset(count: k + 1, to: 0)
    s.totalDelta.reset(count: k, to: 0)
    s.deltaMagnitude.reset(count: k, to: 0)
    do {
        let events = s.events.view, eventStart = s.eventStart.view, totalDelta = s.totalDelta.view
        let deltaMagnitude = s.deltaMagnitude.view
        for e in 0..<events.count {
            let ev = events[e]
            let i = Int(ev.piece)
            eventStart[i + 1] &+= 1
            totalDelta[i] &+= ev.delta
            deltaMagnitude[i] &+= Int64(ev.delta.magnitude)
        }
    }

    // 2. Winding left of each piece's top.
    s.windingTop.reset(count: k, to: 0)
    s.resolved.reset(count: k, to: false)
    // Pieces entering at the row's top: ordered by x (then by slope, for pieces meeting at a
    // point), their left windings are prefix sums of directions.
    s.sortKeys.removeAll()
    for i in 0..<k { s.sortKeys.append(p[i].ya == rowTop ? p[i].xa : -1) }
    countingSortByColumn(columns: columns, keys: s.sortKeys, counts: &s.columnCount, slots: &s.slots)
    s.keys.removeAll()
    for a in 0..<s.slots.count {
        let i = Int(s.slots[a])
        s.keys.append(SortKey(key: p[i].xa, tie: p[i].slope, index: Int32(i)))
    }
    // Columns are in order; inside a column, order by x then slope (few pieces: insertion sort).
    let keys = s.keys.view
    for a in 1..<max(1, keys.count) {
        let key = keys[a]
        var b = a - 1
        while b >= 0, keys[b].key > key.key || (keys[b].key == key.key && (keys[b].tie > key.tie
                                                                          || (keys[b].tie == key.tie && keys[b].index > key.index))) {
            keys[b + 1] = keys[b]
            b -= 1
        }
        keys[b + 1] = key
    }
    var w: Int32 = 0
    for a in 0..<keys.count {
        let i = Int(keys[a].index)
        s.windingTop[i] = w
        s.resolved[i] = true
        w &+= p[i].dir
    }
    // Guard pieces have nothing on their left.
    for g in guardFirst..<k { s.resolved[g] = true }
    // Pieces starting inside the row: inherit from the chain piece ending where they start
    // (a pass-through vertex), else count.
    countStartWindings(p, rowTop: rowTop, columns: columns, &s)
    for start in 0..<k where !s.resolved[start] {
        s.chain.removeAll()
        var cur = start
        while true {
            s.chain.append(Int32(cur))
            guard let above = chainPredecessor(p, cur) else {
                assignCounted(cur, p, &s)
                s.chain.count -= 1
                break
            }
            if s.resolved[above] { break }
            cur = above
        }
        // Walk back down the chain: each piece starts with the winding its predecessor ends with.
        while s.chain.count > 0 {
            s.chain.count -= 1
            let i = Int(s.chain[s.chain.count])
            let above = chainPredecessor(p, i)!
            s.windingTop[i] = s.windingTop[above] &+ s.totalDelta[above]
            s.resolved[i] = true
        }
    }

    // Group the events by piece (counting sort), each group in order of y: only for pieces
    // that can draw. Under non-zero, a piece whose windings on both sides stay away from 0
    // whatever its events do (the one on its left starts at `windingTop` and moves by at most
    // the sum of their sizes) separates inside from inside all along and draws nothing: its
    // events are neither grouped nor sorted (deep inside S4, most of them). Step 3 then sees it
    // without events, with the same windings on both sides, and still draws nothing.
    let eventStart = s.eventStart.view
    if fillRule == .nonZero && s.skipsPiecesInside {
        var skipped = 0
        let windingTop = s.windingTop.view, deltaMagnitude = s.deltaMagnitude.view
        for i in 0..<k where eventStart[i + 1] != 0 {
            let w = Int64(windingTop[i]), spread = deltaMagnitude[i]
            let low = min(w, w + Int64(p[i].dir)) - spread, high = max(w, w + Int64(p[i].dir)) + spread
            if low > 0 || high < 0 {
                eventStart[i + 1] = 0
                skipped += 1
            }
        }
        s.piecesSkipped &+= skipped
    }
    for i in 0..<k { eventStart[i + 1] &+= eventStart[i] }
    // Every slot is written by the scatter below: no need to clear them first.
    s.sortedEvents.resize(count: Int(eventStart[k]))
    s.columnCount.reset(count: k, to: 0)
    do {
        let next = s.columnCount.view, events = s.events.view, sortedEvents = s.sortedEvents.view
        for i in 0..<k { next[i] = eventStart[i] }
        for e in 0..<events.count {
            let ev = events[e]
            let i = Int(ev.piece)
            // A dropped piece's slot range is empty: its events are not kept.
            guard next[i] < eventStart[i + 1] else { continue }
            sortedEvents[Int(next[i])] = ev
            next[i] &+= 1
        }
    }
    // Most pieces have a few events: insertion sort beats a general sort's setup. A piece
    // crossing thousands (a long, almost horizontal edge: a closing edge tilted by a
    // transform's rounding, under a waveform's samples) would cost their square: sorted.
    // (Events at one height may come in any order: the parts between them have no height.)
    let ev = s.sortedEvents.view
    for i in 0..<k {
        let lo = Int(eventStart[i]), hi = Int(eventStart[i + 1])
        guard hi - lo > 1 else { continue }
        if hi - lo > s.insertionSortLimit {
            var group = UnsafeMutableBufferPointer(start: ev.base + lo, count: hi - lo)
            group.sort { $0.y < $1.y }
            continue
        }
        for a in (lo + 1)..<hi {
            let e = ev[a]
            var b = a - 1
            while b >= lo, ev[b].y > e.y { ev[b + 1] = ev[b]; b -= 1 }
            ev[b + 1] = e
        }
    }

    // 3. Accumulate the boundary parts of every piece.
    let evenOdd = fillRule == .evenOdd
    @inline(__always) func inside(_ w: Int32) -> Bool { evenOdd ? (w & 1) != 0 : w != 0 }
    if evenOdd && s.drawsWholePieces {
        drawEvenOddPieces(p, ev, width: width, &s, out: &out)
        return true
    }
    let windingTop = s.windingTop.view
    for i in 0..<k {
        let pc = p[i]
        var w = windingTop[i]
        var y = pc.ya
        var e = Int(eventStart[i])
        let end = Int(eventStart[i + 1])
        while true {
            let yEnd = e < end ? ev[e].y : pc.yb
            let l = inside(w), r = inside(w &+ pc.dir)
            if l != r, yEnd > y {
                // Kept in the band's cells whatever rounding did (the accumulation is unchecked).
                let x0 = min(width, max(0, pc.x(at: y))), x1 = min(width, max(0, pc.x(at: yEnd)))
                if r { out.line(x0, y, x1, yEnd) } else { out.line(x1, yEnd, x0, y) }
            }
            if e >= end { break }
            w &+= ev[e].delta
            y = yEnd
            e += 1
        }
    }
    return true
}

/// Step 3 of `resolveRowExactly` under even-odd. There every part of every piece is a
/// boundary (its two sides differ by its direction, ±1; only a guard piece's may be even, and
/// then none of it is), drawn as a left boundary
/// where its left side is outside and as a right boundary where it is inside: a part's sign
/// is o = −1 where its left winding is odd, else +1. Drawing the whole piece once with its
/// first part's sign o₀ and adding −2·o₀ times each run of parts whose sign differs accumulates
/// the same sum, Σ oⱼ·partⱼ, in about half the lines (at each crossing the sign flips, so
/// every other part is such a run). The cover of every row is the same integers as drawing
/// the parts one by one; only where a part's end is rounded to fixed point inside the piece
/// does the area differ, by that rounding (`ExactCrossingKernelTests.evenOddPiecesDrawnWholeCoverTheSameArea`).
private func drawEvenOddPieces<Out: LineSink & ~Copyable>(_ p: UnsafeBufferPointer<Piece>, _ ev: ScratchView<CrossingEvent>,
                                                          width: Double, _ s: inout ExactRowScratch, out: inout Out) {
    @inline(__always) func x(_ pc: Piece, _ y: Double) -> Double { min(width, max(0, pc.x(at: y))) }
    for i in 0..<p.count {
        let pc = p[i]
        // A guard piece's winding may be even: then both its sides are outside or inside
        // together, and it bounds nothing.
        guard pc.yb > pc.ya, pc.dir & 1 != 0 else { continue }
        var w = s.windingTop[i]
        let first: Int32 = (w & 1) != 0 ? -1 : 1
        out.line(x(pc, pc.ya), pc.ya, x(pc, pc.yb), pc.yb, weight: first)
        var e = Int(s.eventStart[i])
        let end = Int(s.eventStart[i + 1])
        // The run of parts drawn against `first` that is open, from `runStart`.
        var runStart = pc.ya
        var open = false
        while e < end {
            let y = ev[e].y
            w &+= ev[e].delta
            e += 1
            // Events at one height act together: the part between them has no height.
            if e < end, ev[e].y == y { continue }
            let flipped = ((w & 1) != 0 ? -1 : 1) != first
            if flipped != open {
                if open, y > runStart { out.line(x(pc, runStart), runStart, x(pc, y), y, weight: -2 * first) }
                runStart = y
                open = flipped
            }
        }
        if open, pc.yb > runStart { out.line(x(pc, runStart), runStart, x(pc, pc.yb), pc.yb, weight: -2 * first) }
    }
}

/// Step 1 of `resolveRowExactly` by `raster_exact_crossings` (AVX2, four pairs at a time) on
/// the pieces in `s.sorted`: the same events as the Swift loop, in the same order, into
/// `s.events`. Returns nil where the kernel is unavailable (nothing done), false when the
/// strip holds more pairs than `budget`, else true.
private func findCrossingsWithKernel(k: Int, budget: Int, _ s: inout ExactRowScratch) -> Bool? {
    // Without AVX2 the arrays below would be built for nothing.
    guard raster_kernels_avx2_in_use() != 0 else { return nil }
    s.fieldXmin.resize(count: k); s.fieldXmax.resize(count: k)
    s.fieldXa.resize(count: k); s.fieldYa.resize(count: k)
    s.fieldXb.resize(count: k); s.fieldYb.resize(count: k); s.fieldSlope.resize(count: k)
    s.fieldDir.resize(count: k); s.fieldContour.resize(count: k)
    let q = s.sorted.buffer
    let xmin = s.fieldXmin.view, xmax = s.fieldXmax.view, xa = s.fieldXa.view, ya = s.fieldYa.view
    let xb = s.fieldXb.view, yb = s.fieldYb.view, slope = s.fieldSlope.view, dir = s.fieldDir.view, contour = s.fieldContour.view
    for a in 0..<k {
        let c = q[a]
        xmin[a] = c.xmin; xmax[a] = c.xmax
        xa[a] = c.xa; ya[a] = c.ya; xb[a] = c.xb; yb[a] = c.yb; slope[a] = c.slope
        dir[a] = c.dir; contour[a] = c.contour
    }
    s.fieldCount = k
    var pieces = raster_strip_pieces(xmin: xmin.base, xmax: xmax.base, xa: xa.base, ya: ya.base, xb: xb.base, yb: yb.base,
                                     slope: slope.base, dir: dir.base, index: s.sortedIndex.base, contour: contour.base,
                                     count: k)
    var next = 0, count = 0
    var pairs: Int64 = 0
    while true {
        // The kernel writes from `count` on; the buffer's own count is set when it returns.
        let capacity = s.events.capacity
        let status = s.events.base.withMemoryRebound(to: raster_crossing.self, capacity: capacity) { events in
            raster_exact_crossings(&pieces, &next, &pairs, Int64(budget), events, &count, capacity)
        }
        switch status {
        case 0: s.events.resize(count: count); return true
        case 1:
            // The next piece's pairs might not fit: grow (it has fewer than k of them) and go on.
            s.events.resize(count: count)
            s.events.reserve(max(2 * capacity, count + 2 * k))
        case 2: s.events.resize(count: count); return false
        default: return nil
        }
    }
}

/// The most pairs of overlapping pieces `resolveRowExactly` examines in a strip of `k`
/// pieces: 64 per piece and 2¹⁸ more. S4's busiest strips stay far below it; a star of
/// 9,000 edges spanning the canvas (40 million pairs a strip) goes over.
@inline(__always)
func crossingPairBudget(_ k: Int) -> Int { 64 * k + (1 << 18) }

/// Sub-rows per pixel row in `resolveRowBySampling`.
let samplingSubRows = 16

/// A crossing of a sub-row's centre line: where, and the direction of the piece.
struct SampleCrossing {
    var x: Double
    var dir: Int32
}

/// Coverage of a strip too crowded for `resolveRowExactly`, in O(k log k) per sub-row:
/// each pixel row is cut into `samplingSubRows` sub-rows, and along each sub-row's centre line
/// the pieces' crossings are sorted and wound, and every inside interval drawn as a box of the
/// sub-row's height (a left side winding +1, a right side −1: disjoint, so the cells add
/// exact areas). Exact along x; along y, a sub-row takes the winding at its centre, so the
/// area is off only in sub-rows where a piece ends or two cross: at most 1/16 of a pixel's
/// height at such a point, a few levels, where the exact area would cost the square of the
/// pieces. (Counted in `Rasterizer.sampledRows`.)
func resolveRowBySampling<Out: LineSink & ~Copyable>(_ p: UnsafeBufferPointer<Piece>, rowTop: Double, rowBottom: Double,
                                                    fillRule: FillRule, crossings: inout ScratchBuffer<SampleCrossing>,
                                                    out: inout Out) {
    let evenOdd = fillRule == .evenOdd
    @inline(__always) func inside(_ w: Int32) -> Bool { evenOdd ? (w & 1) != 0 : w != 0 }
    let n = Int((rowBottom - rowTop).rounded()) * samplingSubRows
    let h = 1 / Double(samplingSubRows)
    for sub in 0..<n {
        let y0 = rowTop + Double(sub) * h, y1 = y0 + h, y = y0 + h / 2
        crossings.removeAll()
        for piece in p where piece.ya <= y && y < piece.yb {
            crossings.append(SampleCrossing(x: piece.x(at: y), dir: piece.dir))
        }
        guard crossings.count > 0 else { continue }
        var sortable = UnsafeMutableBufferPointer(start: crossings.base, count: crossings.count)
        sortable.sort { $0.x < $1.x }
        var w: Int32 = 0
        var start = 0.0
        for c in sortable {
            let was = inside(w)
            w &+= c.dir
            let now = inside(w)
            if !was && now {
                start = c.x
            } else if was && !now, c.x > start {
                out.line(start, y0, start, y1)
                out.line(c.x, y1, c.x, y0)
            }
        }
        // Pieces right of the band were dropped: the winding need not come back to 0, and an
        // interval still open covers the rest of the row.
        if inside(w) { out.line(start, y0, start, y1) }
    }
}

/// The piece of the same chain that ends exactly where piece `i` starts, running the same way
/// (a pass-through vertex, where the region on the left continues). Connected pieces sit next
/// to each other in a row's list, which is in segment order.
@inline(__always)
private func chainPredecessor(_ p: UnsafeBufferPointer<Piece>, _ i: Int) -> Int? {
    let c = p[i]
    if i > 0 {
        let q = p[i - 1]
        if q.contour == c.contour, q.dir == c.dir, q.yb == c.ya, q.xb == c.xa { return i - 1 }
    }
    if i + 1 < p.count {
        let q = p[i + 1]
        if q.contour == c.contour, q.dir == c.dir, q.yb == c.ya, q.xb == c.xa { return i + 1 }
    }
    return nil
}

/// The other piece starting at the vertex where piece `i` starts, in the same contour (a
/// local top of the path): the piece beside it in the row's list, else −1.
@inline(__always)
private func startPartner(_ i: Int, _ p: UnsafeBufferPointer<Piece>) -> Int {
    let c = p[i]
    if i > 0, p[i - 1].ya == c.ya, p[i - 1].xa == c.xa, p[i - 1].contour == c.contour { return i - 1 }
    if i + 1 < p.count, p[i + 1].ya == c.ya, p[i + 1].xa == c.xa, p[i + 1].contour == c.contour { return i + 1 }
    return -1
}

/// Whether piece `j` passes left of where piece `a` (index `ia`) starts, just below that
/// height. Ties are ordered totally, by x, then slope, then index: coincident pieces (verticals
/// clamped to the band's left edge, say) must see one another in a consistent order, and any
/// consistent order gives them the right net.
@inline(__always)
private func passesLeft(_ j: Int, of a: Piece, _ ia: Int, _ p: UnsafeBufferPointer<Piece>) -> Bool {
    passesLeft(p[j], j, of: a, ia)
}

/// `passesLeft` of piece `q`, whose index is `j`.
@inline(__always)
private func passesLeft(_ q: Piece, _ j: Int, of a: Piece, _ ia: Int) -> Bool {
    let xq = q.x(at: a.ya)
    return xq < a.xa || (xq == a.xa && (q.slope < a.slope || (q.slope == a.slope && j < ia)))
}

/// The winding left of every piece that starts inside the strip with no chain piece above it
/// (where `resolved` is false and `chainPredecessor` finds nothing), into `counted`: the
/// directions of the pieces present just below its start and left of it (`passesLeft`),
/// itself and its `startPartner` left out.
///
/// Counted piece by piece, that costs starts × pieces: the square of the pieces in a strip
/// full of local tops (a waveform of 40,000 samples filled: most of its render). Above
/// `countingBudget` steps it is one sweep instead, with the same result: a piece whose
/// columns end two or more left of the start's column passes left of it whatever rounding
/// does, so those are summed by a sweep down the strip over a Fenwick tree by last column
/// (O((k + starts) log k)); the pieces reaching the columns beside the start's (listed by
/// column) are compared one by one as above. Work: the pieces' columns (as many as the cells
/// their accumulation writes), the sort, and for each start the pieces in three columns.
func countStartWindings(_ p: UnsafeBufferPointer<Piece>, rowTop: Double, columns: Int, _ s: inout ExactRowScratch) {
    let k = p.count
    s.starts.removeAll()
    for i in 0..<k where !s.resolved[i] && chainPredecessor(p, i) == nil { s.starts.append(Int32(i)) }
    let m = s.starts.count
    guard m > 0 else { return }
    s.counted.resize(count: k)
    // Columns of each piece, and how many list entries the sweep would make (as many as the
    // cells the pieces' accumulation writes).
    @inline(__always) func column(_ x: Double) -> Int32 { Int32(min(Double(columns - 1), max(0, x))) }
    @inline(__always) func findColumns() -> Int {
        s.columnLow.resize(count: k)
        s.columnHigh.resize(count: k)
        var entries = 0
        for j in 0..<k {
            let lo = column(p[j].xmin), hi = column(p[j].xmax)
            s.columnLow[j] = lo
            s.columnHigh[j] = hi
            entries += Int(hi - lo) + 1
        }
        return entries
    }
    // Counted one by one while that costs no more than a small multiple of the strip's own
    // work, or of what the sweep would take (its entries and its sort). The columns are found
    // only when that second bound is needed, or for the sweep.
    var columnsFound = false
    let counting: Bool
    if let budget = s.countingBudget {
        counting = m * k <= budget
    } else if m * k <= 64 * (k + columns) {
        counting = true
    } else {
        let sweepCost = findColumns() + 2 * k * (Int.bitWidth - k.leadingZeroBitCount)
        columnsFound = true
        counting = m * k <= 2 * sweepCost
    }
    if counting {
        // The pieces in order of their left ends (`sorted`, from step 1 of
        // `resolveRowExactly`): one whose left end lies right of a start never passes left of
        // it, so only the prefix up to the start's x is read (half the strip on average). The
        // prefix reaches a pixel further, beyond any rounding of `x(at:)` (a piece's x at a
        // height can stray from its ends by a few ulps), and the sum is the same in any order.
        let sorted = s.sorted.buffer, sortedIndex = s.sortedIndex.buffer
        // Four pieces at a time in C where step 1 left the pieces one field per array (AVX2).
        var fields = s.fieldCount == k
            ? raster_strip_pieces(xmin: s.fieldXmin.base, xmax: s.fieldXmax.base, xa: s.fieldXa.base, ya: s.fieldYa.base,
                                  xb: s.fieldXb.base, yb: s.fieldYb.base, slope: s.fieldSlope.base, dir: s.fieldDir.base,
                                  index: s.sortedIndex.base, contour: s.fieldContour.base, count: k)
            : nil
        for a in 0..<m {
            let i = Int(s.starts[a])
            let c = p[i]
            let partner = startPartner(i, p)
            let reach = c.xa + 1
            var lo = 0, hi = k
            while lo < hi { let mid = (lo + hi) / 2; if sorted[mid].xmin <= reach { lo = mid + 1 } else { hi = mid } }
            var w: Int32 = 0
            if fields != nil, raster_count_left(&fields!, lo, c.xa, c.ya, c.slope, Int32(i), Int32(partner), &w) == 0 {
                s.counted[i] = w
                s.countingWork &+= lo
                continue
            }
            for b in 0..<lo {
                // `passesLeft` of every piece present at the start's height, but for the
                // start and its partner, as bits (which pieces count goes either way at
                // random: a branch each was mispredicted). At that height, at or below the
                // piece's top (where the line from the top gives its x exactly: slopes are
                // finite) and above its bottom, the line from its top is `x(at:)`; for the
                // pieces not counted the value means nothing.
                let j = Int(sortedIndex[b])
                let q = sorted[b]
                let xq = q.xa + (c.ya - q.ya) * q.slope
                let left = bit(xq < c.xa) | (bit(xq == c.xa) & (bit(q.slope < c.slope) | (bit(q.slope == c.slope) & bit(j < i))))
                let counts = bit(j != i) & bit(j != partner) & bit(q.ya <= c.ya) & bit(c.ya < q.yb) & left
                w &+= q.dir & (0 &- Int32(counts))
            }
            s.counted[i] = w
            s.countingWork &+= lo
        }
        return
    }
    if !columnsFound { _ = findColumns() }
    // The pieces listed in every column they span: counted as a difference (+1 at the first
    // column, −1 after the last), summed into each column's start.
    s.columnStart.reset(count: columns + 1, to: 0)
    for j in 0..<k {
        s.columnStart[Int(s.columnLow[j]) + 1] &+= 1
        if Int(s.columnHigh[j]) + 2 <= columns { s.columnStart[Int(s.columnHigh[j]) + 2] &-= 1 }
    }
    // Now columnStart[c + 1] holds column c's count after a first prefix sum; a second makes
    // the starts.
    for c in 0..<columns { s.columnStart[c + 1] &+= s.columnStart[c] }
    for c in 0..<columns { s.columnStart[c + 1] &+= s.columnStart[c] }
    s.columnPieces.resize(count: Int(s.columnStart[columns]))
    s.columnNext.resize(count: columns)
    let fill = s.columnNext.view
    for c in 0..<columns { fill[c] = s.columnStart[c] }
    for j in 0..<k {
        for c in Int(s.columnLow[j])...Int(s.columnHigh[j]) {
            s.columnPieces[Int(fill[c])] = Int32(j)
            fill[c] &+= 1
        }
    }
    s.countingWork &+= s.columnPieces.count
    // The sweep: pieces enter at their top (those at the strip's top at once) and leave at
    // their bottom; starts are answered in order of height, after every piece entering or
    // leaving at or above it.
    s.fenwick.reset(count: columns + 1, to: 0)
    let tree = s.fenwick.view
    @inline(__always) func add(_ column: Int32, _ delta: Int32) {
        var n = Int(column) + 1
        while n <= columns { tree[n] &+= delta; n += n & -n }
    }
    @inline(__always) func sum(through column: Int) -> Int32 {
        var total: Int32 = 0
        var n = column + 1
        while n > 0 { total &+= tree[n]; n -= n & -n }
        return total
    }
    s.sweep.removeAll()
    for j in 0..<k {
        let q = p[j]
        if q.ya > rowTop { s.sweep.append(SweepStep(y: q.ya, delta: q.dir, index: Int32(j))) } else { add(s.columnHigh[j], q.dir) }
        s.sweep.append(SweepStep(y: q.yb, delta: -q.dir, index: Int32(j)))
    }
    s.startOrder.removeAll()
    for a in 0..<m { s.startOrder.append(SweepStep(y: p[Int(s.starts[a])].ya, delta: 0, index: s.starts[a])) }
    var steps = UnsafeMutableBufferPointer(start: s.sweep.base, count: s.sweep.count)
    steps.sort { $0.y < $1.y }
    var order = UnsafeMutableBufferPointer(start: s.startOrder.base, count: m)
    order.sort { $0.y < $1.y }
    s.countingWork &+= s.sweep.count
    var next = 0
    for a in 0..<m {
        let i = Int(order[a].index)
        let c = p[i]
        while next < steps.count, steps[next].y <= c.ya {
            add(s.columnHigh[Int(steps[next].index)], steps[next].delta)
            next += 1
        }
        let cv = Int(column(c.xa))
        // Pieces ending two or more columns left: left of the start.
        var w: Int32 = cv >= 2 ? sum(through: cv - 2) : 0
        // Pieces reaching the columns beside it (cv − 1 … cv + 1), each once.
        let partner = startPartner(i, p)
        let c0 = max(0, cv - 1), c1 = min(columns - 1, cv + 1)
        for x in c0...c1 {
            for n in Int(s.columnStart[x])..<Int(s.columnStart[x + 1]) {
                let j = Int(s.columnPieces[n])
                // Listed in the column before too.
                if x > c0, Int(s.columnLow[j]) < x { continue }
                s.countingWork &+= 1
                guard j != i, j != partner else { continue }
                let q = p[j]
                guard q.ya <= c.ya, c.ya < q.yb else { continue }
                if passesLeft(j, of: c, i, p) { w &+= q.dir }
            }
        }
        s.counted[i] = w
    }
}

/// Sets the top winding of piece `i`, which starts inside the strip with no chain piece above
/// it, from `countStartWindings`, and of its partner when two pieces start at the same vertex
/// (a local top of the path): the one passing left first.
private func assignCounted(_ i: Int, _ p: UnsafeBufferPointer<Piece>, _ s: inout ExactRowScratch) {
    let w = s.counted[i]
    let partner = startPartner(i, p)
    if partner >= 0 {
        let partnerFirst = passesLeft(partner, of: p[i], i, p)
        let (left, right) = partnerFirst ? (partner, i) : (i, partner)
        s.windingTop[left] = w
        s.windingTop[right] = w &+ p[left].dir
        s.resolved[partner] = true
    } else {
        s.windingTop[i] = w
    }
    s.resolved[i] = true
}

/// Fills `slots` with the indices of `keys` in order of each key's pixel column (a stable
/// counting sort, O(count + columns)); negative keys are left out.
@inline(__always)
private func countingSortByColumn(columns: Int, keys: borrowing ScratchBuffer<Double>, counts: inout ScratchBuffer<Int32>,
                                  slots: inout ScratchBuffer<Int32>) {
    counts.reset(count: columns + 1, to: 0)
    var total = 0
    for i in 0..<keys.count {
        let x = keys[i]
        guard x >= 0 else { continue }
        counts[min(columns - 1, Int(x)) + 1] &+= 1
        total += 1
    }
    slots.reset(count: total, to: -1)
    guard total > 0 else { return }
    for c in 0..<columns { counts[c + 1] &+= counts[c] }
    for i in 0..<keys.count {
        let x = keys[i]
        guard x >= 0 else { continue }
        let c = min(columns - 1, Int(x))
        slots[Int(counts[c])] = Int32(i)
        counts[c] &+= 1
    }
}
