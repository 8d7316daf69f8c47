import Foundation
import Testing
@testable import Compositor

/// `JoinableThread`: `join` returns after the body has run and what its closure captured has
/// been released (what a semaphore signalled at the end of a Foundation `Thread`'s closure
/// cannot promise, and what LeakSanitizer at exit needs).
@Suite struct JoinableThreadTests {
    private final class Payload: @unchecked Sendable { var touched = false }

    @Test func joinWaitsForTheBodyAndItsCaptures() {
        for _ in 0..<50 {
            weak var weakPayload: Payload?
            let thread: JoinableThread
            do {
                let payload = Payload()
                weakPayload = payload
                thread = JoinableThread { usleep(200); payload.touched = true }
            }
            thread.join()
            #expect(weakPayload == nil, "the closure's capture was released before join returned")
            thread.join()   // a second join returns at once
        }
    }

    private static func recurse(_ n: Int) -> Int {
        var pad = (n, n, n, n, n, n, n, n)   // 64 bytes a level, kept on the stack
        withUnsafeMutablePointer(to: &pad) { _ in }
        return n == 0 ? 0 : 1 + recurse(n - 1)
    }

    @Test func aLargeStackIsGiven() {
        // 256 MiB asked: a recursion 8 MiB (the default) would not hold runs to its end (at
        // 100,000 levels of at least 100 bytes; under AddressSanitizer each level is larger).
        final class Depth: @unchecked Sendable { var reached = 0 }
        let depth = Depth()
        JoinableThread(stackBytes: 256 << 20) { depth.reached = Self.recurse(100_000) }.join()
        #expect(depth.reached == 100_000)
    }
}
