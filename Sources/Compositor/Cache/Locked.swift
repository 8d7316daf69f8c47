import Foundation

/// A value behind a lock, for state that threads share (caches, interning tables).
///
/// A pthread mutex rather than the standard library's `Synchronization.Mutex`: on Linux that
/// one waits on a futex that ThreadSanitizer does not see, so every contended access through it
/// is reported as a race (a probe of 8 threads adding to a dictionary through a `Mutex` gets
/// "Swift access race" reports), and `make sanitize` could not stay clean. pthread mutexes are
/// intercepted by the sanitizers, so races are found and locked accesses are not reported.
///
/// ```swift
/// let counts = Locked<[String: Int]>([:])
/// counts.withLock { $0["a", default: 0] += 1 }
/// ```
public final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, the lock held (it must not call back into this lock).
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

extension Locked where Value == Int {
    /// The count as it was, advanced by `n`: how threads share out work, each taking the next
    /// `n` items (slabs, bands, fills) as it comes free.
    public func take(_ n: Int = 1) -> Int {
        withLock { value in
            defer { value += n }
            return value
        }
    }
}
