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
public final class ImageCache<Key: Hashable & Sendable>: @unchecked Sendable {
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
        let surface: Surface
        let bytes: Int
        var lastUse: UInt64
    }

    private let lock = NSLock()
    private var entries: [Key: Entry] = [:]
    private var clock: UInt64 = 0
    private var stats = Statistics()
    private var budget: Int

    public init(budgetBytes: Int = ImageCache.defaultBudgetBytes) {
        budget = max(0, budgetBytes)
    }

    /// The most bytes of pixels the cache holds; lowering it evicts at once.
    public var budgetBytes: Int {
        get { lock.withLock { budget } }
        set {
            lock.withLock {
                budget = max(0, newValue)
                evict(toFit: 0)
            }
        }
    }

    public var statistics: Statistics { lock.withLock { stats } }

    /// The image stored for `key` (a view of its pixels; counted as a hit), or nil (a miss).
    public func image(for key: Key) -> Surface? {
        let stored: Surface? = lock.withLock {
            guard var entry = entries[key] else {
                stats.misses += 1
                return nil
            }
            clock += 1
            entry.lastUse = clock
            entries[key] = entry
            stats.hits += 1
            return entry.surface
        }
        return stored.flatMap { try? Surface(sharingPixelsOf: $0) }
    }

    /// Stores `surface` for `key`, evicting the least recently used images until it fits. An
    /// image larger than the whole budget is not stored (returns false). The cache owns the
    /// surface from now on: nobody may draw into it.
    @discardableResult
    public func insert(_ surface: Surface, for key: Key) -> Bool {
        let bytes = surface.byteCount
        return lock.withLock {
            if let old = entries.removeValue(forKey: key) {
                stats.bytes -= old.bytes
                stats.images -= 1
            }
            guard bytes <= budget else { return false }
            evict(toFit: bytes)
            clock += 1
            entries[key] = Entry(surface: surface, bytes: bytes, lastUse: clock)
            stats.bytes += bytes
            stats.images += 1
            return true
        }
    }

    /// Drops every image whose key is not in `keep` (e.g. the images one render used).
    public func removeAll(except keep: Set<Key>) {
        lock.withLock {
            for key in Array(entries.keys) where !keep.contains(key) {
                stats.bytes -= entries.removeValue(forKey: key)!.bytes
                stats.images -= 1
            }
        }
    }

    public func removeAll() { removeAll(except: []) }

    /// Evicts least recently used images until `incoming` more bytes fit the budget. Called
    /// with the lock held.
    private func evict(toFit incoming: Int) {
        while stats.bytes + incoming > budget, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            entries.removeValue(forKey: oldest.key)
            stats.bytes -= oldest.value.bytes
            stats.images -= 1
            stats.evictions += 1
        }
    }
}
