import Foundation
import SceneGraph

extension Builtins {
    /// What `p` does inside `Path { p in … }`, with SwiftUI's labels.
    static let pathOperations: [Builtin] = [
        draw("move", "to point: point") { p, b in p.move(to: b.point("point")!) },
        draw("addLine", "to point: point") { p, b in p.addLine(to: b.point("point")!) },
        draw("addLines", "_ points: points") { p, b in p.addLines(b.points("points")!) },
        draw("addQuadCurve", "to point: point, control: point") { p, b in p.addQuadCurve(to: b.point("point")!, control: b.point("control")!) },
        draw("addCurve", "to point: point, control1: point, control2: point") { p, b in
            p.addCurve(to: b.point("point")!, control1: b.point("control1")!, control2: b.point("control2")!)
        },
        draw("closeSubpath", "") { p, _ in p.closeSubpath() },
        draw("addArc", "center: point, radius: number, startAngle: angle, endAngle: angle, clockwise: bool") { p, b in
            p.addArc(center: b.point("center")!, radius: b.cg("radius")!, startAngle: b.angle("startAngle")!,
                     endAngle: b.angle("endAngle")!, clockwise: b.bool("clockwise")!)
        },
        draw("addArc", "tangent1End: point, tangent2End: point, radius: number") { p, b in
            p.addArc(tangent1End: b.point("tangent1End")!, tangent2End: b.point("tangent2End")!, radius: b.cg("radius")!)
        },
        draw("addRelativeArc", "center: point, radius: number, startAngle: angle, delta: angle") { p, b in
            p.addRelativeArc(center: b.point("center")!, radius: b.cg("radius")!, startAngle: b.angle("startAngle")!, delta: b.angle("delta")!)
        },
        draw("addRect", "_ rect: rect") { p, b in p.addRect(b.rect("rect")!) },
        draw("addEllipse", "in rect: rect") { p, b in p.addEllipse(in: b.rect("rect")!) },
        draw("addRoundedRect", "in rect: rect, cornerSize: size, style: cornerStyle?") { p, b in
            p.addRoundedRect(in: b.rect("rect")!, cornerSize: b.size("cornerSize")!, style: b.cornerStyle("style") ?? .continuous)
        },
        draw("addPath", "_ path: shape") { p, b in p.addPath(b.shape("path")!.path(in: .zero)) },
    ]

    /// A path operation, counted against the path-element limit.
    private static func draw(_ name: String, _ spec: String, _ body: @escaping @Sendable (inout Path, Bound) -> Void) -> Builtin {
        Builtin(name, spec) { b, e in
            guard case .path(let builder) = b.values["self"] else { return .invalid }
            if name == "addArc" || name == "addRelativeArc", let r = b.double("radius"), r < 0 {
                e.error(b.location("radius"), "an arc's radius must not be negative, got \(r)")
                return .invalid
            }
            body(&builder.path, b)
            if builder.path.elements.count > e.limits.maximumPathElements {
                e.error(b.call, "the path has more than \(e.limits.maximumPathElements) elements",
                        hint: "raise the limit with --max-path-elements")
                throw Evaluator.Abort()
            }
            return .void
        }
    }
}
