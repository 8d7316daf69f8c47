import Foundation
import Synchronization

/// What a stroke gave up because it would have asked for too much work.
public enum StrokeRefusal: Equatable, Sendable, CustomStringConvertible {
    /// The dash pattern would cut the path into `count` dashes, more than `limit`.
    case dashes(count: Int, limit: Int)
    /// The outline would have more than `limit` points (a huge round-capped width on many dashes).
    case outlinePoints(limit: Int)
    /// The path would flatten into `count` line segments, more than `limit`.
    case segments(count: Int, limit: Int)

    public var description: String {
        switch self {
        case let .dashes(count, limit):
            "a dash pattern would cut a stroke into \(count == .max ? "more than 2^63" : "\(count)") dashes, more than the limit of \(limit)"
                + " (raise it with --max-dashes or Renderer.maximumDashes)"
        case let .outlinePoints(limit):
            "a stroke's outline would have more than \(limit) points"
                + " (raise the limit with --max-stroke-points or Renderer.maximumStrokeOutlinePoints)"
        case let .segments(count, limit):
            "a stroked path flattens into \(count == .max ? "more than 2^63" : "\(count)") line segments, more than the limit of \(limit)"
                + " (raise it with --max-segments or Renderer.maximumPathSegments)"
        }
    }
}

/// The work one stroke may ask for, set for a scope, and what that scope's strokes refused.
///
/// `Path.strokedPath(_:)` cannot throw (its signature is SwiftUI's), so by default a stroke
/// beyond a limit is drawn as documented: a dash pattern finer than `maximumDashCount` allows
/// as a solid line, an outline beyond `maximumStrokeOutlineElements` points or a path beyond
/// `maximumFlattenedSegments` not at all. A renderer runs each render inside `apply` with its
/// own settings and turns the first refusal into `RenderError.strokeLimit`, so nothing is
/// silently drawn differently.
public final class StrokeLimits: Sendable {
    @TaskLocal static var current: StrokeLimits?

    public let maximumDashes: Int
    public let maximumOutlinePoints: Int
    public let maximumSegments: Int
    private let refusal = Mutex<StrokeRefusal?>(nil)

    public init(maximumDashes: Int = maximumDashCount, maximumOutlinePoints: Int = maximumStrokeOutlineElements,
                maximumSegments: Int = maximumFlattenedSegments) {
        self.maximumDashes = maximumDashes
        self.maximumOutlinePoints = maximumOutlinePoints
        self.maximumSegments = maximumSegments
    }

    /// The first stroke refused inside `apply`, if any.
    public var firstRefusal: StrokeRefusal? { refusal.withLock { $0 } }

    /// Runs `body` with strokes (on this task) held to these limits.
    public func apply<T>(_ body: () throws -> T) rethrows -> T {
        try StrokeLimits.$current.withValue(self) { try body() }
    }

    func refuse(_ r: StrokeRefusal) { refusal.withLock { if $0 == nil { $0 = r } } }

    /// The limits in force here: the scope's, else the defaults.
    static var inForce: (dashes: Int, outlinePoints: Int, segments: Int, scope: StrokeLimits?) {
        guard let c = current else { return (maximumDashCount, maximumStrokeOutlineElements, maximumFlattenedSegments, nil) }
        return (c.maximumDashes, c.maximumOutlinePoints, c.maximumSegments, c)
    }
}
