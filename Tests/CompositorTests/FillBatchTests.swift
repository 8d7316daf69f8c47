import Foundation
import ReferenceScenes
import Testing
@testable import Compositor

/// Fills recorded and drawn band by band (`FillBatch`) against the same fills drawn one at a
/// time: every pixel gets the same operations in the same order, so the bytes are equal.
@Suite struct FillBatchTests {
    /// Random translucent and opaque circles, ellipses, rounded rectangles and stroked waves,
    /// some tall enough to cross many bands, some cut by the surface's sides, interleaved with
    /// a self-crossing star (the strip resolver), pixel-aligned boxes (pixman fills an opaque
    /// one after drawing the batch; a translucent one joins the batch, blended from the cells:
    /// the bytes pixman's box would give) and a gradient, which a batch cannot take.
    @Test(arguments: [PixelFormat.argb32, .xrgb32], [Int.max, 7])
    func batchedFillsEqualFillsDrawnAtOnce(format: PixelFormat, maximumPieces: Int) throws {
        let once = try Self.draw(format: format, batched: false)
        let same = try Self.draw(format: format, batched: true) { $0.batch.maximumPieces = maximumPieces } == once
        #expect(same)
    }

    /// On several threads, small fills are recorded whole and built by the threads
    /// (`Rasterizer.drawPending`): still the same bytes, under either coverage quality, with
    /// the batch drawing itself every 7 fills or only at its end.
    @Test(arguments: [2, 3, 8], [CoverageQuality.exact, .fast])
    func fillsRecordedWholeEqualFillsDrawnAtOnce(threads: Int, quality: CoverageQuality) throws {
        try Self.recordedWholeMatchDrawnAtOnce(threads: threads, quality: quality) { _ in } built: { rasterizer, builders in
            builders = max(builders, rasterizer.lastBuilders)
        }
    }

    /// On several threads a batch's fills are built by the caller, as on one, until they hold
    /// `minimumParallelBuildSegments`; only fills after those are recorded whole (S2-noshadow's
    /// 72 capsules, 3,528 segments, were slower on two threads than on one when recorded whole
    /// from 1,024). The same bytes at every threshold; none recorded whole under `Int.max`.
    @Test(arguments: [300, 1500, Int.max])
    func fillsAreRecordedWholeOnlyPastTheThreshold(threshold: Int) throws {
        let once = try Self.draw(format: .argb32, batched: false)
        var states: [(pending: Int, direct: Int)] = [(0, 0)]
        let bytes = try Self.draw(format: .argb32, batched: true) {
            $0.threads = 2
            $0.minimumParallelBuildSegments = threshold
        } after: { states.append(($0.pendingCount, $0.directSegments)) }
        let same = bytes == once
        #expect(same)
        // Each fill that starts recording whole (none pending before it, some after) came
        // after the caller's fills reached the threshold.
        var starts = 0
        for (before, after) in zip(states, states.dropFirst()) where before.pending == 0 && after.pending > 0 {
            #expect(before.direct >= threshold)
            starts += 1
        }
        #expect(threshold == Int.max ? starts == 0 : starts > 0, "\(starts) starts")
    }

    /// Helper threads build the fills recorded whole while the caller records more
    /// (`FillStream`): with the caller taking none at the flush, the helpers build them all,
    /// and the bytes are still those of drawing each fill at once.
    @Test(arguments: [2, 3], [CoverageQuality.exact, .fast])
    func fillsBuiltByHelpersWhileRecordingEqualFillsDrawnAtOnce(threads: Int, quality: CoverageQuality) throws {
        try Self.recordedWholeMatchDrawnAtOnce(threads: threads, quality: quality) { $0.buildsAtFlush = false } built: { rasterizer, chunks in
            chunks = rasterizer.helperChunks + 1   // > 1: helpers took some
        }
    }

    /// The fills recorded whole on `threads` threads (the batch drawing itself every 7 fills,
    /// then only at its end) against the same fills drawn at once: the same bytes; and
    /// `built` (from each rasterizer, after each fill) says more than one thread built them.
    private static func recordedWholeMatchDrawnAtOnce(threads: Int, quality: CoverageQuality, setUp: (Rasterizer) -> Void,
                                                      built: @escaping (Rasterizer, inout Int) -> Void) throws {
        let once = try draw(format: .argb32, batched: false) { $0.coverageQuality = quality }
        for maximumPendingFills in [7, 2048] {
            var builders = 0
            let bytes = try draw(format: .argb32, batched: true) {
                $0.coverageQuality = quality
                $0.threads = threads
                $0.minimumParallelBuildSegments = 0
                $0.maximumPendingFills = maximumPendingFills
                setUp($0)
            } after: { built($0, &builders) }
            let same = bytes == once   // not inside #expect, which would print every byte
            #expect(same, "\(maximumPendingFills) fills at a time")
            #expect(builders > 1, "the fills were built on several threads")
        }
    }

    /// Fills that fail (a non-finite point, too many segments) report their error at the call
    /// that asked for them, batched or not; the fills around them are drawn either way.
    @Test(arguments: [1, 2])
    func failedFillsFailAtTheirCall(threads: Int) throws {
        func draw(batched: Bool) throws -> [UInt8] {
            let surface = try Surface(width: 64, height: 64)
            let rasterizer = Rasterizer()
            rasterizer.threads = threads
            rasterizer.minimumParallelBuildSegments = 0
            rasterizer.maximumSegments = 1000
            let canvas = Canvas(surface, rasterizer: rasterizer)
            let state = batched ? try rasterizer.beginBatch(on: surface) : nil
            try canvas.fill(Path(ellipseIn: CGRect(x: 2, y: 2, width: 30, height: 40)), with: .color(.red.opacity(0.5)))
            let nan = Path { p in
                p.move(to: CGPoint(x: 1, y: 1)); p.addLine(to: CGPoint(x: CGFloat.nan, y: 9)); p.addLine(to: CGPoint(x: 20, y: 30))
            }
            #expect(throws: RasterError.self) { try canvas.fill(nan, with: .color(.blue)) }
            // A circle of radius 10⁸ flattened at 0.1 px: far more than 1,000 segments.
            let huge = Path(ellipseIn: CGRect(x: -1e8, y: -1e8, width: 2e8, height: 2e8))
            #expect(throws: RasterError.self) { try canvas.fill(huge, with: .color(.blue)) }
            try canvas.fill(Path(ellipseIn: CGRect(x: 20, y: 14, width: 40, height: 30)), with: .color(.green.opacity(0.7)))
            if let state { try rasterizer.endBatch(restoring: state) }
            return surface.withUnsafeMutableBytes { Array($0) }
        }
        let same = try draw(batched: true) == draw(batched: false)
        #expect(same)
    }

    /// 120 fills on a 301 × 203 surface (see `batchedFillsEqualFillsDrawnAtOnce`), drawn at once or in a batch on a rasterizer `setUp`
    /// configures; `after` sees the rasterizer after each fill.
    private static func draw(format: PixelFormat, batched: Bool, setUp: (Rasterizer) -> Void = { _ in },
                         after: (Rasterizer) -> Void = { _ in }) throws -> [UInt8] {
        let surface = try Surface(width: 301, height: 203, format: format)
        surface.fill(.white)
        let rasterizer = Rasterizer()
        setUp(rasterizer)
        let canvas = Canvas(surface, rasterizer: rasterizer)
        let state = batched ? try rasterizer.beginBatch(on: surface) : nil
        var g = SceneLCG(seed: 5)
        for k in 0..<120 {
            let x = g.u() * 340 - 20, y = g.u() * 240 - 20, w = 4 + g.u() * (k % 10 == 0 ? 300 : 60), h = 4 + g.u() * 180
            let color = Color(red: g.u(), green: g.u(), blue: g.u(), opacity: k % 4 == 0 ? 1 : g.u())
            let rect = CGRect(x: x, y: y, width: w, height: h)
            switch k % 9 {
            case 7:
                let star = Path { p in
                    p.addLines((0..<5).map { i in
                        let a = Double(i) * 4 * .pi / 5
                        return CGPoint(x: x + 40 * cos(a), y: y + 40 * sin(a))
                    })
                    p.closeSubpath()
                }
                try canvas.fill(star, with: .color(color), fillRule: k % 2 == 0 ? .nonZero : .evenOdd)
            case 8:
                let gradient = Gradient(stops: [.init(color: .blue, location: 0), .init(color: color, location: 1)])
                try canvas.fill(Path(ellipseIn: rect), with: .linearGradient(gradient, start: rect.origin,
                                                                             end: CGPoint(x: rect.maxX, y: rect.maxY)))
            case 6:
                try canvas.fill(Path(CGRect(x: Int(x), y: Int(y), width: Int(w), height: Int(h))), with: .color(color))
            case 5:
                // A stroked wave: an outline of hundreds of lines that crosses itself at the
                // round joins (the exact tier's resolver), built whole on several threads.
                let wave = Path { p in
                    p.addLines((0...300).map { i in CGPoint(x: x + Double(i), y: y + 30 * sin(Double(i) / 7)) })
                }
                let outline = wave.strokedPath(StrokeStyle(lineWidth: 1 + g.u() * 6, lineCap: .round, lineJoin: .round))
                try canvas.fill(outline, with: .color(color))
            default:
                let shape = k % 2 == 0 ? Path(ellipseIn: rect) : Path(roundedRect: rect, cornerRadius: min(w, h) / 3)
                try canvas.fill(shape, with: .color(color), opacity: k % 3 == 0 ? 0.6 : 1)
            }
            after(rasterizer)
        }
        if let state { try rasterizer.endBatch(restoring: state) }
        after(rasterizer)
        return surface.withUnsafeMutableBytes { Array($0) }
    }

    /// A batch on a layer interrupts the batch on its parent and gives it back: what the
    /// renderer does for groups.
    @Test func nestedBatchesResume() throws {
        let rasterizer = Rasterizer()
        let parent = try Surface(width: 64, height: 64), layer = try Surface(width: 64, height: 64)
        let outer = try rasterizer.beginBatch(on: parent)
        try Canvas(parent, rasterizer: rasterizer).fill(Path(ellipseIn: CGRect(x: 4, y: 4, width: 40, height: 40)), with: .color(.red))
        let inner = try rasterizer.beginBatch(on: layer)
        // The parent's fill was drawn when the layer's batch began.
        #expect(parent.pixel(x: 24, y: 24).r == 255)
        try Canvas(layer, rasterizer: rasterizer).fill(Path(ellipseIn: CGRect(x: 4, y: 4, width: 40, height: 40)), with: .color(.blue))
        try rasterizer.endBatch(restoring: inner)
        #expect(layer.pixel(x: 24, y: 24).b == 255)
        try Canvas(parent, rasterizer: rasterizer).fill(Path(ellipseIn: CGRect(x: 20, y: 20, width: 40, height: 40)), with: .color(.green))
        #expect(rasterizer.batch.isEmpty == false, "the parent's batch records again")
        try rasterizer.endBatch(restoring: outer)
        // Green (#34C759) over the red circle's edge-free part of the parent: the green itself.
        #expect(parent.pixel(x: 40, y: 40).g == 0xC7 && parent.pixel(x: 40, y: 40).r == 0x34)
    }
}
