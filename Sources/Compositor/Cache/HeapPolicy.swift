import CRasterKernels

/// How the process's C allocator treats memory a frame frees: a choice for applications that
/// render frame after frame, made once at start-up (`compose` and `Benchmarks/bench` make it).
///
/// A frame's display list, layout tree and paths are freed when the frame ends. glibc's malloc
/// then gives the top of its heaps back to the system, and serves large blocks from fresh
/// mappings, so the next frame touches the same amount of new memory again, page by page: on
/// S3-10k at 2 threads, 2,100 page faults a frame, about a tenth of its time (`perf stat -e
/// page-faults`, docs/benchmarks.md). Keeping freed memory for reuse removes them.
///
/// The setting is the process's, not a renderer's: a library does not make it on its own.
public enum HeapPolicy {
    /// Asks glibc's malloc to keep up to `bytes` of freed memory at the top of its heaps
    /// instead of returning it to the system, and to serve blocks of up to 32 MiB from its
    /// heaps (so they are reused) rather than from a new mapping each.
    ///
    /// - Returns: whether glibc's malloc took the setting (false with another C library, where
    ///   nothing changes). Under AddressSanitizer or ThreadSanitizer, whose allocators replace
    ///   malloc, it has no effect.
    @discardableResult
    public static func keepFreedMemory(upTo bytes: Int = 256 << 20) -> Bool {
        raster_keep_freed_memory(max(0, bytes), 32 << 20) == 1
    }
}
