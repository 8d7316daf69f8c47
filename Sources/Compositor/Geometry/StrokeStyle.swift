import Foundation

#if !canImport(CoreGraphics)
/// How the ends of open subpaths are drawn (Core Graphics' `CGLineCap`).
public enum CGLineCap: Int32, Hashable, Sendable {
    case butt, round, square
}

/// How connected segments meet (Core Graphics' `CGLineJoin`).
public enum CGLineJoin: Int32, Hashable, Sendable {
    case miter, round, bevel
}
#endif

/// The characteristics of a stroke, as SwiftUI's `StrokeStyle`, with its defaults: width 1, butt
/// caps, miter joins, miter limit 10, no dash.
///
/// ```swift
/// let style = StrokeStyle(lineWidth: 4, lineCap: .round, dash: [8, 4])
/// let outline = path.strokedPath(style)
/// ```
public struct StrokeStyle: Hashable, Sendable {
    public var lineWidth: CGFloat
    public var lineCap: CGLineCap
    public var lineJoin: CGLineJoin
    /// A miter join becomes a bevel when its length exceeds `miterLimit` × `lineWidth`, i.e.
    /// when 1 / sin(φ/2) > miterLimit for the angle φ between the segments.
    public var miterLimit: CGFloat
    /// Lengths of alternating painted and unpainted stretches; an odd count is repeated once
    /// (Core Graphics' rule). Empty, or any negative or all-zero pattern, means a solid line.
    public var dash: [CGFloat]
    /// How far into the pattern the first subpath starts.
    public var dashPhase: CGFloat

    public init(lineWidth: CGFloat = 1, lineCap: CGLineCap = .butt, lineJoin: CGLineJoin = .miter,
                miterLimit: CGFloat = 10, dash: [CGFloat] = [], dashPhase: CGFloat = 0) {
        self.lineWidth = lineWidth
        self.lineCap = lineCap
        self.lineJoin = lineJoin
        self.miterLimit = miterLimit
        self.dash = dash
        self.dashPhase = dashPhase
    }
}
