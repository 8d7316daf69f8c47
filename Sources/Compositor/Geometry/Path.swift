import Foundation

/// The outline of a 2D shape, as SwiftUI's `Path`: a value type made of subpaths of lines and
/// Bézier curves.
///
/// Building follows Core Graphics' rules: `move(to:)` starts a subpath, a segment added without a
/// current point is ignored, and drawing after `closeSubpath()` starts a new subpath at the
/// closed one's start.
///
/// ```swift
/// let triangle = Path { p in
///     p.move(to: CGPoint(x: 50, y: 0))
///     p.addLine(to: CGPoint(x: 100, y: 100))
///     p.addLine(to: CGPoint(x: 0, y: 100))
///     p.closeSubpath()
/// }
/// ```
public struct Path: Hashable, Sendable {
    /// One element of a path, named as in SwiftUI.
    public enum Element: Hashable, Sendable {
        case move(to: CGPoint)
        case line(to: CGPoint)
        case quadCurve(to: CGPoint, control: CGPoint)
        case curve(to: CGPoint, control1: CGPoint, control2: CGPoint)
        case closeSubpath
    }

    public private(set) var elements: [Element] = []
    /// Start of the current subpath (where `closeSubpath` returns to).
    private var subpathStart: CGPoint?
    /// Whether the last element closed a subpath (the next segment must re-open it).
    private var needsMove = false
    /// The segments of a path of lines only (a stroke's outline, a polygon): one per move (its
    /// subpath's closing line) and one per line, so `flattenedSegmentCount` need not read it;
    /// −1 once it has a curve (or more than `Int32.max` of them). Derived from the elements:
    /// not compared or hashed. (32 bits, after `needsMove`: it takes padding, and the path is
    /// no larger to copy.)
    private(set) var lineSegmentCount: Int32 = 0
    private var current: CGPoint?

    public init() {}

    public init(_ build: (inout Path) -> Void) {
        self.init()
        build(&self)
    }

    public init(_ rect: CGRect) {
        self.init()
        addRect(rect)
    }

    public init(ellipseIn rect: CGRect) {
        self.init()
        addEllipse(in: rect)
    }

    public init(roundedRect rect: CGRect, cornerSize: CGSize, style: RoundedCornerStyle = .continuous) {
        self.init()
        addRoundedRect(in: rect, cornerSize: cornerSize, style: style)
    }

    public init(roundedRect rect: CGRect, cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) {
        self.init(roundedRect: rect, cornerSize: CGSize(width: cornerRadius, height: cornerRadius), style: style)
    }

    public static func == (lhs: Path, rhs: Path) -> Bool { lhs.elements == rhs.elements }
    /// Paths that draw the same hash the same (the building state is not hashed).
    public func hash(into hasher: inout Hasher) { hasher.combine(elements) }

    // MARK: - Inspecting

    /// `true` when the path has no elements.
    public var isEmpty: Bool { elements.isEmpty }

    /// The point the next segment starts from, or `nil` for an empty path.
    public var currentPoint: CGPoint? { current }

    /// Calls `body` with each element in order.
    public func forEach(_ body: (Element) -> Void) {
        for element in elements { body(element) }
    }

    // MARK: - Building

    public mutating func move(to point: CGPoint) {
        elements.append(.move(to: point))
        countLineSegment()
        subpathStart = point
        current = point
        needsMove = false
    }

    private mutating func countLineSegment() { countLineSegments(1) }

    private mutating func countLineSegments(_ n: Int) {
        let total = Int(lineSegmentCount) + n
        lineSegmentCount = lineSegmentCount >= 0 && total <= Int(Int32.max) ? Int32(total) : -1
    }

    /// Returns the start of the segment about to be added, re-opening a closed subpath if needed;
    /// `nil` means there is no current point and the segment is ignored (Core Graphics' rule).
    private mutating func segmentStart() -> CGPoint? {
        guard let point = current else { return nil }
        if needsMove { move(to: point) }
        return point
    }

    public mutating func addLine(to point: CGPoint) {
        guard segmentStart() != nil else { return }
        elements.append(.line(to: point))
        countLineSegment()
        current = point
    }

    public mutating func addQuadCurve(to point: CGPoint, control: CGPoint) {
        guard segmentStart() != nil else { return }
        elements.append(.quadCurve(to: point, control: control))
        lineSegmentCount = -1
        current = point
    }

    public mutating func addCurve(to point: CGPoint, control1: CGPoint, control2: CGPoint) {
        guard segmentStart() != nil else { return }
        elements.append(.curve(to: point, control1: control1, control2: control2))
        lineSegmentCount = -1
        current = point
    }

    public mutating func closeSubpath() {
        guard current != nil, !needsMove else { return }
        elements.append(.closeSubpath)
        current = subpathStart
        needsMove = true
    }

    /// Starts a subpath at `points[0]` and adds lines through the rest.
    public mutating func addLines(_ points: [CGPoint]) {
        guard let first = points.first else { return }
        // Room for them all at once, and the close that usually follows (a stroke's outline is
        // thousands of points: growing by doubling copied the elements again and again).
        reserveRoom(for: points.count + 1)
        move(to: first)
        continueLines(points.dropFirst())
    }

    /// `addLine` to each of `points` in order, its bookkeeping done once. Requires a current
    /// point, as after `move(to:)`. (A plain loop of appends into reserved room: filling
    /// placeholders first, or copying from a scratch buffer, cost as much or more.)
    mutating func continueLines<C: BidirectionalCollection<CGPoint>>(_ points: C) {
        guard let last = points.last, segmentStart() != nil else { return }
        reserveRoom(for: points.count)
        for p in points { elements.append(.line(to: p)) }
        current = last
        countLineSegments(points.count)
    }

    /// `addLine(to:)` where a subpath is known to be open (after `move(to:)`, before
    /// `closeSubpath`): the stroker's outlines, point after point.
    @inline(__always)
    mutating func continueLine(to point: CGPoint) {
        elements.append(.line(to: point))
        countLineSegment()
        current = point
    }

    /// Makes room for `count` more elements at once, still doubling the capacity when it grows
    /// so that many small calls stay linear. A shape's builder calls it with its element count:
    /// appending one by one reallocated a circle's array four times.
    mutating func reserveRoom(for count: Int) {
        let needed = elements.count + count
        if needed > elements.capacity { elements.reserveCapacity(max(needed, 2 * elements.capacity)) }
    }

    /// Appends another path's elements, transformed.
    public mutating func addPath(_ path: Path, transform: CGAffineTransform = .identity) {
        for element in path.applying(transform).elements { append(element) }
    }

    /// Appends one element through the building API, so the bookkeeping stays right.
    mutating func append(_ element: Element) {
        switch element {
        case .move(let p): move(to: p)
        case .line(let p): addLine(to: p)
        case .quadCurve(let p, let c): addQuadCurve(to: p, control: c)
        case .curve(let p, let c1, let c2): addCurve(to: p, control1: c1, control2: c2)
        case .closeSubpath: closeSubpath()
        }
    }

    // MARK: - Transforming

    /// The path with every point transformed. Affine maps keep Bézier curves Bézier curves, so
    /// this is exact.
    public func applying(_ transform: CGAffineTransform) -> Path {
        if transform.isIdentity { return self }
        var out = Path()
        out.elements.reserveCapacity(elements.count)
        for element in elements {
            switch element {
            case .move(let p): out.move(to: p.applying(transform))
            case .line(let p): out.addLine(to: p.applying(transform))
            case .quadCurve(let p, let c):
                out.addQuadCurve(to: p.applying(transform), control: c.applying(transform))
            case .curve(let p, let c1, let c2):
                out.addCurve(to: p.applying(transform), control1: c1.applying(transform),
                             control2: c2.applying(transform))
            case .closeSubpath: out.closeSubpath()
            }
        }
        return out
    }

    public func offsetBy(dx: CGFloat, dy: CGFloat) -> Path {
        applying(CGAffineTransform(translationX: dx, y: dy))
    }
}

/// How the corners of a rounded rectangle are shaped (SwiftUI's `RoundedCornerStyle`).
public enum RoundedCornerStyle: Hashable, Sendable {
    /// Quarter circles.
    case circular
    /// Curvature-continuous corners, as iOS draws them (see `Path+RoundedRect.swift`).
    case continuous
}
