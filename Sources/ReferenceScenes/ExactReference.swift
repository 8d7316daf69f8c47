import Compositor
import Foundation

/// What a reference scene should look like, computed without the engine's rasterizer: each
/// path flattened at 0.001 px, its coverage integrated over 256 sample rows per pixel row
/// (along each row the inside intervals are exact, so each pixel gets the exact length of its
/// part) under its fill rule, and everything composited in floating point (premultiplied,
/// source-over, groups as float layers). The result is the truth the engine's coverage is
/// measured against (`bench --reference`), to within half a sample row for a nearly
/// horizontal edge (1/512 px, half an 8-bit level) and 0.001 px of flattening.
///
/// (A plain grid of 32 × 32 samples was tried first: it puts a vertical edge up to 1/64 px off,
/// 4 levels, which is more than the engine's own error.)
///
/// Strokes are outlined by the engine's stroker at 0.001 px and that outline filled exactly:
/// the reference judges rasterization, not the stroker's geometry.
public struct ExactReference {
    public let width: Int
    public let height: Int
    /// Premultiplied red, green, blue, alpha per pixel, row by row, in 0…1.
    public private(set) var pixels: [SIMD4<Double>]

    /// Sample rows per pixel row: along each, the inside of the path is found exactly (its
    /// crossings), so only the vertical position of a nearly horizontal edge is quantised, to
    /// half a sample row (1/512 px, half an 8-bit level).
    public static let subRows = 256
    /// The flattening tolerance of the reference's paths, in pixels.
    public static let tolerance = 0.001

    /// `scene` on opaque white.
    public init(_ scene: ReferenceScene) {
        width = scene.width
        height = scene.height
        pixels = Array(repeating: SIMD4(1, 1, 1, 1), count: width * height)
        Self.draw(scene.ops, into: &pixels, width: width, height: height)
    }

    /// The pixel at (`x`, `y`) as 8-bit premultiplied channels, rounded to nearest.
    public func pixel(x: Int, y: Int) -> RGBA8 {
        let p = pixels[y * width + x]
        func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, (v * 255).rounded()))) }
        return RGBA8(byte(p.x), byte(p.y), byte(p.z), byte(p.w))
    }

    private static func draw(_ ops: [SceneOp], into target: inout [SIMD4<Double>], width: Int, height: Int) {
        for op in ops {
            switch op {
            case let .fill(path, color, rule):
                let paint = premultiplied(color)
                cover(path, rule: rule, width: width, height: height) { i, _, _, c in
                    target[i] = paint * c + target[i] * (1 - paint.w * c)
                }
            case let .stroke(path, style, color):
                let paint = premultiplied(color)
                cover(path.strokedPath(style, tolerance: tolerance), rule: .nonZero, width: width, height: height) { i, _, _, c in
                    target[i] = paint * c + target[i] * (1 - paint.w * c)
                }
            case let .linearGradient(path, gradient, start, end):
                let stops = gradient.stops.map { (location: $0.location, color: premultiplied($0.color)) }
                let dx = end.x - start.x, dy = end.y - start.y, length2 = dx * dx + dy * dy
                cover(path, rule: .nonZero, width: width, height: height) { i, x, y, c in
                    // The gradient at the pixel's centre, padded past its ends.
                    let t = length2 > 0 ? ((Double(x) + 0.5 - start.x) * dx + (Double(y) + 0.5 - start.y) * dy) / length2 : 0
                    let paint = colorAt(t, stops)
                    target[i] = paint * c + target[i] * (1 - paint.w * c)
                }
            case let .group(opacity, children):
                var layer = Array(repeating: SIMD4<Double>(0, 0, 0, 0), count: width * height)
                draw(children, into: &layer, width: width, height: height)
                for i in target.indices {
                    let s = layer[i] * opacity
                    target[i] = s + target[i] * (1 - s.w)
                }
            }
        }
    }

    private static func premultiplied(_ c: Color) -> SIMD4<Double> {
        SIMD4(c.red * c.alpha, c.green * c.alpha, c.blue * c.alpha, c.alpha)
    }

    private static func colorAt(_ t: Double, _ stops: [(location: Double, color: SIMD4<Double>)]) -> SIMD4<Double> {
        guard let first = stops.first, let last = stops.last else { return .zero }
        if t <= first.location { return first.color }
        if t >= last.location { return last.color }
        for k in 1..<stops.count where t <= stops[k].location {
            let a = stops[k - 1], b = stops[k]
            let f = b.location > a.location ? (t - a.location) / (b.location - a.location) : 1
            return a.color + (b.color - a.color) * f
        }
        return last.color
    }

    /// Calls `body(index, x, y, coverage)` for every pixel `path` covers, coverage in (0, 1]:
    /// the share of the pixel's area inside the path under `rule` (see the type's description).
    public static func cover(_ path: Path, rule: FillRule, width: Int, height: Int, _ body: (Int, Int, Int, Double) -> Void) {
        // The polygon's edges (non-horizontal), by their top.
        struct Edge { var x0, y0, x1, y1: Double; var winding: Int }
        var edges: [Edge] = []
        var start = (0.0, 0.0), last = (0.0, 0.0)
        func add(_ a: (Double, Double), _ b: (Double, Double)) {
            guard a.1 != b.1 else { return }
            edges.append(a.1 < b.1 ? Edge(x0: a.0, y0: a.1, x1: b.0, y1: b.1, winding: 1) : Edge(x0: b.0, y0: b.1, x1: a.0, y1: a.1, winding: -1))
        }
        var open = false
        for element in path.flattened(transform: .identity, tolerance: tolerance).elements {
            switch element {
            case .move(let p):
                if open { add(last, start) }
                start = (p.x, p.y); last = start; open = true
            case .line(let p):
                add(last, (p.x, p.y)); last = (p.x, p.y)
            case .closeSubpath:
                if open { add(last, start) }
                last = start; open = false
            case .quadCurve, .curve:
                break  // flattened: none left
            }
        }
        if open { add(last, start) }
        edges.sort { $0.y0 < $1.y0 }
        var covered = [Double](repeating: 0, count: width)
        var active: [Int] = []
        var crossings: [(x: Double, winding: Int)] = []
        var next = 0
        let rows = subRows
        for y in 0..<height {
            let top = Double(y), bottom = Double(y + 1)
            while next < edges.count, edges[next].y0 < bottom {
                active.append(next)
                next += 1
            }
            active.removeAll { edges[$0].y1 <= top }
            guard !active.isEmpty else { continue }
            var minX = width, maxX = -1
            for j in 0..<rows {
                let sy = top + (Double(j) + 0.5) / Double(rows)
                crossings.removeAll(keepingCapacity: true)
                for e in active {
                    let edge = edges[e]
                    // Half-open in y: a vertex shared by two edges counts once.
                    guard edge.y0 <= sy, sy < edge.y1 else { continue }
                    let x = edge.x0 + (sy - edge.y0) * (edge.x1 - edge.x0) / (edge.y1 - edge.y0)
                    crossings.append((x, edge.winding))
                }
                guard crossings.count >= 2 else { continue }
                crossings.sort { $0.x < $1.x }
                var w = 0
                for k in 0..<(crossings.count - 1) {
                    w += crossings[k].winding
                    let inside = rule == .evenOdd ? w & 1 != 0 : w != 0
                    guard inside else { continue }
                    // The span [a, b) of this sub-row is inside: each pixel gets the exact
                    // length of its part.
                    let a = max(0, crossings[k].x), b = min(Double(width), crossings[k + 1].x)
                    guard a < b else { continue }
                    let p0 = Int(a), p1 = min(width - 1, Int(b.rounded(.up)) - 1)
                    minX = min(minX, p0); maxX = max(maxX, p1)
                    if p0 == p1 {
                        covered[p0] += b - a
                    } else {
                        covered[p0] += Double(p0 + 1) - a
                        if p0 + 1 < p1 { for p in (p0 + 1)..<p1 { covered[p] += 1 } }
                        covered[p1] += b - Double(p1)
                    }
                }
            }
            guard minX <= maxX else { continue }
            for x in minX...maxX where covered[x] > 0 {
                body(y * width + x, x, y, min(1, covered[x] / Double(rows)))
                covered[x] = 0
            }
        }
    }
}

extension ExactReference {
    /// The scene composited by the engine's own 8-bit arithmetic (pixman's, through
    /// `Canvas.fill(masks:with:)` and `Surface.composite`) from exact coverage: each path's
    /// coverage counted as `ExactReference` counts it and rounded to an 8-bit mask. Against
    /// this, a render differs only by its coverage; against `ExactReference` itself, also by
    /// the rounding of every 8-bit composite (which grows where many translucent shapes overlap).
    public static func compositedFromExactCoverage(_ scene: ReferenceScene) throws -> Surface {
        let surface = try Surface(width: scene.width, height: scene.height)
        surface.fill(.white)
        try composite(scene.ops, onto: surface)
        return surface
    }

    private static func composite(_ ops: [SceneOp], onto surface: Surface) throws {
        let canvas = Canvas(surface)
        for op in ops {
            switch op {
            case let .fill(path, color, rule):
                if let mask = try mask(path, rule, surface) { try canvas.fill(masks: [mask], with: .color(color)) }
            case let .stroke(path, style, color):
                if let mask = try mask(path.strokedPath(style, tolerance: tolerance), .nonZero, surface) {
                    try canvas.fill(masks: [mask], with: .color(color))
                }
            case let .linearGradient(path, gradient, start, end):
                if let mask = try mask(path, .nonZero, surface) {
                    try canvas.fill(masks: [mask], with: .linearGradient(gradient, start: start, end: end))
                }
            case let .group(opacity, children):
                let layer = try Surface(width: surface.width, height: surface.height)
                try composite(children, onto: layer)
                try surface.composite(layer, opacity: opacity)
            }
        }
    }

    /// `path`'s exact coverage rounded to 8 bits, in an A8 mask over the pixels of its bounds.
    private static func mask(_ path: Path, _ rule: FillRule, _ surface: Surface) throws -> (mask: Surface, x: Int, y: Int)? {
        let box = path.boundingRect
        let x0 = max(0, Int(box.minX.rounded(.down)) - 1), y0 = max(0, Int(box.minY.rounded(.down)) - 1)
        let x1 = min(surface.width, Int(box.maxX.rounded(.up)) + 1), y1 = min(surface.height, Int(box.maxY.rounded(.up)) + 1)
        guard x0 < x1, y0 < y1 else { return nil }
        let mask = try Surface(width: x1 - x0, height: y1 - y0, format: .a8)
        let moved = path.applying(CGAffineTransform(translationX: Double(-x0), y: Double(-y0)))
        mask.withUnsafeMutableBytes { bytes in
            cover(moved, rule: rule, width: x1 - x0, height: y1 - y0) { _, x, y, c in
                bytes[y * mask.stride + x] = UInt8((c * 255).rounded())
            }
        }
        return (mask, x0, y0)
    }
}
