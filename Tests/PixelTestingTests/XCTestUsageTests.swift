import Foundation
import PixelTesting
import SceneGraph
import XCTest

/// The same assertions from XCTest: a matching snapshot and pixel pass without failures.
final class XCTestUsageTests: XCTestCase {
    func testSnapshotAndPixelFromXCTest() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("xctest-snapshots-\(UUID())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let image = try Surface(width: 2, height: 2)
        image.fill(.mint)
        try image.writePNG(to: dir + "/testSnapshotAndPixelFromXCTest.mint.png")
        XCTAssertTrue(assertSnapshot(of: image, named: "mint", record: .never, snapshotDirectory: dir))
        XCTAssertTrue(expectPixel(in: image, at: CGPoint(x: 1, y: 1), equals: .mint))
    }
}
