import CRasterKernels
import Foundation

/// The kernels' AVX2 switch (`raster_kernels_use_avx2`) is one setting for the whole process,
/// and suites run in parallel: a test that sets it holds this lock meanwhile, so that another
/// cannot switch AVX2 off (or on) under it.
private let avx2Setting = NSLock()

/// Runs `body` with the AVX2 kernels allowed or not, holding the switch, then allows them
/// again. `body` learns whether AVX2 is in use (false also where the CPU lacks it).
func withAVX2<T>(_ allowed: Bool, _ body: (_ inUse: Bool) throws -> T) rethrows -> T {
    avx2Setting.lock()
    defer {
        raster_kernels_use_avx2(1)
        avx2Setting.unlock()
    }
    return try body(raster_kernels_use_avx2(allowed ? 1 : 0) != 0)
}
