import Foundation

/// How many pixel rows are cut and resolved together. Edges crossing a strip are found,
/// ordered and resolved once for the whole strip, so per-row overhead shrinks with taller
/// strips, while a strip is more often too busy for the fast path. Measured with callgrind,
/// instructions per frame for 1 → 2 → 4 → 8 rows: S4-nz 1.46 → 1.22 → 1.17 → 1.24 G,
/// S4-eo 2.17 → 1.91 → 1.84 → 1.90 G, S3-1k 240 → 222 → 213 → 209 M.
let stripHeight = 4

/// How far, at most, each flattened vertex is moved before rasterizing: 2⁻²⁰ px (about 1e-6).
///
/// Exact coverage is computed from the order of edges within each row, and grid-aligned input
/// is full of ties: a vertex exactly on another edge, edges crossing at a vertex, coincident
/// and horizontal edges. Rather than a rule for each (simulation of simplicity), every vertex is
/// moved by a fixed pseudo-random offset, which makes such ties vanish while connected segments
/// still share their vertex. The offset is a million times below one 8-bit coverage step, and
/// a million times above the rounding of doubles at coordinates up to 2²⁰ px, where the
/// decisions it separates are computed. Deterministic: the offset depends only on the
/// vertex's position in the path.
let vertexPerturbation = 1.0 / 1_048_576

/// The offset of the next vertex (see `vertexPerturbation`): a hash of its index.
@inline(__always)
func perturbation(_ index: inout UInt32) -> (Double, Double) {
    index &+= 1
    var h = index &* 0x9E37_79B9
    h ^= h >> 16; h = h &* 0x85EB_CA6B; h ^= h >> 13; h = h &* 0xC2B2_AE35; h ^= h >> 16
    let u = Double(h & 0xFFFF) / 32767.5 - 1, v = Double(h >> 16) / 32767.5 - 1
    return (u * vertexPerturbation, v * vertexPerturbation)
}

/// The most accumulation cells one band holds: 4 Mi floats (16 MiB). A path larger than that is
/// rasterized in horizontal bands, so memory stays bounded whatever the canvas.
let maximumBandCells = 1 << 22

/// Coverage of paths by exact area: for each pixel, the area of the pixel inside the flattened
/// path, for the non-zero and even-odd rules.
///
/// The method is FreeType's and font-rs's signed-area accumulation. Every line segment adds,
/// to each cell it crosses, its signed height inside the cell times the fraction of the cell to
/// its right (`area`), and its remaining height to the next cell (so a running sum along the
/// row carries the winding to every pixel further right). The prefix sum of a row is then the
/// signed covered area of each pixel, and the fill rule folds it into coverage: non-zero takes
/// min(1, |s|), even-odd folds s into [0, 1] with period 2.
///
/// Folding a pixel's net area is exact only while the pixel holds at most two winding numbers
/// that differ by one, which holds whenever a single chain of connected edges passes through
/// it. FreeType stops there; a self-crossing path (S4 in the reference scenes) then comes out
/// as speckle. So the edges of each band are cut into per-row pieces first: rows where no two
/// chains share a pixel are accumulated as above (`rowIsSimple`), and the others are resolved
/// region by region (`resolveRowExactly`), so coverage is the exact area under both rules.
///
/// A rasterizer owns scratch buffers and reuses them across paths; it is not thread-safe, so
/// give each thread its own.
public final class Rasterizer {
    /// Flattened device-space segments: x0, y0, x1, y1, and the contour each belongs to.
    private var segments: [Double] = []
    private var segmentContours: [Int32] = []
    private var rows = RowScratch()
    private var accumulation: UnsafeMutablePointer<Float>
    private var accumulationCapacity: Int
    private var mask: UnsafeMutablePointer<UInt8>
    private var maskCapacity: Int
    /// Pixels whose coverage was computed (for render statistics).
    public private(set) var coveragePixels = 0
    /// Rows resolved region by region because several chains shared a pixel (statistics).
    public private(set) var exactRows = 0

    public init() {
        accumulationCapacity = 4096
        accumulation = .allocate(capacity: accumulationCapacity)
        accumulation.initialize(repeating: 0, count: accumulationCapacity)
        maskCapacity = 4096
        mask = .allocate(capacity: maskCapacity)
    }

    deinit {
        accumulation.deallocate()
        mask.deallocate()
        rows.free()
    }

    /// Rasterizes `path` (mapped by `transform` to device pixels) clipped to `clip`, calling
    /// `emit` once per band with an 8-bit coverage mask (row stride a multiple of 4) and the
    /// device rectangle it covers. `opacity` scales the coverage. Nothing is emitted for an
    /// empty or zero-area path, or one entirely outside `clip`.
    ///
    /// - Throws: `RasterError.nonFiniteGeometry` when a device coordinate is NaN or infinite.
    public func rasterize(_ path: Path, transform: CGAffineTransform = .identity, fillRule: FillRule = .nonZero,
                          clip: PixelRect, opacity: Double = 1,
                          emit: (_ mask: UnsafePointer<UInt8>, _ stride: Int, _ rect: PixelRect) throws -> Void) throws {
        // Work on locals (moved out and back) so appends are not checked for exclusive access.
        var segs = segments, contours = segmentContours
        segments = []; segmentContours = []
        defer { segments = segs; segmentContours = contours }
        segs.removeAll(keepingCapacity: true)
        contours.removeAll(keepingCapacity: true)

        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        var sx = 0.0, sy = 0.0, lx = 0.0, ly = 0.0
        var finite = true
        var contour: Int32 = -1
        var vertex: UInt32 = 0
        path.flatten(transform: transform, balanced: true,
                     moveTo: { x, y in
                         minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                         let (dx, dy) = perturbation(&vertex)
                         sx = x + dx; sy = y + dy; lx = sx; ly = sy; contour += 1
                     },
                     lineTo: { x, y in
                         if !(x.isFinite && y.isFinite) { finite = false; return }
                         minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                         let (dx, dy) = perturbation(&vertex)
                         let px = x + dx, py = y + dy
                         if py != ly {
                             segs.append(lx); segs.append(ly); segs.append(px); segs.append(py)
                             contours.append(contour)
                         }
                         lx = px; ly = py
                     },
                     close: {
                         if sy != ly {
                             segs.append(lx); segs.append(ly); segs.append(sx); segs.append(sy)
                             contours.append(contour)
                         }
                         lx = sx; ly = sy
                     })
        guard finite, sx.isFinite, sy.isFinite else {
            throw RasterError.nonFiniteGeometry(element: firstNonFiniteElement(path, transform))
        }
        guard !segs.isEmpty, opacity > 0 else { return }

        // Device bounds of the path, in whole pixels, intersected with the clip. Coordinates
        // beyond the clip are clamped before conversion, so enormous values cannot overflow.
        func clampedFloor(_ v: Double, _ lo: Int, _ hi: Int) -> Int { Int(min(Double(hi), max(Double(lo), v.rounded(.down)))) }
        func clampedCeil(_ v: Double, _ lo: Int, _ hi: Int) -> Int { Int(min(Double(hi), max(Double(lo), v.rounded(.up)))) }
        let x0 = clampedFloor(minX, clip.x, clip.maxX), x1 = clampedCeil(maxX, clip.x, clip.maxX)
        let y0 = clampedFloor(minY, clip.y, clip.maxY), y1 = clampedCeil(maxY, clip.y, clip.maxY)
        guard x1 > x0, y1 > y0 else { return }
        let width = x1 - x0
        // Cells: a guard column on the left (where geometry left of the band lands, see
        // `appendClipped`), the band's `width` columns, and two on the right that the
        // accumulation may touch.
        let stride = width + 3
        let maskStride = (width + 3) & ~3
        let bandHeight = max(1, min(y1 - y0, maximumBandCells / stride))
        reserve(cells: stride * bandHeight, maskBytes: maskStride * bandHeight)
        let scale = Float(min(1, max(0, opacity)) * 255)

        var top = y0
        while top < y1 {
            let bandRows = min(bandHeight, y1 - top)
            exactRows += rows.accumulate(segments: segs, contours: contours, originX: Double(x0) - 1, originY: Double(top),
                                            width: Double(width), rows: bandRows, into: accumulation, stride: stride,
                                            fillRule: fillRule)
            sweep(rows: bandRows, width: width, stride: stride, maskStride: maskStride, fillRule: fillRule,
                  exact: rows.exact, scale: scale)
            coveragePixels += width * bandRows
            try emit(mask, maskStride, PixelRect(x: x0, y: top, width: width, height: bandRows))
            top += bandRows
        }
    }

    private func reserve(cells: Int, maskBytes: Int) {
        if cells > accumulationCapacity {
            accumulation.deallocate()
            accumulationCapacity = cells
            accumulation = .allocate(capacity: cells)
            accumulation.initialize(repeating: 0, count: cells)
        }
        if maskBytes > maskCapacity {
            mask.deallocate()
            maskCapacity = maskBytes
            mask = .allocate(capacity: maskBytes)
        }
    }

    /// Prefix-sums each row into coverage bytes and zeroes the accumulation cells for reuse.
    /// Column 0 is the guard column: it is summed (it carries the winding of geometry left of
    /// the band) but not output. Rows resolved exactly already hold disjoint 0/1 regions: they
    /// are only clamped.
    private func sweep(rows: Int, width: Int, stride: Int, maskStride: Int, fillRule: FillRule,
                       exact: ScratchBuffer<Bool>, scale: Float) {
        for row in 0..<rows {
            let line = accumulation + row * stride
            let out = mask + row * maskStride
            var sum: Float = line[0]
            line[0] = 0
            let cells = line + 1
            let evenOdd = fillRule == .evenOdd && !exact[row]
            @inline(__always) func byte(_ s: Float) -> UInt8 {
                var v = abs(s)
                if evenOdd {
                    v -= 2 * (v * 0.5).rounded(.down)
                    if v > 1 { v = 2 - v }
                } else {
                    v = min(1, v)
                }
                return UInt8(v * scale + 0.5)
            }
            var x = 0
            var current = byte(sum)
            while x < width {
                // Interiors and exteriors are long runs of untouched (zero) cells whose
                // coverage equals the last pixel's: skip them eight at a time.
                if x + 8 <= width, allZero(cells + x) {
                    var end = x + 8
                    while end + 8 <= width, allZero(cells + end) { end += 8 }
                    (out + x).update(repeating: current, count: end - x)
                    x = end
                    continue
                }
                sum += cells[x]
                cells[x] = 0
                current = byte(sum)
                out[x] = current
                x += 1
            }
            cells[width] = 0
            cells[width + 1] = 0
        }
    }

    /// Whether eight accumulation cells are all zero (−0 included): one vector compare.
    @inline(__always)
    private func allZero(_ p: UnsafeMutablePointer<Float>) -> Bool {
        !any(UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self) .!= SIMD8<Float>(repeating: 0))
    }

    private func firstNonFiniteElement(_ path: Path, _ t: CGAffineTransform) -> Int {
        for (i, element) in path.elements.enumerated() {
            let points: [CGPoint]
            switch element {
            case .move(let p), .line(let p): points = [p]
            case .quadCurve(let p, let c): points = [p, c]
            case .curve(let p, let c1, let c2): points = [p, c1, c2]
            case .closeSubpath: points = []
            }
            if points.contains(where: { let q = $0.applying(t); return !(q.x.isFinite && q.y.isFinite) }) { return i }
        }
        return 0
    }
}

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

/// Streams a band row by row through an active-edge table: edges are bucketed by their first
/// row, the active list stays in segment order (so connected pieces sit side by side), and each
/// row's pieces are cut into a small buffer that is reused, so memory stays proportional to
/// the edges crossing one row.
struct RowScratch {
    var edges = ScratchBuffer<Edge>()
    var startCount = ScratchBuffer<Int32>()
    var startOrder = ScratchBuffer<Int32>()
    var active = ScratchBuffer<Int32>()
    var merged = ScratchBuffer<Int32>()
    var incoming = ScratchBuffer<Int32>()
    var row = ScratchBuffer<Piece>()
    var exact = ScratchBuffer<Bool>()
    var runs = ScratchBuffer<Run>()
    var exactScratch = ExactRowScratch()

    func free() {
        edges.free(); startCount.free(); startOrder.free(); active.free(); merged.free(); incoming.free(); row.free()
        exact.free(); runs.free(); exactScratch.free()
    }

    /// Accumulates a band of `rows` rows; returns how many rows needed the exact path.
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
