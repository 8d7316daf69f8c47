import Compositor
import Foundation
import SceneGraph

extension ReferenceScene {
    /// The scene as views, through the public SceneGraph API: each path a `Path` view (drawn in
    /// canvas coordinates: in a top-leading ZStack of the canvas size every path's frame is the
    /// canvas), fills and strokes with their colours and rules, a gradient's end points as unit
    /// points of the canvas, and a group as `ZStack { … }.compositingGroup().opacity(a)` (its
    /// layer covers the group's ink, not the whole canvas as SCENES.md's groups do: the pixels
    /// are the same).
    public var view: AnyView {
        let size = CGSize(width: width, height: height)
        func views(_ ops: [SceneOp]) -> [AnyView] {
            ops.map { op in
                switch op {
                case let .fill(path, color, rule):
                    AnyView(path.fill(color, style: FillStyle(eoFill: rule == .evenOdd)))
                case let .stroke(path, style, color):
                    AnyView(path.stroke(color, style: style))
                case let .linearGradient(path, gradient, start, end):
                    AnyView(path.fill(LinearGradient(gradient: gradient,
                                                     startPoint: UnitPoint(x: start.x / size.width, y: start.y / size.height),
                                                     endPoint: UnitPoint(x: end.x / size.width, y: end.y / size.height))))
                case let .group(opacity, children):
                    AnyView(ZStack(alignment: .topLeading) { AnyView(sequence: views(children)) }
                        .frame(width: size.width, height: size.height)
                        .compositingGroup()
                        .opacity(opacity))
                }
            }
        }
        return AnyView(ZStack(alignment: .topLeading) { AnyView(sequence: views(ops)) }.frame(width: size.width, height: size.height))
    }
}
