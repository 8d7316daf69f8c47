import Foundation

extension View {
    /// Sets the foreground style for the views inside: shapes drawn without a fill of their own
    /// (`Circle()`, `.stroke(lineWidth:)`, `.fill(.foreground)`) use it. The nearest one wins.
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> _ModifiedView<Self> {
        modified(.meta(.environment(.foregroundStyle(style))))
    }

    /// Sets the tint for the views inside: what `.tint` resolves to (SwiftUI's accent colour,
    /// blue, unless a `tint(_:)` above says otherwise). nil keeps the tint of the views above.
    ///
    /// ```swift
    /// Capsule().strokeBorder(.tint, lineWidth: 6).tint(.pink)
    /// ```
    public func tint<S: ShapeStyle>(_ tint: S?) -> _ModifiedView<Self> {
        guard let tint else { return modified(.meta(.environment(.tint(TintShapeStyle())))) }
        return modified(.meta(.environment(.tint(tint))))
    }
    public func tint(_ tint: Color?) -> _ModifiedView<Self> {
        guard let tint else { return modified(.meta(.environment(.tint(TintShapeStyle())))) }
        return modified(.meta(.environment(.tint(tint))))
    }

    /// Gives the view an explicit identity: animation matches views with equal identities
    /// between two states (interpolating them) and fades views whose identity appears or
    /// disappears.
    public func id<ID: Hashable & Sendable>(_ id: ID) -> _ModifiedView<Self> {
        modified(.meta(.identity(ViewID(ExplicitID(id)))))
    }

    /// Animates the view's geometry as one unit (SwiftUI's `geometryGroup`): its frame is
    /// interpolated, and its content is placed inside the interpolated frame, so views that
    /// appear inside it travel with it instead of appearing at their final place. Drawing is
    /// unchanged and no layer is allocated.
    public func geometryGroup() -> _ModifiedView<Self> {
        modified(.meta(.geometryGroup))
    }

    /// How this view enters and leaves when an animated change inserts or removes it.
    public func transition(_ t: AnyTransition) -> _ModifiedView<Self> {
        modified(.meta(.transition(t)))
    }
}
