import Compositor
import Foundation

/// One drawing operation of a reference scene, with every number already computed.
public enum SceneOp {
    case fill(Path, Color, FillRule)
    /// A stroke: the path with its style, in an opaque colour.
    case stroke(Path, StrokeStyle, Color)
    /// A path filled (non-zero) with a linear gradient from `start` to `end`, padded.
    case linearGradient(Path, Gradient, start: CGPoint, end: CGPoint)
    /// A group: children drawn into a transparent canvas-sized layer, then composited with
    /// `opacity` (A8/255).
    case group(opacity: Double, [SceneOp])
}

/// A reference scene from `SCENES.md`: a canvas size and its operations, drawn on opaque white.
public struct ReferenceScene {
    public let name: String
    public let width: Int
    public let height: Int
    public let ops: [SceneOp]
    /// The coverage quality it is drawn at (`.fast` for the `-fast` rows of the benchmark).
    public var coverageQuality = CoverageQuality.exact

    public init(name: String, width: Int, height: Int, ops: [SceneOp], coverageQuality: CoverageQuality = .exact) {
        self.name = name; self.width = width; self.height = height; self.ops = ops; self.coverageQuality = coverageQuality
    }

    /// The same scene drawn `.fast`, named with "-fast".
    public var fast: ReferenceScene {
        ReferenceScene(name: name + "-fast", width: width, height: height, ops: ops, coverageQuality: .fast)
    }
}

extension ReferenceScene {
    static func circle(_ cx: Double, _ cy: Double, _ r: Double) -> Path {
        Path(ellipseIn: CGRect(x: cx - r, y: cy - r, width: 2 * r, height: 2 * r))
    }

    /// S1a (per-leaf opacity) or S1b (group opacity): three circles of r = 96. `opaque`: the
    /// circles of S1a without any opacity ("S1-opaque", an accuracy case where every coverage
    /// error shows at full strength).
    public static func s1(group: Bool, opaque: Bool = false) -> ReferenceScene {
        let colors: [Color] = [.blue, .pink, .orange]
        let centres = [246.0, 300.0, 354.0]
        let leafAlpha: UInt8 = group || opaque ? 255 : 64
        let circles = zip(centres, colors).map { cx, c in
            SceneOp.fill(circle(cx, 180, 96), Color(rgb: rgb(c), alpha8: leafAlpha), .nonZero)
        }
        let ops = group ? [SceneOp.group(opacity: 64.0 / 255, circles)] : circles
        return ReferenceScene(name: group ? "S1b" : opaque ? "S1-opaque" : "S1a", width: 600, height: 360, ops: ops)
    }

    /// S3 with `count` shapes: alternating circles and rounded rects of radius 8.
    public static func s3(count: Int, width: Int = 1920, height: Int = 1080) -> ReferenceScene {
        var lcg = SceneLCG()
        var ops: [SceneOp] = []
        ops.reserveCapacity(count)
        for k in 0..<count {
            let x = lcg.u() * Double(width), y = lcg.u() * Double(height)
            let w = 16 + lcg.u() * 112, h = 16 + lcg.u() * 112
            let rgb = lcg.next() >> 8
            let a8 = 51 + (((lcg.next() >> 24) * 205) >> 8)
            let color = Color(rgb: rgb, alpha8: UInt8(a8))
            let path = k % 2 == 0
                ? circle(x + w / 2, y + h / 2, min(w, h) / 2)
                : Path(roundedRect: CGRect(x: x, y: y, width: w, height: h), cornerRadius: 8, style: .circular)
            ops.append(.fill(path, color, .nonZero))
        }
        let name = count == 1000 ? "S3-1k" : count == 10000 ? "S3-10k" : "S3-\(count)"
        return ReferenceScene(name: name, width: width, height: height, ops: ops)
    }

    /// S4: one closed path of 2000 random cubics on 1024², filled blue. Other `curves` counts
    /// make the scaling series (`S4-nz-500` …): the same generator, so the first curves agree.
    public static func s4(fillRule: FillRule, curves: Int = 2000) -> ReferenceScene {
        var lcg = SceneLCG()
        var path = Path()
        let x = lcg.u() * 1024, y = lcg.u() * 1024
        path.move(to: CGPoint(x: x, y: y))
        for _ in 0..<curves {
            let c1 = CGPoint(x: lcg.u() * 1024, y: lcg.u() * 1024)
            let c2 = CGPoint(x: lcg.u() * 1024, y: lcg.u() * 1024)
            let p = CGPoint(x: lcg.u() * 1024, y: lcg.u() * 1024)
            path.addCurve(to: p, control1: c1, control2: c2)
        }
        path.closeSubpath()
        let name = (fillRule == .nonZero ? "S4-nz" : "S4-eo") + (curves == 2000 ? "" : "-\(curves)")
        return ReferenceScene(name: name, width: 1024, height: 1024,
                              ops: [.fill(path, .blue, fillRule)])
    }

    /// S5: 1000 random open cubics on 1024², stroked 1…8 px wide with round caps and joins.
    public static func s5() -> ReferenceScene {
        var lcg = SceneLCG()
        var ops: [SceneOp] = []
        for _ in 0..<1000 {
            let x0 = lcg.u() * 1024, y0 = lcg.u() * 1024
            let c1 = CGPoint(x: lcg.u() * 1024, y: lcg.u() * 1024)
            let c2 = CGPoint(x: lcg.u() * 1024, y: lcg.u() * 1024)
            let p = CGPoint(x: lcg.u() * 1024, y: lcg.u() * 1024)
            let width = 1 + Double(lcg.next() >> 29)
            let rgb = lcg.next() >> 8
            var path = Path()
            path.move(to: CGPoint(x: x0, y: y0))
            path.addCurve(to: p, control1: c1, control2: c2)
            ops.append(.stroke(path, StrokeStyle(lineWidth: width, lineCap: .round, lineJoin: .round), Color(rgb: rgb)))
        }
        return ReferenceScene(name: "S5", width: 1024, height: 1024, ops: ops)
    }

    /// S2-noshadow: 72 mint capsules rotated about the centre in 5° steps (A8 230 every third,
    /// 89 otherwise), then a disc r = 165 with a vertical #333333 → #000000 gradient.
    public static func s2NoShadow() -> ReferenceScene {
        let c = CGPoint(x: 270, y: 270)
        var ops: [SceneOp] = []
        for i in 0..<72 {
            let angle = Double(i) * 5 * .pi / 180
            let t = CGAffineTransform(translationX: -c.x, y: -c.y)
                .concatenating(CGAffineTransform(rotationAngle: angle))
                .concatenating(CGAffineTransform(translationX: c.x, y: c.y))
            var capsule = Path()
            capsule.addRoundedRect(in: CGRect(x: 267, y: 39, width: 6, height: 42), cornerSize: CGSize(width: 3, height: 3),
                                   style: .circular, transform: t)
            ops.append(.fill(capsule, Color(rgb: 0x00C7BE, alpha8: i % 3 == 0 ? 230 : 89), .nonZero))
        }
        ops.append(.linearGradient(circle(270, 270, 165), Gradient(colors: [Color(rgb: 0x333333), Color(rgb: 0x000000)]),
                                   start: CGPoint(x: 270, y: 105), end: CGPoint(x: 270, y: 435)))
        return ReferenceScene(name: "S2-noshadow", width: 540, height: 540, ops: ops)
    }

    /// S6: 32 nested groups at A8 230, each holding a full-canvas opaque rect and the next group.
    public static func s6() -> ReferenceScene {
        var lcg = SceneLCG()
        let colours = (0..<32).map { _ in lcg.next() >> 8 }
        let full = Path(CGRect(x: 0, y: 0, width: 1024, height: 1024))
        var inner: [SceneOp] = []
        for k in stride(from: 31, through: 0, by: -1) {
            inner = [.group(opacity: 230.0 / 255, [.fill(full, Color(rgb: colours[k]), .nonZero)] + inner)]
        }
        return ReferenceScene(name: "S6", width: 1024, height: 1024, ops: inner)
    }

    /// S7: eight sibling groups at A8 128, each a full 1920 × 1080 opaque rect.
    public static func s7() -> ReferenceScene {
        let colours: [UInt32] = [0x007AFF, 0xFF2D55, 0xFF9500, 0x00C7BE, 0x000000, 0x34C759, 0xAF52DE, 0xFFCC00]
        let full = Path(CGRect(x: 0, y: 0, width: 1920, height: 1080))
        return ReferenceScene(name: "S7", width: 1920, height: 1080,
                              ops: colours.map { .group(opacity: 128.0 / 255, [.fill(full, Color(rgb: $0), .nonZero)]) })
    }

    private static func rgb(_ c: Color) -> UInt32 {
        UInt32((c.red * 255).rounded()) << 16 | UInt32((c.green * 255).rounded()) << 8 | UInt32((c.blue * 255).rounded())
    }
}

/// Renders reference scenes with Compositor calls, reusing its canvas and layers across frames.
public final class ReferenceRenderer {
    public let surface: Surface
    let canvas: Canvas
    private var layers: [Surface] = []

    public init(width: Int, height: Int) throws {
        surface = try Surface(width: width, height: height)
        canvas = Canvas(surface)
    }

    /// The rasterizer every frame draws with (its statistics, its thread count).
    public var rasterizer: Rasterizer { canvas.rasterizer }

    /// One frame: the white clear, then every operation.
    public func render(_ scene: ReferenceScene) throws {
        surface.fill(.white)
        canvas.rasterizer.coverageQuality = scene.coverageQuality
        try draw(scene.ops, on: canvas, depth: 0)
    }

    private func draw(_ ops: [SceneOp], on canvas: Canvas, depth: Int) throws {
        for op in ops {
            switch op {
            case let .fill(path, color, rule):
                try canvas.fill(path, with: .color(color), fillRule: rule)
            case let .stroke(path, style, color):
                // Part of the frame: building the outline, as a peer builds its path; its
                // windings have one sign, accumulated as the scene graph fills a stroke.
                try canvas.fill(path.strokedPath(style), with: .color(color), coverageQuality: .fast)
            case let .linearGradient(path, gradient, start, end):
                try canvas.fill(path, with: .linearGradient(gradient, start: start, end: end))
            case let .group(opacity, children):
                if layers.count <= depth {
                    layers.append(try Surface(width: canvas.surface.width, height: canvas.surface.height))
                }
                let layer = layers[depth]
                // A layer whose first operation covers it with an opaque colour needs no clear.
                if case let .fill(path, color, _)? = children.first, color.alpha >= 1,
                   let r = path.axisAlignedRectangle(), PixelRect(exactly: r).map({ layer.bounds.intersection($0) == layer.bounds }) == true {
                } else {
                    layer.clear()
                }
                try draw(children, on: Canvas(layer, rasterizer: canvas.rasterizer), depth: depth + 1)
                try canvas.surface.composite(layer, opacity: opacity)
            }
        }
    }
}
