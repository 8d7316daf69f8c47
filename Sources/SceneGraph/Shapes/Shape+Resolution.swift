import Foundation

/// The device resolution a shape's path is built for: the flattening tolerance in the shape's
/// own units, and the work a stroke may ask for. Lowering makes one for every shape from the
/// transform that takes the shape to device pixels, so a stroke's outline is as fine in pixels
/// at scale 3 as at scale 1 (`strokeFlatteningTolerance`, 0.02 px), and a stroke beyond the
/// renderer's limits is an error.
public struct _PathResolution: Hashable, Sendable {
    /// The largest distance, in the shape's units, between a curve and the lines it becomes.
    public var tolerance: Double
    public var limits: StrokeLimits

    public init(tolerance: Double, limits: StrokeLimits = .standard) {
        self.tolerance = tolerance
        self.limits = limits
    }

    /// For a path drawn through `transform` (shape units to device pixels), within
    /// `deviceTolerance` pixels.
    init(deviceTolerance: Double = strokeFlatteningTolerance, transform: CGAffineTransform, limits: StrokeLimits) {
        self.init(tolerance: deviceTolerance / transform.resolutionScale, limits: limits)
    }

    /// `path`'s stroke outline at this resolution, within its limits.
    func stroke(_ path: Path, _ style: StrokeStyle) throws(StrokeRefusal) -> Path {
        try path.strokedPath(style, tolerance: tolerance, limits: limits)
    }

    /// The resolution for a path that is built first and then mapped by `transform` into this
    /// resolution's units (a scaled shape's content).
    func inner(_ transform: CGAffineTransform) -> _PathResolution {
        _PathResolution(tolerance: tolerance / transform.resolutionScale, limits: limits)
    }
}

extension CGAffineTransform {
    /// How much the transform enlarges lengths at most: its largest singular value (1 for a
    /// rotation, s for a scale by s). Below 10^-9 (a collapsed transform) it counts as 10^-9,
    /// and a non-finite one as 1, so a tolerance divided by it stays finite and positive.
    var resolutionScale: Double {
        let e = Double(a * a + b * b + c * c + d * d)
        let det = Double(a * d - b * c)
        let s = ((e + (max(0, e * e - 4 * det * det)).squareRoot()) / 2).squareRoot()
        guard s.isFinite else { return 1 }
        return max(s, 1e-9)
    }
}

/// A shape whose path depends on the resolution it is drawn at: a stroke (its outline is
/// flattened), and the shapes that wrap another one (they pass the resolution on). Other
/// shapes' paths are the same at any resolution (the rasterizer flattens them in device space).
public protocol _ResolutionDependentShape: Shape {
    func _path(in rect: CGRect, resolution: _PathResolution) throws(StrokeRefusal) -> Path
}

extension Shape {
    /// The path at `resolution` (nil: the shape's own `path(in:)`, for scale 1).
    public func _resolvedPath(in rect: CGRect, resolution: _PathResolution?) throws(StrokeRefusal) -> Path {
        if let resolution, let dependent = self as? any _ResolutionDependentShape {
            return try dependent._path(in: rect, resolution: resolution)
        }
        return path(in: rect)
    }

    /// `_resolvedPath(in:resolution:)` as a function with its cast made once, for a shape asked
    /// on every frame (`ShapeGeometry`): a dynamic cast is about 600 instructions.
    func resolvedPathFunction() -> @Sendable (CGRect, _PathResolution?) throws(StrokeRefusal) -> Path {
        guard let dependent = self as? any _ResolutionDependentShape else { return { rect, _ in path(in: rect) } }
        return { rect, resolution throws(StrokeRefusal) in
            guard let resolution else { return path(in: rect) }
            return try dependent._path(in: rect, resolution: resolution)
        }
    }
}

extension _StrokedShape: _ResolutionDependentShape {
    public func _path(in rect: CGRect, resolution: _PathResolution) throws(StrokeRefusal) -> Path {
        let (path, style) = try _strokeParts(in: rect, resolution: resolution)
        return try resolution.stroke(path, style)
    }
}

/// A stroke split in two: the path to stroke (the stroked shape's own, at the resolution) and
/// the style; `_path(in:resolution:)` is `path.strokedPath(style, tolerance:limits:)` of them.
/// Lowering asks for the parts of many strokes in order and strokes them on several threads.
protocol _StrokeParts: Shape {
    func _strokeParts(in rect: CGRect, resolution: _PathResolution) throws(StrokeRefusal) -> (Path, StrokeStyle)
}

extension _StrokedShape: _StrokeParts {
    func _strokeParts(in rect: CGRect, resolution: _PathResolution) throws(StrokeRefusal) -> (Path, StrokeStyle) {
        (try shape._resolvedPath(in: rect, resolution: resolution), style)
    }
}

extension OffsetShape: _ResolutionDependentShape {
    public func _path(in rect: CGRect, resolution: _PathResolution) throws(StrokeRefusal) -> Path {
        try shape._resolvedPath(in: rect, resolution: resolution).offsetBy(dx: offset.width, dy: offset.height)
    }
}

extension ScaledShape: _ResolutionDependentShape {
    public func _path(in rect: CGRect, resolution: _PathResolution) throws(StrokeRefusal) -> Path {
        let t = transform(in: rect)
        return try shape._resolvedPath(in: rect, resolution: resolution.inner(t)).applying(t)
    }
}

extension RotatedShape: _ResolutionDependentShape {
    public func _path(in rect: CGRect, resolution: _PathResolution) throws(StrokeRefusal) -> Path {
        try shape._resolvedPath(in: rect, resolution: resolution).applying(transform(in: rect))
    }
}

extension TransformedShape: _ResolutionDependentShape {
    public func _path(in rect: CGRect, resolution: _PathResolution) throws(StrokeRefusal) -> Path {
        try shape._resolvedPath(in: rect, resolution: resolution.inner(transform)).applying(transform)
    }
}

extension _SizedShape: _ResolutionDependentShape {
    public func _path(in rect: CGRect, resolution: _PathResolution) throws(StrokeRefusal) -> Path {
        try shape._resolvedPath(in: CGRect(origin: rect.origin, size: size), resolution: resolution)
    }
}

extension _TrimmedShape: _ResolutionDependentShape {
    public func _path(in rect: CGRect, resolution: _PathResolution) throws(StrokeRefusal) -> Path {
        try shape._resolvedPath(in: rect, resolution: resolution).trimmedPath(from: startFraction, to: endFraction)
    }
}

extension _BooleanShape: _ResolutionDependentShape {
    public func _path(in rect: CGRect, resolution: _PathResolution) throws(StrokeRefusal) -> Path {
        combine(try first._resolvedPath(in: rect, resolution: resolution), try second._resolvedPath(in: rect, resolution: resolution))
    }
}
