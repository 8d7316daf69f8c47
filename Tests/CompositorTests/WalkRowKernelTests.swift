import CRasterKernels
import Foundation
import ReferenceScenes
import Testing
@testable import Compositor

/// The AVX2 walk of a row of cells under a solid colour (`raster_walk_band_solid`, what
/// `SolidOverSink.walk` calls) against the Swift walk it stands in for (`walkRow` into
/// `SolidOverSink`, with the C kernel switched off): the same pixels and the same zeroed cells,
/// on random rows. The rows are built to reach every branch: untouched runs of 8 and more,
/// tails of 1 to 7 cells before the end, touched ranges that start at or past the region's
/// width or end past it (cells an edge on the right side touches), sums that wrap and fold
/// under both rules, opaque and translucent colours at full and partial opacity.
struct WalkRowKernelTests {
    @Test func avx2WalkEqualsSwiftWalk() {
        withAVX2(true) { inUse in
            guard inUse else { return }   // no AVX2 here: only one walk to test
            var g = SceneLCG(seed: 41)
            func below(_ n: Int) -> Int { Int(g.next() >> 8) % max(1, n) }
            var checked = 0
            for k in 0..<4000 {
                let width = 1 + below(90)
                let stride = (width + 2 + 7) & ~7
                // The touched range: usually inside the row, sometimes past the width, sometimes none.
                var first = below(width + 2), last = first + below(stride - first + 1)
                if k % 17 == 0 { first = Int(Int32.max); last = 0 }
                var cells = [Int32](repeating: 0, count: stride)
                if first < last {
                    for c in first..<last where below(3) != 0 || k % 5 == 0 {
                        let scale = k % 7 == 0 ? Int32.max : Int32(1 << 26)   // some sums wrap and fold many times
                        cells[c] = Int32(truncatingIfNeeded: Int64(g.next()) % Int64(scale)) &* (below(2) == 0 ? 1 : -1)
                    }
                    // Untouched runs inside the touched range.
                    if k % 3 == 0, last - first > 12 {
                        let from = first + below(last - first - 10)
                        for c in from..<min(last, from + 9 + below(20)) { cells[c] = 0 }
                    }
                }
                let shift = k % 2 == 0 ? cellShiftSimple : cellShiftFast
                let rule: FillRule = k % 4 < 2 ? .nonZero : .evenOdd
                let opacity = k % 3 == 0 ? 1 : Double(below(256)) / 255
                let fold = CoverageFold(fillRule: rule, opacity: opacity, shift: shift)
                let alpha = UInt32(k % 2 == 0 ? 255 : below(256))
                func channel() -> UInt32 { UInt32(below(Int(alpha) + 1)) }
                let source = alpha << 24 | channel() << 16 | channel() << 8 | channel()
                let background = (0..<width).map { _ in
                    let a = UInt32(below(256))
                    return a << 24 | UInt32(below(Int(a) + 1)) << 16 | UInt32(below(Int(a) + 1)) << 8 | UInt32(below(Int(a) + 1))
                }

                var swiftCells = cells, swiftPixels = background
                var kernelCells = cells, kernelPixels = background
                swiftPixels.withUnsafeMutableBufferPointer { px in
                    swiftCells.withUnsafeMutableBufferPointer { c in
                        var sink = SolidOverSink(origin: UnsafeMutableRawPointer(px.baseAddress!), stride: width * 4, source: source)
                        sink.band(top: 0, rows: 1)
                        walkRow(c.baseAddress!, first: first, last: last, width: width, fold: fold, row: 0, sink: &sink)
                    }
                }
                var firsts = [Int32(truncatingIfNeeded: first)], lasts = [Int32(truncatingIfNeeded: last)]
                let walked = kernelPixels.withUnsafeMutableBufferPointer { px in
                    kernelCells.withUnsafeMutableBufferPointer { c in
                        var sink = SolidOverSink(origin: UnsafeMutableRawPointer(px.baseAddress!), stride: width * 4, source: source)
                        sink.band(top: 0, rows: 1)
                        return sink.walk(c.baseAddress!, stride: stride, rows: 1, first: &firsts, last: &lasts, width: width, fold: fold)
                    }
                }
                #expect(firsts == [.max] && lasts == [0], "row \(k): the touched range is reset")
                #expect(walked)
                #expect(kernelPixels == swiftPixels, "row \(k): width \(width), cells \(first)..<\(last), \(rule), source \(String(source, radix: 16))")
                #expect(kernelCells == swiftCells, "row \(k): the cells left behind")
                #expect(kernelCells.allSatisfy { $0 == 0 } || first >= last, "row \(k): every touched cell is zeroed")
                if kernelPixels != background { checked += 1 }
            }
            // Most rows changed some pixel: the comparison was not of untouched rows.
            #expect(checked > 3000)
        }
    }
}
