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
public struct AnimatedChange: Sendable {
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
    /// [0, 1] extrapolate, as a spring's overshoot does): the interpolated layout tree, in a
    /// canvas of `size` points, which layout takes as it is.
    public func view(progress: Double, in size: CGSize) -> AnyView {
        let progress = progress.isFinite ? progress : 1
        switch layouts.states(from, to, in: size) {
        case let .success((old, new)):
            // The frame at the last progress asked is the same view again, not another equal
            // one: a renderer draws it from its last display list (the frames held after the
            // change has finished, all at progress 1).
            return layouts.frame(at: progress, size: size) {
                let frame = Interpolator(progress: progress).tree(from: old, to: new)
                let canvas = PlacedNode(content: .container(.sequence([])), rect: CGRect(origin: .zero, size: size), children: [frame])
                return AnyView(node: .leaf(.laidOut(canvas)))
            }
        case .failure(let error):
            // A state could not be laid out: the frame carries the error, and rendering it fails.
            return AnyView(node: .leaf(.layoutFailure(error)))
        }
    }
}

/// The two laid-out states of a change for one canvas size, computed once: every frame of a
/// sequence shares them (frames rendered on several threads too).
private final class LayoutMemo: Sendable {
    private let memo = Locked<(size: CGSize, states: Result<(PlacedNode, PlacedNode), TypographyError>)?>(nil)

    func states(_ from: ViewNode, _ to: ViewNode, in size: CGSize) -> Result<(PlacedNode, PlacedNode), TypographyError> {
        memo.withLock { memo in
            if let memo, memo.size == size { return memo.states }
            let both = Result { () throws(TypographyError) in
                (try PlacedNode(laying: from, inCanvas: size), try PlacedNode(laying: to, inCanvas: size))
            }
            memo = (size, both)
            return both
        }
    }

    private let lastFrame = Locked<(progress: Double, size: CGSize, view: AnyView)?>(nil)

    /// The frame at `progress` for `size`: the one made last time when both are the same,
    /// else `make()`'s.
    func frame(at progress: Double, size: CGSize, make: () -> AnyView) -> AnyView {
        if let last = lastFrame.withLock({ $0 }), last.progress == progress, last.size == size { return last.view }
        let view = make()
        lastFrame.withLock { $0 = (progress, size, view) }
        return view
    }
}
