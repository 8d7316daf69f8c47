import Foundation

/// A rectangle filling its frame.
public struct Rectangle: InsettableShape, Equatable {
    private var insetAmount: CGFloat = 0
    public init() {}
    public func path(in rect: CGRect) -> Path { Path(rect.insetBy(dx: insetAmount, dy: insetAmount)) }
    public func inset(by amount: CGFloat) -> Rectangle {
        var copy = self
        copy.insetAmount += amount
        return copy
    }
}

/// A rectangle with rounded corners, `.continuous` by default as in SwiftUI (see
/// `Path.addRoundedRect` for the curve). Insetting shrinks the corner radius by the same amount.
public struct RoundedRectangle: InsettableShape, Equatable {
    public var cornerSize: CGSize
    public var style: RoundedCornerStyle
    private var insetAmount: CGFloat = 0

    public init(cornerSize: CGSize, style: RoundedCornerStyle = .continuous) {
        self.cornerSize = cornerSize
        self.style = style
    }
    public init(cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) {
        self.init(cornerSize: CGSize(width: cornerRadius, height: cornerRadius), style: style)
    }

    /// The corner size animates, as in SwiftUI.
    public var animatableData: AnimatablePair<CGFloat, CGFloat> {
        get { AnimatablePair(cornerSize.width, cornerSize.height) }
        set { cornerSize = CGSize(width: newValue.first, height: newValue.second) }
    }
    public func path(in rect: CGRect) -> Path {
        let size = CGSize(width: max(0, cornerSize.width - insetAmount), height: max(0, cornerSize.height - insetAmount))
        return Path(roundedRect: rect.insetBy(dx: insetAmount, dy: insetAmount), cornerSize: size, style: style)
    }
    public func inset(by amount: CGFloat) -> RoundedRectangle {
        var copy = self
        copy.insetAmount += amount
        return copy
    }
}

/// The radii of a rectangle's four corners (SwiftUI's `RectangleCornerRadii`).
public struct RectangleCornerRadii: Hashable, Sendable {
    public var topLeading: CGFloat, bottomLeading: CGFloat, bottomTrailing: CGFloat, topTrailing: CGFloat
    public init(topLeading: CGFloat = 0, bottomLeading: CGFloat = 0, bottomTrailing: CGFloat = 0, topTrailing: CGFloat = 0) {
        self.topLeading = topLeading; self.bottomLeading = bottomLeading
        self.bottomTrailing = bottomTrailing; self.topTrailing = topTrailing
    }
}

/// A rectangle with a radius of its own at each corner (each clamped to half the sides;
/// continuous where the curve fits, circular otherwise). Insetting shrinks every radius.
public struct UnevenRoundedRectangle: InsettableShape, Equatable {
    public var cornerRadii: RectangleCornerRadii
    public var style: RoundedCornerStyle
    private var insetAmount: CGFloat = 0

    public init(cornerRadii: RectangleCornerRadii, style: RoundedCornerStyle = .continuous) {
        self.cornerRadii = cornerRadii
        self.style = style
    }
    public init(topLeadingRadius: CGFloat = 0, bottomLeadingRadius: CGFloat = 0, bottomTrailingRadius: CGFloat = 0,
                topTrailingRadius: CGFloat = 0, style: RoundedCornerStyle = .continuous) {
        self.init(cornerRadii: RectangleCornerRadii(topLeading: topLeadingRadius, bottomLeading: bottomLeadingRadius,
                                                    bottomTrailing: bottomTrailingRadius, topTrailing: topTrailingRadius),
                  style: style)
    }

    public func path(in rect: CGRect) -> Path {
        func size(_ v: CGFloat) -> CGSize { CGSize(width: max(0, v - insetAmount), height: max(0, v - insetAmount)) }
        var path = Path()
        path.addRoundedRect(in: rect.insetBy(dx: insetAmount, dy: insetAmount),
                            cornerSizes: [size(cornerRadii.topTrailing), size(cornerRadii.bottomTrailing),
                                          size(cornerRadii.bottomLeading), size(cornerRadii.topLeading)],
                            style: style)
        return path
    }

    public func inset(by amount: CGFloat) -> UnevenRoundedRectangle {
        var copy = self
        copy.insetAmount += amount
        return copy
    }
}

/// A circle of diameter min(width, height), centred in its frame.
public struct Circle: InsettableShape, Equatable {
    private var insetAmount: CGFloat = 0
    public init() {}
    public func path(in rect: CGRect) -> Path {
        let d = max(0, min(rect.width, rect.height) - 2 * insetAmount)
        return Path(ellipseIn: CGRect(x: rect.midX - d / 2, y: rect.midY - d / 2, width: d, height: d))
    }
    public func inset(by amount: CGFloat) -> Circle {
        var copy = self
        copy.insetAmount += amount
        return copy
    }
}

/// An ellipse filling its frame.
public struct Ellipse: InsettableShape, Equatable {
    private var insetAmount: CGFloat = 0
    public init() {}
    public func path(in rect: CGRect) -> Path { Path(ellipseIn: rect.insetBy(dx: insetAmount, dy: insetAmount)) }
    public func inset(by amount: CGFloat) -> Ellipse {
        var copy = self
        copy.insetAmount += amount
        return copy
    }
}

/// A rectangle whose shorter sides are half circles: corner radius min(width, height) / 2.
public struct Capsule: InsettableShape, Equatable {
    public var style: RoundedCornerStyle
    private var insetAmount: CGFloat = 0
    public init(style: RoundedCornerStyle = .continuous) { self.style = style }
    public func path(in rect: CGRect) -> Path {
        let r = rect.insetBy(dx: insetAmount, dy: insetAmount)
        guard r.width > 0, r.height > 0 else { return Path() }
        return Path(roundedRect: r, cornerRadius: min(r.width, r.height) / 2, style: style)
    }
    public func inset(by amount: CGFloat) -> Capsule {
        var copy = self
        copy.insetAmount += amount
        return copy
    }
}

// The shapes by name where a shape is expected (SwiftUI's static members), so that
// `.clipShape(.circle)` and `.background(.mint, in: .capsule)` read as in SwiftUI.
extension Shape where Self == Rectangle {
    public static var rect: Rectangle { Rectangle() }
}
extension Shape where Self == RoundedRectangle {
    public static func rect(cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) -> RoundedRectangle {
        RoundedRectangle(cornerRadius: cornerRadius, style: style)
    }
    public static func rect(cornerSize: CGSize, style: RoundedCornerStyle = .continuous) -> RoundedRectangle {
        RoundedRectangle(cornerSize: cornerSize, style: style)
    }
}
extension Shape where Self == UnevenRoundedRectangle {
    public static func rect(cornerRadii: RectangleCornerRadii, style: RoundedCornerStyle = .continuous) -> UnevenRoundedRectangle {
        UnevenRoundedRectangle(cornerRadii: cornerRadii, style: style)
    }
}
extension Shape where Self == Circle {
    public static var circle: Circle { Circle() }
}
extension Shape where Self == Ellipse {
    public static var ellipse: Ellipse { Ellipse() }
}
extension Shape where Self == Capsule {
    public static var capsule: Capsule { Capsule() }
}
