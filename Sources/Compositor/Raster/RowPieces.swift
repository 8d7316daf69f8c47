/// One edge clipped to one pixel row of a band: band-local coordinates, top end first
/// (`ya < yb`), `dir` +1 where the path runs down and −1 where it runs up.
struct Piece {
    var xa: Double, ya: Double, xb: Double, yb: Double
    /// dx/dy, for x at any height and for ordering pieces that meet at one point.
    var slope: Double
    var dir: Int32
    /// Index of the flattened segment it came from; consecutive indices in one contour are
    /// connected, which is what makes a chain.
    var segment: Int32
    var contour: Int32

    @inline(__always) func x(at y: Double) -> Double {
        y <= ya ? xa : y >= yb ? xb : xa + (y - ya) * slope
    }
    @inline(__always) var xmin: Double { min(xa, xb) }
    @inline(__always) var xmax: Double { max(xa, xb) }
}

/// Rows with more separate chains than this go straight to the exact path.
let maximumRunsChecked = 32

/// The horizontal extent of one chain in a strip, and its direction when it runs one way only
/// (0 when it turns vertically).
struct Run {
    var lo: Double, hi: Double
    var dir: Int32 = 0
    /// Its pieces: indices first..<end of the strip's list.
    var first = 0, end = 0
}

/// Whether a row's pieces can be accumulated as they are: true when no two separate chains
/// (runs of connected segments) share a pixel and no chain can cross itself in the row. Then
/// every pixel holds at most two winding numbers that differ by one, and folding the pixel's
/// net area by the fill rule is exact: with windings w and w + 1 over shares 1 − f and f, the
/// net area is w + f, and both min(1, |·|) and the even-odd fold of w + f give the covered
/// share. A chain that is monotone in x or in y within the row is the graph of a function and
/// cannot cross itself; one that turns both ways might. Two chains may share pixels when both
/// run one way vertically, in opposite directions (the two sides of a thin stroke): a pixel
/// then holds windings w, w ± 1, w, still two adjacent values, provided the two do not cross
/// in the strip (which is checked piece by piece). Otherwise
/// (three chains, or two running the same way: windings 0 | 1 | 2) the strip needs
/// `resolveRowExactly`.
func rowIsSimple(_ pieces: UnsafeBufferPointer<Piece>, runs: inout ScratchBuffer<Run>) -> Bool {
    runs.removeAll()
    var lo = Double.infinity, hi = -Double.infinity
    var q = pieces[0]
    var runFirst = 0
    // Monotonicity of the current run along the path: its vertical direction, and the sign of
    // its horizontal steps (0 until one is seen).
    var runDir = q.dir, runDx = 0.0, turnsVertically = false, turnsHorizontally = false
    for (n, p) in pieces.enumerated() {
        // Consecutive pieces are one chain only if they meet in this row (consecutive segments
        // may meet rows away, through a horizontal edge, and cross here).
        if n > 0, !(q.contour == p.contour && (p.segment == q.segment || p.segment == q.segment + 1)
                    && ((q.xb == p.xa && q.yb == p.ya) || (q.xa == p.xb && q.ya == p.yb)
                        || (q.xa == p.xa && q.ya == p.ya) || (q.xb == p.xb && q.yb == p.yb))) {
            runs.append(Run(lo: lo, hi: hi, dir: turnsVertically ? 0 : runDir, first: runFirst, end: n))
            runFirst = n
            lo = .infinity; hi = -.infinity
            runDir = p.dir; runDx = 0; turnsVertically = false; turnsHorizontally = false
            // Many separate chains in one row almost always share pixels somewhere; calling the
            // row complex is always safe (only slower), and spares sorting hundreds of runs.
            if runs.count > maximumRunsChecked { return false }
        }
        if p.dir != runDir { turnsVertically = true }
        let dx = p.dir > 0 ? p.xb - p.xa : p.xa - p.xb   // along the path
        if dx != 0 {
            if runDx != 0, (dx > 0) != (runDx > 0) { turnsHorizontally = true }
            runDx = dx
        }
        if turnsVertically && turnsHorizontally { return false }
        lo = min(lo, p.xmin); hi = max(hi, p.xmax)
        q = p
    }
    runs.append(Run(lo: lo, hi: hi, dir: turnsVertically ? 0 : runDir, first: runFirst, end: pieces.count))
    if runs.count == 1 { return true }
    // Sort by left end (few runs: insertion sort), then walk clusters of runs sharing columns.
    for a in 1..<runs.count {
        let r = runs[a]
        var b = a - 1
        while b >= 0, runs[b].lo > r.lo { runs[b + 1] = runs[b]; b -= 1 }
        runs[b + 1] = r
    }
    var clusterStart = 0
    var reach = runs[0].hi.rounded(.down)
    for a in 1...runs.count {
        if a < runs.count, runs[a].lo.rounded(.down) <= reach {
            reach = max(reach, runs[a].hi.rounded(.down))
            continue
        }
        // runs[clusterStart..<a] share columns.
        switch a - clusterStart {
        case 1: break
        case 2:
            let r0 = runs[clusterStart], r1 = runs[clusterStart + 1]
            if r0.dir == 0 || r1.dir == 0 || r0.dir == r1.dir || chainsMeet(pieces, r0, r1) { return false }
        default: return false
        }
        if a < runs.count {
            clusterStart = a
            reach = runs[a].hi.rounded(.down)
        }
    }
    return true
}

/// Whether any piece of run `a` crosses or touches any piece of run `b` (over their common
/// heights, the difference of their x changes sign or reaches zero).
private func chainsMeet(_ pieces: UnsafeBufferPointer<Piece>, _ a: Run, _ b: Run) -> Bool {
    for i in a.first..<a.end {
        let p = pieces[i]
        for j in b.first..<b.end {
            let q = pieces[j]
            if p.xmax < q.xmin || q.xmax < p.xmin { continue }
            let y0 = max(p.ya, q.ya), y1 = min(p.yb, q.yb)
            if y1 < y0 { continue }
            let d0 = p.x(at: y0) - q.x(at: y0), d1 = p.x(at: y1) - q.x(at: y1)
            if d0 == 0 || d1 == 0 || (d0 < 0) != (d1 < 0) { return true }
        }
    }
    return false
}
