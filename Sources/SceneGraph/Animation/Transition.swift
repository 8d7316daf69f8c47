import Foundation

/// How a view enters or leaves when a change inserts or removes it (SwiftUI's `AnyTransition`).
/// A view without one fades (`.opacity`).
public struct AnyTransition: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        case identity, opacity, scale(CGFloat), move(Edge), offset(CGSize)
    }
    let kinds: [Kind]

    /// Appears and disappears at once.
    public static let identity = AnyTransition(kinds: [.identity])
    /// Fades in and out (the default).
    public static let opacity = AnyTransition(kinds: [.opacity])
    /// Grows from nothing about its centre, and shrinks away.
    public static let scale = AnyTransition(kinds: [.scale(0)])
    /// Grows from `scale` about its centre.
    public static func scale(scale: CGFloat) -> AnyTransition { AnyTransition(kinds: [.scale(scale.isFinite ? scale : 0)]) }
    /// Slides in from `edge` by its own width or height, and out the same way.
    public static func move(edge: Edge) -> AnyTransition { AnyTransition(kinds: [.move(edge)]) }
    /// Slides in from `offset` away, and out to it.
    public static func offset(_ offset: CGSize) -> AnyTransition { AnyTransition(kinds: [.offset(offset)]) }
    public static func offset(x: CGFloat = 0, y: CGFloat = 0) -> AnyTransition { offset(CGSize(width: x, height: y)) }
    /// Both at once, e.g. `.scale.combined(with: .opacity)`.
    public func combined(with other: AnyTransition) -> AnyTransition { AnyTransition(kinds: kinds + other.kinds) }

    /// The laid-out view `node` at `presence` (0: absent, 1: fully there): wrapped in the
    /// effects the transition animates, in its own frame.
    func apply(to node: PlacedNode, presence q: Double) -> PlacedNode {
        let rect = node.rect
        func wrapped(_ effect: Effect, _ inner: PlacedNode) -> PlacedNode {
            PlacedNode(content: .modifier(.effect(effect)), rect: rect, children: [inner])
        }
        var result = node
        for kind in kinds {
            switch kind {
            case .identity:
                if q < 1 { return PlacedNode(content: .leaf(.empty), rect: rect, children: []) }
            case .opacity:
                result = wrapped(.opacity(Opacity(q).value), result)
            case .scale(let s):
                let k = s + (1 - s) * CGFloat(q)
                result = wrapped(.transform(.scale(x: k, y: k), anchor: .center), result)
            case .move(let edge):
                let away: CGSize = switch edge {
                case .leading: CGSize(width: -rect.width, height: 0)
                case .trailing: CGSize(width: rect.width, height: 0)
                case .top: CGSize(width: 0, height: -rect.height)
                case .bottom: CGSize(width: 0, height: rect.height)
                }
                result = wrapped(.transform(.affine(CGAffineTransform(translationX: away.width * (1 - q), y: away.height * (1 - q))),
                                            anchor: .topLeading), result)
            case .offset(let d):
                result = wrapped(.transform(.affine(CGAffineTransform(translationX: d.width * (1 - q), y: d.height * (1 - q))),
                                            anchor: .topLeading), result)
            }
        }
        return result
    }
}
