/// Which points a self-overlapping path covers.
public enum FillRule: String, Hashable, Sendable {
    /// Inside where the winding number is not zero (SwiftUI's default, `eoFill: false`).
    case nonZero
    /// Inside where the winding number is odd (`eoFill: true`).
    case evenOdd
}

/// A problem with geometry handed to the rasterizer.
public enum RasterError: Error, CustomStringConvertible, Equatable {
    /// A coordinate was NaN or infinite after the transform to device space.
    case nonFiniteGeometry(element: Int)
    /// The path would flatten into more line segments than `Rasterizer.maximumSegments`.
    case tooManySegments(count: Int, limit: Int)

    public var description: String {
        switch self {
        case .nonFiniteGeometry(let element):
            "path element \(element) has a non-finite coordinate (NaN or infinity) in device space; nothing was drawn"
        case let .tooManySegments(count, limit):
            "the path flattens into \(count == .max ? "more than 2^63" : "\(count)") line segments in device space, more than the limit of \(limit)"
                + " (each curve becomes up to 4,096; Rasterizer.maximumSegments sets the limit); nothing was drawn"
        }
    }
}
