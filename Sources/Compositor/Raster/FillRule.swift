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

    public var description: String {
        switch self {
        case .nonFiniteGeometry(let element):
            "path element \(element) has a non-finite coordinate (NaN or infinity) in device space; nothing was drawn"
        }
    }
}
