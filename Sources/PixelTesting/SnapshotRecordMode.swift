import Foundation
import Testing

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
    /// An unknown `SNAPSHOT_TESTING_RECORD` value counts as `.never`, so a misspelt CI setting
    /// never records; `assertSnapshot` also fails for it (see `environmentProblem`).
    public static var current: SnapshotRecordMode {
        if let scoped = SnapshotTestingConfiguration.record { return scoped }
        if let value = ProcessInfo.processInfo.environment["SNAPSHOT_TESTING_RECORD"], !value.isEmpty {
            return SnapshotRecordMode(rawValue: value.lowercased()) ?? .never
        }
        return .missing
    }

    /// Why the `SNAPSHOT_TESTING_RECORD` environment variable is unusable, or nil.
    public static var environmentProblem: String? {
        problem(withEnvironmentValue: ProcessInfo.processInfo.environment["SNAPSHOT_TESTING_RECORD"])
    }

    /// Why `value`, as the `SNAPSHOT_TESTING_RECORD` variable, is unusable, or nil (unset,
    /// empty, or a mode in any letter case).
    public static func problem(withEnvironmentValue value: String?) -> String? {
        guard let value, !value.isEmpty, SnapshotRecordMode(rawValue: value.lowercased()) == nil else { return nil }
        return "SNAPSHOT_TESTING_RECORD=\(value) is not a record mode; use one of "
            + allCases.map(\.rawValue).joined(separator: ", ") + " (nothing is recorded meanwhile)"
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

/// Sets the record mode for every test of a suite (or one test), Swift Testing's way:
///
/// ```swift
/// @Suite(.snapshots(record: .never)) struct GroupOpacityTests { … }
/// ```
///
/// A `record:` argument to one assertion still wins over it.
public struct SnapshotsTrait: SuiteTrait, TestTrait, TestScoping {
    public let record: SnapshotRecordMode
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        try await SnapshotTestingConfiguration.$record.withValue(record) { try await function() }
    }
}

extension Trait where Self == SnapshotsTrait {
    /// Snapshot assertions in this suite or test use `record` unless a call says otherwise.
    public static func snapshots(record: SnapshotRecordMode) -> Self { SnapshotsTrait(record: record) }
}
