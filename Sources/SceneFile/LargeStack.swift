import Compositor
import Foundation

/// Stack bytes the parser and evaluator may need per level of nesting. Measured: an unoptimised
/// (debug) build crashed an 8 MiB stack at about 600 nested parentheses (~14 KiB a level, the
/// evaluator's big switch dominating); release builds need a fraction of that. 64 KiB leaves a
/// wide margin for both.
let stackBytesPerLevel = 64 << 10

/// Runs `body` on a thread of its own with a stack of `bytes` and waits for it to end: parsing
/// and evaluation recurse once per nesting level, and the calling thread (a Swift concurrency
/// worker, a test runner) may have a small stack. The thread is joined, not just signalled
/// (`JoinableThread`), so nothing it allocated is still alive when this returns (LeakSanitizer
/// under libFuzzer saw a signalled-but-not-yet-exited Foundation thread's allocations as leaks).
func onLargeStack<T>(bytes: Int, _ body: @escaping () -> T) -> T {
    let box = LargeStackBox()
    box.body = body
    // No thread (resources exhausted): run here, on whatever stack there is.
    JoinableThread(stackBytes: bytes, orHere: true) {
        box.result = box.body!()
        box.body = nil
    }.join()
    let result = box.result as! T
    box.result = nil
    return result
}

/// Hands the work to the thread and the result back; the join orders the accesses.
private final class LargeStackBox: @unchecked Sendable {
    var body: (() -> Any)?
    var result: Any?
}
