import Foundation

/// How closely shape booleans follow curves, in the paths' own coordinates. Booleans run in
/// point space, before the render scale is known: 0.025 points keeps the 0.1 device-pixel
/// contract up to scale 4 (the flattened result is then drawn as lines, exact at any scale).
public let booleanTolerance = 0.025

/// The most work one boolean may do, in edge visits across the sweep's beams (a beam visits
/// every edge it spans): 5 × 10^6, about 0.2 s. Two 1,000-vertex spiky polygons need 2.6 × 10^5;
/// pathological operands (thousands of crossing curves) would need billions. Beyond the limit
/// the operation returns an empty path rather than running for minutes.
public let booleanWorkLimit = 5_000_000

/// Edges with a coordinate beyond this magnitude are left out of booleans: 2^40 points is far
/// beyond any drawing, and keeps every product the sweep forms finite.
public let booleanCoordinateLimit = 1_099_511_627_776.0

extension Path {
    /// The area inside this path or `other` (SwiftUI's `union(_:eoFill:)`). Both are read with
    /// the even-odd rule when `eoFill` is true, else non-zero.
    ///
    /// ```swift
    /// let badge = Path(ellipseIn: CGRect(x: 0, y: 0, width: 40, height: 40))
    ///     .union(Path(CGRect(x: 20, y: 0, width: 40, height: 40)))
    /// ```
    public func union(_ other: Path, eoFill: Bool = false) -> Path {
        Path.combine(self, other, eoFill: eoFill) { $0 || $1 }
    }

    /// The area inside both this path and `other`.
    public func intersection(_ other: Path, eoFill: Bool = false) -> Path {
        Path.combine(self, other, eoFill: eoFill) { $0 && $1 }
    }

    /// The area inside this path and outside `other`.
    public func subtracting(_ other: Path, eoFill: Bool = false) -> Path {
        Path.combine(self, other, eoFill: eoFill) { $0 && !$1 }
    }

    /// The area inside exactly one of this path and `other`.
    public func symmetricDifference(_ other: Path, eoFill: Bool = false) -> Path {
        Path.combine(self, other, eoFill: eoFill) { $0 != $1 }
    }

    /// The same area as closed, non-self-intersecting contours: outer boundaries clockwise on
    /// screen, holes counter-clockwise, so it fills the same under either rule.
    public func normalized(eoFill: Bool = true) -> Path {
        Path.combine(self, Path(), eoFill: eoFill) { a, _ in a }
    }

    /// The lines of this path (as strokes, not filled) that lie inside `other`'s area.
    public func lineIntersection(_ other: Path, eoFill: Bool = false) -> Path {
        clippedLines(by: other, eoFill: eoFill, keepInside: true)
    }

    /// The lines of this path that lie outside `other`'s area.
    public func lineSubtraction(_ other: Path, eoFill: Bool = false) -> Path {
        clippedLines(by: other, eoFill: eoFill, keepInside: false)
    }
}

/// Whether an edge's coordinates are finite and within `booleanCoordinateLimit`.
@inline(__always)
private func withinBooleanLimit(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Bool {
    let limit = booleanCoordinateLimit
    return abs(x0) <= limit && abs(y0) <= limit && abs(x1) <= limit && abs(y1) <= limit
}

/// A non-horizontal edge of an operand, top end first (smaller y), with the winding it adds
/// when crossed left to right (+1 if the contour ran downward on screen).
private struct BooleanEdge {
    var x0: Double, y0: Double, x1: Double, y1: Double
    var wind: Int32
    var operand: Int32

}

/// A directed boundary piece of the result, the inside on its right on screen.
private struct BoundaryEdge {
    var x0: Double, y0: Double, x1: Double, y1: Double
}

extension Path {
    /// The boolean operations, by scanbeams.
    ///
    /// 1. Both operands are flattened (within `booleanTolerance`) to edges; horizontal edges are
    ///    dropped, since crossing a row never meets them.
    /// 2. The plane is cut into horizontal beams at every vertex's y. Inside a beam the edges
    ///    it spans are sorted by x; if two neighbours swap order between the beam's top and
    ///    bottom they cross, and the beam is cut at the first crossing, so within every beam
    ///    the edges are ordered and none cross (shared and collinear edges coincide).
    /// 3. Walking a beam left to right, coincident edges together, the winding numbers of
    ///    both operands give each gap's inside/outside state for each operand; where the
    ///    operation's result changes between two gaps the edge piece is a boundary of the
    ///    result, directed to keep the inside on its right.
    /// 4. Between consecutive beams, where the inside spans above and below a row differ, the
    ///    difference becomes horizontal boundary pieces.
    /// 5. Pieces are joined at shared vertices (coordinates within 1e-9 of the path's size
    ///    merged) into closed contours, taking at every vertex the turn that keeps regions
    ///    touching there apart; collinear runs are merged.
    static func combine(_ a: Path, _ b: Path, eoFill: Bool, tolerance: Double = booleanTolerance,
                        operation: (Bool, Bool) -> Bool) -> Path {
        // Operands that would flatten into more than `maximumFlattenedSegments` give an empty
        // path, as a sweep beyond `booleanWorkLimit` does.
        guard a.flattenedSegmentCount(tolerance: tolerance) <= maximumFlattenedSegments - b.flattenedSegmentCount(tolerance: tolerance) else {
            return Path()
        }
        var edges: [BooleanEdge] = []
        var scale = 1.0
        for (operand, path) in [a, b].enumerated() {
            var sx = 0.0, sy = 0.0, lx = 0.0, ly = 0.0
            func add(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
                guard withinBooleanLimit(x0, y0, x1, y1), y0 != y1 else { return }
                scale = max(scale, abs(x0), abs(y0), abs(x1), abs(y1))
                if y0 < y1 {
                    edges.append(BooleanEdge(x0: x0, y0: y0, x1: x1, y1: y1, wind: 1, operand: Int32(operand)))
                } else {
                    edges.append(BooleanEdge(x0: x1, y0: y1, x1: x0, y1: y0, wind: -1, operand: Int32(operand)))
                }
            }
            // Uniform steps: adaptive ones would spend the whole (coarse) tolerance, which
            // moved the edges of Examples/plate.scene's rounded corners by up to 4 levels.
            path.flatten(tolerance: tolerance, adaptive: false,
                         moveTo: { x, y in sx = x; sy = y; lx = x; ly = y },
                         lineTo: { x, y in add(lx, ly, x, y); lx = x; ly = y },
                         close: { _ in add(lx, ly, sx, sy); lx = sx; ly = sy })
        }
        let eps = 1e-9 * scale
        edges.removeAll { $0.y1 - $0.y0 <= eps }
        guard !edges.isEmpty else { return Path() }
        edges.sort { $0.y0 < $1.y0 }
        // Hot-loop copies: x = x0 + slope · (y − y0); the edge's bottom; its winding and operand.
        let ex0 = edges.map(\.x0), ey0 = edges.map(\.y0), ey1 = edges.map(\.y1)
        let slope = edges.map { ($0.x1 - $0.x0) / ($0.y1 - $0.y0) }
        let windA = edges.map { $0.operand == 0 ? $0.wind : 0 }, windB = edges.map { $0.operand == 1 ? $0.wind : 0 }

        // Beam boundaries: every end point's y, close values merged.
        var ys = edges.flatMap { [$0.y0, $0.y1] }.sorted()
        var merged: [Double] = [ys[0]]
        for y in ys.dropFirst() where y - merged[merged.count - 1] > eps { merged.append(y) }
        ys = merged

        func inside(_ wa: Int32, _ wb: Int32) -> Bool {
            operation(eoFill ? wa & 1 != 0 : wa != 0, eoFill ? wb & 1 != 0 : wb != 0)
        }

        var boundary: [BoundaryEdge] = []
        // The inside spans of the last beam at its bottom row (`previousSpans`, at
        // `previousY`, nil when there was none), for the horizontal pieces.
        var previousY: Double? = nil
        var previousSpans: [Double] = []
        // End points of the horizontal pieces emitted on the current row.
        var rowEnds: [Double] = []
        func horizontal(_ y: Double, above: [Double], below: [Double]) {
            // Both are sorted [left, right, left, right …] lists; walk their union.
            var i = 0, j = 0
            var inAbove = false, inBelow = false
            var lastX = 0.0
            while i < above.count || j < below.count {
                let takeAbove = j >= below.count || (i < above.count && above[i] <= below[j])
                let x = takeAbove ? above[i] : below[j]
                if x > lastX + eps, inAbove != inBelow {
                    boundary.append(inAbove ? BoundaryEdge(x0: x, y0: y, x1: lastX, y1: y) : BoundaryEdge(x0: lastX, y0: y, x1: x, y1: y))
                    rowEnds.append(lastX)
                    rowEnds.append(x)
                }
                if takeAbove { inAbove.toggle(); i += 1 } else { inBelow.toggle(); j += 1 }
                lastX = x
            }
        }

        // The edges spanning the current beam, kept in x order from beam to beam (insertion
        // sort then touches only what changed), with their x at the beam's top, bottom and middle.
        // Raw buffers: this loop runs (beams × active edges) times.
        let capacity = edges.count
        let active = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
        let xa = UnsafeMutablePointer<Double>.allocate(capacity: capacity)
        let xb = UnsafeMutablePointer<Double>.allocate(capacity: capacity)
        let xm = UnsafeMutablePointer<Double>.allocate(capacity: capacity)
        defer { active.deallocate(); xa.deallocate(); xb.deallocate(); xm.deallocate() }
        var activeCount = 0
        var next = 0
        // Per edge: the boundary piece it made in the previous beam and its direction, so a
        // boundary that runs on through a row stays one piece (no vertex at every row).
        var lastPiece = [Int](repeating: -1, count: edges.count)
        var lastUpward = [Bool](repeating: false, count: edges.count)
        var lastSerial = [Int](repeating: -2, count: edges.count)
        var serial = 0
        var work = 0
        var candidates: [(edge: Int, upward: Bool, x0: Double, x1: Double)] = []
        var top: [Double] = [], bottom: [Double] = []
        var beamIndex = 0
        var ya = ys[0]
        while beamIndex + 1 < ys.count {
            var yb = ys[beamIndex + 1]
            serial += 1
            var kept = 0
            for k in 0..<activeCount where ey1[active[k]] > ya + eps { active[kept] = active[k]; kept += 1 }
            activeCount = kept
            while next < edges.count, ey0[next] <= ya + eps {
                if ey1[next] > ya + eps { active[activeCount] = next; activeCount += 1 }
                next += 1
            }
            if activeCount == 0 {
                rowEnds.removeAll(keepingCapacity: true)
                if let y = previousY { horizontal(y, above: previousSpans, below: []) }
                previousY = nil
                beamIndex += 1
                ya = ys[beamIndex]
                continue
            }
            // Cut the beam at the first crossing of neighbours, until none cross inside it.
            while true {
                let n = activeCount
                work += n
                if work > booleanWorkLimit { return Path() }
                for k in 0..<n {
                    let e = active[k]
                    xa[k] = ex0[e] + slope[e] * (ya - ey0[e])
                    xb[k] = ex0[e] + slope[e] * (yb - ey0[e])
                    xm[k] = xa[k] + xb[k]
                }
                // Insertion sort by the middle, then the top (nearly sorted already).
                for k in 1..<max(1, n) {
                    var m = k
                    while m > 0, xm[m - 1] > xm[m] || (xm[m - 1] == xm[m] && xa[m - 1] > xa[m]) {
                        swap(&active[m - 1], &active[m]); swap(&xa[m - 1], &xa[m]); swap(&xb[m - 1], &xb[m]); swap(&xm[m - 1], &xm[m])
                        m -= 1
                    }
                }
                var cut = yb
                for k in 0..<max(0, n - 1) where xa[k] > xa[k + 1] + eps || xb[k] > xb[k + 1] + eps {
                    let di = xb[k] - xa[k], dj = xb[k + 1] - xa[k + 1]
                    guard di != dj else { continue }
                    let t = (xa[k + 1] - xa[k]) / (di - dj)
                    let y = ya + t * (yb - ya)
                    if y > ya + eps, y < cut - eps { cut = y }
                }
                if cut == yb { break }
                yb = cut
            }

            // Walk the beam: coincident edges together; collect boundary pieces and spans.
            var wa: Int32 = 0, wb: Int32 = 0
            top.removeAll(keepingCapacity: true)
            bottom.removeAll(keepingCapacity: true)
            candidates.removeAll(keepingCapacity: true)
            var k = 0
            let n = activeCount
            while k < n {
                var inA: Int32 = 0, inB: Int32 = 0
                var m = k
                while m < n, abs(xa[m] - xa[k]) <= eps, abs(xb[m] - xb[k]) <= eps {
                    inA += windA[active[m]]
                    inB += windB[active[m]]
                    m += 1
                }
                let before = inside(wa, wb)
                wa += inA
                wb += inB
                let after = inside(wa, wb)
                if before != after {
                    // Entering the inside (left side of a span): upward; leaving: downward.
                    candidates.append((active[k], after, xa[k], xb[k]))
                    top.append(xa[k])
                    bottom.append(xb[k])
                }
                k = m
            }
            rowEnds.removeAll(keepingCapacity: true)
            if let y = previousY, abs(y - ya) <= eps {
                horizontal(ya, above: previousSpans, below: top)
            } else {
                if let y = previousY { horizontal(y, above: previousSpans, below: []) }
                rowEnds.removeAll(keepingCapacity: true)
                horizontal(ya, above: [], below: top)
            }
            rowEnds.sort()
            func touchesRow(_ x: Double) -> Bool {
                // Binary search for a horizontal piece's end near x.
                var lo = 0, hi = rowEnds.count
                while lo < hi { let mid = (lo + hi) / 2; if rowEnds[mid] < x - eps { lo = mid + 1 } else { hi = mid } }
                return lo < rowEnds.count && rowEnds[lo] <= x + eps
            }
            for c in candidates {
                if lastSerial[c.edge] == serial - 1, lastUpward[c.edge] == c.upward, !touchesRow(c.x0) {
                    // The same edge was this boundary in the beam above: extend its piece.
                    let i = lastPiece[c.edge]
                    if c.upward { boundary[i].x0 = c.x1; boundary[i].y0 = yb } else { boundary[i].x1 = c.x1; boundary[i].y1 = yb }
                } else {
                    lastPiece[c.edge] = boundary.count
                    lastUpward[c.edge] = c.upward
                    boundary.append(c.upward ? BoundaryEdge(x0: c.x1, y0: yb, x1: c.x0, y1: ya) : BoundaryEdge(x0: c.x0, y0: ya, x1: c.x1, y1: yb))
                }
                lastSerial[c.edge] = serial
            }
            previousY = yb
            swap(&previousSpans, &bottom)
            if yb >= ys[beamIndex + 1] - eps { beamIndex += 1 }
            ya = yb
        }
        if let y = previousY { horizontal(y, above: previousSpans, below: []) }
        return chain(boundary, eps: eps)
    }

    /// Joins directed boundary pieces into closed contours (see `combine`).
    private static func chain(_ pieces: [BoundaryEdge], eps: Double) -> Path {
        // Vertex ids: end points on the same row within `eps` of each other are one vertex.
        var ends: [(y: Double, x: Double, piece: Int, isStart: Bool)] = []
        ends.reserveCapacity(pieces.count * 2)
        for (i, p) in pieces.enumerated() {
            ends.append((p.y0, p.x0, i, true))
            ends.append((p.y1, p.x1, i, false))
        }
        ends.sort { $0.y != $1.y ? $0.y < $1.y : $0.x < $1.x }
        var start = [Int](repeating: 0, count: pieces.count), end = [Int](repeating: 0, count: pieces.count)
        var points: [(x: Double, y: Double)] = []
        for e in ends {
            if let last = points.last, abs(last.y - e.y) <= eps, e.x - last.x <= eps {
                // Same vertex as the previous end point.
            } else {
                points.append((e.x, e.y))
            }
            if e.isStart { start[e.piece] = points.count - 1 } else { end[e.piece] = points.count - 1 }
        }
        // Drop pieces that collapsed to a point, and pairs running both ways between two
        // vertices (zero-width spikes, which enclose nothing).
        struct Pair: Hashable { var u: Int, v: Int }
        var byPair: [Pair: [Int]] = [:]
        for i in pieces.indices where start[i] != end[i] { byPair[Pair(u: start[i], v: end[i]), default: []].append(i) }
        for pair in Array(byPair.keys) where pair.u < pair.v {
            let reverse = Pair(u: pair.v, v: pair.u)
            guard let forward = byPair[pair], let backward = byPair[reverse] else { continue }
            let n = min(forward.count, backward.count)
            byPair[pair] = Array(forward.dropFirst(n))
            byPair[reverse] = Array(backward.dropFirst(n))
        }
        let live = byPair.values.flatMap { $0 }.sorted()
        var outgoing: [Int: [Int]] = [:]
        for i in live { outgoing[start[i], default: []].append(i) }
        var used = Set<Int>()

        var path = Path()
        for first in live where !used.contains(first) && outgoing[start[first]]?.contains(first) == true {
            var contour: [Int] = [start[first]]
            var piece = first
            while true {
                used.insert(piece)
                if var list = outgoing[start[piece]], let at = list.firstIndex(of: piece) {
                    list.remove(at: at)
                    outgoing[start[piece]] = list
                }
                let v = end[piece]
                if v == contour[0] { break }
                contour.append(v)
                // The sharpest turn towards the inside (right on screen) keeps regions that
                // touch at this vertex in separate contours.
                let u = start[piece]
                let dx = points[v].x - points[u].x, dy = points[v].y - points[u].y
                var best: Int?
                var bestAngle = -Double.infinity
                for candidate in outgoing[v] ?? [] {
                    let w = end[candidate]
                    let ex = points[w].x - points[v].x, ey = points[w].y - points[v].y
                    // In screen coordinates (y down) a right turn has a positive cross product.
                    let angle = atan2(dx * ey - dy * ex, dx * ex + dy * ey)
                    if angle > bestAngle { bestAngle = angle; best = candidate }
                }
                guard let chosen = best else { break }
                piece = chosen
            }
            // Merge collinear runs.
            var simplified: [Int] = []
            let n = contour.count
            for i in 0..<n {
                let p = points[contour[(i + n - 1) % n]], q = points[contour[i]], r = points[contour[(i + 1) % n]]
                let cross = (q.x - p.x) * (r.y - q.y) - (q.y - p.y) * (r.x - q.x)
                let dot = (q.x - p.x) * (r.x - q.x) + (q.y - p.y) * (r.y - q.y)
                let lengths = ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot()
                    * ((r.x - q.x) * (r.x - q.x) + (r.y - q.y) * (r.y - q.y)).squareRoot()
                if abs(cross) <= 1e-9 * lengths, dot > 0 { continue }
                simplified.append(contour[i])
            }
            guard simplified.count >= 3 else { continue }
            path.move(to: CGPoint(x: points[simplified[0]].x, y: points[simplified[0]].y))
            for id in simplified.dropFirst() { path.addLine(to: CGPoint(x: points[id].x, y: points[id].y)) }
            path.closeSubpath()
        }
        return path
    }

    /// This path's lines cut where they cross `other`'s edges, kept where they lie inside (or
    /// outside) `other`'s area: open polylines, for stroking.
    private func clippedLines(by other: Path, eoFill: Bool, keepInside: Bool) -> Path {
        guard flattenedSegmentCount(tolerance: booleanTolerance) <= maximumFlattenedSegments,
              other.flattenedSegmentCount(tolerance: booleanTolerance) <= maximumFlattenedSegments else { return Path() }
        var clipEdges: [(Double, Double, Double, Double)] = []
        var sx = 0.0, sy = 0.0, lx = 0.0, ly = 0.0
        func clipEdge(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
            if withinBooleanLimit(x0, y0, x1, y1) { clipEdges.append((x0, y0, x1, y1)) }
        }
        other.flatten(tolerance: booleanTolerance, adaptive: false,
                      moveTo: { x, y in sx = x; sy = y; lx = x; ly = y },
                      lineTo: { x, y in clipEdge(lx, ly, x, y); lx = x; ly = y },
                      close: { _ in clipEdge(lx, ly, sx, sy); lx = sx; ly = sy })
        func isInside(_ px: Double, _ py: Double) -> Bool {
            var winding = 0
            for (x0, y0, x1, y1) in clipEdges {
                if y0 <= py {
                    if y1 > py, (x1 - x0) * (py - y0) - (px - x0) * (y1 - y0) > 0 { winding += 1 }
                } else if y1 <= py, (x1 - x0) * (py - y0) - (px - x0) * (y1 - y0) < 0 {
                    winding -= 1
                }
            }
            return eoFill ? winding % 2 != 0 : winding != 0
        }
        var result = Path()
        var penDown = false
        // Each segment is tested against every clip edge: the same work limit as the sweep.
        var work = 0
        func segment(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
            work += clipEdges.count
            guard withinBooleanLimit(x0, y0, x1, y1), work <= booleanWorkLimit else { penDown = false; return }
            // Where the segment crosses the clip's edges, as parameters along it.
            var cuts: [Double] = [0, 1]
            let dx = x1 - x0, dy = y1 - y0
            for (ax, ay, bx, by) in clipEdges {
                let ex = bx - ax, ey = by - ay
                let denominator = dx * ey - dy * ex
                guard denominator != 0 else { continue }
                let t = ((ax - x0) * ey - (ay - y0) * ex) / denominator
                let u = ((ax - x0) * dy - (ay - y0) * dx) / denominator
                if t > 0, t < 1, u >= 0, u <= 1 { cuts.append(t) }
            }
            cuts.sort()
            for (t0, t1) in zip(cuts, cuts.dropFirst()) where t1 > t0 {
                let mid = (t0 + t1) / 2
                if isInside(x0 + dx * mid, y0 + dy * mid) == keepInside {
                    if !penDown { result.move(to: CGPoint(x: x0 + dx * t0, y: y0 + dy * t0)); penDown = true }
                    result.addLine(to: CGPoint(x: x0 + dx * t1, y: y0 + dy * t1))
                } else {
                    penDown = false
                }
            }
        }
        var cx = 0.0, cy = 0.0, startX = 0.0, startY = 0.0
        flatten(tolerance: booleanTolerance,
                moveTo: { x, y in cx = x; cy = y; startX = x; startY = y; penDown = false },
                lineTo: { x, y in segment(cx, cy, x, y); cx = x; cy = y },
                close: { explicit in
                    // Only a closed subpath has its closing line.
                    if explicit { segment(cx, cy, startX, startY) }
                    cx = startX; cy = startY
                    penDown = false
                })
        return work <= booleanWorkLimit ? result : Path()
    }
}
