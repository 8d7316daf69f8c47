/// Adds one line to the signed-area accumulation cells (band-local coordinates,
/// 0 ≤ x ≤ width, rows ≥ 0). A line running down (y increasing) adds positive winding to every
/// pixel on its right, one running up negative: each cell receives the line's signed height in
/// it times the share of the cell right of the line, and the next cell the rest, so the
/// prefix sum along a row is each pixel's signed covered area.
@inline(__always)
func accumulateLine(_ acc: UnsafeMutablePointer<Float>, stride: Int,
                    _ px0: Float, _ py0: Float, _ px1: Float, _ py1: Float) {
    if py0 == py1 { return }
    let dir: Float = py0 < py1 ? 1 : -1
    let (xa, ya, xb, yb) = py0 < py1 ? (px0, py0, px1, py1) : (px1, py1, px0, py0)
    let dxdy = (xb - xa) / (yb - ya)
    let xlo = min(xa, xb), xhi = max(xa, xb)
    var y = ya
    var x = xa
    var row = Int(ya)
    while y < yb {
        let yNext = min(Float(row + 1), yb)
        let dy = yNext - y
        // x at the row's lower crossing, from the start point (no drift), kept on the segment.
        let xNext = yNext == yb ? xb : min(xhi, max(xlo, xa + (yNext - ya) * dxdy))
        let d = dy * dir
        let line = acc + row * stride
        let l = min(x, xNext), r = max(x, xNext)
        let c = Int(l)
        if r <= Float(c + 1) {
            // Inside one column: the area right of the segment is (c + 1 − mid)·dy.
            let mid = (l + r) * 0.5 - Float(c)
            line[c] += d * (1 - mid)
            line[c + 1] += d * mid
        } else {
            // Across columns: each column receives the piece of dy it holds.
            let dPerX = d / (r - l)
            var xc = l
            var col = c
            while xc < r {
                let xe = min(Float(col + 1), r)
                let dp = dPerX * (xe - xc)
                let mid = (xc + xe) * 0.5 - Float(col)
                line[col] += dp * (1 - mid)
                line[col + 1] += dp * mid
                xc = xe
                col += 1
            }
        }
        x = xNext
        y = yNext
        row += 1
    }
}

/// Where the strip resolver's lines go (`RowScratch.accumulate`, `resolveRowExactly`): band-local
/// coordinates, the guard column at x ∈ [0, 1) and the band's pixels from x = 1. A line from
/// (x0, y0) to (x1, y1) adds winding +1 to its right where it runs down (y1 > y0), −1 where it
/// runs up.
protocol LineSink: ~Copyable {
    /// Whether `RowScratch` should keep each row's touched cells (`touchedFirst`,
    /// `touchedLast`) for a sweep of its own; the cell rasterizer tracks its own.
    var needsTouchedCells: Bool { get }
    /// A band with `edgeCount` edges starts (the `segment` numbers of its pieces).
    mutating func begin(edgeCount: Int)
    mutating func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double)
    /// The line from (x0, y0) to (x1, y1) accumulated `weight` times: reversed where the
    /// weight is negative, nothing where it is 0.
    mutating func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, weight: Int32)
    /// A piece of a strip accumulated as it is (`rowIsSimple`).
    mutating func piece(_ p: Piece)
}

extension LineSink where Self: ~Copyable {
    var needsTouchedCells: Bool { false }
    mutating func begin(edgeCount: Int) {}

    @inline(__always)
    mutating func piece(_ p: Piece) {
        if p.dir > 0 { line(p.xa, p.ya, p.xb, p.yb) } else { line(p.xb, p.yb, p.xa, p.ya) }
    }

    /// The line drawn |`weight`| times.
    @inline(__always)
    mutating func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, weight: Int32) {
        for _ in 0..<Int(weight.magnitude) {
            if weight > 0 { line(x0, y0, x1, y1) } else { line(x1, y1, x0, y0) }
        }
    }
}

/// Lines accumulated into `Float` cells (`accumulateLine`): the strip resolver's own sweep, for
/// regions too large for the cell rasterizer.
struct FloatCells: LineSink {
    let cells: UnsafeMutablePointer<Float>
    let stride: Int
    var needsTouchedCells: Bool { true }

    @inline(__always)
    mutating func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        accumulateLine(cells, stride: stride, Float(x0), Float(y0), Float(x1), Float(y1))
    }
}

/// Lines kept as the cell rasterizer's fixed-point edges (`shift` bits, region-local: band x
/// − 1, clamped to the region's [0, `width`] columns), so the strip resolver's output, simple
/// strips as they are and complex ones resolved, is drawn by the cell rasterizer and its
/// compositors. Ends are rounded to the nearest fixed-point step, so lines that meet in
/// `Double` meet in fixed point; a line with no fixed-point height adds nothing.
///
/// The pieces of one edge in consecutive simple strips become one edge again (the strips cut
/// it only to classify them): the cell rasterizer then walks one line, not one per strip.
struct FixedLines: LineSink, ~Copyable {
    var edges = ScratchBuffer<FixedEdge>()
    /// Where `line` draws at once instead of keeping the line (`CellRasterizer.directLines`):
    /// the resolved strips' lines, most of a self-crossing path's, need no sorting into bands.
    /// Pieces of simple strips are still kept, to be joined across strips.
    var direct: CellLines?
    /// Per edge of the band: the index in `edges` of its last simple piece (−1: none yet).
    private var lastPiece = ScratchBuffer<Int32>()
    private var one: Double
    private var right: Double

    init(shift: Int, width: Int) {
        one = Double(1 << shift)
        right = Double(width << shift)
    }

    /// Empties the lines for a region `width` px wide, `shift` bits.
    mutating func reset(shift: Int, width: Int, direct: CellLines? = nil) {
        one = Double(1 << shift)
        right = Double(width << shift)
        edges.removeAll()
        self.direct = direct
    }

    @inline(__always) private mutating func keep(_ edge: FixedEdge) {
        if let direct { direct.draw(edge) } else { edges.append(edge) }
    }

    mutating func begin(edgeCount: Int) {
        lastPiece.reset(count: edgeCount, to: -1)
    }

    /// y in fixed point: y ≥ 0 inside a band, so adding ½ and truncating rounds it (a libm
    /// `round` call per end cost S5 4 % of its instructions).
    @inline(__always) private func fixedY(_ y: Double) -> Int32 { Int32(y * one + 0.5) }
    @inline(__always) private func fixedX(_ x: Double) -> Int32 { Int32(min(right, max(0, (x - 1) * one + 0.5))) }

    @inline(__always)
    mutating func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        let fy0 = fixedY(y0), fy1 = fixedY(y1)
        guard fy0 != fy1 else { return }
        if fy0 < fy1 {
            keep(FixedEdge(x0: fixedX(x0), y0: fy0, x1: fixedX(x1), y1: fy1, dir: 1))
        } else {
            keep(FixedEdge(x0: fixedX(x1), y0: fy1, x1: fixedX(x0), y1: fy0, dir: -1))
        }
    }

    /// One edge whose `dir` is the weight: the cell rasterizer multiplies every cover and area
    /// by it, which is the line accumulated that many times.
    @inline(__always)
    mutating func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, weight: Int32) {
        let fy0 = fixedY(y0), fy1 = fixedY(y1)
        guard fy0 != fy1, weight != 0 else { return }
        if fy0 < fy1 {
            keep(FixedEdge(x0: fixedX(x0), y0: fy0, x1: fixedX(x1), y1: fy1, dir: weight))
        } else {
            keep(FixedEdge(x0: fixedX(x1), y0: fy1, x1: fixedX(x0), y1: fy0, dir: 0 &- weight))
        }
    }

    @inline(__always)
    mutating func piece(_ p: Piece) {
        let fy0 = fixedY(p.ya), fy1 = fixedY(p.yb)
        guard fy0 != fy1 else { return }
        let fx0 = fixedX(p.xa), fx1 = fixedX(p.xb)
        guard p.segment >= 0, Int(p.segment) < lastPiece.count else {
            edges.append(FixedEdge(x0: fx0, y0: fy0, x1: fx1, y1: fy1, dir: p.dir > 0 ? 1 : -1))
            return
        }
        let k = Int(lastPiece[Int(p.segment)])
        if k >= 0, edges[k].y1 == fy0, edges[k].x1 == fx0 {
            edges[k].x1 = fx1
            edges[k].y1 = fy1
            return
        }
        lastPiece[Int(p.segment)] = Int32(edges.count)
        edges.append(FixedEdge(x0: fx0, y0: fy0, x1: fx1, y1: fy1, dir: p.dir > 0 ? 1 : -1))
    }
}
