import Foundation

/// Solid fills recorded and then drawn band by band of the destination, in their order
/// (RASTER.md §3.1, a command list): each band of `FillBatch.bandRows` rows is drawn by every
/// recorded fill that reaches it before the next band starts, so the band's pixels stay in
/// the cache while a thousand translucent shapes pile up on them, instead of each shape
/// walking its own rows a canvas stride apart.
///
/// Every pixel receives the same operations in the same order as when each fill is drawn at
/// once, and each band's walk cuts an edge to its rows from the edge's own ends, as drawing it
/// at once does (`edgeX`), so the bytes are the same (`FillBatchTests`, and the raster fuzz
/// target checks it on every input). Fills record each edge once for every band it crosses;
/// a batch flushes itself beyond `maximumPieces`.
///
/// The renderer batches runs of plain solid leaves (`Rasterizer.beginBatch`); anything else
/// drawn onto the surface flushes the batch first. Not thread-safe: one per `Rasterizer`.
///
/// Its stored properties opt out of Swift's dynamic exclusivity checks (`@exclusivity(unchecked)`):
/// one thread uses it at a time, and the checks on its scratch buffers cost S3-10k about 17 M
/// instructions a frame (S3-1k 1.7 M, S2-noshadow 0.1 M).
final class FillBatch {
    /// Destination rows per band: 32 rows of a 1,920 px canvas are 240 KiB of pixels, which
    /// stay in L2 with the band's cells.
    static let bandRows = 32
    /// Pieces held before the batch draws itself (20 bytes each: 40 MB).
    @exclusivity(unchecked) var maximumPieces = 1 << 21

    fileprivate struct Command {
        var region: PixelRect
        var shift: Int
        var fold: CoverageFold
        var source: UInt32
        var firstBand: Int, lastBand: Int
        /// Where this command's per-band piece offsets start in `bandOffsets` (lastBand −
        /// firstBand + 2 entries: the start of each band's pieces, then the end).
        var offsets: Int
    }

    @exclusivity(unchecked) private var commands: [Command] = []
    @exclusivity(unchecked) private var pieces = ScratchBuffer<FixedEdge>()
    @exclusivity(unchecked) private var bandOffsets = ScratchBuffer<Int32>()
    /// Where a batch draws: 8-bit (A/X)RGB rows, and how many.
    struct Target {
        var rows: Rasterizer.SolidTarget
        var height: Int
    }

    /// The rows drawn into (nil: not batching).
    @exclusivity(unchecked) private(set) var target: Target?

    var isEmpty: Bool { commands.isEmpty }
    var pieceCount: Int { pieces.count }

    /// Starts batching fills onto `target`.
    func begin(_ target: Target) { self.target = target }

    /// Records the polygon `cells` holds (its edges, region-local) as one fill of `region`.
    func record(_ cells: CellRasterizer, region: PixelRect, fold: CoverageFold, source: UInt32) {
        let edges = cells.edgeView
        guard edges.count > 0 else { return }
        let shift = cells.shift
        let rows = Self.bandRows
        let firstBand = region.y / rows, lastBand = (region.maxY - 1) / rows
        // The whole edge goes to every band it crosses: each band's walk cuts it to its rows
        // from the edge's own ends, as drawing it at once does. (Cutting it here into pieces
        // would give each piece its own slope from rounded ends, and the rows after a cut
        // would differ by a rounding: the raster fuzzer found that.) Two passes over the
        // edges, a counting sort by band: count, then place.
        let bands = lastBand - firstBand + 1
        let offsets = bandOffsets.count
        bandOffsets.resize(count: offsets + bands + 1)
        let counts = bandOffsets.view
        for b in 0...bands { counts[offsets + b] = 0 }
        let top = region.y - firstBand * rows   // region row 0 in the first band's rows
        // (Wrapping arithmetic: every value is bounded by the region, below 2³¹ in fixed point;
        // the overflow checks were a fifth of the instructions here.)
        // Both rows are at least 0 (the edges lie in the region, y0 < y1), so they are divided
        // as unsigned values: a shift, without the signed division's rounding fix-up.
        @inline(__always) func bandRange(_ e: FixedEdge) -> (Int, Int) {
            (Int(UInt(bitPattern: top &+ Int(e.y0) &>> shift) / UInt(rows)),
             Int(UInt(bitPattern: top &+ Int(e.y1 &- 1) &>> shift) / UInt(rows)))
        }
        var total = 0
        for i in 0..<edges.count {
            let (b0, b1) = bandRange(edges[i])
            var b = b0
            while b <= b1 { counts[offsets &+ b &+ 1] &+= 1; b &+= 1 }
            total &+= b1 &- b0 &+ 1
        }
        let start = pieces.count
        counts[offsets] = Int32(start)
        for b in 0..<bands { counts[offsets + b + 1] &+= counts[offsets + b] }
        // Place each edge at its bands' next free slots (the offsets move on; restored below).
        pieces.resize(count: start + total)
        let placed = pieces.view
        for i in 0..<edges.count {
            let e = edges[i]
            let (b0, b1) = bandRange(e)
            var b = b0
            while b <= b1 {
                placed[Int(counts[offsets &+ b])] = e
                counts[offsets &+ b] &+= 1
                b &+= 1
            }
        }
        // counts[b] now holds the end of band b: shift them back to starts.
        var b = bands
        while b > 0 { counts[offsets + b] = counts[offsets + b - 1]; b -= 1 }
        counts[offsets] = Int32(start)
        commands.append(Command(region: region, shift: shift, fold: fold, source: source, firstBand: firstBand,
                                lastBand: lastBand, offsets: offsets))
    }

    /// Draws every recorded fill, band by band, and empties the batch (it stays begun).
    ///
    /// With more than one rasterizer in `workers`, worker i draws bands i, i + n, i + 2n, …
    /// at once with the others: each band's pixels are written by one worker, fill after
    /// fill in their order, so the bytes are the same whatever the number of workers.
    /// Batches with fewer than `minimumParallelPieces` pieces and fewer than
    /// `minimumParallelPixels` pixels in their fills' regions, or with fewer bands than
    /// workers, stay on the calling thread (waking workers costs more than they would save).
    func flush(with workers: [CellRasterizer]) throws {
        guard let target, !commands.isEmpty else { return }
        defer { removeAll() }
        var placed: [Placed] = []
        place(0..<commands.count, into: &placed)
        lastWorkers = try Self.draw(placed, pieces: pieces.count, onto: target, with: workers,
                                    minimumParallelPieces: minimumParallelPieces)
    }

    /// Forgets every recorded fill (the batch stays begun).
    func removeAll() {
        commands.removeAll(keepingCapacity: true)
        pieces.removeAll()
        bandOffsets.removeAll()
    }

    /// How many fills are recorded.
    var commandCount: Int { commands.count }

    /// A recorded fill with where its pieces lie: fills recorded by several batches (one per
    /// thread, `Rasterizer`'s deferred fills) are drawn together, in one order, by `draw`.
    struct Placed {
        fileprivate var command: Command
        fileprivate var pieces: UnsafePointer<FixedEdge>
        fileprivate var offsets: UnsafePointer<Int32>
    }

    /// Appends the fills recorded at `range` to `placed`. They point into this batch's storage:
    /// valid until it records again or is emptied.
    func place(_ range: Range<Int>, into placed: inout [Placed]) {
        let pieces = UnsafePointer(self.pieces.base), offsets = UnsafePointer(bandOffsets.base)
        for i in range { placed.append(Placed(command: commands[i], pieces: pieces, offsets: offsets)) }
    }

    /// Draws `placed` (`pieces` pieces in all) band by band onto `target`, on as many of
    /// `workers` as pay (see `flush`); returns how many drew.
    static func draw(_ placed: [Placed], pieces: Int, onto target: Target, with workers: [CellRasterizer],
                     minimumParallelPieces: Int, minimumParallelPixels: Int = FillBatch.minimumParallelPixels) throws -> Int {
        guard !placed.isEmpty else { return 0 }
        let rows = Self.bandRows
        // Few edges may still cover many pixels (S7's full-frame boxes): count those too.
        var pixels = 0
        for p in placed where pixels < minimumParallelPixels { pixels += p.command.region.area }
        var lowest = Int.max, highest = Int.min
        for p in placed { lowest = min(lowest, p.command.firstBand); highest = max(highest, p.command.lastBand) }
        lowest = max(0, lowest)
        highest = min((target.height + rows - 1) / rows - 1, highest)
        guard lowest <= highest else { return 0 }
        let bandCount = highest - lowest + 1
        let n = pieces >= minimumParallelPieces || pixels >= minimumParallelPixels ? min(workers.count, bandCount) : 1
        // Each band's fills, in the order they were asked for (a counting sort by band): a
        // band reads only the fills that reach it. (Every band scanned every fill: 2,048 fills
        // times 34 bands a flush on S3.)
        let starts = UnsafeMutablePointer<Int32>.allocate(capacity: bandCount + 1)
        starts.initialize(repeating: 0, count: bandCount + 1)
        defer { starts.deallocate() }
        // The bands of a fill that the target has (none for an empty one).
        func bands(_ c: Command) -> ClosedRange<Int>? {
            let first = max(lowest, c.firstBand), last = min(highest, c.lastBand)
            return first <= last ? first...last : nil
        }
        for p in placed {
            guard let range = bands(p.command) else { continue }
            for band in range { starts[band - lowest + 1] += 1 }
        }
        for b in 0..<bandCount { starts[b + 1] += starts[b] }
        let members = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, Int(starts[bandCount])))
        defer { members.deallocate() }
        for (i, p) in placed.enumerated() {
            guard let range = bands(p.command) else { continue }
            for band in range {
                members[Int(starts[band - lowest])] = Int32(i)
                starts[band - lowest] += 1
            }
        }
        // starts[b] is now where band b's list ends, and band b + 1's begins.
        let work = BandWork(commands: placed, target: target, lowest: lowest, highest: highest, ends: starts, members: members,
                            workers: workers)
        if n == 1 {
            try work.draw(worker: 0)
            return 1
        }
        let failure = Locked<Error?>(nil)
        DispatchQueue.concurrentPerform(iterations: n) { w in
            do { try work.draw(worker: w) } catch { failure.withLock { $0 = error } }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return n
    }

    /// How many threads the last flush drew on (for tests).
    @exclusivity(unchecked) var lastWorkers = 0

    /// Batches smaller than this many pieces draw on one thread: about 0.3 ms of drawing on
    /// this machine's cores, against tens of microseconds to wake a worker.
    @exclusivity(unchecked) var minimumParallelPieces = 4096

    /// Batches whose fills' regions hold this many pixels draw on several threads however few
    /// their pieces: 2²⁰, about 0.2 ms of blending at the AVX2 kernel's 0.2 ns a pixel here.
    static let minimumParallelPixels = 1 << 20

    /// Stops batching onto the current target, forgetting what is recorded (draw it first),
    /// and batches onto `next` instead (nil: stops batching).
    func end(resuming next: Target?) {
        removeAll()
        target = next
    }

    /// What the workers of one flush share, read-only: the fills and their pieces, each band's
    /// fills, and the destination, whose bands they take one at a time as each comes free
    /// (bands differ in cost; dealt in turn, one worker would wait for the other).
    private struct BandWork: @unchecked Sendable {
        let commands: [Placed]
        let target: Target
        let lowest: Int, highest: Int
        /// Band b's fills are `members[ends[b − 1] ..< ends[b]]` (from 0 for the first band),
        /// b counted from `lowest`.
        let ends: UnsafePointer<Int32>
        let members: UnsafePointer<Int32>
        /// Each worker's own cells (so unchecked: no two threads use one).
        let workers: [CellRasterizer]
        /// The next band no worker has taken.
        let next = Locked(0)

        init(commands: [Placed], target: Target, lowest: Int, highest: Int, ends: UnsafeMutablePointer<Int32>,
             members: UnsafeMutablePointer<Int32>, workers: [CellRasterizer]) {
            self.commands = commands
            self.target = target
            self.lowest = lowest
            self.highest = highest
            self.ends = UnsafePointer(ends)
            self.members = UnsafePointer(members)
            self.workers = workers
        }

        func draw(worker w: Int) throws {
            let cells = workers[w]
            let rows = FillBatch.bandRows
            while true {
                let b = next.take()
                let band = lowest + b
                guard band <= highest else { return }
                for m in Int(b == 0 ? 0 : ends[b - 1])..<Int(ends[b]) {
                    let p = commands[Int(members[m])]
                    let c = p.command
                    let k = c.offsets + band - c.firstBand
                    let from = Int(p.offsets[k]), to = Int(p.offsets[k + 1])
                    // The band's rows of this fill, region-local.
                    let top = max(0, band * rows - c.region.y), bottom = min(c.region.height, (band + 1) * rows - c.region.y)
                    guard to > from, bottom > top else { continue }
                    var sink = SolidOverSink(origin: target.rows.pixels + c.region.y * target.rows.stride + c.region.x * 4,
                                             stride: target.rows.stride, source: c.source)
                    try cells.drawBand(UnsafeBufferPointer(start: p.pieces + from, count: to - from), width: c.region.width,
                                       top: top, rows: bottom - top, shift: c.shift, fold: c.fold, sink: &sink)
                }
            }
        }
    }
}
