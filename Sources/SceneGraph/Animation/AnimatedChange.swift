import Foundation

/// A change from one state of a view tree to another, animated: what the screen shows at any
/// moment between them, as SwiftUI draws a `withAnimation` change.
///
/// ```swift
/// let change = AnimatedChange(from: Badge(isAvailable: false), to: Badge(isAvailable: true),
///                             animation: .easeInOut(duration: 1.2))
/// let frame = try Renderer().render(change.view(at: 0.6, in: size), size: size)
/// ```
///
/// Each state is laid out in the canvas (proposed to the view and centred, as `Renderer`
/// does); the two layouts are matched by identity and interpolated (see `Interpolator`).
public struct AnimatedChange {
    let from: ViewNode
    let to: ViewNode
    public var animation: Animation
    /// Both states laid out for the last canvas size asked: every frame of a sequence shares
    /// them, only the interpolation depends on the time.
    private let layouts = LayoutMemo()

    public init<From: View, To: View>(from: From, to: To, animation: Animation = .default) {
        self.from = resolve(from)
        self.to = resolve(to)
        self.animation = animation
    }

    /// Seconds until the change has finished (infinite for `repeatForever`).
    public var duration: Double { animation.duration }

    /// The view drawn `time` seconds after the change, laid out in a canvas of `size` points.
    public func view(at time: Double, in size: CGSize) -> AnyView {
        view(progress: animation.progress(at: time), in: size)
    }

    /// The view at `progress` along the change (0: the old state, 1: the new; values outside
    /// [0, 1] extrapolate, as a spring's overshoot does).
    public func view(progress: Double, in size: CGSize) -> AnyView {
        let (old, new) = layouts.states(from, to, in: size)
        let node = Interpolator(progress: progress.isFinite ? progress : 1).view(from: old, to: new)
        // A canvas-sized frame at the origin, so that the pinned rectangles are where they
        // were laid out.
        return AnyView(node: .frame(width: size.width, height: size.height, alignment: .topLeading, node))
    }
}

/// The two laid-out states of a change for one canvas size, computed once.
private final class LayoutMemo: @unchecked Sendable {
    private let lock = NSLock()
    private var size: CGSize?
    private var placed: (PlacedNode, PlacedNode)?

    func states(_ from: ViewNode, _ to: ViewNode, in size: CGSize) -> (PlacedNode, PlacedNode) {
        lock.lock()
        defer { lock.unlock() }
        if let placed, self.size == size { return placed }
        let canvas = CGRect(origin: .zero, size: size)
        func place(_ node: ViewNode) -> PlacedNode {
            let chosen = SceneGraph.size(of: node, proposal: ProposedSize(size))
            return PlacedNode(node, in: Alignment.center.place(chosen, in: canvas))
        }
        let both = (place(from), place(to))
        (self.size, placed) = (size, both)
        return both
    }
}
