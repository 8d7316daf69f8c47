import Compositor
import Foundation
import Testing

/// `ImageCache.image(for:orMake:)` on several threads: an image is made once, and every other
/// thread that wanted it while it was being made gets it as a hit.
@Suite struct ImageCacheSingleFlightTests {
    @Test func concurrentMissesMakeTheImageOnce() throws {
        let cache = ImageCache<String>()
        let makes = Locked(0)
        let threads = 8
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            let (surface, _) = try! cache.image(for: "k") {
                makes.withLock { $0 += 1 }
                // Long enough that the other threads arrive while it is being made.
                Thread.sleep(forTimeInterval: 0.05)
                let s = try Surface(width: 4, height: 4, format: .argb32)
                return s
            }
            #expect(surface.width == 4)
        }
        #expect(makes.withLock { $0 } == 1)
        #expect(cache.statistics.misses == 1 && cache.statistics.hits == threads - 1)
    }

    /// A make that throws leaves the key free: the next caller makes it.
    @Test func aFailedMakeIsRetried() throws {
        struct Failure: Error {}
        let cache = ImageCache<String>()
        #expect(throws: Failure.self) { try cache.image(for: "k") { throw Failure() } }
        let (_, made) = try cache.image(for: "k") { try Surface(width: 2, height: 2, format: .argb32) }
        #expect(made)
        let (_, again) = try cache.image(for: "k") { Issue.record("made twice"); return try Surface(width: 2, height: 2, format: .argb32) }
        #expect(!again)
    }
}
