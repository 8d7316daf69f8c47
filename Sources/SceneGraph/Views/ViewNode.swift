import Foundation

/// A view resolved to what layout and lowering need, sorted into a small taxonomy:
/// - leaves draw or take room (shapes, images, spacers),
/// - containers hold children that they lay out (stacks, builder blocks),
/// - a modifier wraps one view: it places it (`layout`), changes how each leaf draws
///   (`effect`, distributed to every leaf), isolates it into an offscreen layer (`boundary`),
///   or only names, animates or configures it (`meta`).
///
/// User views' bodies are expanded; every switch over these kinds is exhaustive, so a new
/// kind cannot be forgotten silently.
indirect enum ViewNode: Sendable {
    case leaf(Leaf)
    case container(Container)
    case modified(Modifier, ViewNode)

    static let empty = ViewNode.leaf(.empty)
}

/// Views that draw or take room themselves.
enum Leaf: Sendable {
    /// Nothing, taking no room.
    case empty
    /// Boxed (indirect): layout, lowering and planning copy each leaf several times, and a
    /// copy is then one retain instead of two (the geometry, and the style's existential,
    /// whose `Color` is too large to sit in it unboxed).
    indirect case shape(ShapeGeometry, style: any ShapeStyle, fillRule: FillRule)
    /// Pixels at their natural size, or stretched to the frame when resizable.
    case image(ImageContent, resizable: Bool, filter: ImageFilter)
    /// Vector art (an SVG document) at its natural size, or stretched to the frame when
    /// resizable.
    case drawing(any VectorDrawing, resizable: Bool)
    /// Flexible room along a stack's axis (SwiftUI's `Spacer`), at least `minLength`.
    case spacer(minLength: CGFloat?)
    /// A view tree laid out already (a frame of an animation, whose layout is interpolated):
    /// layout takes its size and places it as it is, without measuring anything inside.
    indirect case laidOut(PlacedNode)
    /// A symbol by name (`Image(systemName:)`), sized and weighted by the font around it when
    /// layout resolves it (into `placedSymbol`).
    case symbol(String, resizable: Bool)
    case placedSymbol(PlacedSymbol)
    /// A `Label`'s parts, arranged by layout as the label style around it says (into a row or
    /// one of the parts).
    indirect case label(icon: ViewNode, title: ViewNode)
    /// Text, laid out in lines by layout (which makes it `placedText`).
    case text(Text)
    /// Text as layout placed it: its lines for its frame.
    case placedText(PlacedText)
    /// What a layout that could not be made leaves (an animation state whose text needs a
    /// font that is not installed): measuring it reports the error, so the render fails.
    case layoutFailure(TypographyError)
}

/// Views that lay out several children.
enum Container: Sendable {
    /// Children that the enclosing container lays out (a builder block, a list); alone, they
    /// are overlaid like a centred ZStack.
    case sequence([ViewNode])
    case zstack(Alignment, [ViewNode])
    /// Side by side (horizontal) or one above another (vertical): cross-axis alignment as a
    /// fraction, spacing between children (nil: SwiftUI's default, 8 between views, none
    /// beside a `Spacer`).
    case stack(Axis, alignment: Double, spacing: CGFloat?, [ViewNode])

    var children: [ViewNode] {
        switch self {
        case .sequence(let c), .zstack(_, let c), .stack(_, _, _, let c): c
        }
    }

    /// The container with its parameters and no children (what a laid-out node keeps).
    var withoutChildren: Container {
        switch self {
        case .sequence: .sequence([])
        case .zstack(let a, _): .zstack(a, [])
        case let .stack(axis, alignment, spacing, _): .stack(axis, alignment: alignment, spacing: spacing, [])
        }
    }
}

/// What a modifier does to the view it wraps.
enum Modifier: Sendable {
    /// Where the view goes and how large it is.
    case layout(LayoutModifier)
    /// How each leaf inside draws: applied to every leaf separately (no layer).
    case effect(Effect)
    /// Composites the content into an offscreen layer first; effects outside apply once.
    case boundary(Boundary)
    /// Names, animates or configures the view; draws nothing itself.
    case meta(Meta)
}

/// Layout modifiers: they give their child a rectangle of their own choosing.
enum LayoutModifier: Sendable {
    case padding(top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat)
    case frame(width: CGFloat?, height: CGFloat?, alignment: Alignment)
    /// `frame(minWidth:idealWidth:maxWidth:minHeight:idealHeight:maxHeight:alignment:)`.
    case flexibleFrame(FlexibleFrame, alignment: Alignment)
    /// The child proposed a size of this width ÷ height (nil: its ideal proportions), fitted in
    /// or filling the proposal.
    case aspectRatio(CGFloat?, fill: Bool)
    /// The child's centre at a point of the parent's space; takes the whole proposal.
    case position(CGPoint)
    /// The child at its ideal size along the fixed axes, whatever is proposed.
    case fixedSize(horizontal: Bool, vertical: Bool)
    /// The child's rectangle moved, its size and the parent's layout unchanged.
    case offset(CGSize)
    /// A stack serves children of higher priority first (SwiftUI's `layoutPriority`).
    case priority(Double)
    /// A second view laid out in the child's frame, behind it (background) or in front
    /// (overlay).
    case layered(ViewNode, alignment: Alignment, inFront: Bool)
}

/// Per-leaf effects: lowering accumulates them into every leaf below.
enum Effect: Sendable {
    case opacity(Double)
    case blendMode(BlendMode)
    /// A drop shadow: colour, radius (σ = radius / 2), offset, in points.
    case shadow(Color, radius: CGFloat, offset: CGSize)
    /// Clips the drawing to a shape laid out in the view's frame.
    case clip(ShapeGeometry, FillRule)
    /// A colour effect (`colorMultiply`, `brightness`, …) on every leaf's paint, or once on a
    /// boundary's result.
    case color(ColorMatrix)
    /// A transform about an anchor of the view's frame (rotation, scale, arbitrary).
    case transform(EffectTransform, anchor: UnitPoint)
}

/// Boundaries: the content is composited into a layer of its own first.
enum Boundary: Sendable {
    case compositingGroup
    case drawingGroup(opaque: Bool, colorMode: ColorRenderingMode)
    /// A Gaussian blur of the composited content, σ = radius in points; `opaque` samples the
    /// content's edge pixels beyond it instead of transparency.
    case blur(radius: CGFloat, opaque: Bool)
    /// The content kept where `mask` (laid out in the content's frame) has alpha.
    case mask(ViewNode, alignment: Alignment)
}

/// Modifiers that draw nothing: identity, animation and environment.
enum Meta: Sendable {
    /// An explicit or structural identity: what animation matches views by.
    case identity(ViewID)
    /// How the view enters or leaves in an animated change.
    case transition(AnyTransition)
    /// Animation interpolates this view's frame as one unit and its content inside it.
    case geometryGroup
    /// A value of the environment below (what unfilled shapes and `.tint` resolve to).
    case environment(EnvironmentValue)
}

/// The environment values views below a modifier read.
enum EnvironmentValue: Sendable {
    /// What shapes without a fill of their own use (`ForegroundStyle`).
    case foregroundStyle(any ShapeStyle)
    /// What `.tint` resolves to (SwiftUI's accent colour, blue, by default).
    case tint(any ShapeStyle)
    /// Text's font where it sets none (nil: `.body`).
    case font(Font?)
    case lineLimit(Int?)
    case multilineTextAlignment(TextAlignment)
    case truncationMode(TruncationMode)
    case lineSpacing(CGFloat)
    case imageScale(Image.Scale)
    case symbolVariant(SymbolVariants)
    case labelStyle(LabelStyle)
}

/// An identity animation matches views by: explicit (`.id(_:)`, `ForEach`'s element ids) or
/// structural (a builder block's position, an `if`/`else` branch, a scene file's source
/// location). Identities are only compared, never changed.
struct ViewID: Hashable, Sendable {
    private enum Storage: Hashable, Sendable {
        case structural(StructuralID)
        case explicit(ExplicitID)
    }
    private let storage: Storage
    init(_ id: StructuralID) { storage = .structural(id) }
    init(_ id: ExplicitID) { storage = .explicit(id) }

    /// The structural identity, if this is one.
    var structural: StructuralID? {
        if case .structural(let id) = storage { return id }
        return nil
    }
}

/// A user's `.id(_:)` or a `ForEach` element id, kept apart from structural identities of the
/// same value. `.id(_:)` takes `Sendable` values; a `ForEach` id need only be `Hashable`, as in
/// SwiftUI, and is in practice a plain value (a number, a string, a UUID), so this box vouches
/// for it (`AnyHashable` itself is not `Sendable`).
///
/// Equal as their values are equal as `AnyHashable`s (so `Int8(3)` and `3` are one id);
/// integers, most ids (`ForEach` over a range), compare without boxing: a frame compared with
/// the last one compares every id.
struct ExplicitID: Hashable, @unchecked Sendable {
    private let integer: Int
    private let boxed: AnyHashable?
    init<ID: Hashable>(_ value: ID) {
        if let i = value as? Int {
            (integer, boxed) = (i, nil)
        } else {
            (integer, boxed) = (0, AnyHashable(value))
        }
    }
    /// The value, boxed.
    var value: AnyHashable { boxed ?? AnyHashable(integer) }

    static func == (a: ExplicitID, b: ExplicitID) -> Bool {
        if a.boxed == nil, b.boxed == nil { return a.integer == b.integer }
        return a.value == b.value
    }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

enum StructuralID: Hashable, Sendable {
    /// The n-th view of a builder block.
    case position(Int)
    /// The `if` (true) or `else` (false) branch of a builder condition.
    case branch(Bool)
    /// Where a scene file wrote the view (line, column).
    case source(line: Int, column: Int)
}

extension ViewNode {
    /// The children a container lays out: sequences flattened, empty views dropped, and a
    /// modifier written on several views (a `Group`, a `ForEach`) applied to each of them, as
    /// SwiftUI applies a group's modifiers to every member.
    static func children(_ node: ViewNode) -> [ViewNode] {
        var members: [ViewNode] = []
        appendChildren(of: node, to: &members)
        return members
    }

    /// `children(node)` appended to `members`, without an array per child (a ZStack of
    /// 10,000 views made 20,000 one-element arrays a frame).
    static func appendChildren(of node: ViewNode, to members: inout [ViewNode]) {
        switch node {
        case .leaf(.empty): return
        case .container(.sequence(let nodes)):
            if members.isEmpty { members.reserveCapacity(nodes.count) }
            for n in nodes { appendChildren(of: n, to: &members) }
        case .leaf, .container: members.append(node)
        case let .modified(modifier, inner):
            let start = members.count
            appendChildren(of: inner, to: &members)
            if members.count - start == 1 {
                members[start] = node
            } else {
                for k in start..<members.count { members[k] = .modified(modifier, members[k]) }
            }
        }
    }

    /// The node under any identity and priority wrappers (what a stack asks about a child).
    var unwrapped: ViewNode {
        switch self {
        case .modified(.meta(.identity), let child), .modified(.layout(.priority), let child): child.unwrapped
        case .leaf, .container, .modified: self
        }
    }

    var isSpacer: Bool {
        if case .leaf(.spacer) = unwrapped { return true }
        return false
    }

    /// The priority a stack gives this child (0 unless `layoutPriority` says otherwise).
    var layoutPriority: Double {
        switch self {
        case .modified(.layout(.priority(let p)), _): p
        case .modified(.meta(.identity), let child): child.layoutPriority
        case .leaf, .container, .modified: 0
        }
    }
}

/// A shape's path as a function of its frame, and how to move the shape's `animatableData`
/// part of the way from another shape of the same type (the other parameters jump). A class,
/// immutable: view trees copy their leaves several times a frame (layout, lowering, planning),
/// and a copy is then one retain, not one per closure plus the shape's existential.
final class ShapeGeometry: Sendable {
    /// The path in `rect` at a device resolution (a stroke's outline flattened finely enough
    /// for it, within the render's limits), or at the shape's own default without one.
    let path: @Sendable (_ rect: CGRect, _ resolution: _PathResolution?) throws(StrokeRefusal) -> Path
    /// The shape itself, to find its counterpart's type and animatable data.
    let shape: any Shape
    /// This shape with its animatable data at `progress` between `from`'s (0) and its own
    /// (1); nil when `from` is a different kind of shape.
    let interpolated: @Sendable (_ from: ShapeGeometry, _ progress: Double) -> ShapeGeometry?
    /// For a stroke (`shape.stroke(…)`): the stroked path at a resolution and the style, which
    /// `path` strokes; lowering strokes many of them at once on the render's threads.
    let strokeParts: (@Sendable (_ rect: CGRect, _ resolution: _PathResolution) throws(StrokeRefusal) -> (Path, StrokeStyle))?

    init<S: Shape>(_ shape: S) {
        path = shape.resolvedPathFunction()
        if let stroke = shape as? any _StrokeParts {
            strokeParts = { rect, resolution throws(StrokeRefusal) in try stroke._strokeParts(in: rect, resolution: resolution) }
        } else {
            strokeParts = nil
        }
        self.shape = shape
        interpolated = { from, progress in
            guard let old = from.shape as? S else { return nil }
            var s = shape
            s.animatableData = old.animatableData.interpolated(towards: shape.animatableData, amount: progress)
            return ShapeGeometry(s)
        }
    }
}

/// A transform effect, kept as its parameters so that animation interpolates angles and
/// scales rather than matrix entries (a half-turn through matrix entries would collapse).
enum EffectTransform: Hashable, Sendable {
    case rotation(radians: Double)
    case scale(x: CGFloat, y: CGFloat)
    case affine(CGAffineTransform)

    var matrix: CGAffineTransform {
        switch self {
        case .rotation(let r): CGAffineTransform(rotationAngle: r)
        case let .scale(x, y): CGAffineTransform(scaleX: x, y: y)
        case .affine(let t): t
        }
    }
}

/// The bounds of a flexible frame; nil leaves a bound to the child.
struct FlexibleFrame: Hashable, Sendable {
    var minWidth: CGFloat?, idealWidth: CGFloat?, maxWidth: CGFloat?
    var minHeight: CGFloat?, idealHeight: CGFloat?, maxHeight: CGFloat?
}
