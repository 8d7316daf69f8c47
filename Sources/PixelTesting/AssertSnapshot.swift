import Compositor
import SceneGraph
import Foundation
import Testing

/// Counts snapshots per test so unnamed ones are numbered 1, 2, … in call order.
private final class SnapshotCounter: Sendable {
    private let counts = Locked<[String: Int]>([:])
    func next(_ key: String) -> Int {
        counts.withLock { counts in
            counts[key, default: 0] += 1
            return counts[key, default: 0]
        }
    }
}
private let counter = SnapshotCounter()

/// The folder failure images go to: `SNAPSHOT_ARTIFACTS`, else the temporary folder.
public var snapshotArtifactsDirectory: URL {
    if let path = ProcessInfo.processInfo.environment["SNAPSHOT_ARTIFACTS"], !path.isEmpty {
        return URL(fileURLWithPath: path)
    }
    return FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-artifacts")
}

/// Compares `surface` with the reference image
/// `__Snapshots__/<TestFile>/<testName>.<n or name>.png` beside the test file (or in
/// `snapshotDirectory`), recording it according to `record` (default:
/// `SnapshotRecordMode.current`). Unnamed snapshots are numbered 1, 2, … per test.
///
/// On failure the message gives the numbers (pixels differing, largest channel difference,
/// largest ΔE, the worst pixel and both its values) and the paths of three images written to
/// `snapshotArtifactsDirectory`: the reference, the actual image, and the difference.
///
/// ```swift
/// @Test func circles() throws {
///     try assertSnapshot(of: surface, tolerance: .init(channel: 1))
/// }
/// ```
/// - Returns: whether the snapshot matched (false after recording, too).
@discardableResult
public func assertSnapshot(of surface: Surface, named name: String? = nil,
                           tolerance: ComparisonTolerance = .exact, record: SnapshotRecordMode? = nil,
                           snapshotDirectory: String? = nil, testName: String = #function,
                           fileID: String = #fileID, filePath: StaticString = #filePath,
                           line: UInt = #line, column: UInt = #column) -> Bool {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    if record == nil, SnapshotTestingConfiguration.record == nil, let problem = SnapshotRecordMode.environmentProblem {
        reportFailure(problem, at: site)
        return false
    }
    let mode = record ?? SnapshotRecordMode.current
    let testFile = URL(fileURLWithPath: site.path)
    let folder = snapshotDirectory.map { URL(fileURLWithPath: $0) }
        ?? testFile.deletingLastPathComponent().appendingPathComponent("__Snapshots__")
            .appendingPathComponent(testFile.deletingPathExtension().lastPathComponent)
    let cleanTest = sanitized(testName)
    let key = "\(site.path)#\(cleanTest)"
    let suffix = name.map(sanitized) ?? String(counter.next(key))
    let reference = folder.appendingPathComponent("\(cleanTest).\(suffix).png")

    func write(_ s: Surface, to url: URL) -> String? {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try s.writePNG(to: url.path)
            return nil
        } catch {
            return "\(error)"
        }
    }

    let exists = FileManager.default.fileExists(atPath: reference.path)
    if mode == .all || (mode == .missing && !exists) {
        if let problem = write(surface, to: reference) {
            reportFailure("Could not record the snapshot \(reference.path): \(problem)", at: site)
        } else {
            reportFailure("Recorded the snapshot \(reference.path)" + (exists ? " (overwritten, record mode all)" : "")
                          + ". Run the test again to compare.", at: site)
        }
        return false
    }
    guard exists else {
        let howTo = recordingAdvice(passed: record != nil, scoped: SnapshotTestingConfiguration.record != nil,
                                    testName: cleanTest)
        reportFailure("No reference image at \(reference.path) (record mode never); \(howTo)", at: site)
        return false
    }
    let expected: Surface
    do {
        expected = try PNG.read(path: reference.path)
    } catch {
        reportFailure("Cannot read the reference image: \(error)", at: site)
        return false
    }
    let result: ImageComparison
    do {
        result = try surface.compare(to: expected, tolerance: tolerance)
    } catch {
        reportFailure("Snapshot \(reference.lastPathComponent) does not match: \(error)", at: site)
        return false
    }
    if result.passed { return true }

    // Artifacts: reference, actual and difference, side by side in one folder per test.
    let artifacts = snapshotArtifactsDirectory
        .appendingPathComponent(testFile.deletingPathExtension().lastPathComponent)
    let base = "\(cleanTest).\(suffix)"
    let paths = ["reference", "actual", "difference"].map { artifacts.appendingPathComponent("\(base).\($0).png") }
    _ = write(expected, to: paths[0])
    _ = write(surface, to: paths[1])
    if let diff = try? surface.differenceImage(against: expected, tolerance: tolerance) { _ = write(diff, to: paths[2]) }
    var message = "Snapshot \(reference.lastPathComponent) does not match: \(result)."
    message += "\n  reference:  \(paths[0].path)\n  actual:     \(paths[1].path)\n  difference: \(paths[2].path)"
    if mode == .failed {
        if let problem = write(surface, to: reference) {
            message += "\n  could not re-record the reference: \(problem)"
        } else {
            message += "\n  re-recorded the reference (record mode failed)."
        }
    }
    reportFailure(message, at: site)
    return false
}

/// How to record a missing reference under `never`, which depends on where `never` came from
/// (the innermost setting wins): the call's `record:`, a scope or trait, or the environment.
func recordingAdvice(passed: Bool, scoped: Bool, testName: String) -> String {
    if passed {
        "record: .never is passed to this assertion; to record it, pass .missing and run: swift test --filter \(testName)"
    } else if scoped {
        "never is set by withSnapshotTesting(record:) or a .snapshots(record:) trait; "
            + "to record it, change that to .missing and run: swift test --filter \(testName)"
    } else {
        "to record it, run: SNAPSHOT_TESTING_RECORD=missing swift test --filter \(testName)"
    }
}

/// Expects the pixel at `point` (in points; multiplied by `scale` to find the device pixel)
/// to equal `color` within `tolerance` in every 8-bit channel, un-premultiplied.
///
/// ```swift
/// expectPixel(in: surface, at: CGPoint(x: 62, y: 60), scale: 3, equals: Color(rgb: 0xFFE4BF), tolerance: 1)
/// ```
@discardableResult
public func expectPixel(in surface: Surface, at point: CGPoint, scale: Double = 1, equals color: Color,
                        tolerance: Int = 0, fileID: String = #fileID, filePath: StaticString = #filePath,
                        line: UInt = #line, column: UInt = #column) -> Bool {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let actual = sample(surface, at: point, scale: scale) else {
        reportFailure("Point \(point) at scale \(scale) lies outside the \(surface.width)×\(surface.height) image.", at: site)
        return false
    }
    func byte(_ v: Double) -> Int { Int((min(1, max(0, v)) * 255).rounded()) }
    let expected = RGBA8(UInt8(byte(color.red)), UInt8(byte(color.green)), UInt8(byte(color.blue)), UInt8(byte(color.alpha)))
    let d = max(abs(Int(actual.r) - Int(expected.r)), abs(Int(actual.g) - Int(expected.g)),
                abs(Int(actual.b) - Int(expected.b)), abs(Int(actual.a) - Int(expected.a)))
    if d <= tolerance { return true }
    reportFailure("Pixel at \(point) (scale \(scale)) is \(actual), expected \(expected) within \(tolerance); off by \(d).", at: site)
    return false
}

/// The device pixel holding the point `point` (in points) at `scale`, un-premultiplied; nil
/// outside the image.
public func sample(_ surface: Surface, at point: CGPoint, scale: Double = 1) -> RGBA8? {
    let x = Int((point.x * scale).rounded(.down)), y = Int((point.y * scale).rounded(.down))
    guard x >= 0, y >= 0, x < surface.width, y < surface.height else { return nil }
    return surface.pixel(x: x, y: y)
}

/// A test or snapshot name safe for a file name: `circles()` → `circles`.
func sanitized(_ name: String) -> String {
    var s = name
    if let paren = s.firstIndex(of: "(") { s = String(s[..<paren]) }
    let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_"))
    return String(s.unicodeScalars.map { allowed.contains($0) ? Character($0) : "-" })
}

/// Renders `view` into a `size`-point canvas at `scale` device pixels per point over
/// `background` (nil: transparent) and compares the render with its reference image, exactly as
/// `assertSnapshot(of: Surface, …)` does. A view that cannot be rendered (a canvas too large,
/// a zero size) is a test failure stating why, not a trap.
///
/// ```swift
/// @Test func halfOpaqueGroup() {
///     assertSnapshot(of: ZStack { Circle().fill(.red); Circle().fill(.blue).offset(x: 20) }
///                        .compositingGroup().opacity(0.5),
///                    size: CGSize(width: 80, height: 60), scale: 2)
/// }
/// ```
@discardableResult
public func assertSnapshot<V: View>(of view: V, size: CGSize, scale: Double = 1, background: Color? = .white,
                                    named name: String? = nil, tolerance: ComparisonTolerance = .exact,
                                    record: SnapshotRecordMode? = nil, snapshotDirectory: String? = nil,
                                    testName: String = #function, fileID: String = #fileID,
                                    filePath: StaticString = #filePath, line: UInt = #line,
                                    column: UInt = #column) -> Bool {
    let surface: Surface
    do {
        surface = try Renderer().render(view, size: size, scale: scale, background: background)
    } catch {
        reportFailure("Cannot render the view for snapshot \(name ?? "(unnamed)"): \(error)",
                      at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
        return false
    }
    return assertSnapshot(of: surface, named: name, tolerance: tolerance, record: record,
                          snapshotDirectory: snapshotDirectory, testName: testName, fileID: fileID,
                          filePath: filePath, line: line, column: column)
}
