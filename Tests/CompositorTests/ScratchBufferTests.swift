import Testing
@testable import Compositor

@Suite struct ScratchBufferTests {
    /// Four appended at once land in order after those already there, growing the buffer
    /// from any capacity (1, a multiple of four, or neither), as four appends one by one do.
    @Test(arguments: [1, 3, 4, 6]) func fourAtOnceAppendInOrder(capacity: Int) {
        var together = ScratchBuffer<Int>(capacity: capacity)
        var singly = ScratchBuffer<Int>(capacity: capacity)
        together.append(-1)
        singly.append(-1)
        for k in 0..<25 {
            together.append(4 * k, 4 * k + 1, 4 * k + 2, 4 * k + 3)
            for v in 4 * k ..< 4 * k + 4 { singly.append(v) }
        }
        #expect(together.count == 101)
        #expect(together.capacity >= together.count)
        #expect(Array(together.buffer) == Array(singly.buffer))
        #expect(Array(together.buffer) == [-1] + Array(0..<100))
    }
}
