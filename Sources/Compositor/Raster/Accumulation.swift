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
