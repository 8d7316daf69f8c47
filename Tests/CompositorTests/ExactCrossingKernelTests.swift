import CRasterKernels
import Foundation
import ReferenceScenes
import Testing
@testable import Compositor

/// The exact tier's crossing search runs four pairs at a time in C with AVX2
/// (`raster_exact_crossings`) where the CPU has it, and as the Swift loop elsewhere: both must
/// find the same crossings, in the same order, to the bit, so the output cannot depend on the
/// machine. And pieces that cannot draw skip the grouping of their events without changing
/// a line.
@Suite(.serialized) struct ExactCrossingKernelTests {
    /// Records every line a strip resolution draws, as bits.
    private struct Lines: LineSink {
        var bits: [UInt64] = []
        mutating func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
            bits += [x0.bitPattern, y0.bitPattern, x1.bitPattern, y1.bitPattern]
        }
    }

    /// The C kernel writes `CrossingEvent`s through `raster_crossing`: the same size and the
    /// same field offsets.
    @Test func crossingEventHasTheKernelsLayout() {
        #expect(MemoryLayout<CrossingEvent>.size == MemoryLayout<raster_crossing>.size)
        #expect(MemoryLayout<CrossingEvent>.stride == 16)
        #expect(MemoryLayout<CrossingEvent>.offset(of: \.y) == MemoryLayout<raster_crossing>.offset(of: \.y))
        #expect(MemoryLayout<CrossingEvent>.offset(of: \.piece) == MemoryLayout<raster_crossing>.offset(of: \.piece))
        #expect(MemoryLayout<CrossingEvent>.offset(of: \.delta) == MemoryLayout<raster_crossing>.offset(of: \.delta))
    }

    /// A strip of random pieces: long ones from top to bottom, short ones starting and ending
    /// inside it (some sharing ends, as connected segments do), verticals, pieces on a common
    /// x (ties), and a guard piece; resolved with the kernel and without.
    private func strip(seed: UInt32, count: Int, width: Double) -> [Piece] {
        var g = SceneLCG(seed: seed)
        var pieces: [Piece] = []
        for i in 0..<count {
            var xa = 1 + (g.u() * width).rounded(i % 5 == 0 ? .down : .toNearestOrEven) * (i % 7 == 0 ? 1 : g.u())
            var xb = i % 9 == 0 ? xa : 1 + g.u() * width
            xa = min(width + 1, max(1, xa)); xb = min(width + 1, max(1, xb))
            var ya = i % 3 == 0 ? 0 : (g.u() * 4 * 8).rounded() / 8, yb = i % 4 == 0 ? 4 : (g.u() * 4 * 8).rounded() / 8
            if ya > yb { swap(&ya, &yb) }
            if yb == ya { yb = min(4, ya + 0.5); ya = yb - 0.5 }
            pieces.append(Piece(xa: xa, ya: ya, xb: xb, yb: yb, slope: (xb - xa) / (yb - ya), dir: g.u() < 0.5 ? -1 : 1,
                                segment: Int32(i), contour: Int32(i / 3)))
        }
        pieces.append(Piece(xa: 0.5, ya: 0, xb: 0.5, yb: 4, slope: 0, dir: 2, segment: -1, contour: guardContour))
        return pieces
    }

    private func resolve(_ pieces: [Piece], width: Double, rule: FillRule, avx2: Bool) -> (Bool, [UInt64], Int, Bool) {
        withAVX2(avx2) { inUse in
            var scratch = ExactRowScratch()
            var lines = Lines()
            let done = pieces.withUnsafeBufferPointer {
                resolveRowExactly($0, rowTop: 0, rowBottom: 4, width: width + 1, fillRule: rule, scratch: &scratch, out: &lines)
            }
            return (done, lines.bits, scratch.crossings, inUse)
        }
    }

    @Test(arguments: [FillRule.nonZero, .evenOdd]) func kernelAndSwiftLoopDrawTheSameLines(rule: FillRule) {
        var kernelRan = false
        for (n, count) in [2, 3, 5, 8, 13, 40, 150, 600].enumerated() {
            let width = Double(8 + 13 * n)
            let pieces = strip(seed: UInt32(30 + n), count: count, width: width)
            let withKernel = resolve(pieces, width: width, rule: rule, avx2: true)
            let without = resolve(pieces, width: width, rule: rule, avx2: false)
            kernelRan = kernelRan || withKernel.3
            #expect(withKernel.0 && without.0)
            // Compared as one value (the arrays are long to print).
            let sameLines = withKernel.1 == without.1
            #expect(sameLines, "\(count) pieces: \(withKernel.1.count / 4) lines against \(without.1.count / 4), not the same")
            #expect(without.2 > 0 || count < 5, "\(count) pieces: no crossing to compare")
            #expect(withKernel.2 == without.2, "\(count) pieces: \(withKernel.2) crossings against \(without.2)")
        }
        // This machine has AVX2 (x86-64 with it is what CI runs on); elsewhere both runs were
        // the Swift loop and the comparison says nothing.
        #if arch(x86_64)
        #expect(kernelRan)
        #endif
    }

    /// A strip with more overlapping pairs than `crossingPairBudget` allows: both ways stop
    /// and draw nothing.
    @Test func bothStopAtTheBudget() {
        let count = 1_000
        var g = SceneLCG(seed: 5)
        let pieces = (0..<count).map { i -> Piece in
            let xa = 1 + g.u() * 3, xb = 1 + 200 + g.u() * 3
            return Piece(xa: i % 2 == 0 ? xa : xb, ya: 0, xb: i % 2 == 0 ? xb : xa, yb: 4, slope: (xb - xa) / 4 * (i % 2 == 0 ? 1 : -1),
                         dir: 1, segment: Int32(i), contour: Int32(i))
        }
        let withKernel = resolve(pieces, width: 210, rule: .nonZero, avx2: true)
        let without = resolve(pieces, width: 210, rule: .nonZero, avx2: false)
        #expect(!withKernel.0 && !without.0)
        #expect(withKernel.1.isEmpty && without.1.isEmpty)
    }

    /// A path like S4's (random cubics crossing thousands of times) through the whole
    /// rasterizer: the same coverage with the kernel and without.
    @Test(arguments: [FillRule.nonZero, .evenOdd]) func selfCrossingPathsGiveTheSameCoverage(rule: FillRule) throws {
        var g = SceneLCG(seed: 11)
        var path = Path()
        path.move(to: CGPoint(x: g.u() * 120, y: g.u() * 90))
        for _ in 0..<80 {
            path.addCurve(to: CGPoint(x: g.u() * 120, y: g.u() * 90), control1: CGPoint(x: g.u() * 120, y: g.u() * 90),
                          control2: CGPoint(x: g.u() * 120, y: g.u() * 90))
        }
        path.closeSubpath()
        func coverage(_ avx2: Bool) throws -> ([UInt8], Int) {
            try withAVX2(avx2) { _ in
                let r = Rasterizer()
                var out = [UInt8](repeating: 0, count: 120 * 90)
                try r.rasterize(path, fillRule: rule, clip: PixelRect(x: 0, y: 0, width: 120, height: 90)) { mask, stride, rect in
                    for y in 0..<rect.height { for x in 0..<rect.width {
                        out[(rect.y + y) * 120 + rect.x + x] = mask[y * stride + x]
                    } }
                }
                return (out, r.exactRows)
            }
        }
        let a = try coverage(true), b = try coverage(false)
        #expect(a.1 > 60, "only \(a.1) rows went through the exact tier")
        let sameCoverage = a.0 == b.0
        #expect(sameCoverage)
    }

    /// Under non-zero, pieces whose windings on both sides cannot reach 0 skip the grouping
    /// and sorting of their events (they draw nothing): the same lines as without skipping, on
    /// strips of many random pieces running the same way (deep windings) and both ways.
    @Test func piecesDeepInsideDrawTheSameWithoutTheirEvents() {
        var skippedAny = false
        // First a strip built to sit on the edge: a vertical (down) at x = 1.5, a piece down
        // from (3, 0) to (6, 4) with winding 1 on its left and 2 on its right, and a piece up
        // from (7, 0) to (2.5, 4) crossing it, after which its left winding is 0: it draws
        // from there on, and must not be skipped (one event of size 1 from 1 reaches 0).
        let edge = [Piece(xa: 1.5, ya: 0, xb: 1.5, yb: 4, slope: 0, dir: 1, segment: 0, contour: 0),
                    Piece(xa: 3, ya: 0, xb: 6, yb: 4, slope: 0.75, dir: 1, segment: 1, contour: 1),
                    Piece(xa: 7, ya: 0, xb: 2.5, yb: 4, slope: -1.125, dir: -1, segment: 2, contour: 2)]
        for (n, count) in [0, 40, 150, 600].enumerated() {
            for sameWay in [true, false] {
                let width = Double(20 + 10 * n)
                var pieces = count == 0 ? edge : strip(seed: UInt32(60 + n), count: count, width: width)
                if sameWay && count > 0 {
                    for i in pieces.indices where pieces[i].contour != guardContour { pieces[i].dir = i % 5 == 0 ? -1 : 1 }
                }
                func lines(skipping: Bool) -> ([UInt64], Int) {
                    var scratch = ExactRowScratch()
                    scratch.skipsPiecesInside = skipping
                    var out = Lines()
                    let done = pieces.withUnsafeBufferPointer {
                        resolveRowExactly($0, rowTop: 0, rowBottom: 4, width: width + 1, fillRule: .nonZero, scratch: &scratch,
                                          out: &out)
                    }
                    #expect(done)
                    return (out.bits, scratch.piecesSkipped)
                }
                let skipping = lines(skipping: true), not = lines(skipping: false)
                let same = skipping.0 == not.0
                #expect(same, "\(count) pieces: \(skipping.0.count / 4) lines against \(not.0.count / 4)")
                #expect(not.1 == 0)
                skippedAny = skippedAny || skipping.1 > 0
            }
        }
        #expect(skippedAny, "no piece was deep enough to skip: the test says nothing")
    }
    /// Lines accumulated as exact signed areas in `Double` cells, 4 rows of `columns`: each
    /// line's part in a cell adds its height times the cell's share right of it there, and its
    /// height to every cell further right (kept as a cover one cell on, summed per row).
    private struct AreaCells: LineSink {
        let columns: Int
        var cells: [Double]
        init(columns: Int) { self.columns = columns; cells = [Double](repeating: 0, count: 4 * (columns + 1)) }

        mutating func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
            guard y0 != y1 else { return }
            let dir: Double = y0 < y1 ? 1 : -1
            let (xa, ya, xb, yb) = y0 < y1 ? (x0, y0, x1, y1) : (x1, y1, x0, y0)
            let slope = (xb - xa) / (yb - ya)
            // Cut at every row and column boundary the line crosses, in order of y.
            var cuts = [ya, yb]
            for r in 1..<4 where Double(r) > ya && Double(r) < yb { cuts.append(Double(r)) }
            if slope != 0 {
                for c in stride(from: Int(min(xa, xb).rounded(.up)), through: Int(max(xa, xb).rounded(.down)), by: 1) {
                    let y = ya + (Double(c) - xa) / slope
                    if y > ya && y < yb { cuts.append(y) }
                }
            }
            cuts.sort()
            for (top, bottom) in zip(cuts, cuts.dropFirst()) where bottom > top {
                let xt = xa + (top - ya) * slope, xm = xa + ((top + bottom) / 2 - ya) * slope, xbt = xa + (bottom - ya) * slope
                let row = min(3, Int(((top + bottom) / 2).rounded(.down))), column = min(columns - 1, max(0, Int(xm.rounded(.down))))
                let h = (bottom - top) * dir
                let inside = (Double(column + 1) - (xt + xbt) / 2)   // the cell's share right of the part
                cells[row * (columns + 1) + column] += h * inside
                cells[row * (columns + 1) + column + 1] += h * (1 - inside)
            }
        }

        /// Each pixel's signed covered area (the row's running sum).
        var areas: [Double] {
            var out: [Double] = []
            for r in 0..<4 {
                var sum = 0.0
                for c in 0..<columns { sum += cells[r * (columns + 1) + c]; out.append(sum) }
            }
            return out
        }
    }

    /// Under even-odd, each piece is drawn whole and the runs of its parts drawn the other way
    /// are added twice against it (`drawEvenOddPieces`): the same covered area, pixel by pixel,
    /// as drawing the parts one by one, on random strips with crossings, shared ends, verticals
    /// and a guard piece whose winding (2) is even, so it bounds nothing.
    @Test func evenOddPiecesDrawnWholeCoverTheSameArea() {
        var lines = 0
        for (n, count) in [3, 8, 40, 150, 600].enumerated() {
            let width = Double(12 + 10 * n)
            let pieces = strip(seed: UInt32(90 + n), count: count, width: width)
            func areas(whole: Bool) -> ([Double], Int) {
                var scratch = ExactRowScratch()
                scratch.drawsWholePieces = whole
                var cells = AreaCells(columns: Int(width) + 3)
                var counted = Lines()
                let done = pieces.withUnsafeBufferPointer {
                    resolveRowExactly($0, rowTop: 0, rowBottom: 4, width: width + 1, fillRule: .evenOdd, scratch: &scratch, out: &cells)
                        && resolveRowExactly($0, rowTop: 0, rowBottom: 4, width: width + 1, fillRule: .evenOdd, scratch: &scratch,
                                             out: &counted)
                }
                #expect(done)
                return (cells.areas, counted.bits.count / 4)
            }
            let whole = areas(whole: true), parts = areas(whole: false)
            let worst = zip(whole.0, parts.0).map { abs($0 - $1) }.max() ?? 0
            #expect(worst < 1e-9, "\(count) pieces: areas differ by up to \(worst)")
            if count >= 150 { #expect(whole.1 < parts.1, "\(count) pieces: \(whole.1) lines, not fewer than \(parts.1)") }
            lines += parts.1
        }
        #expect(lines > 1_000)
    }
    /// The windings left of pieces that start inside a strip, counted piece by piece, are the
    /// same four at a time in C (`raster_count_left`) as in the Swift loop: on random strips and
    /// on one built on ties (a vertical through a start's point, one coincident with a vertical
    /// start piece, so the slope and then the index decide).
    @Test(arguments: [FillRule.nonZero, .evenOdd]) func startWindingsCountTheSameWithTheKernel(rule: FillRule) {
        let ties = [Piece(xa: 5, ya: 0, xb: 5, yb: 4, slope: 0, dir: 1, segment: 0, contour: 0),
                    Piece(xa: 5, ya: 2, xb: 5, yb: 4, slope: 0, dir: -1, segment: 1, contour: 1),
                    Piece(xa: 5, ya: 2, xb: 3, yb: 4, slope: -1, dir: 1, segment: 2, contour: 1),
                    Piece(xa: 5, ya: 1, xb: 7, yb: 3, slope: 1, dir: -1, segment: 3, contour: 2),
                    Piece(xa: 5, ya: 1, xb: 6, yb: 4, slope: 1.0 / 3, dir: 1, segment: 4, contour: 2),
                    Piece(xa: 2, ya: 0, xb: 9, yb: 4, slope: 1.75, dir: -1, segment: 5, contour: 3)]
        var counted = 0
        for (n, count) in [0, 5, 13, 40, 150, 600].enumerated() {
            let width = Double(10 + 13 * n)
            let pieces = count == 0 ? ties : strip(seed: UInt32(120 + n), count: count, width: width)
            func resolve(avx2: Bool) -> ([UInt64], Int, [Int32]) {
                withAVX2(avx2) { _ in
                    var scratch = ExactRowScratch()
                    scratch.countingBudget = .max
                    var lines = Lines()
                    let done = pieces.withUnsafeBufferPointer {
                        resolveRowExactly($0, rowTop: 0, rowBottom: 4, width: width + 1, fillRule: rule, scratch: &scratch, out: &lines)
                    }
                    #expect(done)
                    let starts = (0..<scratch.starts.count).map { scratch.counted[Int(scratch.starts[$0])] }
                    return (lines.bits, scratch.countingWork, starts)
                }
            }
            let kernel = resolve(avx2: true), swift = resolve(avx2: false)
            let sameWindings = kernel.2 == swift.2
            #expect(sameWindings, "\(count) pieces: \(zip(kernel.2, swift.2).filter { $0 != $1 }.count) windings differ")
            let sameLines = kernel.0 == swift.0
            #expect(sameLines, "\(count) pieces: not the same lines")
            #expect(kernel.1 == swift.1)
            counted += kernel.2.count
        }
        #expect(counted > 20, "only \(counted) starts were counted: the test says little")
    }
}
