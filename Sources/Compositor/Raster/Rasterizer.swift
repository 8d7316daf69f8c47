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
    // (Two multiplications: a division each cost a tenth of building a circle's edges.)
    let scale = vertexPerturbation / 32767.5
    return ((Double(h & 0xFFFF) - 32767.5) * scale, (Double(h >> 16) - 32767.5) * scale)
}

/// A path's flattened edges as the rasterizer builds them: each vertex moved by its
/// `perturbation`, horizontal edges dropped (they add no area), each edge's contour, the
/// device bounds and the contour shape check, and whether every point was finite.
struct EdgeBuilder: PolylineSink, ~Copyable {
    /// x0, y0, x1, y1 per edge, and its contour.
    var flat = ScratchBuffer<Double>(capacity: 1)
    var contours = ScratchBuffer<Int32>(capacity: 1)
    var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
    /// The subpath's perturbed start and the last perturbed point.
    var sx = 0.0, sy = 0.0, lx = 0.0, ly = 0.0
    var finite = true
    var contour: Int32 = -1
    var vertex: UInt32 = 0
    var shape = ContourShapeCheck()
    /// Whether `shape` checks the flattened polygons (off where the verdict is already known:
    /// then `simple` is false).
    var checksShape = true
    var simple: Bool { checksShape && shape.simple }

    @inline(__always) mutating func moveTo(_ x: Double, _ y: Double) {
        minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        if checksShape { shape.move(x, y) }
        let (dx, dy) = perturbation(&vertex)
        sx = x + dx; sy = y + dy; lx = sx; ly = sy; contour += 1
    }

    @inline(__always) mutating func lineTo(_ x: Double, _ y: Double) {
        if !(x.isFinite && y.isFinite) { finite = false; return }
        minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        if checksShape { shape.line(x, y) }
        let (dx, dy) = perturbation(&vertex)
        let px = x + dx, py = y + dy
        if py != ly {
            flat.append(lx, ly, px, py)
            contours.append(contour)
        }
        lx = px; ly = py
    }

    @inline(__always) mutating func close(explicit: Bool) {
        if checksShape { shape.close() }
        if sy != ly {
            flat.append(lx, ly, sx, sy)
            contours.append(contour)
        }
        lx = sx; ly = sy
    }
}

/// `EdgeBuilder` for the fills only the cells draw: the same edges, bounds and finiteness,
/// without what only the exact tier reads (each vertex's perturbation, each edge's contour).
/// Those were more than half of flattening a circle or a rounded rectangle (S3-1k: 17.9 M of
/// its 99 M instructions a frame went to flattening, 6.8 M without). Two kinds of fill take it:
/// - paths whose control polygons passed the shape check before flattening
///   (`Path.flattenedSegmentCountAndShape`), with `checksShape` off: their flattening passes
///   it too, and they are drawn at the single-wound precision;
/// - `.fast` fills (stroke outlines, S4-nz-fast), with `checksShape` on: the check only picks
///   the cells' precision, since no strip is resolved exactly whatever it says.
struct CellEdgeBuilder: PolylineSink, ~Copyable {
    /// x0, y0, x1, y1 per edge.
    var flat = ScratchBuffer<Double>(capacity: 1)
    var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
    /// The subpath's start and the last point.
    var sx = 0.0, sy = 0.0, lx = 0.0, ly = 0.0
    var finite = true
    /// Whether `shape` checks the polygons as they are made.
    var checksShape = false
    var shape = ContourShapeCheck()
    /// Whether the check ran and passed.
    var simple: Bool { checksShape && shape.simple }

    @inline(__always) mutating func moveTo(_ x: Double, _ y: Double) {
        minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        if checksShape { shape.move(x, y) }
        sx = x; sy = y; lx = x; ly = y
    }

    @inline(__always) mutating func lineTo(_ x: Double, _ y: Double) {
        if !(x.isFinite && y.isFinite) { finite = false; return }
        minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        if checksShape { shape.line(x, y) }
        if y != ly { flat.append(lx, ly, x, y) }
        lx = x; ly = y
    }

    @inline(__always) mutating func close(explicit: Bool) {
        if checksShape { shape.close() }
        if sy != ly { flat.append(lx, ly, sx, sy) }
        lx = sx; ly = sy
    }
}

extension Path {
    /// Whether the claim the rasterizer's convex shortcut rests on (`CellEdgeBuilder`) holds
    /// for this path in `transform`: where its control polygons pass the shape check, every
    /// pixel of its balanced flattening holds the windings 0 and 1 only (`SingleWoundCheck`),
    /// at the default tolerance and the coarsest the shortcut takes. (Its flattening passes the
    /// shape check itself, or is simple, merely dented: `Path.flattenedSegmentCountAndShape`.)
    /// Checked where every mapped point lies within 2²⁰ px, the range whose rounding the
    /// check's threshold is made for (true elsewhere). For the raster fuzz target.
    public func _convexShortcutHolds(transform: CGAffineTransform) -> Bool {
        guard flattenedSegmentCount(transform: transform, tolerance: flatteningTolerance, below: 0x1p20) != nil else { return true }
        for tolerance in [flatteningTolerance, convexShortcutTolerance]
        where flattenedSegmentCountAndShape(transform: transform, tolerance: tolerance).convex {
            if !flattenedPassesShapeCheck(transform: transform, tolerance: tolerance)
                && !flattenedIsSingleWound(transform: transform, tolerance: tolerance) { return false }
        }
        return true
    }

    /// Whether the path, flattened and balanced as fills are, is single-wound by
    /// `SingleWoundCheck` (slow: for checks, not for drawing).
    func flattenedIsSingleWound(transform: CGAffineTransform = .identity, tolerance: Double = flatteningTolerance) -> Bool {
        var check = SingleWoundCheck()
        flatten(transform: transform, tolerance: tolerance, balanced: true, moveTo: { check.move($0, $1) },
                lineTo: { check.line($0, $1) }, close: { _ in })
        return check.singleWound
    }

    /// Whether the path, flattened and balanced as fills are (without the perturbation),
    /// passes `ContourShapeCheck`.
    func flattenedPassesShapeCheck(transform: CGAffineTransform = .identity, tolerance: Double = flatteningTolerance) -> Bool {
        var check = ContourShapeCheck()
        flatten(transform: transform, tolerance: tolerance, balanced: true, moveTo: { check.move($0, $1) },
                lineTo: { check.line($0, $1) }, close: { _ in check.close() })
        return check.simple
    }
}

/// The coarsest flattening tolerance at which a path whose control polygons are convex skips
/// the shape check (`CellEdgeBuilder`): balancing moves a vertex outwards by ⅔ of the
/// tolerance at most, 0.17 px here, well inside the pixel of padding the check keeps between
/// contours' boxes. Coarser fills are checked after flattening, as any other path.
let convexShortcutTolerance = 0.25

/// The most edges a path may have to join a batch of fills on one thread (`Rasterizer.drawCells`).
let batchedEdgesOnOneThread = 8192

/// Rows per compositing chunk: each chunk of the mask is composited at its own tight x extent,
/// so a thin diagonal stroke composites a ribbon, not its whole bounding box.
let spanChunkRows = 8

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
/// that differ by one, which holds whenever a single chain of connected edges, monotone in x or
/// y, passes through it. FreeType stops there; a self-crossing path (S4 in the reference
/// scenes) then comes out as speckle. So each band streams through an active-edge table into
/// strips of `stripHeight` rows (`RowScratch`): strips where that condition holds are
/// accumulated as above (`rowIsSimple`), the others are resolved region by region
/// (`resolveRowExactly`), so coverage is the exact area under both rules.
///
/// A rasterizer owns scratch buffers and reuses them across paths; it is not thread-safe, so
/// give each thread its own.
///
/// Its stored properties opt out of Swift's dynamic exclusivity checks (`@exclusivity(unchecked)`):
/// one thread uses it at a time, and the checks on its scratch buffers cost S3-10k about 17 M
/// instructions a frame (S3-1k 1.7 M, S2-noshadow 0.1 M).
public final class Rasterizer {
    /// Flattened device-space segments: x0, y0, x1, y1, and the contour each belongs to.
    @exclusivity(unchecked) private var segments: [Double] = []
    @exclusivity(unchecked) private var segmentContours: [Int32] = []
    /// What a path flattens into (x0, y0, x1, y1 per segment, and each one's contour), before
    /// the exact tier copies it into `segments` and `segmentContours`.
    @exclusivity(unchecked) private var flatSegments = ScratchBuffer<Double>()
    @exclusivity(unchecked) private var flatSegmentContours = ScratchBuffer<Int32>()
    @exclusivity(unchecked) private var rows = RowScratch()
    /// The exact tier's tools per thread (`rasterizeResolved`), and its segments by slab.
    @exclusivity(unchecked) private var resolvers: [SlabWorker] = []
    @exclusivity(unchecked) private var slabOffsets = ScratchBuffer<Int32>()
    @exclusivity(unchecked) private var slabIndices = ScratchBuffer<Int32>()
    /// How many threads the last path of the exact tier on cells was resolved on (tests).
    @exclusivity(unchecked) private(set) var lastSlabWorkers = 0
    /// Paths with fewer segments resolve on one thread, in one slab (`rasterizeResolved`).
    let minimumParallelSegments = 4096
    /// Whether the exact tier's resolved lines go straight into the cells where the slab is
    /// drawn at once (`SlabWorker.prepare(direct:)`); tests turn it off to compare.
    @exclusivity(unchecked) var drawsResolvedLinesDirectly = true
    private let cellRasterizer = CellRasterizer()
    let batch = FillBatch()
    /// One cell rasterizer per thread a batch may draw on; the first is `cellRasterizer`.
    @exclusivity(unchecked) private var workers: [CellRasterizer] = []
    /// How many threads a batch of fills may draw on (`FillBatch.flush`): 1 by default. The
    /// bytes are the same for any number.
    public var threads = 1 {
        didSet { threads = max(1, min(threads, 64)) }
    }
    /// Per chunk of a cell band: the first and one past the last column with coverage
    /// (`MaskSink`), lows then highs.
    @exclusivity(unchecked) private var chunkBounds = ScratchBuffer<Int32>()
    /// Per band, the parts of the mask that hold coverage: chunks of `spanChunkRows` rows at
    /// their tight x extent (device pixels). Valid during `emit`.
    @exclusivity(unchecked) private var spans = ScratchBuffer<PixelRect>()
    /// A gradient's colours per row or column of the region being drawn (`GradientTarget`).
    @exclusivity(unchecked) private var gradientColours = ScratchBuffer<UInt32>()
    var bandSpans: UnsafeBufferPointer<PixelRect> { spans.buffer }
    @exclusivity(unchecked) private var accumulation: UnsafeMutablePointer<Float>
    @exclusivity(unchecked) private var accumulationCapacity: Int
    @exclusivity(unchecked) private var mask: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var maskCapacity: Int
    /// Pixels whose coverage was computed (for render statistics).
    @exclusivity(unchecked) public private(set) var coveragePixels = 0
    /// Paths whose coverage came from the cell rasterizer (statistics, tests).
    @exclusivity(unchecked) private(set) var cellPaths = 0
    /// Of those, paths known convex before flattening (`CellEdgeBuilder`; tests).
    @exclusivity(unchecked) private(set) var convexPaths = 0
    /// Whether a path whose control polygons pass the shape check is drawn without checking
    /// its flattened edges (`CellEdgeBuilder`); tests turn it off to compare.
    @exclusivity(unchecked) var checksControlPolygons = true
    /// Of the cells' paths, `.fast` fills flattened for the cells alone (`CellEdgeBuilder`; tests).
    @exclusivity(unchecked) private(set) var fastCellPaths = 0
    /// Whether `.fast` fills are flattened for the cells alone (`CellEdgeBuilder`: without the
    /// exact tier's vertex perturbation and contour numbers); tests turn it off to compare.
    @exclusivity(unchecked) var flattensFastFillsForCells = true
    /// Rows resolved region by region because several chains shared a pixel (statistics).
    @exclusivity(unchecked) public private(set) var exactRows = 0
    /// Of those, rows of strips so crowded with crossing edges that their coverage was
    /// sampled along 16 sub-rows per row instead (`resolveRowBySampling`; statistics).
    @exclusivity(unchecked) public private(set) var sampledRows = 0
    /// Edge crossings the exactly resolved rows held (each found once per strip it lies in;
    /// statistics: what the exact tier's work grows with).
    @exclusivity(unchecked) public private(set) var crossings = 0
    /// The most line segments one path may flatten into (`maximumFlattenedSegments`, 2^24, by
    /// default): beyond it `rasterize` throws `RasterError.tooManySegments` before flattening,
    /// so memory stays bounded (36 bytes a segment).
    @exclusivity(unchecked) public var maximumSegments = maximumFlattenedSegments
    /// Exact area everywhere (the default), or accumulation only (see `CoverageQuality`).
    @exclusivity(unchecked) public var coverageQuality = CoverageQuality.exact
    /// Whether the cell rasterizer takes the paths whose coverage it gets exactly (and every
    /// path under `.fast`). Off, every path goes through the strip resolver: for tests that
    /// hold the two against each other.
    @exclusivity(unchecked) var usesCells = true

    public init() {
        accumulationCapacity = 4096
        accumulation = .allocate(capacity: accumulationCapacity)
        accumulation.initialize(repeating: 0, count: accumulationCapacity)
        maskCapacity = 4096
        mask = .allocate(capacity: maskCapacity)
    }

    deinit {
        if let stream {
            stream.cancel()
            stream.waitForHelpers()
        }
        if let pendingFills {
            pendingFills.deinitialize(count: pendingCount)
            pendingFills.deallocate()
        }
        builtFills?.deallocate()
        accumulation.deallocate()
        mask.deallocate()
    }

    /// Rasterizes `path` (mapped by `transform` to device pixels) clipped to `clip`, calling
    /// `emit` once per band with an 8-bit coverage mask (row stride a multiple of 4) and the
    /// device rectangle it covers. `opacity` scales the coverage. Nothing is emitted for an
    /// empty or zero-area path, or one entirely outside `clip`. Curves are flattened within
    /// `tolerance` device pixels (`flatteningTolerance` by default; a value that is not a
    /// positive finite number means the default, and none finer than 0.0001 px is used).
    ///
    /// - Throws: `RasterError.nonFiniteGeometry` when a device coordinate is NaN or infinite,
    ///   `RasterError.tooManySegments` beyond `maximumSegments`.
    public func rasterize(_ path: Path, transform: CGAffineTransform = .identity, fillRule: FillRule = .nonZero,
                          clip: PixelRect, opacity: Double = 1, tolerance: Double = flatteningTolerance,
                          emit: (_ mask: UnsafePointer<UInt8>, _ stride: Int, _ rect: PixelRect) throws -> Void) throws {
        try rasterize(path, transform: transform, fillRule: fillRule, clip: clip, opacity: opacity, tolerance: tolerance,
                      solid: nil, emit: emit)
    }

    /// Where a solid colour goes when the fill can skip the mask: premultiplied 8-bit
    /// (A/X)RGB rows, source-over (see `SolidOverSink`).
    struct SolidTarget {
        /// The colour as pixman stores it: premultiplied, alpha in the top byte.
        var source: UInt32
        /// Device pixel (0, 0) of the rows.
        var pixels: UnsafeMutableRawPointer
        var stride: Int
    }

    /// `rasterize(…emit:)`, and with `solid`, the colour composited straight from the cells
    /// wherever the cell rasterizer's coverage is the exact one (`emit` is then not called);
    /// with `gradient`, that gradient, where the path goes to the cells unresolved.
    func rasterize(_ path: Path, transform: CGAffineTransform = .identity, fillRule: FillRule = .nonZero,
                   clip: PixelRect, opacity: Double = 1, tolerance: Double = flatteningTolerance,
                   quality: CoverageQuality? = nil, solid: SolidTarget?, gradient: GradientTarget? = nil,
                   emit: (_ mask: UnsafePointer<UInt8>, _ stride: Int, _ rect: PixelRect) throws -> Void) throws {
        // This fill's quality: its own, or the rasterizer's.
        let coverageQuality = quality ?? self.coverageQuality
        // Recorded whole only once the batch holds enough to pay for helpers (`directSegments`).
        if let solid, pendingCount > 0 || directSegments >= minimumParallelBuildSegments,
           let segments = deferredSegments(path, transform: transform, tolerance: tolerance, clip: clip, solid: solid) {
            try record(PendingFill(path: path, transform: transform, fillRule: fillRule, clip: clip, opacity: opacity,
                                   tolerance: tolerance, source: solid.source, quality: coverageQuality), segments: segments)
            return
        }
        // Drawn or recorded now: after the fills recorded whole before it.
        if pendingCount > 0 { try flushBatch() }
        let tolerance = tolerance.isFinite && tolerance > 0 ? max(tolerance, 1e-4) : flatteningTolerance
        // Under `.fast` the verdict only picks the cells' precision, and the fills asking for
        // it are mostly stroke outlines (S5), which the check before flattening would read
        // point by point only to fail half-way: they are checked while flattened, as before.
        let (segmentCount, convex, curves) = coverageQuality == .fast
            ? (path.flattenedSegmentCount(transform: transform, tolerance: tolerance), false, true)
            : path.flattenedSegmentCountAndShape(transform: transform, tolerance: tolerance)
        guard segmentCount <= maximumSegments else {
            throw RasterError.tooManySegments(count: segmentCount, limit: maximumSegments)
        }
        directSegments &+= segmentCount
        // Known convex before flattening, or `.fast`: drawn by the cells without the exact
        // tier's preparations (a region too large for the cells goes the general way below).
        if usesCells, (coverageQuality == .fast && flattensFastFillsForCells)
            || (convex && checksControlPolygons && tolerance <= convexShortcutTolerance),
           try rasterizeOnCells(path, transform: transform, fillRule: fillRule, clip: clip, opacity: opacity,
                                tolerance: tolerance, checksShape: coverageQuality == .fast, solid: solid,
                                gradient: gradient, emit: emit) {
            return
        }
        // Flattened into the rasterizer's scratch buffers, moved into locals and back: no
        // copy-on-write or exclusivity check per append (an Array's were a third of the cost
        // of building a circle's edges). Paths that need the exact tier copy them into arrays.
        var edges = EdgeBuilder()
        swap(&edges.flat, &flatSegments)
        swap(&edges.contours, &flatSegmentContours)
        defer {
            swap(&edges.flat, &flatSegments)
            swap(&edges.contours, &flatSegmentContours)
        }
        edges.flat.removeAll()
        edges.contours.removeAll()
        // Polygons of lines only that failed the check before flattening fail it again (about
        // 30 instructions a point saved on outlines filled exactly).
        edges.checksShape = convex || curves
        path.flatten(transform: transform, tolerance: tolerance, balanced: true, into: &edges)
        guard edges.finite, edges.sx.isFinite, edges.sy.isFinite else {
            throw RasterError.nonFiniteGeometry(element: firstNonFiniteElement(path, transform))
        }
        let (flat, flatContours, simple) = (edges.flat.buffer, edges.contours.buffer, edges.simple)
        guard flat.count > 0, opacity > 0,
              let (x0, y0, x1, y1) = deviceRegion(edges.minX, edges.minY, edges.maxX, edges.maxY, clip: clip) else { return }
        let width = x1 - x0
        let cellsFit = usesCells && width < cellMaximumExtent && y1 - y0 < cellMaximumExtent
        if cellsFit, coverageQuality == .fast || simple {
            try rasterizeCells(flat, region: PixelRect(x: x0, y: y0, width: width, height: y1 - y0), fillRule: fillRule,
                               opacity: opacity, shift: simple ? cellShiftSimple : cellShiftFast, solid: solid,
                               gradient: gradient, emit: emit)
            return
        }
        // The exact tier and the Float sweep read arrays.
        var segs = segments, contours = segmentContours
        segments = []; segmentContours = []
        defer { segments = segs; segmentContours = contours }
        segs.removeAll(keepingCapacity: true)
        contours.removeAll(keepingCapacity: true)
        segs.append(contentsOf: flat)
        contours.append(contentsOf: flatContours)
        // Cells: a guard column on the left (where geometry left of the band lands, see
        // `appendClipped`), the band's `width` columns, and two on the right that the
        // accumulation may touch.
        let stride = width + 3
        let bandHeight = max(1, min(y1 - y0, maximumBandCells / stride))
        if cellsFit {
            try rasterizeResolved(segs, contours, region: PixelRect(x: x0, y: y0, width: width, height: y1 - y0),
                                  bandHeight: bandHeight, fillRule: fillRule, opacity: opacity, solid: solid, emit: emit)
            return
        }
        try flushBatch()
        let maskStride = (width + 3) & ~3
        reserve(cells: stride * bandHeight, maskBytes: maskStride * bandHeight)
        let scale = Float(Opacity(opacity).value * 255)

        var top = y0
        while top < y1 {
            let bandRows = min(bandHeight, y1 - top)
            var cells = FloatCells(cells: accumulation, stride: stride)
            exactRows += rows.accumulate(segments: segs, contours: contours, originX: Double(x0) - 1, originY: Double(top),
                                         width: Double(width), rows: bandRows, into: &cells, fillRule: fillRule,
                                         exactOverlaps: coverageQuality == .exact)
            sampledRows += rows.sampledRows
            crossings += rows.exactScratch.crossings
            rows.sampledRows = 0
            rows.exactScratch.crossings = 0
            sweep(rows: bandRows, width: width, stride: stride, maskStride: maskStride, fillRule: fillRule,
                  exact: rows.exact, scale: scale, origin: (x0, top))
            coveragePixels += width * bandRows
            try emit(mask, maskStride, PixelRect(x: x0, y: top, width: width, height: bandRows))
            top += bandRows
        }
    }

    /// Device bounds of a path, in whole pixels, intersected with the clip (nil: nothing left).
    /// Coordinates beyond the clip are clamped before conversion, so enormous values cannot
    /// overflow.
    private func deviceRegion(_ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double,
                              clip: PixelRect) -> (Int, Int, Int, Int)? {
        func clampedFloor(_ v: Double, _ lo: Int, _ hi: Int) -> Int { Int(min(Double(hi), max(Double(lo), v.rounded(.down)))) }
        func clampedCeil(_ v: Double, _ lo: Int, _ hi: Int) -> Int { Int(min(Double(hi), max(Double(lo), v.rounded(.up)))) }
        let x0 = clampedFloor(minX, clip.x, clip.maxX), x1 = clampedCeil(maxX, clip.x, clip.maxX)
        let y0 = clampedFloor(minY, clip.y, clip.maxY), y1 = clampedCeil(maxY, clip.y, clip.maxY)
        return x1 > x0 && y1 > y0 ? (x0, y0, x1, y1) : nil
    }

    /// `rasterize` of a fill only the cells draw (`CellEdgeBuilder`): a path whose control
    /// polygons are convex (`checksShape` off), drawn at the single-wound precision, or a
    /// `.fast` fill (`checksShape` on), at the precision the check picks. Returns false, having
    /// drawn nothing, when its region is too large for the cells.
    private func rasterizeOnCells(_ path: Path, transform: CGAffineTransform, fillRule: FillRule, clip: PixelRect,
                                  opacity: Double, tolerance: Double, checksShape: Bool, solid: SolidTarget?,
                                  gradient: GradientTarget?,
                                  emit: (_ mask: UnsafePointer<UInt8>, _ stride: Int, _ rect: PixelRect) throws -> Void) throws -> Bool {
        var edges = CellEdgeBuilder()
        swap(&edges.flat, &flatSegments)
        defer { swap(&edges.flat, &flatSegments) }
        edges.flat.removeAll()
        edges.checksShape = checksShape
        path.flatten(transform: transform, tolerance: tolerance, balanced: true, into: &edges)
        guard edges.finite, edges.sx.isFinite, edges.sy.isFinite else {
            throw RasterError.nonFiniteGeometry(element: firstNonFiniteElement(path, transform))
        }
        let flat = edges.flat.buffer
        guard flat.count > 0, opacity > 0,
              let (x0, y0, x1, y1) = deviceRegion(edges.minX, edges.minY, edges.maxX, edges.maxY, clip: clip) else { return true }
        guard x1 - x0 < cellMaximumExtent, y1 - y0 < cellMaximumExtent else { return false }
        if checksShape { fastCellPaths += 1 } else { convexPaths += 1 }
        try rasterizeCells(flat, region: PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), fillRule: fillRule,
                           opacity: opacity, shift: !checksShape || edges.simple ? cellShiftSimple : cellShiftFast, solid: solid,
                           gradient: gradient, emit: emit)
        return true
    }

    /// `rasterize(…)` of a stroke's outline mapped by `transform`, `.fast` under the non-zero
    /// rule (a stroke's windings have one sign), with the outline sent straight into the cells'
    /// edges as the stroker makes it (`PathStroke`), never held as a `Path`: the same edges,
    /// checks and bytes as rasterizing `stroke.outline()`. A stroke without `streamBounds`, one
    /// the cells cannot take, and a rasterizer without the cell route outline it first.
    ///
    /// - Throws: as `rasterize(_:…)` (the segment limit is checked once the outline is made,
    ///   before anything is drawn), or the `StrokeRefusal` of a stroke without `streamBounds`.
    func rasterize(_ stroke: PathStroke, transform: CGAffineTransform, clip: PixelRect, opacity: Double,
                   solid: SolidTarget?, gradient: GradientTarget? = nil,
                   emit: (_ mask: UnsafePointer<UInt8>, _ stride: Int, _ rect: PixelRect) throws -> Void) throws {
        guard let bounds = stroke.streamBounds, usesCells, flattensFastFillsForCells else {
            return try rasterizeOutline(of: stroke, transform: transform, clip: clip, opacity: opacity, solid: solid,
                                        gradient: gradient, emit: emit)
        }
        if let solid, pendingCount > 0 || directSegments >= minimumParallelBuildSegments,
           let segments = deferredSegments(stroke, bounds, transform: transform, clip: clip, solid: solid) {
            try record(PendingFill(path: Path(), stroke: stroke, transform: transform, fillRule: .nonZero, clip: clip,
                                   opacity: opacity, tolerance: flatteningTolerance, source: solid.source, quality: .fast),
                       segments: segments)
            return
        }
        if pendingCount > 0 { try flushBatch() }
        var edges = CellEdgeBuilder()
        swap(&edges.flat, &flatSegments)
        defer { swap(&edges.flat, &flatSegments) }
        edges.flat.removeAll()
        edges.checksShape = true
        let count = withUnsafeMutablePointer(to: &edges) { edges in
            stroke.send(into: MappedOutline(edges: edges, place: stroke.transform, device: transform)).segments
        }
        guard count <= maximumSegments else { throw RasterError.tooManySegments(count: count, limit: maximumSegments) }
        guard edges.finite, edges.sx.isFinite, edges.sy.isFinite else {
            throw RasterError.nonFiniteGeometry(element: firstNonFiniteElement((try? stroke.outline()) ?? Path(), transform))
        }
        let flat = edges.flat.buffer
        guard flat.count > 0, opacity > 0,
              let (x0, y0, x1, y1) = deviceRegion(edges.minX, edges.minY, edges.maxX, edges.maxY, clip: clip) else {
            directSegments &+= count
            return
        }
        guard x1 - x0 < cellMaximumExtent, y1 - y0 < cellMaximumExtent else {
            return try rasterizeOutline(of: stroke, transform: transform, clip: clip, opacity: opacity, solid: solid,
                                        gradient: gradient, emit: emit)
        }
        directSegments &+= count
        fastCellPaths += 1
        try rasterizeCells(flat, region: PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), fillRule: .nonZero,
                           opacity: opacity, shift: edges.simple ? cellShiftSimple : cellShiftFast, solid: solid,
                           gradient: gradient, emit: emit)
    }

    /// `rasterize(stroke…)` by way of the outline as a path.
    private func rasterizeOutline(of stroke: PathStroke, transform: CGAffineTransform, clip: PixelRect, opacity: Double,
                                  solid: SolidTarget?, gradient: GradientTarget?,
                                  emit: (_ mask: UnsafePointer<UInt8>, _ stride: Int, _ rect: PixelRect) throws -> Void) throws {
        try rasterize(stroke.outline(), transform: transform, fillRule: .nonZero, clip: clip, opacity: opacity, quality: .fast,
                      solid: solid, gradient: gradient, emit: emit)
    }

    /// The fast tier: `segments` (device pixels) accumulated in integer cells band by band
    /// (`CellRasterizer`), composited straight into `solid`'s rows or written to a mask for `emit`.
    private func rasterizeCells(_ segments: UnsafeBufferPointer<Double>, region: PixelRect, fillRule: FillRule, opacity: Double,
                                shift: Int, solid: SolidTarget?, gradient: GradientTarget?,
                                emit: (_ mask: UnsafePointer<UInt8>, _ stride: Int, _ rect: PixelRect) throws -> Void) throws {
        cellRasterizer.begin(width: region.width, height: region.height, shift: shift)
        cellRasterizer.add(segments: segments, origin: (Double(region.x), Double(region.y)))
        try drawCells(region: region, fillRule: fillRule, opacity: opacity, solid: solid, gradient: gradient, emit: emit)
    }

    /// The exact tier on cells, slab by slab of the region (`SlabWorker`): each slab's strips
    /// are kept where accumulating them is exact and resolved where it is not, and the lines
    /// drawn by the cell rasterizer like any other path. Slabs are `resolvedSlabRows` rows
    /// (fewer on very wide regions, where `bandHeight` is smaller) for paths of at least
    /// `minimumParallelSegments` segments, else `bandHeight`, whatever the thread count, so
    /// the lines and the bytes never depend on it. With several threads, a large
    /// path composited straight into a solid target has its slabs resolved and drawn on all of
    /// them at once (rows of different slabs are different pixels).
    private func rasterizeResolved(_ segments: [Double], _ contours: [Int32], region: PixelRect, bandHeight: Int,
                                   fillRule: FillRule, opacity: Double, solid: SolidTarget?,
                                   emit: (_ mask: UnsafePointer<UInt8>, _ stride: Int, _ rect: PixelRect) throws -> Void) throws {
        // Paths too small to share between threads take one slab (up to `bandHeight` rows):
        // cutting them would only cost. The choice depends on the path alone.
        let segmentCount = segments.count / 4
        let slabRows = segmentCount < minimumParallelSegments ? bandHeight
            : max(stripHeight, min(resolvedSlabRows, bandHeight / stripHeight * stripHeight))
        let slabs = (region.height + slabRows - 1) / slabRows
        bucketSegments(segments, region: region, slabRows: slabRows, slabs: slabs)
        let workers = slabWorkers()
        coveragePixels += region.width * region.height
        cellPaths += slabs
        defer {
            for w in workers {
                exactRows += w.exactRows
                sampledRows += w.sampledRows
                crossings += w.crossings
                w.exactRows = 0
                w.sampledRows = 0
                w.crossings = 0
            }
        }
        let offsets = slabOffsets.view, indices = slabIndices.view
        @inline(__always) func slab(_ k: Int) -> PixelRect {
            PixelRect(x: region.x, y: region.y + k * slabRows, width: region.width, height: min(slabRows, region.height - k * slabRows))
        }
        @inline(__always) func only(_ k: Int) -> UnsafeBufferPointer<Int32>? {
            slabs == 1 ? nil : UnsafeBufferPointer(start: indices.base + Int(offsets[k]), count: Int(offsets[k + 1] - offsets[k]))
        }
        let n = min(threads, slabs)
        lastSlabWorkers = 1
        if let solid, n > 1, segmentCount >= minimumParallelSegments {
            lastSlabWorkers = n
            try flushBatch()
            let work = SlabWork(segments: segments, contours: contours, fillRule: fillRule, opacity: opacity, solid: solid,
                                slabs: slabs, workers: n, slab: slab, only: only, all: workers, direct: drawsResolvedLinesDirectly)
            let failure = Locked<Error?>(nil)
            DispatchQueue.concurrentPerform(iterations: n) { w in
                do { try work.draw(worker: w) } catch { failure.withLock { $0 = error } }
            }
            if let error = failure.withLock({ $0 }) { throw error }
            return
        }
        let worker = workers[0]
        for k in 0..<slabs {
            let rect = slab(k)
            // On one thread, outside a batch recording every fill, a slab of more segments
            // than a batch takes from one thread is drawn at once anyway: its resolved lines may
            // go straight into the cells (`SlabWorker.prepare(direct:)`), and it is not
            // recorded. Elsewhere the lines are kept, as a recorded fill needs them.
            let direct = drawsResolvedLinesDirectly && threads == 1 && !recordsEverything
                && (only(k)?.count ?? segmentCount) > batchedEdgesOnOneThread
            // The batch draws its bands in these cells: done first, before the lines go in.
            if direct { try flushBatch() }
            worker.prepare(segments, contours, only: only(k), slab: rect, fillRule: fillRule, direct: direct)
            try drawCells(region: rect, fillRule: fillRule, opacity: opacity, solid: solid, recordable: !direct, emit: emit)
        }
    }

    /// Fills `slabOffsets` and `slabIndices`: for each slab of `slabRows` rows of `region`, the
    /// indices of the segments whose rows meet it, in increasing order (a counting sort).
    private func bucketSegments(_ segments: [Double], region: PixelRect, slabRows: Int, slabs: Int) {
        slabOffsets.reset(count: slabs + 1, to: 0)
        slabIndices.removeAll()
        guard slabs > 1 else { return }
        let offsets = slabOffsets.view
        let top = Double(region.y), rows = Double(slabRows), height = Double(region.height)
        @inline(__always) func range(_ s: UnsafeBufferPointer<Double>, _ i: Int) -> (Int, Int)? {
            let lo = min(s[4 * i + 1], s[4 * i + 3]) - top, hi = max(s[4 * i + 1], s[4 * i + 3]) - top
            guard hi > 0, lo < height else { return nil }
            // Clamped before converting: a coordinate may be 1e30 (the raster fuzzer's find).
            return (Int(max(0, lo) / rows), min(slabs - 1, Int((min(hi, height) / rows).rounded(.up)) - 1))
        }
        let count = segments.count / 4
        segments.withUnsafeBufferPointer { s in
            var total = 0
            for i in 0..<count {
                guard let (a, b) = range(s, i), b >= a else { continue }
                for k in a...b { offsets[k + 1] &+= 1 }
                total += b - a + 1
            }
            for k in 0..<slabs { offsets[k + 1] &+= offsets[k] }
            slabIndices.resize(count: total)
            let indices = slabIndices.view
            for i in 0..<count {
                guard let (a, b) = range(s, i), b >= a else { continue }
                for k in a...b {
                    indices[Int(offsets[k])] = Int32(i)
                    offsets[k] &+= 1
                }
            }
            var k = slabs
            while k > 0 { offsets[k] = offsets[k - 1]; k -= 1 }
            offsets[0] = 0
        }
    }

    /// A slab worker for each of `threads` threads; the first draws with `cellRasterizer`, the
    /// others with the batch's workers (never both at once).
    private func slabWorkers() -> [SlabWorker] {
        let cells = batchWorkers()
        while resolvers.count < cells.count { resolvers.append(SlabWorker(cells: cells[resolvers.count])) }
        return resolvers
    }

    /// Draws the polygon `cellRasterizer` holds over `region`: into the batch, straight into
    /// `solid`'s or `gradient`'s rows, or as masks for `emit`.
    private func drawCells(region: PixelRect, fillRule: FillRule, opacity: Double, solid: SolidTarget?,
                           gradient: GradientTarget? = nil, recordable: Bool = true,
                           emit: (_ mask: UnsafePointer<UInt8>, _ stride: Int, _ rect: PixelRect) throws -> Void) throws {
        let cellRasterizer = self.cellRasterizer
        let shift = cellRasterizer.shift
        cellPaths += 1
        // Lines drawn straight into the cells fill every row: one band of the whole region
        // (`run` walks it so, and a mask must hold it).
        let bandRows = cellRasterizer.drawsWholeRegion ? region.height : max(8, cellBandBytes / (4 * cellRasterizer.stride))
        coveragePixels += region.width * region.height
        // A batch pays for small fills, whose bands it keeps in cache, and for any fill when
        // several threads share its bands. One thread and a large path: recording would only
        // copy its edges, so it is drawn at once (after what the batch holds).
        if recordable, let solid, let target = batch.target?.rows, target.pixels == solid.pixels, target.stride == solid.stride,
           threads > 1 || recordsEverything || cellRasterizer.edgeCount <= batchedEdgesOnOneThread {
            batch.record(cellRasterizer, region: region, fold: CoverageFold(fillRule: fillRule, opacity: opacity, shift: shift),
                         source: solid.source)
            if !recordsEverything, batch.pieceCount > batch.maximumPieces {
                directSegments = 0
                try batch.flush(with: batchWorkers())
            }
            return
        }
        try flushBatch()
        if let solid {
            var sink = SolidOverSink(origin: solid.pixels + region.y * solid.stride + region.x * 4, stride: solid.stride,
                                     source: solid.source)
            try cellRasterizer.run(bandRows: bandRows, fillRule: fillRule, opacity: opacity, sink: &sink)
            return
        }
        if let gradient, Self.evaluate(gradient, over: region, into: &gradientColours) {
            var sink = GradientOverSink(origin: gradient.pixels + region.y * gradient.stride + region.x * 4, stride: gradient.stride,
                                        colours: gradientColours.base, axis: gradient.axis)
            try cellRasterizer.run(bandRows: bandRows, fillRule: fillRule, opacity: opacity, sink: &sink)
            return
        }
        let maskStride = (region.width + 3) & ~3
        let rows = min(bandRows, region.height)
        reserve(cells: 0, maskBytes: maskStride * rows)
        let chunks = (rows + spanChunkRows - 1) / spanChunkRows
        chunkBounds.reset(count: 2 * chunks, to: 0)
        let mask = self.mask
        try withoutActuallyEscaping(emit) { emit in
            var sink = MaskSink(mask: mask, stride: maskStride, width: region.width, chunkLo: chunkBounds.base,
                                chunkHi: chunkBounds.base + chunks) { [unowned self] top, rows in
                spans.removeAll()
                for c in 0..<((rows + spanChunkRows - 1) / spanChunkRows) {
                    let lo = Int(chunkBounds[c]), hi = Int(chunkBounds[chunks + c])
                    guard hi > lo else { continue }
                    let chunkTop = c * spanChunkRows
                    spans.append(PixelRect(x: region.x + lo, y: region.y + top + chunkTop, width: hi - lo,
                                           height: min(spanChunkRows, rows - chunkTop)))
                }
                guard spans.count > 0 else { return }
                try emit(mask, maskStride, PixelRect(x: region.x, y: region.y + top, width: region.width, height: rows))
            }
            try cellRasterizer.run(bandRows: bandRows, fillRule: fillRule, opacity: opacity, sink: &sink)
        }
    }

    // MARK: Batches

    /// Starts recording the solid fills drawn onto `surface` (8-bit ARGB or XRGB) through this
    /// rasterizer with `Canvas.fill`, to draw them band by band of the surface: the same bytes
    /// as drawing each at once, with the band's pixels kept in cache while the fills pile up.
    ///
    /// ```swift
    /// let state = try rasterizer.beginBatch(on: surface)
    /// for shape in shapes { try canvas.fill(shape, with: .color(.blue.opacity(0.5))) }
    /// try rasterizer.endBatch(restoring: state)   // drawn here
    /// ```
    /// Returns the batch it interrupts (drawn first), for `endBatch(restoring:)`. Drawing
    /// anything onto the surface other than through `Canvas.fill` needs `flushBatch()` first.
    public func beginBatch(on surface: Surface) throws -> BatchState {
        let previous = BatchState(target: batch.target)
        try flushBatch()
        batch.end(resuming: surface.format == .argb32 || surface.format == .xrgb32
            ? FillBatch.Target(rows: SolidTarget(source: 0, pixels: surface.data, stride: surface.stride), height: surface.height)
            : nil)
        return previous
    }

    /// Whether a batch is drawing onto `surface` now (`beginBatch`).
    public func isBatching(onto surface: Surface) -> Bool {
        guard let target = batch.target?.rows else { return false }
        return target.pixels == surface.data && target.stride == surface.stride
    }

    /// Whether fills are recorded and not drawn yet (what `flushBatch` would draw).
    public var hasRecordedFills: Bool { pendingCount > 0 || !batch.isEmpty }

    /// Draws the recorded fills now (the batch stays begun).
    public func flushBatch() throws {
        directSegments = 0
        if pendingCount > 0 {
            try drawPending()
        } else if !batch.isEmpty {
            try batch.flush(with: batchWorkers())
        }
    }

    /// Draws the recorded fills and stops batching, going back to `previous` (what
    /// `beginBatch` returned). When a fill fails (a fill recorded whole reports its error
    /// here, see `drawPending`), the batch still ends: nothing recorded outlives it.
    public func endBatch(restoring previous: BatchState) throws {
        defer { batch.end(resuming: previous.target) }
        try flushBatch()
    }

    /// A cell rasterizer for each of `threads` threads.
    private func batchWorkers() -> [CellRasterizer] {
        if workers.isEmpty { workers = [cellRasterizer] }
        while workers.count < threads { workers.append(CellRasterizer()) }
        return threads == workers.count ? workers : Array(workers.prefix(threads))
    }

    // MARK: Fills recorded whole

    /// A solid fill recorded as it was asked for, while a batch draws on several threads: it
    /// is flattened, classified and cut into band pieces by the threads at the flush
    /// (`drawPending`), not by the caller.
    private struct PendingFill {
        var path: Path
        /// A stroke to outline instead of `path` (`rasterize(_ stroke:…)`).
        var stroke: PathStroke? = nil
        var transform: CGAffineTransform
        var fillRule: FillRule
        var clip: PixelRect
        var opacity: Double
        var tolerance: Double
        var source: UInt32
        var quality: CoverageQuality
    }

    /// The fills recorded whole, in order: `pendingCount` of `pendingCapacity` slots.
    @exclusivity(unchecked) private var pendingFills: UnsafeMutablePointer<PendingFill>?
    @exclusivity(unchecked) private(set) var pendingCount = 0
    @exclusivity(unchecked) private var pendingCapacity = 0
    /// Where each of them went in phase 1 (a slot per fill, written by the thread that built it).
    @exclusivity(unchecked) private var builtFills: UnsafeMutablePointer<BuiltFill>?
    /// The flattened segments the pending fills hold (at most: `flattenedSegmentCount`).
    @exclusivity(unchecked) private var pendingSegments = 0
    /// The flattened segments of the fills drawn or recorded by the caller since the batch was
    /// last drawn. Fills are recorded whole only once these reach `minimumParallelBuildSegments`:
    /// a batch smaller than that is built on the caller's thread anyway, and recording its fills
    /// whole (a count pass, a copy and a hand-over each, about 2,500 instructions a fill) made
    /// S2-noshadow's 72 capsules 4 % more instructions on two threads than on one.
    @exclusivity(unchecked) private(set) var directSegments = 0
    /// Helpers building the pending fills while more are recorded (`record`), and the
    /// builders they were given (the caller's is the first); nil: none started.
    @exclusivity(unchecked) private var stream: FillStream?
    @exclusivity(unchecked) private var streamBuilders: [Rasterizer] = []
    /// Fills published to the helpers at a time, and taken by one at a time.
    static let streamChunk = 16
    /// Fills recorded whole before the batch draws itself (which bounds the pieces they
    /// become), and the flattened segments they may hold.
    @exclusivity(unchecked) var maximumPendingFills = 2048
    @exclusivity(unchecked) var maximumPendingSegments = 1 << 18
    /// Below this many flattened segments in a batch, its fills are built on the calling
    /// thread, as on one: waking a worker and handing it fills would cost more than it saves
    /// (S2-noshadow's 72 capsules, 3,528 segments, drew 4–10 % slower on two threads
    /// with 1,024). Past them, the fills are recorded whole and helpers start building them
    /// (`directSegments`). 0 builds every flush on all the threads (the fuzz target does, so
    /// that fills built on different threads meet); the output is the same bytes either way.
    @exclusivity(unchecked) public var minimumParallelBuildSegments = 4096
    /// One rasterizer per thread for the first phase of `drawPending`; each records into its
    /// own batch.
    @exclusivity(unchecked) private var builders: [Rasterizer] = []
    /// Set on builders: every fill that reaches the cells is recorded into the batch, which
    /// never draws (its owner draws it).
    @exclusivity(unchecked) private var recordsEverything = false
    /// How many threads the last fills recorded whole were shared out to (tests).
    @exclusivity(unchecked) private(set) var lastBuilders = 0
    /// Chunks of fills recorded whole that helper threads took while the caller recorded
    /// (`FillStream`; statistics, tests).
    @exclusivity(unchecked) private(set) var helperChunks = 0
    /// Whether the caller takes a part of the fills still unbuilt at the flush (off: the
    /// helpers build them all, and the caller waits; for tests and the fuzz target, so that
    /// helpers surely build some). The output is the same bytes either way.
    @exclusivity(unchecked) public var buildsAtFlush = true

    /// Whether a fill of `path` onto `solid` is recorded whole, and then its flattened segment
    /// count (at most): several threads draw the batch it joins; the path is certain to go to
    /// the cells (its region fits them, whatever the path's bounds); it is too small for its
    /// slabs to be shared among the threads (under `minimumParallelSegments`, so one thread
    /// builds it whole; a larger one is drawn at once on all of them, `rasterizeResolved`);
    /// and it cannot fail, so its errors are still reported by the call that asked for it. A
    /// fill that could fail is drawn at once, which reports the error as drawing without a
    /// batch does.
    private func deferredSegments(_ path: Path, transform: CGAffineTransform, tolerance: Double, clip: PixelRect,
                                  solid: SolidTarget) -> Int? {
        guard threads > 1, !recordsEverything, usesCells, let target = batch.target?.rows, target.pixels == solid.pixels,
              target.stride == solid.stride, clip.width < cellMaximumExtent, clip.height < cellMaximumExtent,
              path.elements.count < minimumParallelSegments else { return nil }
        let tolerance = tolerance.isFinite && tolerance > 0 ? max(tolerance, 1e-4) : flatteningTolerance
        // Every point within ±2⁶⁴ once mapped: flattening then cannot overflow (its points are
        // convex combinations of these), so no coordinate is non-finite. Counted and checked
        // in one pass (two were a tenth of the calling thread's time on S5 with two threads).
        guard let segments = path.flattenedSegmentCount(transform: transform, tolerance: tolerance, below: 0x1p64),
              segments < minimumParallelSegments, segments <= maximumSegments else { return nil }
        return segments
    }

    /// `deferredSegments` of a stroke (with its `streamBounds`): the outline's segments are
    /// not known before it is made, so the fill must be sure not to fail by its bounds (at
    /// most `maximumSegments` points, every point finite: the centre line within 2⁶⁰ px once
    /// mapped, and the farthest an outline point strays from it, the half width times the
    /// miter limit or 1.5·10⁶ for an inner join of a near U-turn, mapped, within 2⁶⁰ too);
    /// the count it returns, for batching only, is the usual one: two points a vertex, a cap
    /// of 16.
    private func deferredSegments(_ stroke: PathStroke, _ bounds: (budget: Int, points: Int), transform: CGAffineTransform,
                                  clip: PixelRect, solid: SolidTarget) -> Int? {
        guard threads > 1, !recordsEverything, usesCells, let target = batch.target?.rows, target.pixels == solid.pixels,
              target.stride == solid.stride, clip.width < cellMaximumExtent, clip.height < cellMaximumExtent,
              stroke.path.elements.count < minimumParallelSegments, bounds.points <= maximumSegments else { return nil }
        let toDevice = stroke.transform.concatenating(transform)
        // The transform stretches no length by more than its matrix's Frobenius norm.
        let t = toDevice
        let stretch = Double(t.a * t.a + t.b * t.b + t.c * t.c + t.d * t.d).squareRoot()
        let reach = Double(stroke.style.lineWidth) / 2 * max(1.5e6, Double(stroke.style.miterLimit)) * stretch
        guard reach < 0x1p60,
              let segments = stroke.path.flattenedSegmentCount(transform: toDevice, tolerance: stroke.tolerance, below: 0x1p60)
        else { return nil }
        let estimate = 2 * segments + 16 * stroke.subpathCount
        return estimate < minimumParallelSegments ? estimate : nil
    }

    /// Draws the fills recorded whole, after what the batch holds, in two phases.
    ///
    /// 1. The threads take the fills in chunks; each flattens, classifies and cuts its fills
    ///    into its own batch (a `Rasterizer` per thread, the same code as drawing one fill at
    ///    a time, so the same pieces).
    /// 2. Every fill's pieces, in the order the fills were asked for, are drawn band by band
    ///    (`FillBatch.draw`), each band by one thread.
    ///
    /// `defers` records only fills that cannot fail. Should one fail all the same, the fills
    /// before it are drawn and its error is thrown, as drawing them one at a time would have
    /// done, and the fills after it are dropped.
    private func drawPending() throws {
        let count = pendingCount
        let segments = pendingSegments
        pendingSegments = 0
        let stream = self.stream
        self.stream = nil
        defer {
            pendingFills!.deinitialize(count: count)
            pendingCount = 0
        }
        guard let target = batch.target else {
            // Helpers start only while a batch is begun, and the batch is drawn before it ends.
            stream?.cancel()
            stream?.waitForHelpers()
            return
        }
        // Phase 1. Fill i's commands are builders[built[i].builder].batch's built[i].range.
        let builders: [Rasterizer]
        let work: BuildWork
        if let stream {
            // Helpers took fills while they were recorded: take the rest, then wait for them.
            builders = streamBuilders
            work = BuildWork(fills: pendingFills!, built: builtFills!, builders: builders, target: target.rows)
            stream.close(count)
            if buildsAtFlush {
                while let range = stream.take(Self.streamChunk, helper: false) { work.build(range, worker: 0) }
            }
            stream.waitForHelpers()
            lastBuilders = builders.count
            helperChunks += stream.helperTakes
        } else {
            let n = segments >= minimumParallelBuildSegments ? min(threads, count) : 1
            builders = beginBuilders(n, target: target)
            work = BuildWork(fills: pendingFills!, built: builtFills!, builders: builders, target: target.rows)
            if n == 1 {
                work.build(0..<count, worker: 0)
            } else {
                let shared = FillStream()
                shared.close(count)
                let chunk = BuildWork.chunk(fills: count, threads: n)
                DispatchQueue.concurrentPerform(iterations: n) { w in
                    while let range = shared.take(chunk, helper: w > 0) { work.build(range, worker: w) }
                }
            }
            lastBuilders = n
        }
        let built = builtFills!
        defer {
            built.deinitialize(count: count)
            for b in builders {
                b.batch.removeAll()
                coveragePixels += b.coveragePixels; b.coveragePixels = 0
                cellPaths += b.cellPaths; b.cellPaths = 0
                convexPaths += b.convexPaths; b.convexPaths = 0
                fastCellPaths += b.fastCellPaths; b.fastCellPaths = 0
                exactRows += b.exactRows; b.exactRows = 0
                sampledRows += b.sampledRows; b.sampledRows = 0
                crossings += b.crossings; b.crossings = 0
            }
            batch.removeAll()
        }
        // Phase 2: what the batch held first, then each fill up to the first that failed.
        var placed: [FillBatch.Placed] = []
        batch.place(0..<batch.commandCount, into: &placed)
        var failure: Error?
        for i in 0..<count {
            if let error = built[i].error { failure = error; break }
            builders[built[i].builder].batch.place(built[i].range, into: &placed)
        }
        let pieces = builders.reduce(batch.pieceCount) { $0 + $1.batch.pieceCount }
        batch.lastWorkers = try FillBatch.draw(placed, pieces: pieces, onto: target, with: batchWorkers(),
                                               minimumParallelPieces: batch.minimumParallelPieces)
        if let failure { throw failure }
    }

    /// Records a fill to draw whole at the flush. The first one recorded starts helper threads
    /// building them while the caller records more (`FillStream`).
    private func record(_ fill: PendingFill, segments: Int) throws {
        if pendingCount > 0, pendingCount >= pendingCapacity { try flushBatch() }
        if pendingCount == 0, pendingCapacity < max(1, maximumPendingFills) {
            pendingFills?.deallocate()
            builtFills?.deallocate()
            pendingCapacity = max(1, maximumPendingFills)
            pendingFills = .allocate(capacity: pendingCapacity)
            builtFills = .allocate(capacity: pendingCapacity)
        }
        (pendingFills! + pendingCount).initialize(to: fill)
        pendingCount += 1
        pendingSegments += segments
        if let stream {
            if pendingCount % Self.streamChunk == 0 { stream.publish(pendingCount) }
        } else if threads > 1, let target = batch.target {
            // The first fill recorded whole: the batch already holds `minimumParallelBuildSegments`.
            startHelpers(target: target)
        }
        if pendingCount >= maximumPendingFills || pendingSegments >= maximumPendingSegments { try flushBatch() }
    }

    /// Starts `threads − 1` helpers on the fills recorded so far and those still to come.
    private func startHelpers(target: FillBatch.Target) {
        let builders = beginBuilders(threads, target: target)
        let stream = FillStream()
        self.stream = stream
        streamBuilders = builders
        stream.publish(pendingCount)
        let work = BuildWork(fills: pendingFills!, built: builtFills!, builders: builders, target: target.rows)
        for w in 1..<builders.count {
            DispatchQueue.global().async {
                stream.help(chunk: Self.streamChunk) { work.build($0, worker: w) }
            }
        }
    }

    /// `n` builders for phase 1, each recording into its own batch onto `target`.
    private func beginBuilders(_ n: Int, target: FillBatch.Target) -> [Rasterizer] {
        while builders.count < n {
            let builder = Rasterizer()
            builder.recordsEverything = true
            builders.append(builder)
        }
        let chosen = Array(builders.prefix(n))
        for b in chosen {
            b.batch.begin(target)
            b.maximumSegments = maximumSegments
            b.checksControlPolygons = checksControlPolygons
            b.flattensFastFillsForCells = flattensFastFillsForCells
        }
        return chosen
    }

    /// Where one fill recorded whole went in phase 1 of `drawPending`.
    private struct BuiltFill {
        var builder = 0
        var range = 0..<0
        var error: Error?
    }

    /// What the threads of phase 1 share: the fills, read-only; the slots each writes for the
    /// fills it takes (no two threads take one fill); each thread's own builder.
    private struct BuildWork: @unchecked Sendable {
        let fills: UnsafeMutablePointer<PendingFill>
        let built: UnsafeMutablePointer<BuiltFill>
        let builders: [Rasterizer]
        let target: SolidTarget

        /// About four takes per thread, at most 16 fills each: a few large fills are shared
        /// out one by one, thousands of small ones do not contend on the lock.
        static func chunk(fills: Int, threads: Int) -> Int {
            min(16, max(1, fills / (4 * max(1, threads))))
        }

        /// Builds `range` of the fills with builder `w`.
        func build(_ range: Range<Int>, worker w: Int) {
            let builder = builders[w]
            for i in range {
                let start = builder.batch.commandCount
                var error: Error?
                builder.coverageQuality = fills[i].quality
                let solid = SolidTarget(source: fills[i].source, pixels: target.pixels, stride: target.stride)
                do {
                    if let stroke = fills[i].stroke {
                        try builder.rasterize(stroke, transform: fills[i].transform, clip: fills[i].clip, opacity: fills[i].opacity,
                                              solid: solid, emit: { _, _, _ in })
                    } else {
                        try builder.rasterize(fills[i].path, transform: fills[i].transform, fillRule: fills[i].fillRule,
                                              clip: fills[i].clip, opacity: fills[i].opacity, tolerance: fills[i].tolerance,
                                              solid: solid, emit: { _, _, _ in })
                    }
                } catch let e {
                    error = e
                }
                (built + i).initialize(to: BuiltFill(builder: w, range: start..<builder.batch.commandCount, error: error))
            }
        }
    }

    /// The batch `beginBatch` interrupted, to resume with `endBatch(restoring:)`.
    public struct BatchState {
        fileprivate let target: FillBatch.Target?
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
                       exact: borrowing ScratchBuffer<Bool>, scale: Float, origin: (x: Int, y: Int)) {
        spans.removeAll()
        let touchedFirst = self.rows.touchedFirst.base, touchedLast = self.rows.touchedLast.base
        var chunkLo = Int.max, chunkHi = Int.min, chunkTop = 0
        for row in 0..<rows {
            if row % spanChunkRows == 0 {
                if chunkHi > chunkLo {
                    spans.append(PixelRect(x: origin.x + chunkLo, y: origin.y + chunkTop, width: chunkHi - chunkLo, height: row - chunkTop))
                }
                chunkLo = .max; chunkHi = .min; chunkTop = row
            }
            let line = accumulation + row * stride
            let out = mask + row * maskStride
            // Cells outside [first, last] are zero: coverage is 0 before them and constant after.
            let first = Int(touchedFirst[row]), last = Int(touchedLast[row])
            guard first <= last else {
                out.update(repeating: 0, count: width)
                continue
            }
            let start = max(0, first - 1)             // output x reads cell x + 1
            out.update(repeating: 0, count: start)
            var sum: Float = first == 0 ? line[0] : 0
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
            var x = start
            var current = byte(sum)
            let end = min(width, last)
            while x < end {
                // Interiors and exteriors are long runs of untouched (zero) cells whose
                // coverage equals the last pixel's: skip them eight at a time.
                if x + 8 <= end, allZero(cells + x) {
                    var runEnd = x + 8
                    while runEnd + 8 <= end, allZero(cells + runEnd) { runEnd += 8 }
                    (out + x).update(repeating: current, count: runEnd - x)
                    if current != 0 { chunkLo = min(chunkLo, x); chunkHi = max(chunkHi, runEnd) }
                    x = runEnd
                    continue
                }
                sum += cells[x]
                cells[x] = 0
                current = byte(sum)
                out[x] = current
                if current != 0 { chunkLo = min(chunkLo, x); chunkHi = max(chunkHi, x + 1) }
                x += 1
            }
            if x < width {
                (out + x).update(repeating: current, count: width - x)
                if current != 0 { chunkLo = min(chunkLo, x); chunkHi = width }
            }
            cells[width] = 0
            cells[width + 1] = 0
        }
        if chunkHi > chunkLo {
            spans.append(PixelRect(x: origin.x + chunkLo, y: origin.y + chunkTop, width: chunkHi - chunkLo, height: rows - chunkTop))
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

/// A stroke's outline points, in the stroke's units, mapped to device space as the outline
/// path would be (`Path.applying(place)`, skipped for the identity as it skips it, then
/// `Path.flatten(transform: device)`'s arithmetic) and sent to the cell edge builder; counts
/// the points (moves and lines: the outline path's `flattenedSegmentCount`).
private struct MappedOutline: PolylineSink {
    let edges: UnsafeMutablePointer<CellEdgeBuilder>
    let place: CGAffineTransform
    let placeIsIdentity: Bool
    let device: CGAffineTransform
    var segments = 0

    init(edges: UnsafeMutablePointer<CellEdgeBuilder>, place: CGAffineTransform, device: CGAffineTransform) {
        self.edges = edges
        self.place = place
        placeIsIdentity = place.isIdentity
        self.device = device
    }

    @inline(__always) private func map(_ x: Double, _ y: Double) -> (Double, Double) {
        var p = CGPoint(x: x, y: y)
        if !placeIsIdentity { p = p.applying(place) }
        let t = device
        return (t.a * p.x + t.c * p.y + t.tx, t.b * p.x + t.d * p.y + t.ty)
    }

    @inline(__always) mutating func moveTo(_ x: Double, _ y: Double) {
        segments &+= 1
        let (px, py) = map(x, y)
        edges.pointee.moveTo(px, py)
    }

    @inline(__always) mutating func lineTo(_ x: Double, _ y: Double) {
        segments &+= 1
        let (px, py) = map(x, y)
        edges.pointee.lineTo(px, py)
    }

    @inline(__always) mutating func close(explicit: Bool) { edges.pointee.close(explicit: explicit) }
}
