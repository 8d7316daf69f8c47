import Foundation

/// A 2D shape: a path as a pure function of the rectangle it is drawn in (SwiftUI's `Shape`).
/// Shapes take the whole proposed size in layout.
///
/// ```swift
/// struct Triangle: Shape {
///     func path(in rect: CGRect) -> Path {
///         var path = Path()
///         path.move(to: CGPoint(x: rect.midX, y: rect.minY))
///         path.addLine(to: CGPoint(x: rect.maxX, y: rect.maxY))
///         path.addLine(to: CGPoint(x: rect.minX, y: rect.maxY))
///         path.closeSubpath()
///         return path
///     }
/// }
/// ```
public protocol Shape: Animatable, Sendable, View {
    func path(in rect: CGRect) -> Path
}

/// A shape that can be inset by an amount, keeping its kind (SwiftUI's `InsettableShape`):
/// what `strokeBorder` needs to keep a stroke inside the frame.
public protocol InsettableShape: Shape {
    associatedtype InsetShape: InsettableShape
    func inset(by amount: CGFloat) -> InsetShape
}

extension Path: Shape {
    /// A path is a shape that ignores the rectangle, as in SwiftUI.
    public func path(in rect: CGRect) -> Path { self }
}

extension Path: Animatable {}
