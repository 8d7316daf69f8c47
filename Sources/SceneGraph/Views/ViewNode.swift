import Foundation

/// A view resolved to what layout and lowering need: primitives, containers and modifiers,
/// with user views' bodies expanded.
indirect enum ViewNode {
    case empty
    /// Several children that the enclosing container lays out (a builder block, a list).
    case sequence([ViewNode])
    case shape(ShapeGeometry, style: any ShapeStyle, fillRule: FillRule)
    case zstack(Alignment, [ViewNode])
    /// A horizontal (axis 0) or vertical (axis 1) stack: cross-axis alignment as a fraction,
    /// spacing between children (nil: SwiftUI's default, 8 between views, none beside a
    /// `Spacer`).
    case stack(axis: Int, alignment: Double, spacing: CGFloat?, [ViewNode])
    /// Pixels at their natural size, or stretched to the frame when resizable.
    case image(ImageContent, resizable: Bool, filter: ImageFilter)
    /// The child proposed a size of this width ÷ height (nil: its ideal proportions), fitted in
    /// or filling the proposal.
    case aspectRatio(CGFloat?, fill: Bool, ViewNode)
    /// Flexible room along a stack's axis (SwiftUI's `Spacer`), at least `minLength`.
    case spacer(minLength: CGFloat?)
    case padding(top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat, ViewNode)
    case frame(width: CGFloat?, height: CGFloat?, alignment: Alignment, ViewNode)
    /// `frame(minWidth:idealWidth:maxWidth:minHeight:idealHeight:maxHeight:alignment:)`.
    case flexibleFrame(FlexibleFrame, alignment: Alignment, ViewNode)
    /// A stack serves children of higher priority first (SwiftUI's `layoutPriority`).
    case layoutPriority(Double, ViewNode)
    /// An explicit or structural identity: what animation matches views by.
    case identity(AnyHashable, ViewNode)
    /// Animation interpolates this view's frame as one unit and its content inside it.
    case geometryGroup(ViewNode)
    /// How the view enters or leaves in an animated change.
    case transition(AnyTransition, ViewNode)
    /// The foreground style of the environment below (what unfilled shapes use).
    case foregroundStyle(any ShapeStyle, ViewNode)
    /// Set by animation only: the child goes exactly in this rectangle (an interpolated frame),
    /// whatever its parent's layout says.
    case placed(CGRect, ViewNode)
    case offset(CGSize, ViewNode)
    /// A transform about an anchor of the view's frame (rotation, scale, arbitrary), drawing only.
    case transformEffect(EffectTransform, anchor: UnitPoint, ViewNode)
    case opacity(Double, ViewNode)
    case blendMode(BlendMode, ViewNode)
    /// A drop shadow: colour, radius (σ = radius / 2), offset, in points.
    case shadow(Color, radius: CGFloat, offset: CGSize, ViewNode)
    /// Clips the drawing to a shape laid out in the view's frame.
    case clip(ShapeGeometry, FillRule, ViewNode)
    /// `secondary` laid out in `primary`'s frame, behind it (background) or in front (overlay).
    case layered(primary: ViewNode, secondary: ViewNode, alignment: Alignment, secondaryInFront: Bool)
    case compositingGroup(ViewNode)
    /// A Gaussian blur of the composited content, σ = radius in points; `opaque` samples the
    /// content's edge pixels beyond it instead of transparency.
    case blur(radius: CGFloat, opaque: Bool, ViewNode)
    /// The content kept where `mask` (laid out in the content's frame) has alpha.
    case mask(alignment: Alignment, mask: ViewNode, ViewNode)
    case drawingGroup(opaque: Bool, colorMode: ColorRenderingMode, ViewNode)
    /// A colour effect (`colorMultiply`, `brightness`, …) on every leaf's paint, or once on a
    /// boundary's result.
    case colorEffect(ColorMatrix, ViewNode)
    /// The child's centre at a point of the parent's space; takes the whole proposal.
    case position(CGPoint, ViewNode)
    /// The child at its ideal size along the fixed axes, whatever is proposed.
    case fixedSize(horizontal: Bool, vertical: Bool, ViewNode)

    /// The children a container lays out: sequences flattened, empty views dropped, and a
    /// modifier written on several views (a `Group`, a `ForEach`) applied to each of them, as
    /// SwiftUI applies a group's modifiers to every member.
    static func children(_ node: ViewNode) -> [ViewNode] {
        switch node {
        case .empty: return []
        case .sequence(let nodes): return nodes.flatMap(children)
        default:
            if let (inner, rewrap) = node.modified {
                let members = children(inner)
                if members.count != 1 { return members.map(rewrap) }
            }
            return [node]
        }
    }

    /// For a modifier: the view it modifies (a background's or overlay's primary view, a mask's
    /// content); nil for containers and primitives.
    var modifiedChild: ViewNode? { modified?.0 }

    /// For a modifier: the view it modifies, and how to put the same modifier on another.
    private var modified: (ViewNode, (ViewNode) -> ViewNode)? {
        switch self {
        case let .padding(t, l, b, r, child): (child, { .padding(top: t, leading: l, bottom: b, trailing: r, $0) })
        case let .frame(w, h, a, child): (child, { .frame(width: w, height: h, alignment: a, $0) })
        case let .flexibleFrame(f, a, child): (child, { .flexibleFrame(f, alignment: a, $0) })
        case let .layoutPriority(p, child): (child, { .layoutPriority(p, $0) })
        case let .identity(id, child): (child, { .identity(id, $0) })
        case let .geometryGroup(child): (child, { .geometryGroup($0) })
        case let .transition(t, child): (child, { .transition(t, $0) })
        case let .foregroundStyle(s, child): (child, { .foregroundStyle(s, $0) })
        case let .aspectRatio(r, fill, child): (child, { .aspectRatio(r, fill: fill, $0) })
        case let .placed(r, child): (child, { .placed(r, $0) })
        case let .offset(d, child): (child, { .offset(d, $0) })
        case let .transformEffect(t, anchor, child): (child, { .transformEffect(t, anchor: anchor, $0) })
        case let .opacity(o, child): (child, { .opacity(o, $0) })
        case let .blendMode(m, child): (child, { .blendMode(m, $0) })
        case let .shadow(c, radius, offset, child): (child, { .shadow(c, radius: radius, offset: offset, $0) })
        case let .clip(path, rule, child): (child, { .clip(path, rule, $0) })
        case let .layered(primary, secondary, a, front): (primary, { .layered(primary: $0, secondary: secondary, alignment: a, secondaryInFront: front) })
        case let .compositingGroup(child): (child, { .compositingGroup($0) })
        case let .blur(radius, opaque, child): (child, { .blur(radius: radius, opaque: opaque, $0) })
        case let .mask(a, mask, child): (child, { .mask(alignment: a, mask: mask, $0) })
        case let .drawingGroup(opaque, mode, child): (child, { .drawingGroup(opaque: opaque, colorMode: mode, $0) })
        case let .colorEffect(m, child): (child, { .colorEffect(m, $0) })
        case let .position(p, child): (child, { .position(p, $0) })
        case let .fixedSize(h, v, child): (child, { .fixedSize(horizontal: h, vertical: v, $0) })
        case .empty, .sequence, .shape, .zstack, .stack, .spacer, .image: nil
        }
    }

    /// The node under any identity and priority wrappers (what a stack asks about a child).
    var unwrapped: ViewNode {
        switch self {
        case .identity(_, let child), .layoutPriority(_, let child): child.unwrapped
        default: self
        }
    }
}

/// A shape's path as a function of its frame, and how to move the shape's `animatableData`
/// part of the way from another shape of the same type (the other parameters jump).
struct ShapeGeometry {
    let path: (CGRect) -> Path
    /// The shape itself, to find its counterpart's type and animatable data.
    let shape: Any
    /// This shape with its animatable data at `progress` between `from`'s (0) and its own
    /// (1); nil when `from` is a different kind of shape.
    let interpolated: (_ from: ShapeGeometry, _ progress: Double) -> ShapeGeometry?

    init<S: Shape>(_ shape: S) {
        path = { shape.path(in: $0) }
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
enum EffectTransform {
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
struct FlexibleFrame: Hashable {
    var minWidth: CGFloat?, idealWidth: CGFloat?, maxWidth: CGFloat?
    var minHeight: CGFloat?, idealHeight: CGFloat?, maxHeight: CGFloat?
}

/// Where a child sits in a larger space, as fractions of the free room (SwiftUI's `Alignment`).
public struct Alignment: Hashable, Sendable {
    public var horizontal: Double
    public var vertical: Double
    public init(horizontal: Double, vertical: Double) { self.horizontal = horizontal; self.vertical = vertical }

    public static let center = Alignment(horizontal: 0.5, vertical: 0.5)
    public static let leading = Alignment(horizontal: 0, vertical: 0.5)
    public static let trailing = Alignment(horizontal: 1, vertical: 0.5)
    public static let top = Alignment(horizontal: 0.5, vertical: 0)
    public static let bottom = Alignment(horizontal: 0.5, vertical: 1)
    public static let topLeading = Alignment(horizontal: 0, vertical: 0)
    public static let topTrailing = Alignment(horizontal: 1, vertical: 0)
    public static let bottomLeading = Alignment(horizontal: 0, vertical: 1)
    public static let bottomTrailing = Alignment(horizontal: 1, vertical: 1)

    /// The rectangle of `size` placed in `rect` by this alignment.
    func place(_ size: CGSize, in rect: CGRect) -> CGRect {
        CGRect(x: rect.minX + (rect.width - size.width) * horizontal,
               y: rect.minY + (rect.height - size.height) * vertical, width: size.width, height: size.height)
    }
}

/// Overlays its children, each sized by the stack's proposal and aligned in the stack's frame
/// (SwiftUI's `ZStack`).
public struct ZStack<Content: View>: View, PrimitiveView {
    public var alignment: Alignment
    let content: Content
    public init(alignment: Alignment = .center, @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.content = content()
    }
    public var body: EmptyView { EmptyView() }
    func makeNode() -> ViewNode { .zstack(alignment, ViewNode.children(resolve(content))) }
}

/// Vertical alignment of an HStack's children (SwiftUI's `VerticalAlignment`).
public enum VerticalAlignment: Hashable, Sendable {
    case top, center, bottom
    var fraction: Double { self == .top ? 0 : self == .center ? 0.5 : 1 }
}

/// Horizontal alignment of a VStack's children (SwiftUI's `HorizontalAlignment`).
public enum HorizontalAlignment: Hashable, Sendable {
    case leading, center, trailing
    var fraction: Double { self == .leading ? 0 : self == .center ? 0.5 : 1 }
}

/// The default space between stack children, 8 points (what SwiftUI puts between shapes).
public let defaultStackSpacing: CGFloat = 8

/// Children side by side, least flexible first served (SwiftUI's `HStack`).
public struct HStack<Content: View>: View, PrimitiveView {
    public var alignment: VerticalAlignment
    public var spacing: CGFloat?
    let content: Content
    public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.spacing = spacing
        self.content = content()
    }
    public var body: EmptyView { EmptyView() }
    func makeNode() -> ViewNode {
        .stack(axis: 0, alignment: alignment.fraction, spacing: spacing, ViewNode.children(resolve(content)))
    }
}

/// Children one above another (SwiftUI's `VStack`).
public struct VStack<Content: View>: View, PrimitiveView {
    public var alignment: HorizontalAlignment
    public var spacing: CGFloat?
    let content: Content
    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.spacing = spacing
        self.content = content()
    }
    public var body: EmptyView { EmptyView() }
    func makeNode() -> ViewNode {
        .stack(axis: 1, alignment: alignment.fraction, spacing: spacing, ViewNode.children(resolve(content)))
    }
}

/// A view with a modifier applied (the engine's equivalent of SwiftUI's `ModifiedContent`).
public struct _ModifiedView<Content: View>: View, PrimitiveView {
    let content: Content
    let wrap: (ViewNode) -> ViewNode
    public var body: EmptyView { EmptyView() }
    func makeNode() -> ViewNode { wrap(resolve(content)) }
}

extension View {
    /// A fixed width and/or height; the child is proposed that size and aligned in it.
    public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center) -> _ModifiedView<Self> {
        _ModifiedView(content: self) { .frame(width: width, height: height, alignment: alignment, $0) }
    }
    /// Insets the view by `length` on every side (16 points by default).
    public func padding(_ length: CGFloat = 16) -> _ModifiedView<Self> {
        _ModifiedView(content: self) { .padding(top: length, leading: length, bottom: length, trailing: length, $0) }
    }
    /// Insets the view by `length` on the sides in `edges`.
    public func padding(_ edges: Edge.Set, _ length: CGFloat = 16) -> _ModifiedView<Self> {
        _ModifiedView(content: self) {
            .padding(top: edges.contains(.top) ? length : 0, leading: edges.contains(.leading) ? length : 0,
                     bottom: edges.contains(.bottom) ? length : 0, trailing: edges.contains(.trailing) ? length : 0, $0)
        }
    }
    /// Rotates the drawing about `anchor` of the view's frame (clockwise on screen for positive
    /// angles), without changing layout. Composes into every leaf's transform.
    public func rotationEffect(_ angle: Angle, anchor: UnitPoint = .center) -> _ModifiedView<Self> {
        _ModifiedView(content: self) { .transformEffect(.rotation(radians: angle.radians), anchor: anchor, $0) }
    }
    /// Scales the drawing about `anchor` of the view's frame, without changing layout.
    public func scaleEffect(_ scale: CGFloat, anchor: UnitPoint = .center) -> _ModifiedView<Self> {
        scaleEffect(x: scale, y: scale, anchor: anchor)
    }
    public func scaleEffect(x: CGFloat = 1, y: CGFloat = 1, anchor: UnitPoint = .center) -> _ModifiedView<Self> {
        _ModifiedView(content: self) { .transformEffect(.scale(x: x, y: y), anchor: anchor, $0) }
    }
    /// Applies `transform` to the drawing (in the view's coordinates, origin at its frame's
    /// top-leading corner), without changing layout.
    public func transformEffect(_ transform: CGAffineTransform) -> _ModifiedView<Self> {
        _ModifiedView(content: self) { .transformEffect(.affine(transform), anchor: .topLeading, $0) }
    }
    /// Moves the drawing without changing layout.
    public func offset(x: CGFloat = 0, y: CGFloat = 0) -> _ModifiedView<Self> {
        _ModifiedView(content: self) { .offset(CGSize(width: x, height: y), $0) }
    }
    public func offset(_ offset: CGSize) -> _ModifiedView<Self> {
        _ModifiedView(content: self) { .offset(offset, $0) }
    }
    /// Multiplies into every leaf's opacity (each leaf blends on its own, overlaps show through),
    /// or into a compositing group's single composite when written after `compositingGroup()`.
    public func opacity(_ opacity: Double) -> _ModifiedView<Self> {
        _ModifiedView(content: self) { .opacity(min(1, max(0, opacity.isNaN ? 0 : opacity)), $0) }
    }
    /// Blends every leaf with what lies behind it using `mode`; the innermost mode written on a
    /// leaf's path wins. Inside a `compositingGroup()`, "behind" is the group's own content.
    public func blendMode(_ mode: BlendMode) -> _ModifiedView<Self> {
        _ModifiedView(content: self) { .blendMode(mode, $0) }
    }
    /// Clips every leaf to `shape` (laid out in this view's frame), each with its own
    /// anti-aliased coverage, so shared edges show a fringe; after `compositingGroup()` the clip
    /// applies once to the composite.
    public func clipShape<S: Shape>(_ shape: S, style: FillStyle = FillStyle()) -> _ModifiedView<Self> {
        _ModifiedView(content: self) { .clip(ShapeGeometry(shape), style.isEOFilled ? .evenOdd : .nonZero, $0) }
    }
    /// Clips the drawing to the view's frame.
    public func clipped(antialiased: Bool = false) -> _ModifiedView<Self> {
        clipShape(Rectangle())
    }
    /// Gives every leaf its own shadow (a child's shadow falls on its siblings), or, after
    /// `compositingGroup()`, one shadow of the combined content. The blur is a Gaussian of
    /// σ = radius / 2 (Core Animation's convention); the default colour is SwiftUI's,
    /// black at 0.33 in linear sRGB.
    public func shadow(color: Color = Color(.sRGBLinear, white: 0, opacity: 0.33), radius: CGFloat,
                       x: CGFloat = 0, y: CGFloat = 0) -> _ModifiedView<Self> {
        _ModifiedView(content: self) { .shadow(color, radius: max(0, radius), offset: CGSize(width: x, height: y), $0) }
    }
    /// `content` drawn behind the view, laid out in the view's frame.
    public func background<Background: View>(alignment: Alignment = .center,
                                             @ViewBuilder content: () -> Background) -> _ModifiedView<Self> {
        let node = resolve(content())
        return _ModifiedView(content: self) { .layered(primary: $0, secondary: node, alignment: alignment, secondaryInFront: false) }
    }
    public func background<Background: View>(_ background: Background, alignment: Alignment = .center) -> _ModifiedView<Self> {
        let node = resolve(background)
        return _ModifiedView(content: self) { .layered(primary: $0, secondary: node, alignment: alignment, secondaryInFront: false) }
    }
    /// `content` drawn in front of the view, laid out in the view's frame.
    public func overlay<Overlay: View>(alignment: Alignment = .center, @ViewBuilder content: () -> Overlay) -> _ModifiedView<Self> {
        let node = resolve(content())
        return _ModifiedView(content: self) { .layered(primary: $0, secondary: node, alignment: alignment, secondaryInFront: true) }
    }
    public func overlay<Overlay: View>(_ overlay: Overlay, alignment: Alignment = .center) -> _ModifiedView<Self> {
        let node = resolve(overlay)
        return _ModifiedView(content: self) { .layered(primary: $0, secondary: node, alignment: alignment, secondaryInFront: true) }
    }
    /// Rasterizes the content into an offscreen image first (SwiftUI's `drawingGroup`):
    /// `.nonLinear` blends as the parent does, `.linear` in linear light (8-bit), and
    /// `.extendedLinear` in linear floats where colour may exceed 1; `opaque` starts the image
    /// black with no alpha. Modifiers written after it apply once to the image, which is
    /// converted to the parent's encoding first.
    public func drawingGroup(opaque: Bool = false, colorMode: ColorRenderingMode = .nonLinear) -> _ModifiedView<Self> {
        _ModifiedView(content: self) { .drawingGroup(opaque: opaque, colorMode: colorMode, $0) }
    }
    /// Composites the content into an offscreen layer first; modifiers written after this apply
    /// once to the result.
    public func compositingGroup() -> _ModifiedView<Self> {
        _ModifiedView(content: self) { .compositingGroup($0) }
    }
    /// Blurs the composited content with a Gaussian of σ = `radius` points (SwiftUI documents
    /// the radius as the standard deviation). Always a boundary: the content is composited
    /// into a layer first, then blurred as one. With `opaque`, the blur repeats the content's
    /// edge pixels instead of fading into transparency beyond them.
    public func blur(radius: CGFloat, opaque: Bool = false) -> _ModifiedView<Self> {
        _ModifiedView(content: self) { .blur(radius: max(0, radius.isNaN ? 0 : radius), opaque: opaque, $0) }
    }
    /// Places the view's centre at (`x`, `y`) in its parent's coordinates; the modified view
    /// takes all the space offered (SwiftUI's `position`).
    public func position(x: CGFloat = 0, y: CGFloat = 0) -> _ModifiedView<Self> {
        _ModifiedView(content: self) { .position(CGPoint(x: x, y: y), $0) }
    }
    public func position(_ point: CGPoint) -> _ModifiedView<Self> { position(x: point.x, y: point.y) }
    /// The view at its ideal size, whatever its parent proposes (shapes' ideal is 10 × 10 pt).
    public func fixedSize() -> _ModifiedView<Self> { fixedSize(horizontal: true, vertical: true) }
    public func fixedSize(horizontal: Bool, vertical: Bool) -> _ModifiedView<Self> {
        _ModifiedView(content: self) { .fixedSize(horizontal: horizontal, vertical: vertical, $0) }
    }

    /// Multiplies every colour channel by `color`'s (SwiftUI's `colorMultiply`). Like every
    /// colour effect it transforms each leaf's paint (and the shadows written inside it), or,
    /// after a boundary (`compositingGroup()` …), the boundary's result once.
    public func colorMultiply(_ color: Color) -> _ModifiedView<Self> { colorEffect(.multiply(color)) }
    /// Adds `amount` (−1…1) to red, green and blue.
    public func brightness(_ amount: Double) -> _ModifiedView<Self> { colorEffect(.brightness(amount)) }
    /// Scales distances from mid-grey by `amount` (0: grey, 1: unchanged).
    public func contrast(_ amount: Double) -> _ModifiedView<Self> { colorEffect(.contrast(amount)) }
    /// 0: luminance grey, 1: unchanged, above 1: more saturated (Rec. 709 luminance).
    public func saturation(_ amount: Double) -> _ModifiedView<Self> { colorEffect(.saturation(amount)) }
    /// `amount` of the way to luminance grey.
    public func grayscale(_ amount: Double) -> _ModifiedView<Self> { colorEffect(.grayscale(amount)) }
    /// Turns hues by `angle`, keeping luminance.
    public func hueRotation(_ angle: Angle) -> _ModifiedView<Self> { colorEffect(.hueRotation(angle)) }
    /// Inverts red, green and blue.
    public func colorInvert() -> _ModifiedView<Self> { colorEffect(.invert) }
    private func colorEffect(_ matrix: ColorMatrix) -> _ModifiedView<Self> {
        _ModifiedView(content: self) { .colorEffect(matrix, $0) }
    }

    /// Keeps the content where `mask`, laid out in the content's frame with `alignment`, has
    /// alpha (its colour is ignored). Always a boundary: the content is composited first.
    public func mask<Mask: View>(alignment: Alignment = .center, @ViewBuilder _ mask: () -> Mask) -> _ModifiedView<Self> {
        let node = resolve(mask())
        return _ModifiedView(content: self) { .mask(alignment: alignment, mask: node, $0) }
    }
}

/// The sides of a rectangle (SwiftUI's `Edge`).
public enum Edge: Int8, Hashable, Sendable {
    case top, leading, bottom, trailing

    public struct Set: OptionSet, Hashable, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public static let top = Set(rawValue: 1), leading = Set(rawValue: 2), bottom = Set(rawValue: 4), trailing = Set(rawValue: 8)
        public static let all: Set = [.top, .leading, .bottom, .trailing]
        public static let horizontal: Set = [.leading, .trailing]
        public static let vertical: Set = [.top, .bottom]
    }
}

/// How a drawing group stores and blends colour (SwiftUI's `ColorRenderingMode`).
public enum ColorRenderingMode: String, Hashable, Sendable {
    /// 8-bit sRGB-encoded, blending as the parent does.
    case nonLinear
    /// 8-bit, blending in linear light (`a8r8g8b8_sRGB`).
    case linear
    /// 32-bit float linear light; colour values outside [0, 1] survive inside the group.
    case extendedLinear
}
