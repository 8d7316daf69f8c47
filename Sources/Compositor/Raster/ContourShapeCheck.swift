import Foundation

/// Decides, while a path is flattened, whether accumulation alone gives its exact coverage:
/// whether every pixel can hold only the winding numbers {0, 1} (or {0, −1}).
///
/// That holds for a polygon that turns one way only and changes vertical direction at most
/// twice: a convex polygon (turning one way through 4π or more needs at least four changes).
/// It holds for several such contours too when no pixel is shared by two of them (their
/// bounding boxes, rounded out to whole pixels, are disjoint). Circles, ellipses, rectangles,
/// rounded rectangles and capsules, in any affine transform, pass; self-crossing paths, holes
/// and concave outlines fail and go to the exact tier (`CoverageQuality`).
///
/// A turn is counted only where the cross product of consecutive edges exceeds 10⁻⁹ of their
/// lengths' product: collinear pieces of a straight side may then lean either way by rounding.
/// A concave corner that slight puts a double winding on an area below 10⁻⁹ px², nothing an
/// 8-bit coverage can show. Checking control polygons, an edge that goes straight back along
/// the one before (a spike) fails, and so does a contour with curves narrower than a few
/// flattening tolerances (`checksControlPolygons`).
struct ContourShapeCheck {
    /// The most contours checked against each other (pairwise box tests); more is "not simple".
    static let maximumContours = 8

    typealias Box = (minX: Double, minY: Double, maxX: Double, maxY: Double)

    private(set) var simple = true
    /// Whether control polygons are checked (`Path.flattenedSegmentCountAndShape`), which
    /// must fail wherever their curves might flatten to a polygon that does not pass:
    /// - An edge going straight back along the one before (a spike) fails. The curves such a
    ///   polygon bounds may bulge to either side of the spike, and flatten to a polygon
    ///   turning both ways (the raster fuzzer found one, squashed flat by a transform). A
    ///   flattened polygon may have spikes of its own and still be single-wound: a curve a
    ///   millionth of a pixel long, flattened to one segment and closed, is a spike.
    /// - A contour with a curve fails where it is narrower than `minimumCurvedWidth`.
    ///   Balancing moves each flattened vertex off its curve by up to ⅔ of the tolerance, so
    ///   across a width of about a tolerance, vertices of opposite sides may pass each other
    ///   and the polygon cross itself: a random search of squashed convex control polygons
    ///   found such crossings up to 0.99 tolerances wide. (The raster fuzzer's thin finds, a
    ///   blob 1.3·10⁻⁷ px by 60 px and a hairpin 0.055 px by 40 px, only dented.) The width is
    ///   bounded from below by the contour's area over its box's diagonal (a convex region
    ///   lies in a strip as wide as its width and as long as its diameter). The area at stake
    ///   is below a tolerance times the length; such a path is checked after flattening, as
    ///   any other. Contours of lines only are not moved, and not held to it.
    var checksControlPolygons = false
    /// With `checksControlPolygons`, the least width of a contour with curves (4 tolerances,
    /// set by `Path.flattenedSegmentCountAndShape`): 3 times the ⅔ + ⅔ of a tolerance that
    /// two opposite vertices may close by. Random convex control polygons squashed by random
    /// transforms flattened to polygons crossing themselves up to 1 tolerance wide, none wider.
    var minimumCurvedWidth = 0.0
    /// The first contour's box, and the others' (most paths have one contour: no array, so no
    /// allocation, for them).
    private var firstBox: Box?
    private var otherBoxes: [Box] = []
    private var startX = 0.0, startY = 0.0, lastX = 0.0, lastY = 0.0
    /// The contour's first edge, and the last (0, 0 before its first: no corner is counted).
    private var firstDX = 0.0, firstDY = 0.0, previousDX = 0.0, previousDY = 0.0
    private var turn = 0
    /// Signs of the first and last non-zero dy and dx (0: none yet), and how often each changed.
    private var firstYSign = 0, lastYSign = 0, yChanges = 0
    private var firstXSign = 0, lastXSign = 0, xChanges = 0
    private var minX = 0.0, minY = 0.0, maxX = 0.0, maxY = 0.0
    /// With `checksControlPolygons`: whether the contour has a curve (`curve()`), and twice its
    /// signed area (the shoelace sum about its start, `controlPoint`).
    private var curved = false
    private var doubleArea = 0.0

    init() {}

    /// Starts a contour at (x, y).
    @inline(__always)
    mutating func move(_ x: Double, _ y: Double) {
        startX = x; startY = y; lastX = x; lastY = y
        firstDX = 0; firstDY = 0; previousDX = 0; previousDY = 0
        turn = 0
        firstYSign = 0; lastYSign = 0; yChanges = 0
        firstXSign = 0; lastXSign = 0; xChanges = 0
        minX = x; maxX = x; minY = y; maxY = y
        curved = false; doubleArea = 0
    }

    /// Says that the contour's last points are a curve's control points and end.
    @inline(__always)
    mutating func curve() { curved = true }

    /// A control polygon's next point (`checksControlPolygons`): `line`, with the contour's area
    /// kept for the width rule. Flattened polygons go to `line` alone: their vertices, many
    /// more, need no area (kept for every vertex, it cost S5 2 M instructions a frame).
    @inline(__always)
    mutating func controlPoint(_ x: Double, _ y: Double) {
        // The shoelace term about the start, (p − s) × (q − s) = (p − s) × (q − p).
        doubleArea += (lastX - startX) * (y - lastY) - (lastY - startY) * (x - lastX)
        line(x, y)
    }

    /// An edge to (x, y).
    @inline(__always)
    mutating func line(_ x: Double, _ y: Double) {
        guard simple else { return }
        let dx = x - lastX, dy = y - lastY
        guard dx != 0 || dy != 0 else { return }
        lastX = x; lastY = y
        minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        // Against the previous edge (none before the first: its 0, 0 counts no turn).
        corner(previousDX, previousDY, dx, dy)
        if firstDX == 0 && firstDY == 0 { firstDX = dx; firstDY = dy }
        direction(dx, dy)
        previousDX = dx; previousDY = dy
    }

    /// Ends the contour with its closing edge.
    @inline(__always)
    mutating func close() {
        guard simple else { return }
        line(startX, startY)
        guard firstDX != 0 || firstDY != 0, simple else { return }
        corner(previousDX, previousDY, firstDX, firstDY)
        if firstYSign != 0, lastYSign != 0, firstYSign != lastYSign { yChanges += 1 }
        if firstXSign != 0, lastXSign != 0, firstXSign != lastXSign { xChanges += 1 }
        if yChanges > 2 || xChanges > 2 { simple = false; return }
        if checksControlPolygons, curved,
           abs(doubleArea) / 2 < minimumCurvedWidth * ((maxX - minX) * (maxX - minX) + (maxY - minY) * (maxY - minY)).squareRoot() {
            simple = false
            return
        }
        // Whole pixels this contour may touch; no other contour may touch one of them.
        let box = Self.pixelBox(minX, minY, maxX, maxY)
        @inline(__always) func overlaps(_ b: Box) -> Bool { Self.overlap(box, b) }
        guard let first = firstBox else {
            firstBox = box
            return
        }
        if overlaps(first) || otherBoxes.contains(where: overlaps) || otherBoxes.count + 1 >= Self.maximumContours {
            simple = false
            return
        }
        otherBoxes.append(box)
    }

    /// The whole pixels a contour within the box from (minX, minY) to (maxX, maxY) may touch,
    /// padded by one on every side.
    @inline(__always)
    static func pixelBox(_ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double) -> Box {
        (minX.rounded(.down) - 1, minY.rounded(.down) - 1, maxX.rounded(.up) + 1, maxY.rounded(.up) + 1)
    }

    /// Whether two of `pixelBox`'s boxes share a pixel.
    @inline(__always)
    static func overlap(_ a: Box, _ b: Box) -> Bool {
        a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY
    }

    @inline(__always)
    private mutating func corner(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) {
        let cross = ax * by - ay * bx
        let size = (abs(ax) + abs(ay)) * (abs(bx) + abs(by))
        guard abs(cross) > 1e-9 * size else {
            // Straight on, or straight back (a spike, which covers nothing): see `checksControlPolygons`.
            if checksControlPolygons && ax * bx + ay * by < 0 { simple = false }
            return
        }
        let sign = cross > 0 ? 1 : -1
        if turn == 0 { turn = sign } else if turn != sign { simple = false }
    }

    @inline(__always)
    private mutating func direction(_ dx: Double, _ dy: Double) {
        if dy != 0 {
            let s = dy > 0 ? 1 : -1
            if firstYSign == 0 { firstYSign = s } else if s != lastYSign { yChanges += 1 }
            lastYSign = s
        }
        if dx != 0 {
            let s = dx > 0 ? 1 : -1
            if firstXSign == 0 { firstXSign = s } else if s != lastXSign { xChanges += 1 }
            lastXSign = s
        }
        if yChanges > 2 || xChanges > 2 { simple = false }
    }
}
