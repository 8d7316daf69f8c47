import Foundation
import Testing
@testable import Compositor

/// Blurs share their rows (then their columns) among threads; each row is blurred on its own,
/// so the result is the same bytes whatever the thread count.
struct BlurThreadsTests {
    /// A 300 × 260 surface (over the 2^16-value threshold) of random premultiplied pixels.
    func noise(_ format: PixelFormat) throws -> Surface {
        let s = try Surface(width: 300, height: 260, format: format)
        var rng = SystemRandomNumberGenerator()
        for y in 0..<s.height {
            for x in 0..<s.width {
                let a = Double.random(in: 0...1, using: &rng)
                s.setEncodedPixel(x: x, y: y, EncodedPixel(r: .random(in: 0...1, using: &rng), g: .random(in: 0...1, using: &rng),
                                                           b: .random(in: 0...1, using: &rng), a: a))
            }
        }
        return s
    }

    func bytes(_ s: Surface) -> [UInt8] { s.withUnsafeMutableBytes { Array($0) } }

    /// σ 3 takes the sampled Gaussian, σ 20 the three box blurs; both edge modes.
    @Test(arguments: [PixelFormat.argb32, .a8, .rgbaFloat])
    func surfaceBlurIsTheSameAtEveryThreadCount(format: PixelFormat) throws {
        let source = try noise(format)
        for sigma in [3.0, 20.0] {
            for clamp in [false, true] {
                var results: [[UInt8]] = []
                for threads in [1, 2, 3, 8] {
                    let s = try source.copy()
                    s.blur(sigma: sigma, clampEdges: clamp, threads: threads)
                    results.append(bytes(s))
                }
                #expect(results.allSatisfy { $0 == results[0] }, "σ \(sigma), clamp \(clamp)")
                #expect(results[0] != bytes(source))
            }
        }
    }

    @Test func filterBlurIsTheSameAtEveryThreadCount() throws {
        let source = try noise(.argb32)
        var results: [[Float]] = []
        for threads in [1, 2, 5] {
            let plane = FilterPlane(width: source.width, height: source.height, linear: false,
                                    area: PixelRect(x: 0, y: 0, width: source.width, height: source.height))
            plane.read(source)
            plane.blur(sigmaX: 4, sigmaY: 12, threads: threads)
            results.append(Array(UnsafeBufferPointer(start: plane.pixels, count: 4 * plane.count)))
        }
        #expect(results.allSatisfy { $0 == results[0] })
    }

    /// The sampled Gaussian's eight-lane loop gives the floats of the plain per-pixel sum (the
    /// same products added in the same order), for rows shorter and longer than the kernel.
    @Test func vectorRowsMatchTheScalarSum() {
        var rng = SystemRandomNumberGenerator()
        for (width, sigma) in [(5, 2.0), (40, 8.0), (57, 1.0), (200, 3.3), (301, 7.9)] {
            let height = 3
            let values = UnsafeMutablePointer<Float>.allocate(capacity: width * height)
            let scratch = UnsafeMutablePointer<Float>.allocate(capacity: width * height)
            defer { values.deallocate(); scratch.deallocate() }
            for i in 0..<width * height { values[i] = .random(in: 0...255, using: &rng) }
            let k = gaussianKernel(sigma: sigma), extent = k.count / 2
            var expected: [Float] = []
            for y in 0..<height {
                for x in 0..<width {
                    var acc: Float = 0
                    for i in max(-extent, -x)...min(extent, width - 1 - x) { acc += values[y * width + x + i] * k[i + extent] }
                    expected.append(acc)
                }
            }
            blurRows(values, scratch: scratch, width: width, height: height, sigma: sigma, clamp: false)
            #expect(Array(UnsafeBufferPointer(start: values, count: width * height)) == expected, "width \(width), σ \(sigma)")
        }
    }
}
