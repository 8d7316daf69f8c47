import Foundation

/// Offscreen images kept between renders under a byte budget, least recently used evicted
/// first: what makes a `drawingGroup()` cheap on the frames after its first. Safe to share
/// between renderers on several threads: every access holds a lock, and `image(for:)` hands out
/// a surface of its own over the stored pixels (see `Surface(sharingPixelsOf:)`), which nobody
/// writes once stored.
///
/// ```swift
/// let cache = ImageCache<String>(budgetBytes: 64 << 20)
/// cache.insert(surface, for: "badge")
/// cache.image(for: "badge")      // a read-only view of the pixels, or nil after eviction
/// ```
public final class ImageCache<Key: Hashable & Sendable>: Sendable {
    /// What the cache has done since it was made.
    public struct Statistics: Sendable, Equatable, Codable {
        public var hits = 0
        public var misses = 0
        public var evictions = 0
        /// Bytes of pixel data held now.
        public var bytes = 0
        public var images = 0
    }

    /// 256 MiB: a few dozen full-HD drawing groups (8 MiB each in 8-bit, 32 MiB in float),
    /// a small share of a desktop's memory.
    public static var defaultBudgetBytes: Int { 256 << 20 }

    private struct Entry {
        let stored: StoredSurface
        let bytes: Int
        var lastUse: UInt64
    }

    /// A stored image. The caller of `insert` hands it over and never draws into it again, and
    /// it only leaves the cache as a new surface over its pixels (which nobody writes), so
    /// threads may share it although `Surface` itself is not `Sendable`.
    private struct StoredSurface: @unchecked Sendable {
        let surface: Surface
    }

    /// Everything the cache holds, behind one lock. The stored surfaces are never written
    /// after `insert` and only leave as new views of their pixels, so sharing them is safe.
    private struct State {
        var entries: [Key: Entry] = [:]
        var clock: UInt64 = 0
        var stats = Statistics()
        var budget: Int

        /// Evicts least recently used images until `incoming` more bytes fit the budget.
        mutating func evict(toFit incoming: Int) {
            while stats.bytes + incoming > budget, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                entries.removeValue(forKey: oldest.key)
                stats.bytes -= oldest.value.bytes
                stats.images -= 1
                stats.evictions += 1
            }
        }
    }

    private let state: Locked<State>
    /// Keys some thread is making an image for now (`image(for:orMake:)`), and the condition
    /// that threads waiting for one of them sleep on.
    private let making = NSCondition()
    nonisolated(unsafe) private var inFlight: Set<Key> = []

    public init(budgetBytes: Int = ImageCache.defaultBudgetBytes) {
        state = Locked(State(budget: max(0, budgetBytes)))
    }

    /// The most bytes of pixels the cache holds; lowering it evicts at once.
    public var budgetBytes: Int {
        get { state.withLock { $0.budget } }
        set {
            state.withLock {
                $0.budget = max(0, newValue)
                $0.evict(toFit: 0)
            }
        }
    }

    public var statistics: Statistics { state.withLock { $0.stats } }

    /// The image stored for `key` (a view of its pixels; counted as a hit), or nil (a miss).
    public func image(for key: Key) -> Surface? {
        let stored: Surface? = state.withLock { s in
            guard var entry = s.entries[key] else {
                s.stats.misses += 1
                return nil
            }
            s.clock += 1
            entry.lastUse = s.clock
            s.entries[key] = entry
            s.stats.hits += 1
            return entry.stored.surface
        }
        return stored.flatMap { try? Surface(sharingPixelsOf: $0) }
    }

    /// The image stored for `key` (a hit), or the one `make` draws now, stored for the next
    /// caller (a miss; `made` is true). When another thread is already making the image for
    /// `key`, this waits for it and returns it as a hit instead of drawing it a second time, so
    /// renderers sharing the cache on several threads draw each image once and count the same
    /// hits and misses whatever the timing. (Waits cannot form a cycle: an image never waits
    /// for itself, and the images drawn inside it are keyed by strict parts of its content.)
    /// If `make` throws, or its image does not fit the budget, one waiting thread makes it.
    public func image(for key: Key, orMake make: () throws -> Surface) rethrows -> (surface: Surface, made: Bool) {
        making.lock()
        while inFlight.contains(key) { making.wait() }
        if let found = image(for: key) {
            making.unlock()
            return (found, false)
        }
        inFlight.insert(key)
        making.unlock()
        defer {
            making.lock()
            inFlight.remove(key)
            making.broadcast()
            making.unlock()
        }
        let surface = try make()
        insert(surface, for: key)
        return (surface, true)
    }

    /// Stores `surface` for `key`, evicting the least recently used images until it fits. An
    /// image larger than the whole budget is not stored (returns false). The cache owns the
    /// surface from now on: nobody may draw into it.
    @discardableResult
    public func insert(_ surface: Surface, for key: Key) -> Bool {
        let bytes = surface.byteCount
        let stored = StoredSurface(surface: surface)
        return state.withLock { s in
            if let old = s.entries.removeValue(forKey: key) {
                s.stats.bytes -= old.bytes
                s.stats.images -= 1
            }
            guard bytes <= s.budget else { return false }
            s.evict(toFit: bytes)
            s.clock += 1
            s.entries[key] = Entry(stored: stored, bytes: bytes, lastUse: s.clock)
            s.stats.bytes += bytes
            s.stats.images += 1
            return true
        }
    }

    /// Drops every image whose key is not in `keep` (e.g. the images one render used).
    public func removeAll(except keep: Set<Key>) {
        state.withLock { s in
            for key in Array(s.entries.keys) where !keep.contains(key) {
                if let removed = s.entries.removeValue(forKey: key) { s.stats.bytes -= removed.bytes }
                s.stats.images -= 1
            }
        }
    }

    public func removeAll() { removeAll(except: []) }
}
