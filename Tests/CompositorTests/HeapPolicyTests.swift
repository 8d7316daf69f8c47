import Compositor
import Foundation
import Testing

/// Whether AddressSanitizer or ThreadSanitizer runs this process (`make sanitize`): their
/// allocators take the place of glibc's malloc.
private let underSanitizer = ["__asan_init", "__tsan_init"].contains { (name: String) in dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) != nil }

/// `HeapPolicy`: freed memory stays in the process for the next frame.
struct HeapPolicyTests {
    /// Page faults this thread has taken (other tests' threads do not count).
    private static func threadFaults() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(1), &usage)   // RUSAGE_THREAD (1), which Swift does not import
        return usage.ru_minflt
    }

    /// A 16 MiB block written, freed and asked for again is not faulted in again: its pages
    /// stayed in the process. With glibc's defaults, a block this size in a fresh process comes
    /// from a mapping of its own, unmapped when freed, so the second block's 4,096 pages would
    /// each fault again.
    @Test(.enabled(if: !underSanitizer, "a sanitizer's allocator replaces glibc's malloc, which the policy sets"))
    func freedMemoryIsKeptForTheNextFrame() throws {
        #expect(HeapPolicy.keepFreedMemory())
        let size = 16 << 20, pages = size / 4096
        let first = try #require(malloc(size))
        memset(first, 1, size)
        free(first)
        let before = Self.threadFaults()
        let second = try #require(malloc(size))
        memset(second, 2, size)
        free(second)
        let faults = Self.threadFaults() - before
        #expect(faults < pages / 8, "\(faults) page faults writing a block of \(pages) pages freed just before")
    }
}
