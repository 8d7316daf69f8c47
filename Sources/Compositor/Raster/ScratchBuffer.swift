/// A growable buffer of plain values for the rasterizer's hot loops: appends and element
/// updates with no copy-on-write checks and no reference counting (an `Array` checks
/// uniqueness on every append and every `a[i] += 1`, which cost S4 8 % of its instructions).
/// It owns its memory and cannot be copied (`~Copyable`), so the memory is freed exactly once,
/// when the buffer goes away.
struct ScratchBuffer<Element: BitwiseCopyable>: ~Copyable {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var capacity: Int
    var count = 0

    init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

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

    /// Appends four elements with one check for room (a segment's x0, y0, x1, y1).
    @inline(__always) mutating func append(_ a: Element, _ b: Element, _ c: Element, _ d: Element) {
        if count + 4 > capacity { grow(to: max(capacity * 2, count + 4)) }
        let p = base + count
        p[0] = a; p[1] = b; p[2] = c; p[3] = d
        count += 4
    }

    @inline(__always) mutating func removeAll() { count = 0 }

    /// Sets the count to `n`, every element to `value`.
    mutating func reset(count n: Int, to value: Element) {
        if n > capacity { grow(to: max(n, capacity * 2)) }
        base.update(repeating: value, count: n)
        count = n
    }

    /// Sets the count to `n`, keeping the elements below it; those above the old count hold
    /// whatever the memory held (plain values: the caller writes them before reading).
    mutating func resize(count n: Int) {
        if n > capacity { grow(to: max(n, capacity * 2)) }
        count = n
    }

    /// Makes room for `n` elements without changing the count.
    mutating func reserve(_ n: Int) {
        if n > capacity { grow(to: n) }
    }

    @inline(__always) var buffer: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    /// The elements as they are now, to read and write in a hot loop without going through
    /// the owner (valid until the buffer next grows or goes away).
    @inline(__always) var view: ScratchView<Element> { ScratchView(base: base, count: count) }

    private mutating func grow(to newCapacity: Int) {
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }
}

/// A window on a `ScratchBuffer`'s elements: a pointer and a count, copyable, owning nothing.
struct ScratchView<Element: BitwiseCopyable> {
    let base: UnsafeMutablePointer<Element>
    let count: Int

    @inline(__always) subscript(i: Int) -> Element {
        get { base[i] }
        nonmutating set { base[i] = newValue }
    }
}
