import Foundation

/// Stack bytes the parser and evaluator may need per level of nesting. Measured: an unoptimised
/// (debug) build crashed an 8 MiB stack at about 600 nested parentheses (~14 KiB a level, the
/// evaluator's big switch dominating); release builds need a fraction of that. 64 KiB leaves a
/// wide margin for both.
let stackBytesPerLevel = 64 << 10

/// Runs `body` on a thread of its own with a stack of `bytes` and waits for it: parsing and
/// evaluation recurse once per nesting level, and the calling thread (a Swift concurrency
/// worker, a test runner) may have a small stack.
func onLargeStack<T>(bytes: Int, _ body: @escaping () -> T) -> T {
    let box = LargeStackBox()
    box.body = body
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        box.result = box.body!()
        box.body = nil
        done.signal()
    }
    thread.stackSize = bytes
    thread.start()
    done.wait()
    // The thread may outlive this call for a moment; it must not keep the result alive.
    let result = box.result as! T
    box.result = nil
    return result
}

/// Hands the work to the thread and the result back; the semaphore orders the accesses.
private final class LargeStackBox: @unchecked Sendable {
    var body: (() -> Any)?
    var result: Any?
}
