import Foundation

/// When reference images are written, as users of swift-snapshot-testing know the modes.
public enum SnapshotRecordMode: String, Sendable, CaseIterable {
    /// Write every reference, then fail (the test must be run again to compare).
    case all
    /// Write references that do not exist yet, and fail for those; compare the others. The default.
    case missing
    /// Compare; where the comparison fails, overwrite the reference (and still fail).
    case failed
    /// Only compare; a missing reference fails with the command that records it (for CI).
    case never

    /// The mode in force: the innermost `withSnapshotTesting(record:)`, else the
    /// `SNAPSHOT_TESTING_RECORD` environment variable, else `.missing`.
    public static var current: SnapshotRecordMode {
        if let scoped = SnapshotTestingConfiguration.record { return scoped }
        if let value = ProcessInfo.processInfo.environment["SNAPSHOT_TESTING_RECORD"],
           let mode = SnapshotRecordMode(rawValue: value.lowercased()) {
            return mode
        }
        return .missing
    }
}

/// Scoped settings for snapshot assertions (a task-local, so concurrent tests do not interfere).
public enum SnapshotTestingConfiguration {
    @TaskLocal public static var record: SnapshotRecordMode?
}

/// Runs `body` with snapshot assertions in `record` mode, e.g. for a whole suite's test:
///
/// ```swift
/// try withSnapshotTesting(record: .all) { try assertSnapshot(of: surface) }
/// ```
public func withSnapshotTesting<R>(record: SnapshotRecordMode, _ body: () throws -> R) rethrows -> R {
    try SnapshotTestingConfiguration.$record.withValue(record, operation: body)
}
