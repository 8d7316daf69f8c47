import Foundation

/// Flexible room along the axis of the stack it is in (SwiftUI's `Spacer`): it takes what the
/// other children leave, at least `minLength` (by default 8 points), and nothing across the
/// axis. With a stack's default spacing, no gap is added beside it.
///
/// ```swift
/// HStack { Circle().frame(width: 20, height: 20); Spacer(); Capsule().frame(width: 60, height: 20) }
/// ```
public struct Spacer: View, PrimitiveView {
    public var minLength: CGFloat?
    public init(minLength: CGFloat? = nil) { self.minLength = minLength }
    public var body: EmptyView { EmptyView() }
    func makeNode() -> ViewNode { .spacer(minLength: minLength.map { max(0, $0.isFinite ? $0 : 0) }) }
}

extension View {
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
        return _ModifiedView(content: self) { .flexibleFrame(bounds, alignment: alignment, $0) }
    }

    /// Sets the foreground style for the views inside: shapes drawn without a fill of their own
    /// (`Circle()`, `.stroke(lineWidth:)`, `.fill(.foreground)`) use it. The nearest one wins.
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> _ModifiedView<Self> {
        _ModifiedView(content: self) { .foregroundStyle(style, $0) }
    }

    /// Stacks offer room to children of higher priority first (default 0), keeping back only
    /// what the others need at their smallest.
    public func layoutPriority(_ value: Double) -> _ModifiedView<Self> {
        _ModifiedView(content: self) { .layoutPriority(value.isFinite ? value : 0, $0) }
    }

    /// Gives the view an explicit identity: animation matches views with equal identities
    /// between two states (interpolating them) and fades views whose identity appears or
    /// disappears.
    public func id<ID: Hashable & Sendable>(_ id: ID) -> _ModifiedView<Self> {
        _ModifiedView(content: self) { .identity(ExplicitID(id), $0) }
    }

    /// Animates the view's geometry as one unit (SwiftUI's `geometryGroup`): its frame is
    /// interpolated, and its content is placed inside the interpolated frame, so views that
    /// appear inside it travel with it instead of appearing at their final place. Drawing is
    /// unchanged and no layer is allocated.
    public func geometryGroup() -> _ModifiedView<Self> {
        _ModifiedView(content: self) { .geometryGroup($0) }
    }
}

/// Identities: explicit (`.id(_:)`, `ForEach`'s element ids) and structural (a builder
/// block's position, an `if`/`else` branch, a scene file's source location).
struct ExplicitID: Hashable {
    let value: AnyHashable
    init<ID: Hashable>(_ value: ID) { self.value = AnyHashable(value) }
}

enum StructuralID: Hashable {
    /// The n-th view of a builder block.
    case position(Int)
    /// The `if` (true) or `else` (false) branch of a builder condition.
    case branch(Bool)
    /// Where a scene file wrote the view (line, column).
    case source(line: Int, column: Int)
}
