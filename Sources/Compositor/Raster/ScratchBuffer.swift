/// A growable buffer of plain values for the rasterizer's hot loops: appends and element
/// updates with no copy-on-write checks and no reference counting (an `Array` checks
/// uniqueness on every append and every `a[i] += 1`, which cost S4 8 % of its instructions).
/// It is a value holding a pointer: its owner frees it exactly once, in `deinit`.
struct ScratchBuffer<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var capacity: Int
    var count = 0

    init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
        base = .allocate(capacity: self.capacity)
    }

    /// Releases the memory; the buffer must not be used afterwards.
    func free() { base.deallocate() }

    @inline(__always) var isEmpty: Bool { count == 0 }

    @inline(__always) subscript(i: Int) -> Element {
        get { base[i] }
        nonmutating set { base[i] = newValue }
    }

    @inline(__always) mutating func append(_ element: Element) {
        if count == capacity { grow(to: capacity * 2) }
        base[count] = element
        count += 1
    }

    @inline(__always) mutating func removeAll() { count = 0 }

    /// Sets the count to `n`, every element to `value`.
    mutating func reset(count n: Int, to value: Element) {
        if n > capacity { grow(to: max(n, capacity * 2)) }
        base.update(repeating: value, count: n)
        count = n
    }

    @inline(__always) var buffer: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    private mutating func grow(to newCapacity: Int) {
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }
}
