import Foundation

/// What a stroke gave up because it would have asked for too much work.
public enum StrokeRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// The dash pattern would cut the path into `count` dashes, more than `limit`.
    case dashes(count: Int, limit: Int)
    /// The outline would have more than `limit` points (a huge round-capped width on many dashes).
    case outlinePoints(limit: Int)
    /// The path would flatten into `count` line segments, more than `limit`.
    case segments(count: Int, limit: Int)

    /// The `StrokeLimits` property the refusal is about (what a caller raises to allow it).
    public var limitName: String {
        switch self {
        case .dashes: "maximumDashes"
        case .outlinePoints: "maximumOutlinePoints"
        case .segments: "maximumSegments"
        }
    }

    public var description: String {
        switch self {
        case let .dashes(count, limit):
            "a dash pattern would cut a stroke into \(count == .max ? "more than 2^63" : "\(count)") dashes, more than the limit of \(limit)"
        case let .outlinePoints(limit):
            "a stroke's outline would have more than \(limit) points"
        case let .segments(count, limit):
            "a stroked path flattens into \(count == .max ? "more than 2^63" : "\(count)") line segments, more than the limit of \(limit)"
        }
    }
}

/// The work one stroke may ask for. `Path.strokedPath(_:tolerance:limits:)` throws a
/// `StrokeRefusal` beyond any of them; the non-throwing `strokedPath(_:tolerance:)` uses
/// `StrokeLimits.standard` and falls back as documented there.
///
/// ```swift
/// let outline = try path.strokedPath(style, tolerance: 0.02 / scale, limits: StrokeLimits(maximumDashes: 10_000))
/// ```
public struct StrokeLimits: Hashable, Sendable {
    /// The most dashes a pattern may cut the path into (default `maximumDashCount`, 2^20).
    public var maximumDashes: Int
    /// The most points the outline may have (default `maximumStrokeOutlineElements`, 2^22).
    public var maximumOutlinePoints: Int
    /// The most line segments the path may flatten into (default `maximumFlattenedSegments`,
    /// 2^24).
    public var maximumSegments: Int

    public init(maximumDashes: Int = maximumDashCount, maximumOutlinePoints: Int = maximumStrokeOutlineElements,
                maximumSegments: Int = maximumFlattenedSegments) {
        self.maximumDashes = max(0, maximumDashes)
        self.maximumOutlinePoints = max(0, maximumOutlinePoints)
        self.maximumSegments = max(0, maximumSegments)
    }

    /// The defaults.
    public static let standard = StrokeLimits()
}
