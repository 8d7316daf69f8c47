import Foundation

/// Rows per slab of the exact tier on cells (`Rasterizer.rasterizeResolved`): a multiple of
/// `stripHeight`. Each slab reads only the segments that reach it, so a slab costs its own
/// edges; 128 rows of a 1,024 px canvas hold 128 K cells.
let resolvedSlabRows = 128

/// One thread's tools for the exact tier on cells: strip-resolver scratch, the lines it makes
/// and the cell rasterizer that draws them.
final class SlabWorker {
    private var rows = RowScratch()
    private var lines = FixedLines(shift: cellShiftSimple, width: 0)
    let cells: CellRasterizer
    /// Rows resolved region by region, and of those, rows of crowded strips sampled
    /// (`resolveRowBySampling`), since the rasterizer last read them.
    var exactRows = 0
    var sampledRows = 0
    /// Crossings found in those rows (`Rasterizer.crossings`).
    var crossings = 0

    init(cells: CellRasterizer) { self.cells = cells }

    /// Resolves the rows of `slab` (device pixels) from `segments` (`only`: the indices of
    /// those reaching it) into `cells`' edges. With `direct`, the resolved strips' lines are
    /// drawn into `cells` at once (`CellRasterizer.directLines`) and only the pieces of simple
    /// strips are kept as edges: the caller must then `run` the cells before anything else
    /// uses them (not record their edges into a batch, which would leave the lines behind).
    func prepare(_ segments: [Double], _ contours: [Int32], only: UnsafeBufferPointer<Int32>?, slab: PixelRect,
                 fillRule: FillRule, direct: Bool) {
        cells.begin(width: slab.width, height: slab.height, shift: cellShiftSimple)
        lines.reset(shift: cellShiftSimple, width: slab.width, direct: direct ? cells.directLines() : nil)
        exactRows += rows.accumulate(segments: segments, contours: contours, only: only, originX: Double(slab.x) - 1,
                                     originY: Double(slab.y), width: Double(slab.width), rows: slab.height, into: &lines,
                                     fillRule: fillRule, exactOverlaps: true)
        sampledRows += rows.sampledRows
        crossings += rows.exactScratch.crossings
        rows.sampledRows = 0
        rows.exactScratch.crossings = 0
        cells.exchangeEdges(&lines.edges)
        lines.direct = nil
    }
}

/// What the threads of one parallel exact-tier path share, read-only: its segments, where
/// each slab's are, and the solid target; and the count of slabs taken. Each worker takes the
/// next slab when it is free; each slab's rows are pixels no other slab writes.
struct SlabWork: @unchecked Sendable {
    let segments: [Double]
    let contours: [Int32]
    let fillRule: FillRule
    let opacity: Double
    let solid: Rasterizer.SolidTarget
    let slabs: Int
    let workers: Int
    let slab: (Int) -> PixelRect
    let only: (Int) -> UnsafeBufferPointer<Int32>?
    /// Each worker's tools (so unchecked: no two threads use one).
    let all: [SlabWorker]
    /// Whether resolved lines go straight into each worker's cells (`SlabWorker.prepare`).
    let direct: Bool

    /// The next slab no worker has taken.
    let next = Locked(0)

    func draw(worker w: Int) throws {
        let worker = all[w]
        while true {
            // Slabs are taken as workers come free, not dealt in turn: S4's slabs differ in
            // cost (the crossings crowd its middle), and dealt in turn one thread finished
            // early and waited.
            let k = next.take()
            guard k < slabs else { return }
            let rect = slab(k)
            // Run at once below: the resolved lines may go straight into the cells.
            worker.prepare(segments, contours, only: only(k), slab: rect, fillRule: fillRule, direct: direct)
            var sink = SolidOverSink(origin: solid.pixels + rect.y * solid.stride + rect.x * 4, stride: solid.stride,
                                     source: solid.source)
            let cells = worker.cells
            try cells.run(bandRows: max(8, cellBandBytes / (4 * cells.stride)), fillRule: fillRule, opacity: opacity, sink: &sink)
        }
    }
}
