import Foundation

/// A stroke to draw, kept as what makes its outline rather than as the outline: the centre
/// line (`path`, in its own units), the style, the flattening tolerance and the limits in those
/// units (as `Path.strokedPath(_:tolerance:limits:)` takes them), and the transform that takes
/// the outline to device space.
///
/// The rasterizer strokes it straight into its edges (`Canvas.fill(_:color:transform:opacity:)`),
/// the outline's points sent one by one as they are made, with no `Path` in between: a stroke's
/// outline holds about twice its centre line's flattened points, 56 bytes each as path
/// elements, and was built, kept and read again. `outline()` is the same outline as a path.
///
/// ```swift
/// let stroke = PathStroke(path: curve, style: StrokeStyle(lineWidth: 4), tolerance: 0.02,
///                         transform: CGAffineTransform(scaleX: 2, y: 2))
/// let outline = try stroke.outline()   // curve.strokedPath(…).applying(transform)
/// ```
public struct PathStroke: Hashable, Sendable {
    /// The centre line, in its own units.
    public var path: Path
    public var style: StrokeStyle
    /// How far the outline may stray from the true offset curve, in the path's units.
    public var tolerance: Double
    public var limits: StrokeLimits
    /// From the path's units to device space.
    public var transform: CGAffineTransform

    public init(path: Path, style: StrokeStyle, tolerance: Double = strokeFlatteningTolerance, limits: StrokeLimits = .standard,
                transform: CGAffineTransform = .identity) {
        self.path = path
        self.style = style
        self.tolerance = tolerance
        self.limits = limits
        self.transform = transform
    }

    /// The outline in device space: `path.strokedPath(style, tolerance:limits:)` mapped by
    /// `transform`.
    public func outline() throws(StrokeRefusal) -> Path {
        try path.strokedPath(style, tolerance: tolerance, limits: limits).applying(transform)
    }

    /// Whether the rasterizer strokes it straight into its edges: no dashes, and within its
    /// limits by bounds known without stroking (`outline()` then cannot throw). Others are
    /// outlined as paths first.
    public var isStreamable: Bool { streamBounds != nil }

    /// Bounds on what stroking makes, known without stroking; nil where it might be refused
    /// or dashed (those strokes are outlined as paths first, so that a refusal comes before
    /// anything is drawn).
    ///
    /// With s flattened segments (`Path.flattenedSegmentCount`, which the adaptive steps never
    /// exceed) in m subpaths, a subpath has at most s + 1 points. `Stroker` charges its budget
    /// 2 per point and 8 per subpath, plus each arc's steps, and sends at most 6 points per
    /// vertex (an inner side through the vertex, 3; a miter, 3) besides the arcs. An arc (a
    /// round join, cap or dot) sweeps at most a full turn: at most a = ⌈2π / step⌉ + 1 steps
    /// (`StrokePen.arcStep`). So the budget takes at most (s + m)·(2 + a) + m·(8 + 2a), and
    /// the outline has at most (s + m)·(6 + a) + m·(8 + 2a) points: the rasterizer's segments.
    var streamBounds: (budget: Int, points: Int)? {
        guard style.validDashPattern == nil else { return nil }
        let width = Double(style.lineWidth)
        guard width > 0, width.isFinite, tolerance > 0, tolerance.isFinite else { return nil }
        let segments = path.flattenedSegmentCount(tolerance: tolerance)
        guard segments <= limits.maximumSegments else { return nil }
        let subpaths = subpathCount
        let halfWidth = width / 2
        let step = halfWidth <= tolerance ? Double.pi / 2 : min(.pi / 2, 2 * acos(1 - tolerance / halfWidth))
        let steps = (2 * .pi / step).rounded(.up) + 1
        let s = Double(segments), m = Double(subpaths)
        let budget = (s + m) * (2 + steps) + m * (8 + 2 * steps)
        let points = (s + m) * (6 + steps) + m * (8 + 2 * steps)
        guard budget.isFinite, budget <= Double(limits.maximumOutlinePoints), points < 0x1p62 else { return nil }
        return (Int(budget), Int(points))
    }

    /// Moves in the path, plus one (a path may draw before its first move only by its first
    /// element; counting one more is safe).
    var subpathCount: Int {
        var n = 1
        for case .move in path.elements { n += 1 }
        return n
    }

    /// Sends the outline to `out` in the path's units (before `transform`), point by point in
    /// the order `outline()` holds them: each contour a move, its lines and a close. Only for
    /// strokes with `streamBounds`, whose budget cannot run out.
    func send<Out: PolylineSink>(into out: Out) -> Out {
        let stroker = Stroker(halfWidth: Double(style.lineWidth) / 2, style: style, tolerance: tolerance,
                              budget: .init(remaining: limits.maximumOutlinePoints))
        return path.strokeUndashed(stroker, into: out).0
    }
}
