import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A thread that can be waited for until it has ended: `join()` returns once `body` has
/// returned and everything it held (its closure and what that captured) has been released.
///
/// Foundation's `Thread` cannot be joined. Signalling a semaphore at the end of its closure
/// wakes the waiter before the closure itself is released, so a process that exits then may
/// still have that thread tearing down, holding the last references to whatever the closure
/// captured: LeakSanitizer, which checks at exit, reported the scenes of `compose animate`'s
/// jobs and the page of `compose preview` as leaked in a loaded `make sanitize` run. A joined
/// thread has let go of everything.
///
/// ```swift
/// let thread = JoinableThread(stackBytes: 8 << 20) { work() }
/// thread.join()
/// ```
public final class JoinableThread: @unchecked Sendable {
    private var thread = pthread_t()
    private var running = false
    /// Signalled at the end of the fallback thread's body (nil: a joinable thread runs it).
    private var fallbackDone: DispatchSemaphore?

    /// Starts `body` on a new thread with a stack of at least `stackBytes`. Where no such
    /// thread can be made (resources exhausted), `body` runs right here, before `init`
    /// returns, when `orHere` (for work the caller would wait for at once anyway); else on a
    /// Foundation thread, which `join` waits for as far as the end of `body`.
    public init(stackBytes: Int = 1 << 20, orHere: Bool = false, _ body: @escaping @Sendable () -> Void) {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, max(stackBytes, Int(PTHREAD_STACK_MIN)))
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        let created = pthread_create(&thread, &attributes, { raw in
            // Released when this function returns, before the thread ends: `join` sees it gone.
            let body = Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue()
            body.run()
            return nil
        }, box)
        if created == 0 {
            running = true
        } else if orHere {
            Unmanaged<Body>.fromOpaque(box).takeRetainedValue().run()
        } else {
            let body = Unmanaged<Body>.fromOpaque(box).takeRetainedValue()
            let done = DispatchSemaphore(value: 0)
            fallbackDone = done
            let fallback = Thread {
                body.run()
                done.signal()
            }
            fallback.stackSize = stackBytes
            fallback.start()
        }
    }

    /// Waits until the thread has ended (once; later calls return at once).
    public func join() {
        if let done = fallbackDone {
            fallbackDone = nil
            done.wait()
        }
        guard running else { return }
        running = false
        pthread_join(thread, nil)
    }

    /// Lets the thread end on its own, releasing its resources then; `join` returns at once
    /// from now on.
    public func detach() {
        guard running else { return }
        running = false
        pthread_detach(thread)
    }

    private final class Body: @unchecked Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
