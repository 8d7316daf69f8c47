import Foundation
import Testing
@testable import PixelTesting
import SceneGraph

func temporaryFolder() throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("snapshots-\(UUID())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.path
}

func grey(_ v: UInt32, change: UInt32? = nil) throws -> Surface {
    let s = try Surface(width: 4, height: 4)
    s.fill(Color(rgb: v << 16 | v << 8 | v))
    if let change { s.fill(Color(rgb: change), in: PixelRect(x: 2, y: 1, width: 1, height: 1)) }
    return s
}

/// Whether a recorded issue's comments contain all of `parts`.
func says(_ issue: Issue, _ parts: String...) -> Bool {
    let text = issue.comments.map(\.rawValue).joined(separator: "\n")
    return parts.allSatisfy(text.contains)
}

@Suite struct SnapshotTests {
    @Test func missingRecordsThenCompares() throws {
        let dir = try temporaryFolder()
        let image = try grey(0x80)
        withKnownIssue {
            assertSnapshot(of: image, named: "grey", record: .missing, snapshotDirectory: dir)
        } matching: { says($0, "Recorded the snapshot", "missingRecordsThenCompares.grey.png") }
        #expect(FileManager.default.fileExists(atPath: dir + "/missingRecordsThenCompares.grey.png"))
        // Recorded: the same snapshot now compares, and passes.
        #expect(assertSnapshot(of: image, named: "grey", record: .missing, snapshotDirectory: dir))
        #expect(assertSnapshot(of: image, named: "grey", record: .never, snapshotDirectory: dir))
    }

    @Test func neverFailsWithTheCommandThatRecords() throws {
        let dir = try temporaryFolder()
        let image = try grey(0x80)
        withKnownIssue {
            assertSnapshot(of: image, record: .never, snapshotDirectory: dir)
        } matching: { says($0, "No reference image", "record: .never is passed to this assertion",
                           "pass .missing and run: swift test --filter neverFailsWithTheCommandThatRecords") }
        // Set by a scope: the message says so.
        withKnownIssue {
            withSnapshotTesting(record: .never) { _ = assertSnapshot(of: image, snapshotDirectory: dir) }
        } matching: { says($0, "never is set by withSnapshotTesting(record:) or a .snapshots(record:) trait") }
        // Set by the environment (not set here: the variable would leak into parallel tests).
        #expect(recordingAdvice(passed: false, scoped: false, testName: "t")
                == "to record it, run: SNAPSHOT_TESTING_RECORD=missing swift test --filter t")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test func comparisonReportsNumbersAndWritesArtifacts() throws {
        let dir = try temporaryFolder()
        let reference = try grey(0x80)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try reference.writePNG(to: dir + "/comparisonReportsNumbersAndWritesArtifacts.shape.png")
        // Equal: passes silently.
        #expect(assertSnapshot(of: reference, named: "shape", record: .never, snapshotDirectory: dir))
        // One pixel red + 4: the message states the numbers and three artifact paths.
        let changed = try grey(0x80, change: 0x848080)
        withKnownIssue {
            assertSnapshot(of: changed, named: "shape", record: .never, snapshotDirectory: dir)
        } matching: { issue in
            says(issue, "1 of 16 pixels differ", "largest channel difference 4",
                 "worst at (2, 1): expected (128, 128, 128, 255), actual (132, 128, 128, 255)",
                 "reference:", "actual:", "difference:")
        }
        // The three artifacts, in the artifacts folder under the test file's name.
        let artifacts = snapshotArtifactsDirectory.appendingPathComponent("PixelTestingTests")
        for kind in ["reference", "actual", "difference"] {
            let path = artifacts.appendingPathComponent("comparisonReportsNumbersAndWritesArtifacts.shape.\(kind).png").path
            #expect(try PNG.read(path: path).width == 4, "\(path)")
        }
        #expect(try PNG.read(path: artifacts.appendingPathComponent("comparisonReportsNumbersAndWritesArtifacts.shape.difference.png").path)
                .pixel(x: 2, y: 1) == RGBA8(255, 0, 0, 255))
        // Within a tolerance of 4 it passes.
        #expect(assertSnapshot(of: changed, named: "shape", tolerance: .init(channel: 4), record: .never, snapshotDirectory: dir))
        // A size mismatch is explained.
        let small = try Surface(width: 3, height: 4)
        withKnownIssue {
            assertSnapshot(of: small, named: "shape", record: .never, snapshotDirectory: dir)
        } matching: { says($0, "expected 4×4, actual 3×4") }
    }

    @Test func failedReRecordsAndAllOverwrites() throws {
        let dir = try temporaryFolder()
        let old = try grey(0x10), new = try grey(0x20)
        try old.writePNG(to: dir + "/failedReRecordsAndAllOverwrites.1.png")
        withKnownIssue {
            assertSnapshot(of: new, record: .failed, snapshotDirectory: dir)
        } matching: { says($0, "re-recorded the reference") }
        #expect(try PNG.read(path: dir + "/failedReRecordsAndAllOverwrites.1.png").pixel(x: 0, y: 0) == RGBA8(0x20, 0x20, 0x20, 255))
        // `all` overwrites even a matching reference, and fails so the run is not mistaken for a pass.
        withKnownIssue {
            withSnapshotTesting(record: .all) {
                _ = assertSnapshot(of: old, named: "second", snapshotDirectory: dir)
            }
        } matching: { says($0, "Recorded the snapshot", "second.png") }
        #expect(try PNG.read(path: dir + "/failedReRecordsAndAllOverwrites.second.png").pixel(x: 0, y: 0) == RGBA8(0x10, 0x10, 0x10, 255))
    }

    @Test func unnamedSnapshotsAreNumberedPerTest() throws {
        let dir = try temporaryFolder()
        let (one, two) = (try grey(1), try grey(2))
        withKnownIssue {
            assertSnapshot(of: one, record: .missing, snapshotDirectory: dir)
            assertSnapshot(of: two, record: .missing, snapshotDirectory: dir)
        } matching: { says($0, "Recorded") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
                == ["unnamedSnapshotsAreNumberedPerTest.1.png", "unnamedSnapshotsAreNumberedPerTest.2.png"])
    }

    @Test func recordModeScopesAndParses() {
        #expect(withSnapshotTesting(record: .never) { SnapshotRecordMode.current } == .never)
        #expect(SnapshotRecordMode(rawValue: "failed") == .failed)
        // The environment variable: modes in any case are fine; anything else is explained.
        #expect(SnapshotRecordMode.problem(withEnvironmentValue: nil) == nil)
        #expect(SnapshotRecordMode.problem(withEnvironmentValue: "") == nil)
        #expect(SnapshotRecordMode.problem(withEnvironmentValue: "Never") == nil)
        #expect(SnapshotRecordMode.problem(withEnvironmentValue: "nevr")
                == "SNAPSHOT_TESTING_RECORD=nevr is not a record mode; use one of all, missing, failed, never (nothing is recorded meanwhile)")
    }
}

/// A suite-wide record mode, set by a trait.
@Suite(.snapshots(record: .never)) struct SuiteRecordModeTests {
    @Test func theSuiteTraitSetsTheMode() throws {
        #expect(SnapshotRecordMode.current == .never)
        let dir = try temporaryFolder()
        let image = try grey(0x40)
        withKnownIssue {
            assertSnapshot(of: image, snapshotDirectory: dir)
        } matching: { says($0, "No reference image", "record mode never") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }

    @Test(.snapshots(record: .missing)) func aTestTraitOverridesTheSuite() throws {
        #expect(SnapshotRecordMode.current == .missing)
    }

    @Test func aCallArgumentOverridesTheSuite() throws {
        let dir = try temporaryFolder()
        let image = try grey(0x40)
        withKnownIssue {
            assertSnapshot(of: image, record: .missing, snapshotDirectory: dir)
        } matching: { says($0, "Recorded the snapshot") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["aCallArgumentOverridesTheSuite.1.png"])
    }
}

@Suite struct PixelProbeTests {
    @Test func probesInPointsAtAnyScale() throws {
        // A 3× render: the point (1, 0) is the device pixel (3, 0).
        let s = try Surface(width: 6, height: 3)
        s.fill(.white)
        s.fill(.orange, in: PixelRect(x: 3, y: 0, width: 3, height: 3))
        #expect(sample(s, at: CGPoint(x: 1, y: 0), scale: 3) == RGBA8(0xFF, 0x95, 0x00, 255))
        #expect(sample(s, at: CGPoint(x: 0.9, y: 0), scale: 3) == RGBA8(255, 255, 255, 255))
        #expect(sample(s, at: CGPoint(x: 2, y: 0), scale: 3) == nil)
        #expect(expectPixel(in: s, at: CGPoint(x: 1.5, y: 0.5), scale: 3, equals: .orange))
        withKnownIssue {
            expectPixel(in: s, at: CGPoint(x: 0, y: 0), scale: 3, equals: Color(rgb: 0xFDFDFD), tolerance: 1)
        } matching: { says($0, "is (255, 255, 255, 255), expected (253, 253, 253, 255) within 1; off by 2") }
        #expect(expectPixel(in: s, at: CGPoint(x: 0, y: 0), scale: 3, equals: Color(rgb: 0xFDFDFD), tolerance: 2))
    }
}

@Suite struct ViewSnapshotTests {
    /// Two overlapping squares, composited first and then made half transparent once.
    var group: some View {
        ZStack(alignment: .topLeading) {
            Rectangle().fill(.red).frame(width: 20, height: 20)
            Rectangle().fill(.blue).frame(width: 20, height: 20).offset(x: 10)
        }
        .compositingGroup().opacity(0.5)
    }

    @Test func viewsRecordThenCompare() throws {
        let dir = try temporaryFolder()
        withKnownIssue {
            assertSnapshot(of: group, size: CGSize(width: 30, height: 20), scale: 2, named: "group",
                           record: .missing, snapshotDirectory: dir)
        } matching: { says($0, "Recorded the snapshot", "viewsRecordThenCompare.group.png") }
        let recorded = try PNG.read(path: dir + "/viewsRecordThenCompare.group.png")
        // 30×20 points at scale 2 → 60×40 pixels.
        #expect(recorded.width == 60 && recorded.height == 40)
        // In the overlap only blue (0x007AFF) shows, the group being composited first; at 0.5
        // over white: red 0·0.5 + 255·0.5 = 127.5, green 122·0.5 + 255·0.5 = 188.5, blue 255.
        // Halves may round either way: (128, 189, 255) within 1. Per-leaf opacity would show
        // red beneath: red 0xFF3B30 at 0.5 gives green 157 first, then blue: (122 + 157)/2 = 139.5.
        expectPixel(in: recorded, at: CGPoint(x: 15, y: 10), scale: 2, equals: Color(rgb: 0x80BDFF), tolerance: 1)
        #expect(assertSnapshot(of: group, size: CGSize(width: 30, height: 20), scale: 2, named: "group",
                               record: .never, snapshotDirectory: dir))
        // A different background is a different image, reported as such.
        withKnownIssue {
            assertSnapshot(of: group, size: CGSize(width: 30, height: 20), scale: 2, background: nil, named: "group",
                           record: .never, snapshotDirectory: dir)
        } matching: { says($0, "does not match", "2400 of 2400 pixels differ") }
    }

    @Test func anUnrenderableViewFailsWithTheReason() throws {
        let dir = try temporaryFolder()
        withKnownIssue {
            assertSnapshot(of: group, size: CGSize(width: 30, height: Double.nan), named: "bad", snapshotDirectory: dir)
        } matching: { says($0, "Cannot render the view for snapshot bad", "must be finite") }
        withKnownIssue {
            assertSnapshot(of: group, size: CGSize(width: 1e300, height: 20), named: "huge", snapshotDirectory: dir)
        } matching: { says($0, "exceeds the limits") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty)
    }
}
