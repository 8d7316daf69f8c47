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

    /// The view `node`, pinned in `rect`, at `presence` (0: absent, 1: fully there).
    func apply(to node: ViewNode, in rect: CGRect, presence q: Double) -> ViewNode {
        var result = node
        for kind in kinds {
            switch kind {
            case .identity:
                if q < 1 { return .empty }
            case .opacity:
                result = .opacity(min(1, max(0, q)), result)
            case .scale(let s):
                let k = s + (1 - s) * CGFloat(q)
                result = .placed(rect, .transformEffect(.scale(x: k, y: k), anchor: .center, result))
            case .move(let edge):
                let away: CGSize = switch edge {
                case .leading: CGSize(width: -rect.width, height: 0)
                case .trailing: CGSize(width: rect.width, height: 0)
                case .top: CGSize(width: 0, height: -rect.height)
                case .bottom: CGSize(width: 0, height: rect.height)
                }
                result = .placed(rect, .transformEffect(.affine(CGAffineTransform(translationX: away.width * (1 - q), y: away.height * (1 - q))),
                                                        anchor: .topLeading, result))
            case .offset(let d):
                result = .placed(rect, .transformEffect(.affine(CGAffineTransform(translationX: d.width * (1 - q), y: d.height * (1 - q))),
                                                        anchor: .topLeading, result))
            }
        }
        return result
    }
}

extension View {
    /// How this view enters and leaves when an animated change inserts or removes it.
    public func transition(_ t: AnyTransition) -> _ModifiedView<Self> {
        _ModifiedView(content: self) { .transition(t, $0) }
    }
}
