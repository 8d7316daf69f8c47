import Foundation
import Testing
@testable import Compositor

/// How the fills a batch records whole are shared out (`FillStream`): every fill is taken
/// exactly once, by the caller or by a helper, and only once it was published.
@Suite struct FillStreamTests {
    @Test func takesOnlyWhatWasPublishedThenTheRestOnceClosed() {
        let stream = FillStream()
        stream.publish(3)
        #expect(stream.take(2, helper: false) == 0..<2)
        #expect(stream.take(2, helper: false) == 2..<3)
        stream.close(5)
        #expect(stream.take(10, helper: false) == 3..<5)
        #expect(stream.take(10, helper: false) == nil)
        #expect(stream.helperTakes == 0)
        stream.waitForHelpers()   // nothing left, nobody building: returns
    }

    /// Helpers wait for fills to be published, take them in chunks, and stop once the stream
    /// is closed and drained; the caller takes what they leave. Every index exactly once.
    @Test func helpersAndTheCallerTakeEveryFillOnce() {
        for helpers in [1, 3] {
            let stream = FillStream()
            let taken = Locked<[Int]>([])
            let group = DispatchGroup()
            for _ in 0..<helpers {
                DispatchQueue.global().async(group: group) {
                    stream.help(chunk: 4) { range in taken.withLock { $0 += Array(range) } }
                }
            }
            for count in stride(from: 16, through: 400, by: 16) {
                stream.publish(count)
                if count % 64 == 0 { usleep(200) }   // let the helpers catch up and sleep
            }
            stream.close(403)
            while let range = stream.take(4, helper: false) { taken.withLock { $0 += Array(range) } }
            stream.waitForHelpers()
            #expect(taken.withLock { $0.sorted() } == Array(0..<403), "\(helpers) helpers")
            group.wait()
        }
    }

    /// With the caller taking nothing, waiting returns only once a helper took every fill,
    /// even a helper that starts after the stream was closed.
    @Test func waitingOutlastsHelpersThatStartLate() {
        let stream = FillStream()
        stream.close(50)
        let taken = Locked(0)
        DispatchQueue.global().async {
            usleep(2_000)
            stream.help(chunk: 8) { range in taken.withLock { $0 += range.count } }
        }
        stream.waitForHelpers()
        #expect(taken.withLock { $0 } == 50)
    }

    /// A cancelled stream hands out nothing more, to the caller or to helpers.
    @Test func cancelledStreamsHandOutNothing() {
        let stream = FillStream()
        stream.publish(10)
        #expect(stream.take(4, helper: true) == 0..<4)
        stream.cancel()
        #expect(stream.take(4, helper: false) == nil)
        stream.waitForHelpers()
        #expect(stream.helperTakes == 1)
    }
}
