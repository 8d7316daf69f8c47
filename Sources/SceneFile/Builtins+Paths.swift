import Foundation
import SceneGraph

extension Builtins {
    /// What `p` does inside `Path { p in … }`, with SwiftUI's labels.
    static let pathOperations: [Builtin] = [
        draw("move", "to point: point") { p, b in p.move(to: try b.required(b.point("point"), "point")) },
        draw("addLine", "to point: point") { p, b in p.addLine(to: try b.required(b.point("point"), "point")) },
        draw("addLines", "_ points: points") { p, b in p.addLines(try b.required(b.points("points"), "points")) },
        draw("addQuadCurve", "to point: point, control: point") { p, b in p.addQuadCurve(to: try b.required(b.point("point"), "point"), control: try b.required(b.point("control"), "control")) },
        draw("addCurve", "to point: point, control1: point, control2: point") { p, b in
            p.addCurve(to: try b.required(b.point("point"), "point"), control1: try b.required(b.point("control1"), "control1"), control2: try b.required(b.point("control2"), "control2"))
        },
        draw("closeSubpath", "") { p, _ in p.closeSubpath() },
        draw("addArc", "center: point, radius: number, startAngle: angle, endAngle: angle, clockwise: bool") { p, b in
            p.addArc(center: try b.required(b.point("center"), "center"), radius: try b.required(b.cg("radius"), "radius"), startAngle: try b.required(b.angle("startAngle"), "startAngle"),
                     endAngle: try b.required(b.angle("endAngle"), "endAngle"), clockwise: try b.required(b.bool("clockwise"), "clockwise"))
        },
        draw("addArc", "tangent1End: point, tangent2End: point, radius: number") { p, b in
            p.addArc(tangent1End: try b.required(b.point("tangent1End"), "tangent1End"), tangent2End: try b.required(b.point("tangent2End"), "tangent2End"), radius: try b.required(b.cg("radius"), "radius"))
        },
        draw("addRelativeArc", "center: point, radius: number, startAngle: angle, delta: angle") { p, b in
            p.addRelativeArc(center: try b.required(b.point("center"), "center"), radius: try b.required(b.cg("radius"), "radius"), startAngle: try b.required(b.angle("startAngle"), "startAngle"), delta: try b.required(b.angle("delta"), "delta"))
        },
        draw("addRect", "_ rect: rect") { p, b in p.addRect(try b.required(b.rect("rect"), "rect")) },
        draw("addEllipse", "in rect: rect") { p, b in p.addEllipse(in: try b.required(b.rect("rect"), "rect")) },
        draw("addRoundedRect", "in rect: rect, cornerSize: size, style: cornerStyle?") { p, b in
            p.addRoundedRect(in: try b.required(b.rect("rect"), "rect"), cornerSize: try b.required(b.size("cornerSize"), "cornerSize"), style: b.cornerStyle("style") ?? .continuous)
        },
        draw("addPath", "_ path: shape") { p, b in p.addPath(try b.required(b.shape("path"), "path").path(in: .zero)) },
    ]

    /// A path operation, counted against the path-element limit.
    private static func draw(_ name: String, _ spec: String, _ body: @escaping @Sendable (inout Path, Bound) throws -> Void) -> Builtin {
        Builtin(name, spec) { b, e in
            guard case .path(let builder) = b.values["self"] else { return .invalid }
            if name == "addArc" || name == "addRelativeArc", let r = b.double("radius"), r < 0 {
                e.error(b.location("radius"), "an arc's radius must not be negative, got \(r)")
                return .invalid
            }
            try body(&builder.path, b)
            if builder.path.elements.count > e.limits.maximumPathElements {
                e.error(b.call, "the path has more than \(e.limits.maximumPathElements) elements",
                        hint: "raise the limit with --max-path-elements")
                throw Evaluator.Abort()
            }
            return .void
        }
    }
}
