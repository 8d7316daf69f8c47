import Foundation

/// Flexible room along the axis of the stack it is in (SwiftUI's `Spacer`): it takes what the
/// other children leave, at least `minLength` (by default 8 points), and nothing across the
/// axis. With a stack's default spacing, no gap is added beside it.
///
/// ```swift
/// HStack { Circle().frame(width: 20, height: 20); Spacer(); Capsule().frame(width: 60, height: 20) }
/// ```
public struct Spacer: View, PrimitiveView, Sendable {
    public var minLength: CGFloat?
    public init(minLength: CGFloat? = nil) { self.minLength = minLength }
    public var body: Never { primitiveBody(of: Self.self) }
    func makeNode() -> ViewNode { .leaf(.spacer(minLength: minLength.map { max(0, $0.isFinite ? $0 : 0) })) }
}

extension View {
    /// A fixed width and/or height; the child is proposed that size and aligned in it.
    public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center) -> _ModifiedView<Self> {
        modified(.layout(.frame(width: width, height: height, alignment: alignment)))
    }

    /// A frame with bounds instead of fixed lengths (SwiftUI's flexible `frame`): the child is
    /// offered the proposal clamped to `min…max` (or the ideal length when asked its ideal
    /// size); the frame itself is the child's size moved towards the proposal as far as the
    /// bounds allow, so `maxWidth: .infinity` fills the offered width and aligns the child in
    /// it.
    ///
    /// ```swift
    /// badge.frame(maxWidth: .infinity, alignment: .trailing)
    /// ```
    public func frame(minWidth: CGFloat? = nil, idealWidth: CGFloat? = nil, maxWidth: CGFloat? = nil,
                      minHeight: CGFloat? = nil, idealHeight: CGFloat? = nil, maxHeight: CGFloat? = nil,
                      alignment: Alignment = .center) -> _ModifiedView<Self> {
        let bounds = FlexibleFrame(minWidth: minWidth, idealWidth: idealWidth, maxWidth: maxWidth,
                                   minHeight: minHeight, idealHeight: idealHeight, maxHeight: maxHeight)
        return modified(.layout(.flexibleFrame(bounds, alignment: alignment)))
    }

    /// Insets the view by `length` on every side (16 points by default).
    public func padding(_ length: CGFloat = 16) -> _ModifiedView<Self> {
        padding(EdgeInsets(top: length, leading: length, bottom: length, trailing: length))
    }
    /// Insets the view by `length` on the sides in `edges`.
    public func padding(_ edges: Edge.Set, _ length: CGFloat = 16) -> _ModifiedView<Self> {
        padding(EdgeInsets(top: edges.contains(.top) ? length : 0, leading: edges.contains(.leading) ? length : 0,
                           bottom: edges.contains(.bottom) ? length : 0, trailing: edges.contains(.trailing) ? length : 0))
    }
    /// Insets the view by `insets`.
    public func padding(_ insets: EdgeInsets) -> _ModifiedView<Self> {
        modified(.layout(.padding(top: insets.top, leading: insets.leading, bottom: insets.bottom, trailing: insets.trailing)))
    }

    /// Places the view's centre at (`x`, `y`) in its parent's coordinates; the modified view
    /// takes all the space offered (SwiftUI's `position`).
    public func position(x: CGFloat = 0, y: CGFloat = 0) -> _ModifiedView<Self> {
        modified(.layout(.position(CGPoint(x: x, y: y))))
    }
    public func position(_ point: CGPoint) -> _ModifiedView<Self> { position(x: point.x, y: point.y) }

    /// The view at its ideal size, whatever its parent proposes (shapes' ideal is 10 × 10 pt).
    public func fixedSize() -> _ModifiedView<Self> { fixedSize(horizontal: true, vertical: true) }
    public func fixedSize(horizontal: Bool, vertical: Bool) -> _ModifiedView<Self> {
        modified(.layout(.fixedSize(horizontal: horizontal, vertical: vertical)))
    }

    /// Moves the drawing without changing layout.
    public func offset(x: CGFloat = 0, y: CGFloat = 0) -> _ModifiedView<Self> {
        offset(CGSize(width: x, height: y))
    }
    public func offset(_ offset: CGSize) -> _ModifiedView<Self> {
        modified(.layout(.offset(offset)))
    }

    /// Stacks offer room to children of higher priority first (default 0), keeping back only
    /// what the others need at their smallest.
    public func layoutPriority(_ value: Double) -> _ModifiedView<Self> {
        modified(.layout(.priority(value.isFinite ? value : 0)))
    }

    /// Proposes its child a size of width ÷ height = `aspectRatio` (by default the child's
    /// ideal proportions) that fits in, or fills, what it is offered.
    public func aspectRatio(_ aspectRatio: CGFloat? = nil, contentMode: ContentMode) -> _ModifiedView<Self> {
        let ratio = aspectRatio.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        return modified(.layout(.aspectRatio(ratio, fill: contentMode == .fill)))
    }
    public func scaledToFit() -> _ModifiedView<Self> { aspectRatio(contentMode: .fit) }
    public func scaledToFill() -> _ModifiedView<Self> { aspectRatio(contentMode: .fill) }

    /// `content` drawn behind the view, laid out in the view's frame.
    public func background<Background: View>(alignment: Alignment = .center,
                                             @ViewBuilder content: () -> Background) -> _ModifiedView<Self> {
        background(content(), alignment: alignment)
    }
    public func background<Background: View>(_ background: Background, alignment: Alignment = .center) -> _ModifiedView<Self> {
        modified(.layout(.layered(resolve(background), alignment: alignment, inFront: false)))
    }
    /// `shape` filled with `style` behind the view, in the view's frame (SwiftUI's
    /// `background(_:in:fillStyle:)`).
    ///
    /// ```swift
    /// label.padding(.horizontal, 16).background(Color.mint.opacity(0.15), in: .capsule)
    /// ```
    public func background<S: ShapeStyle, T: Shape>(_ style: S, in shape: T, fillStyle: FillStyle = FillStyle()) -> _ModifiedView<Self> {
        background(shape.fill(style, style: fillStyle))
    }
    /// `content` drawn in front of the view, laid out in the view's frame.
    public func overlay<Overlay: View>(alignment: Alignment = .center, @ViewBuilder content: () -> Overlay) -> _ModifiedView<Self> {
        overlay(content(), alignment: alignment)
    }
    public func overlay<Overlay: View>(_ overlay: Overlay, alignment: Alignment = .center) -> _ModifiedView<Self> {
        modified(.layout(.layered(resolve(overlay), alignment: alignment, inFront: true)))
    }
    /// `shape` filled with `style` in front of the view, in the view's frame.
    public func overlay<S: ShapeStyle, T: Shape>(_ style: S, in shape: T, fillStyle: FillStyle = FillStyle()) -> _ModifiedView<Self> {
        overlay(shape.fill(style, style: fillStyle))
    }
}
