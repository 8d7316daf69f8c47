import Foundation

/// Whether flattened contours give every pixel the winding numbers 0 and 1 only (or 0 and −1),
/// which is what accumulation alone needs to be exact (`Rasterizer`): every contour simple (no
/// two of its edges meet but neighbours at their shared vertex), and no pixel touched by two
/// contours (`ContourShapeCheck.pixelBox`). A contour of fewer than three distinct vertices (a
/// point, or a spike out and back) covers nothing and is left out. Conservative: edges that
/// only touch, or a polygon that folds straight back along an edge, fail.
///
/// For the raster fuzz target's check of the convex shortcut (`Path._convexShortcutHolds`),
/// whose claim is this property, not convexity: `ContourShapeCheck` asks for convex polygons
/// because that is cheap to check on the fly, while a shortcut's flattened polygon may be
/// dented (`Path.flattenedSegmentCountAndShape`). A sweep over edges sorted by their top:
/// O(n log n) plus the pairs whose vertical extents overlap.
struct SingleWoundCheck {
    private var contours: [[SIMD2<Double>]] = []

    init() {}

    mutating func move(_ x: Double, _ y: Double) { contours.append([SIMD2(x, y)]) }

    mutating func line(_ x: Double, _ y: Double) {
        if contours.isEmpty { contours.append([]) }
        contours[contours.count - 1].append(SIMD2(x, y))
    }

    /// The verdict for the contours so far.
    var singleWound: Bool {
        var boxes: [ContourShapeCheck.Box] = []
        for contour in contours {
            let points = Self.distinctVertices(contour)
            // A point or a spike covers nothing, and shares no pixel with anything.
            guard points.count >= 3 else { continue }
            guard Self.isSimple(points) else { return false }
            let xs = points.map(\.x), ys = points.map(\.y)
            let box = ContourShapeCheck.pixelBox(xs.min()!, ys.min()!, xs.max()!, ys.max()!)
            guard !boxes.contains(where: { ContourShapeCheck.overlap($0, box) }) else { return false }
            boxes.append(box)
        }
        return true
    }

    /// The contour's vertices without repeats in a row (nor a last equal to the first).
    static func distinctVertices(_ contour: [SIMD2<Double>]) -> [SIMD2<Double>] {
        var points: [SIMD2<Double>] = []
        for p in contour where points.last != p { points.append(p) }
        while points.count > 1, points.last == points.first { points.removeLast() }
        return points
    }

    /// Whether the closed polygon through `points` (distinct neighbours) is simple. Fewer
    /// than three vertices: a point or a spike, which counts as simple.
    static func isSimple(_ points: [SIMD2<Double>]) -> Bool {
        let n = points.count
        guard n >= 3 else { return true }
        @inline(__always) func orient(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>) -> Double {
            (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
        }
        @inline(__always) func within(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>) -> Bool {
            min(a.x, b.x) <= c.x && c.x <= max(a.x, b.x) && min(a.y, b.y) <= c.y && c.y <= max(a.y, b.y)
        }
        /// Whether segments ab and cd share a point.
        func meet(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>, _ d: SIMD2<Double>) -> Bool {
            let d1 = orient(c, d, a), d2 = orient(c, d, b), d3 = orient(a, b, c), d4 = orient(a, b, d)
            if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) { return true }
            return (d1 == 0 && within(c, d, a)) || (d2 == 0 && within(c, d, b))
                || (d3 == 0 && within(a, b, c)) || (d4 == 0 && within(a, b, d))
        }
        // Neighbouring edges share a vertex; they meet elsewhere only by folding back.
        for i in 0..<n {
            let a = points[i], b = points[(i + 1) % n], c = points[(i + 2) % n]
            if orient(a, b, c) == 0 && ((b - a) * (c - b)).sum() < 0 { return false }
        }
        // Edge i runs from vertex i to i + 1; sorted by top, each is tested against those
        // starting above its bottom.
        let order = (0..<n).sorted { min(points[$0].y, points[($0 + 1) % n].y) < min(points[$1].y, points[($1 + 1) % n].y) }
        for (k, i) in order.enumerated() {
            let a = points[i], b = points[(i + 1) % n]
            let bottom = max(a.y, b.y)
            for j in order[(k + 1)...] {
                let c = points[j], d = points[(j + 1) % n]
                if min(c.y, d.y) > bottom { break }
                let gap = (j - i + n) % n
                if gap == 1 || gap == n - 1 { continue }
                if meet(a, b, c, d) { return false }
            }
        }
        return true
    }
}
