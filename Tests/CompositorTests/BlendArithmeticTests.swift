import Testing
import CRasterKernels
@testable import Compositor

/// The AVX2 blend kernels divide by 255 as pixman does, for every pair of 8-bit values: each
/// product x · a / 255 is rounded as (t + (t >> 8)) >> 8 with t = x · a + 128, which the
/// kernels compute as (t · 257) >> 16 (one multiplication's high half). The two agree for all
/// 65,536 pairs (x, a); these tests run every pair through the kernels and compare with the
/// scalar formula, and with the SSE2 Swift kernels.
@Suite struct BlendArithmeticTests {
    /// pixman's x · a / 255 (`MUL_UN8`).
    private static func multiply(_ x: UInt32, _ a: UInt32) -> UInt32 {
        let t = x * a + 128
        return (t + (t >> 8)) >> 8
    }

    /// A pixel with all four bytes `v` (premultiplied: no channel above the alpha).
    private static func gray(_ v: UInt32) -> UInt32 { v * 0x0101_0101 }

    /// Source-over of the constant source `s` (premultiplied) on every destination byte value,
    /// for every source alpha: each byte is min(255, s + d · (255 − sa) / 255).
    @Test func constantSourceOverEveryDestinationByte() {
        withAVX2(true) { inUse in
            guard inUse else { return }
            for sa: UInt32 in 0...255 {
                let source = Self.gray(sa)
                var row = (0..<256).map { Self.gray(UInt32($0)) }
                var swiftRow = row
                let done = row.withUnsafeMutableBufferPointer { raster_blend_constant($0.baseAddress!, 256, source) }
                #expect(done == 256)
                swiftRow.withUnsafeMutableBufferPointer { SpanKernels.blendConstantSSE2($0.baseAddress!, count: 256, source) }
                for d in 0..<256 {
                    let expected = Self.gray(min(255, sa + Self.multiply(UInt32(d), 255 - sa)))
                    if row[d] != expected || swiftRow[d] != expected {
                        Issue.record("source alpha \(sa), destination \(d): AVX2 \(row[d]), SSE2 \(swiftRow[d]), expected \(expected)")
                        return
                    }
                }
            }
        }
    }

    /// A layer pixel scaled by the opacity m and composited source-over, for every layer byte
    /// and every opacity (the destination byte runs the other way): s' = v · m / 255, then
    /// min(255, s' + d · (255 − s') / 255).
    @Test func layerOverEveryLayerByteAndOpacity() {
        withAVX2(true) { inUse in
            guard inUse else { return }
            for m: UInt32 in 0...255 {
                let layer = (0..<256).map { Self.gray(UInt32($0)) }
                var row = (0..<256).map { Self.gray(255 - UInt32($0)) }
                var swiftRow = row
                let done = row.withUnsafeMutableBufferPointer { p in
                    layer.withUnsafeBufferPointer { raster_composite_layer(p.baseAddress!, $0.baseAddress!, 256, m) }
                }
                #expect(done == 256)
                swiftRow.withUnsafeMutableBufferPointer { p in
                    layer.withUnsafeBufferPointer { SpanKernels.compositeLayerSSE2(p.baseAddress!, $0.baseAddress!, count: 256, m) }
                }
                for v in 0..<256 {
                    let d = 255 - UInt32(v)
                    let scaled = Self.multiply(UInt32(v), m)
                    // A transparent layer pixel leaves the destination as it is.
                    let expected = v == 0 ? Self.gray(d) : Self.gray(min(255, scaled + Self.multiply(d, 255 - scaled)))
                    if row[v] != expected || swiftRow[v] != expected {
                        Issue.record("opacity \(m), layer \(v): AVX2 \(row[v]), SSE2 \(swiftRow[v]), expected \(expected)")
                        return
                    }
                }
            }
        }
    }
}
