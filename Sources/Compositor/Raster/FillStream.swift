import Foundation

/// How the fills a batch records whole are shared out for building (phase 1 of
/// `Rasterizer.drawPending`): the caller records fill after fill and publishes them; helper
/// threads started while it records take the published ones in chunks and build them, so
/// building overlaps recording instead of waiting for the flush. At the flush the caller
/// closes the stream, takes what is left itself and waits for the helpers that are still
/// building.
///
/// Which thread builds a fill never changes its pieces (each builder is the same code), and
/// the fills are drawn in the order they were recorded, so the bytes do not depend on it.
///
/// One stream per batch: a helper that starts late, after its stream was closed and drained,
/// finds nothing to take and touches nothing else, whatever the rasterizer does meanwhile.
final class FillStream: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    /// Fills the helpers may take: [0, published).
    private var published = 0
    /// The next fill nobody took.
    private var next = 0
    private var closed = false
    /// Helpers waiting for fills to be published.
    private var sleeping = 0
    /// Helpers inside `help`: the caller waits for them after closing.
    private var active = 0
    /// Chunks taken by a helper (statistics, tests: whether helpers took part).
    private(set) var helperTakes = 0

    init() {
        mutex = .allocate(capacity: 1)
        condition = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    @inline(__always) private func locked<R>(_ body: () -> R) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// The first `count` fills are recorded and may be taken (the caller's thread).
    func publish(_ count: Int) {
        locked {
            published = max(published, count)
            if sleeping > 0 { pthread_cond_broadcast(condition) }
        }
    }

    /// No more fills come: `count` in all (the caller's thread).
    func close(_ count: Int) {
        locked {
            published = max(published, count)
            closed = true
            pthread_cond_broadcast(condition)
        }
    }

    /// The next fills to build, at most `chunk`: waits while none is published and the stream
    /// is open; nil once it is closed and every fill was taken.
    func take(_ chunk: Int, helper: Bool) -> Range<Int>? {
        locked {
            while next >= published, !closed {
                sleeping += 1
                pthread_cond_wait(condition, mutex)
                sleeping -= 1
            }
            guard next < published else { return nil }
            let range = next..<min(published, next + chunk)
            next = range.upperBound
            if helper { helperTakes += 1 }
            return range
        }
    }

    /// Closes the stream with the fills nobody took left unbuilt (the rasterizer is going away).
    func cancel() {
        locked {
            closed = true
            next = max(next, published)
            pthread_cond_broadcast(condition)
        }
    }

    /// Runs `build` on every chunk this helper takes, until the stream is closed and drained.
    func help(chunk: Int, _ build: (Range<Int>) -> Void) {
        locked { active += 1 }
        while let range = take(chunk, helper: true) { build(range) }
        locked {
            active -= 1
            if active == 0 { pthread_cond_broadcast(condition) }
        }
    }

    /// Waits until every fill was taken and no helper is building (after `close`; helpers
    /// that start later find nothing).
    func waitForHelpers() {
        locked {
            while active > 0 || next < published { pthread_cond_wait(condition, mutex) }
        }
    }
}
