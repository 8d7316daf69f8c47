/// Which points a self-overlapping path covers.
public enum FillRule: String, Hashable, Sendable {
    /// Inside where the winding number is not zero (SwiftUI's default, `eoFill: false`).
    case nonZero
    /// Inside where the winding number is odd (`eoFill: true`).
    case evenOdd
}

/// How the rasterizer computes coverage where a path overlaps itself inside a pixel.
///
/// Coverage is the signed area of each pixel inside the path, accumulated along each row and
/// folded by the fill rule (`min(1, |area|)` for non-zero, the period-2 fold for even-odd). That
/// is exact wherever a pixel holds at most two winding numbers that differ by one: every pixel
/// crossed by a single chain of edges, every convex shape, circles, rounded rectangles, text,
/// and the same-direction overlaps of a stroke's outline. Where opposite windings meet inside a
/// pixel (a self-crossing path), the areas cancel before the fold and the pixel comes out too
/// light, up to fully wrong.
public enum CoverageQuality: String, Hashable, Sendable, CaseIterable {
    /// Exact area under both rules (the default). Paths proven single-wound (convex contours
    /// no pixel apart: circles, rounded rectangles, capsules, in any transform) are accumulated
    /// in integer cells, where that is exact; for the others, strips of rows where several
    /// chains share a pixel are found and resolved region by region. Costs more only on
    /// self-crossing paths.
    ///
    /// A stroke's outline drawn by the scene graph (`shape.stroke(…)`, an SVG stroke) is
    /// accumulated at either quality: its windings have one sign by construction, so the sum is
    /// off only in a pixel that the stroke covers partly twice (an inner join, a tight loop) and
    /// partly not at all, by at most the area covered twice (`CoverageQualityTests`). On S5's 1,000 strokes:
    /// p99.9 2 levels, 233 pixels off by more than 4, at most 67 (`bench --reference S5`;
    /// cairo: 113,604 and 129). A path filled with `Canvas.fill` is resolved as above unless the
    /// fill asks for `.fast`.
    case exact
    /// Accumulation everywhere, as Blend2D, FreeType and font-rs do: identical to `.exact` on
    /// every pixel a single chain crosses; on the self-crossing S4 a mean error of 0.64 levels
    /// under non-zero and 8.2 under even-odd (max 249; see `docs/benchmarks.md`), without the
    /// exact tier's time.
    case fast
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
