import Foundation

// Whether two resolved view trees are certainly the same: what lets a renderer draw the last
// frame's display list again instead of laying out and lowering views that did not change
// (SwiftUI likewise skips views whose inputs compare equal). The answer errs one way only:
// true means every part compared equal; anything that cannot be compared (a shape of the
// user's that is not `Equatable`, a tree already laid out by an animation) answers false, and
// the frame is made again.

extension ViewNode {
    /// Whether `other` is certainly the same view tree: the same kinds in the same places,
    /// with equal parameters. Built-in shapes, styles, texts and modifiers compare by value,
    /// images by identity, vector drawings by `isSameDrawing(as:)`, and other shapes only when
    /// they are `Equatable`. False when unsure.
    func isCertainlySame(as other: ViewNode) -> Bool {
        // Every case is boxed (the enum is `indirect`), so a node is one reference: the same
        // reference is the same tree (a view value passed again, an `AnyView` kept).
        if MemoryLayout<ViewNode>.size == MemoryLayout<UInt>.size,
           withUnsafeBytes(of: self, { $0.load(as: UInt.self) }) == withUnsafeBytes(of: other, { $0.load(as: UInt.self) }) {
            return true
        }
        switch self {
        case .leaf(let a):
            guard case .leaf(let b) = other else { return false }
            return a.isCertainlySame(as: b)
        case .container(let a):
            guard case .container(let b) = other else { return false }
            return a.isCertainlySame(as: b)
        case let .modified(m, a):
            guard case let .modified(n, b) = other else { return false }
            return m.isCertainlySame(as: n) && a.isCertainlySame(as: b)
        }
    }
}

/// Whether two node lists are pairwise the same.
private func same(_ a: [ViewNode], _ b: [ViewNode]) -> Bool {
    guard a.count == b.count else { return false }
    for i in a.indices where !a[i].isCertainlySame(as: b[i]) { return false }
    return true
}

extension Leaf {
    func isCertainlySame(as other: Leaf) -> Bool {
        switch (self, other) {
        case (.empty, .empty): true
        case let (.shape(g, s, r), .shape(h, t, q)): r == q && g.isCertainlySame(as: h) && stylesAreCertainlySame(s, t)
        case let (.image(c, r, f), .image(d, q, g)): c == d && r == q && f == g
        case let (.drawing(d, r), .drawing(e, q)): r == q && d.isSameDrawing(as: e)
        case let (.spacer(a), .spacer(b)): a == b
        case let (.symbol(n, r), .symbol(m, q)): n == m && r == q
        case let (.label(i, t), .label(j, u)): i.isCertainlySame(as: j) && t.isCertainlySame(as: u)
        case let (.text(a), .text(b)): a.isCertainlySame(as: b)
        // Made by layout or by an animation's interpolation: never compared (an animation's
        // frames differ anyway).
        case (.laidOut, _), (.placedSymbol, _), (.placedText, _), (.layoutFailure, _): false
        case (.empty, _), (.shape, _), (.image, _), (.drawing, _), (.spacer, _), (.symbol, _), (.label, _), (.text, _): false
        }
    }
}

extension Container {
    func isCertainlySame(as other: Container) -> Bool {
        switch (self, other) {
        case let (.sequence(a), .sequence(b)): same(a, b)
        case let (.zstack(x, a), .zstack(y, b)): x == y && same(a, b)
        case let (.stack(axis, alignment, spacing, a), .stack(axis2, alignment2, spacing2, b)):
            axis == axis2 && alignment == alignment2 && spacing == spacing2 && same(a, b)
        case (.sequence, _), (.zstack, _), (.stack, _): false
        }
    }
}

extension Modifier {
    func isCertainlySame(as other: Modifier) -> Bool {
        switch self {
        case .layout(let a):
            guard case .layout(let b) = other else { return false }
            return a.isCertainlySame(as: b)
        case .effect(let a):
            guard case .effect(let b) = other else { return false }
            return a.isCertainlySame(as: b)
        case .boundary(let a):
            guard case .boundary(let b) = other else { return false }
            return a.isCertainlySame(as: b)
        case .meta(let a):
            guard case .meta(let b) = other else { return false }
            return a.isCertainlySame(as: b)
        }
    }
}

extension LayoutModifier {
    func isCertainlySame(as other: LayoutModifier) -> Bool {
        switch (self, other) {
        case let (.padding(t, l, b, r), .padding(t2, l2, b2, r2)): t == t2 && l == l2 && b == b2 && r == r2
        case let (.frame(w, h, a), .frame(w2, h2, a2)): w == w2 && h == h2 && a == a2
        case let (.flexibleFrame(f, a), .flexibleFrame(g, b)): f == g && a == b
        case let (.aspectRatio(r, f), .aspectRatio(s, g)): r == s && f == g
        case let (.position(p), .position(q)): p == q
        case let (.fixedSize(h, v), .fixedSize(h2, v2)): h == h2 && v == v2
        case let (.offset(a), .offset(b)): a == b
        case let (.priority(a), .priority(b)): a == b
        case let (.layered(n, a, f), .layered(m, b, g)): a == b && f == g && n.isCertainlySame(as: m)
        case (.padding, _), (.frame, _), (.flexibleFrame, _), (.aspectRatio, _), (.position, _), (.fixedSize, _), (.offset, _),
             (.priority, _), (.layered, _): false
        }
    }
}

extension Effect {
    func isCertainlySame(as other: Effect) -> Bool {
        switch (self, other) {
        case let (.opacity(a), .opacity(b)): a == b
        case let (.blendMode(a), .blendMode(b)): a == b
        case let (.shadow(c, r, o), .shadow(d, s, p)): c == d && r == s && o == p
        case let (.clip(g, r), .clip(h, q)): r == q && g.isCertainlySame(as: h)
        case let (.color(a), .color(b)): a == b
        case let (.transform(t, a), .transform(u, b)): t == u && a == b
        case (.opacity, _), (.blendMode, _), (.shadow, _), (.clip, _), (.color, _), (.transform, _): false
        }
    }
}

extension Boundary {
    func isCertainlySame(as other: Boundary) -> Bool {
        switch (self, other) {
        case (.compositingGroup, .compositingGroup): true
        case let (.drawingGroup(o, c), .drawingGroup(p, d)): o == p && c == d
        case let (.blur(r, o), .blur(s, p)): r == s && o == p
        case let (.mask(n, a), .mask(m, b)): a == b && n.isCertainlySame(as: m)
        case (.compositingGroup, _), (.drawingGroup, _), (.blur, _), (.mask, _): false
        }
    }
}

extension Meta {
    func isCertainlySame(as other: Meta) -> Bool {
        switch self {
        case .identity(let a):
            guard case .identity(let b) = other else { return false }
            return a == b
        case .transition(let a):
            guard case .transition(let b) = other else { return false }
            return a == b
        case .geometryGroup:
            guard case .geometryGroup = other else { return false }
            return true
        case .environment(let a):
            guard case .environment(let b) = other else { return false }
            return a.isCertainlySame(as: b)
        }
    }
}

extension EnvironmentValue {
    func isCertainlySame(as other: EnvironmentValue) -> Bool {
        switch (self, other) {
        case let (.foregroundStyle(a), .foregroundStyle(b)), let (.tint(a), .tint(b)): stylesAreCertainlySame(a, b)
        case let (.font(a), .font(b)): a == b
        case let (.lineLimit(a), .lineLimit(b)): a == b
        case let (.multilineTextAlignment(a), .multilineTextAlignment(b)): a == b
        case let (.truncationMode(a), .truncationMode(b)): a == b
        case let (.lineSpacing(a), .lineSpacing(b)): a == b
        case let (.imageScale(a), .imageScale(b)): a == b
        case let (.symbolVariant(a), .symbolVariant(b)): a == b
        case let (.labelStyle(a), .labelStyle(b)): a == b
        case (.foregroundStyle, _), (.tint, _), (.font, _), (.lineLimit, _), (.multilineTextAlignment, _), (.truncationMode, _),
             (.lineSpacing, _), (.imageScale, _), (.symbolVariant, _), (.labelStyle, _): false
        }
    }
}

extension ShapeGeometry {
    /// The same shape: equal values of one `Equatable` shape type (every built-in shape and
    /// its transforms, strokes and booleans are; a shape of the user's is when it conforms).
    func isCertainlySame(as other: ShapeGeometry) -> Bool { areCertainlyEqual(shape, other.shape) }
}

extension Text {
    func isCertainlySame(as other: Text) -> Bool {
        guard segments.count == other.segments.count else { return false }
        for i in segments.indices {
            guard segments[i].isCertainlySame(as: other.segments[i]) else { return false }
        }
        return true
    }
}

extension Text.Segment {
    func isCertainlySame(as other: Text.Segment) -> Bool {
        guard string == other.string, font == other.font, weight == other.weight, italic == other.italic, bold == other.bold,
              tracking == other.tracking, baselineOffset == other.baselineOffset else { return false }
        if let style {
            guard let otherStyle = other.style else { return false }
            return stylesAreCertainlySame(style, otherStyle)
        }
        return other.style == nil
    }
}

/// Two styles that are certainly the same: equal values of one `Equatable` style type (every
/// style this engine has).
func stylesAreCertainlySame(_ a: any ShapeStyle, _ b: any ShapeStyle) -> Bool {
    // Colours are most styles: compared without a conformance lookup.
    if let x = a as? Color, let y = b as? Color { return x == y }
    return areCertainlyEqual(a, b)
}

/// Whether `a` and `b` are of one `Equatable` type and equal; false for any other type.
func areCertainlyEqual(_ a: Any, _ b: Any) -> Bool {
    guard let a = a as? any Equatable else { return false }
    return a.isEqual(toAny: b)
}

extension Equatable {
    fileprivate func isEqual(toAny other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}
