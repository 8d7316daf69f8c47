import Foundation

extension StrokeStyle {
    /// The dash pattern with an odd count repeated; nil for a solid line.
    var validDashPattern: [Double]? {
        let values = dash.map(Double.init)
        guard !values.isEmpty, values.allSatisfy({ $0 >= 0 && $0.isFinite }), values.contains(where: { $0 > 0 }) else {
            return nil
        }
        return values.count % 2 == 1 ? values + values : values
    }
}

/// Cuts polylines into dashes. The pattern continues across the vertices of one subpath and
/// restarts (from `phase`) on each subpath, as Core Graphics does. A pattern that would give
/// more than `limit` dashes is refused.
func dash(_ lines: [Polyline], pattern: [Double], phase: Double, limit: Int = maximumDashCount) throws(StrokeRefusal) -> [Polyline] {
    let period = pattern.reduce(0, +)
    let totalLength = lines.reduce(0.0) { sum, line in
        var length = 0.0
        let pts = line.closed ? line.points + [line.points[0]] : line.points
        for i in 1..<max(1, pts.count) { length += hypot(pts[i].x - pts[i - 1].x, pts[i].y - pts[i - 1].y) }
        return sum + length
    }
    let dashes = totalLength / period * Double(pattern.count) / 2
    guard dashes <= Double(limit) else {
        throw .dashes(count: dashes < 9e18 ? Int(dashes.rounded(.up)) : .max, limit: limit)
    }
    var out: [Polyline] = []
    for line in lines {
        // Position in the pattern after the phase.
        var index = 0
        var remaining = pattern[0]
        var on = true
        var skip = phase.truncatingRemainder(dividingBy: period)
        if skip < 0 { skip += period }
        while skip > 0 {
            if skip >= remaining {
                skip -= remaining
                index = (index + 1) % pattern.count
                remaining = pattern[index]
                on = index % 2 == 0
            } else {
                remaining -= skip
                skip = 0
            }
        }
        let pts = line.closed ? line.points + [line.points[0]] : line.points
        let isCorner = line.closed ? line.corners + [line.corners[0]] : line.corners
        var current: [CGPoint] = on ? [pts[0]] : []
        var currentCorners: [Bool] = on ? [true] : []
        func emit() {
            var deduplicated: [CGPoint] = [], flags: [Bool] = []
            for (p, c) in zip(current, currentCorners) where p != deduplicated.last { deduplicated.append(p); flags.append(c) }
            if !deduplicated.isEmpty { out.append(Polyline(points: deduplicated, corners: flags, closed: false)) }
            current = []; currentCorners = []
        }
        for i in 1..<max(1, pts.count) {
            let a = pts[i - 1], b = pts[i]
            let length = hypot(b.x - a.x, b.y - a.y)
            var along = 0.0
            while length - along >= remaining {
                along += remaining
                let t = length > 0 ? along / length : 0
                let q = CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
                if on { current.append(q); currentCorners.append(true); emit() } else { current = [q]; currentCorners = [true] }
                on.toggle()
                index = (index + 1) % pattern.count
                remaining = pattern[index]
            }
            remaining -= length - along
            if on { current.append(b); currentCorners.append(isCorner[i]) }
        }
        if on { emit() }
    }
    return out
}
