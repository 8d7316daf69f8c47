import Foundation
import ReferenceScenes
import Testing
@testable import Compositor

/// Pieces that start inside a strip with no chain piece above them (local tops of a path, the
/// ends of horizontal edges) get their winding by counting the pieces left of their start.
/// Piece by piece that costs starts × pieces, the square of a strip full of local tops (a
/// filled waveform); `countStartWindings` sweeps such strips once instead. Both ways must
/// give the same windings, so the same lines, to the bit.
@Suite struct StartWindingTests {
    /// The lines `resolveRowExactly` draws, in order.
    private struct Lines: LineSink {
        var lines: [[Double]] = []
        mutating func begin(edgeCount: Int) {}
        mutating func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) { lines.append([x0, y0, x1, y1]) }
        mutating func piece(_ p: Piece) {}
    }

    /// A closed polygon through `points`, as one strip's pieces in segment order (horizontal
    /// edges have no piece, as when a strip is cut).
    private func pieces(_ points: [(Double, Double)], contour: Int32 = 0, firstSegment: Int32 = 0) -> [Piece] {
        var out: [Piece] = []
        for (n, a) in points.enumerated() {
            let b = points[(n + 1) % points.count]
            guard a.1 != b.1 else { continue }
            let (top, bottom, dir): ((Double, Double), (Double, Double), Int32) = a.1 < b.1 ? (a, b, 1) : (b, a, -1)
            out.append(Piece(xa: top.0, ya: top.1, xb: bottom.0, yb: bottom.1, slope: (bottom.0 - top.0) / (bottom.1 - top.1),
                             dir: dir, segment: firstSegment + Int32(n), contour: contour))
        }
        return out
    }

    private func resolve(_ p: [Piece], width: Int, rule: FillRule, budget: Int?,
                         insertionSortLimit: Int = 32) -> (lines: [[Double]], work: Int) {
        var scratch = ExactRowScratch()
        scratch.countingBudget = budget
        scratch.insertionSortLimit = insertionSortLimit
        var sink = Lines()
        p.withUnsafeBufferPointer { buffer in
            #expect(resolveRowExactly(buffer, rowTop: 0, rowBottom: 4, width: Double(width), fillRule: rule, scratch: &scratch,
                                      out: &sink))
        }
        return (sink.lines, scratch.countingWork)
    }

    /// 200 random polygons per case inside one strip of 4 rows, vertices on a grid of half
    /// pixels (ties in x, in y and in slope everywhere) or anywhere, several contours, half of
    /// them beside a guard column: counted one by one (budget `Int.max`) and swept (budget 0),
    /// the lines drawn are the same.
    @Test(arguments: [FillRule.nonZero, .evenOdd], [false, true])
    func sweepCountsAsCountingDoes(rule: FillRule, onGrid: Bool) {
        var g = SceneLCG(seed: onGrid ? 5 : 6)
        for _ in 0..<200 {
            let width = 2 + Int(g.u() * 60)
            var p: [Piece] = []
            for contour in 0..<(1 + Int(g.u() * 3)) {
                let points = (0..<(3 + Int(g.u() * 40))).map { _ -> (Double, Double) in
                    let x = 1 + g.u() * Double(width - 1), y = 0.01 + g.u() * 3.98
                    return onGrid ? ((x * 2).rounded() / 2, max(0.5, (y * 2).rounded() / 2)) : (x, y)
                }
                p += pieces(points, contour: Int32(contour), firstSegment: Int32(p.count))
            }
            // Sometimes a guard column (what lies left of the band), last in the list, in
            // order of height: the windings of parts of the path cut off on the left.
            if g.u() < 0.5 {
                var y = 0.0
                while y < 4 {
                    let next = min(4, y + 0.25 + g.u() * 2)
                    let w = Int32(g.u() * 5) - 2
                    if w != 0 {
                        p.append(Piece(xa: 0.5, ya: y, xb: 0.5, yb: next, slope: 0, dir: w, segment: -1, contour: guardContour))
                    }
                    y = next
                }
            }
            let counted = resolve(p, width: width + 1, rule: rule, budget: .max)
            let swept = resolve(p, width: width + 1, rule: rule, budget: 0)
            #expect(counted.lines == swept.lines)
        }
    }

    /// A filled waveform of `teeth` teeth, 10 to a pixel, each a local top inside the strip,
    /// closed by an edge from `closing.right` at its right end back to `closing.left` (a floor
    /// below the teeth, or a line through them).
    private func waveform(teeth: Int, closing: (left: Double, right: Double) = (3.9, 3.9)) -> [Piece] {
        let width = Double(teeth) / 10
        var points: [(Double, Double)] = [(1, closing.left)]
        for t in 0..<teeth {
            let x = 1 + width * Double(t) / Double(teeth)
            points.append((x, 0.2 + 0.1 * Double(t % 7)))
            points.append((x + 0.05, 3.0 + 0.05 * Double(t % 5)))
        }
        points.append((1 + width, closing.right))
        return pieces(points)
    }

    /// Waveforms of 1,000 and 4,000 teeth (2,001 and 8,001 pieces): four times the pieces at
    /// the same density take about four times the sweep's work, where counting one by one
    /// takes sixteen (half the pieces start inside the strip, and each counts all of them).
    /// Both draw the same lines.
    @Test func aWaveformIsSweptInLinearWork() {
        var swept: [Int] = [], counted: [Int] = []
        for teeth in [1_000, 4_000] {
            let p = waveform(teeth: teeth)
            let width = teeth / 10 + 3
            let a = resolve(p, width: width, rule: .nonZero, budget: nil)
            let b = resolve(p, width: width, rule: .nonZero, budget: .max)
            #expect(a.lines == b.lines)
            swept.append(a.work)
            counted.append(b.work)
        }
        // Measured: 127,303 → 511,603 steps swept; 4,002,000 → 64,008,000 counted.
        #expect(Double(swept[1]) / Double(swept[0]) < 4.5, "swept: \(swept)")
        #expect(Double(counted[1]) / Double(counted[0]) > 12, "counted: \(counted)")
    }

    /// A waveform closed by an edge tilted by a transform's rounding (a rise of 10⁻⁷ px over
    /// its width) crosses every tooth's edges: one piece with thousands of crossing events.
    /// Sorted rather than insertion-sorted (their square: most of a 40,000-sample waveform's
    /// render), they give the same lines.
    @Test(arguments: [FillRule.nonZero, .evenOdd]) func manyCrossingsOfOnePieceAreSorted(rule: FillRule) {
        let teeth = 2_000
        let p = waveform(teeth: teeth, closing: (2.0, 2.0 + 1e-7))
        let sorted = resolve(p, width: teeth / 10 + 3, rule: rule, budget: nil, insertionSortLimit: 0)
        let inserted = resolve(p, width: teeth / 10 + 3, rule: rule, budget: nil, insertionSortLimit: .max)
        #expect(sorted.lines.count > 4 * teeth)
        #expect(sorted.lines == inserted.lines)
    }
}
