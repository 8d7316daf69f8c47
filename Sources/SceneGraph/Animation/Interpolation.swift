import Foundation

/// A view tree laid out: each node with the rectangle layout gave it (in the space lowering
/// uses: points, before transforms; a drawing group's content in the group's own space).
struct PlacedNode {
    var node: ViewNode
    var rect: CGRect
    var children: [PlacedNode]

    init(_ node: ViewNode, in rect: CGRect) {
        self.node = node
        self.rect = rect
        children = childRects(of: node, in: rect).map { PlacedNode($0.0, in: $0.1) }
    }
}

/// Where frames are measured from while interpolating: the origin of the nearest enclosing
/// `geometryGroup` in the old state, in the new state and now (the origin of the space
/// otherwise, which never moves).
private struct GeometryReference {
    var from: CGPoint = .zero
    var to: CGPoint = .zero
    var now: CGPoint = .zero
}

/// Builds the view tree drawn `progress` of the way through a change from one laid-out state to
/// another, as SwiftUI renders an animation:
/// - views are matched by identity (structural position, `if`/`else` branch, `ForEach`
///   element, `.id`); a matched view's frame is interpolated, measured from the nearest
///   `geometryGroup` (so without one, each view's absolute frame moves on its own, and with one,
///   the group moves as a unit and its content keeps its place inside it);
/// - matched modifiers interpolate their animatable parameters (opacity, shadow colour,
///   radius and offset, blur radius, colour effects, rotation, scale, transforms) and shapes
///   their `animatableData` and fill (colours in linear light, gradient stops); everything
///   else (blend modes, flags, a shape's other parameters) takes the new value at once;
/// - a view only in the new state enters with its transition (a fade by default) placed by
///   its new frame relative to the nearest `geometryGroup`; one only in the old state leaves
///   the same way backwards, drawn where it was in the old order.
/// The result pins every node to its interpolated rectangle (`ViewNode.placed`), so lowering
/// draws it without laying anything out again.
struct Interpolator {
    /// The animation curve's value: may leave [0, 1] (a spring overshoots).
    let progress: Double
    /// The progress for fades and transitions: `progress` clamped to [0, 1].
    var presence: Double { min(1, max(0, progress)) }

    func view(from old: PlacedNode, to new: PlacedNode) -> ViewNode {
        matched(old, new, GeometryReference())
    }

    private func lerp(_ a: CGFloat, _ b: CGFloat) -> CGFloat { a + (b - a) * CGFloat(progress) }
    private func lerp(_ a: Double, _ b: Double) -> Double { a + (b - a) * progress }

    private func matched(_ a: PlacedNode, _ b: PlacedNode, _ reference: GeometryReference) -> ViewNode {
        guard sameKind(a.node, b.node) else {
            return .sequence([leaving(a, reference), arriving(b, reference)])
        }
        let ra = a.rect.offsetBy(dx: -reference.from.x, dy: -reference.from.y)
        let rb = b.rect.offsetBy(dx: -reference.to.x, dy: -reference.to.y)
        let rect = CGRect(x: reference.now.x + lerp(ra.minX, rb.minX), y: reference.now.y + lerp(ra.minY, rb.minY),
                          width: max(0, lerp(ra.width, rb.width)), height: max(0, lerp(ra.height, rb.height)))
        let inner = innerReference(b.node, from: a.rect.origin, to: b.rect.origin, now: rect.origin, outer: reference)
        let children: [ViewNode]
        if b.node.matchesChildrenByIdentity {
            children = pairChildren(a.children, b.children).map { pair in
                switch pair {
                case let (old?, new?): matched(old, new, inner)
                case let (old?, nil): leaving(old, inner)
                case let (nil, new?): arriving(new, inner)
                case (nil, nil): .empty
                }
            }
        } else {
            children = zip(a.children, b.children).map { matched($0, $1, inner) }
        }
        return .placed(rect, rebuild(b.node, from: a.node, children: children))
    }

    /// A view present in one state only, pinned where that state put it relative to the
    /// reference (`fromOld`: the old state's frames).
    private func alone(_ x: PlacedNode, _ reference: GeometryReference, fromOld: Bool) -> (ViewNode, CGRect) {
        let origin = fromOld ? reference.from : reference.to
        let rect = x.rect.offsetBy(dx: reference.now.x - origin.x, dy: reference.now.y - origin.y)
        var inner = innerReference(x.node, from: x.rect.origin, to: x.rect.origin, now: rect.origin, outer: reference)
        if fromOld { inner.to = inner.from } else { inner.from = inner.to }
        let children = x.children.map { alone($0, inner, fromOld: fromOld).0 }
        return (.placed(rect, rebuild(x.node, from: x.node, children: children, interpolating: false)), rect)
    }

    private func arriving(_ b: PlacedNode, _ reference: GeometryReference) -> ViewNode {
        let (node, rect) = alone(b, reference, fromOld: false)
        return (b.node.transition ?? .opacity).apply(to: node, in: rect, presence: presence)
    }

    private func leaving(_ a: PlacedNode, _ reference: GeometryReference) -> ViewNode {
        let (node, rect) = alone(a, reference, fromOld: true)
        return (a.node.transition ?? .opacity).apply(to: node, in: rect, presence: 1 - presence)
    }

    /// The reference for a node's children: a geometry group measures from its own frame; a
    /// drawing group's content lives in the group's space, whose origin is fixed.
    private func innerReference(_ node: ViewNode, from: CGPoint, to: CGPoint, now: CGPoint,
                                outer: GeometryReference) -> GeometryReference {
        switch node {
        case .geometryGroup: GeometryReference(from: from, to: to, now: now)
        case .drawingGroup: GeometryReference()
        default: outer
        }
    }

    /// Old and new children paired by identity, in drawing order: the new order, with each
    /// removed child drawn just after the child that preceded it in the old order.
    private func pairChildren(_ old: [PlacedNode], _ new: [PlacedNode]) -> [(PlacedNode?, PlacedNode?)] {
        func keys(_ nodes: [PlacedNode]) -> [IdentityKey] {
            var seen: [[AnyHashable]: Int] = [:]
            return nodes.map { n in
                let chain = n.node.identityChain
                defer { seen[chain, default: 0] += 1 }
                return IdentityKey(chain: chain, occurrence: seen[chain, default: 0])
            }
        }
        let oldKeys = keys(old), newKeys = keys(new)
        var oldIndex: [IdentityKey: Int] = [:]
        for (i, k) in oldKeys.enumerated() { oldIndex[k] = i }
        let matchedOld = Set(newKeys.compactMap { oldIndex[$0] })
        var result: [(PlacedNode?, PlacedNode?)] = []
        var emitted = 0
        func emitRemoved(upTo limit: Int) {
            while emitted < limit {
                if !matchedOld.contains(emitted) { result.append((old[emitted], nil)) }
                emitted += 1
            }
        }
        // Removed children that led the old list come first.
        for (j, k) in newKeys.enumerated() {
            if let i = oldIndex[k] {
                emitRemoved(upTo: i)
                result.append((old[i], new[j]))
                emitted = max(emitted, i + 1)
            } else {
                result.append((nil, new[j]))
            }
        }
        emitRemoved(upTo: old.count)
        return result
    }

    /// The node `b` with its parameters interpolated from `a` (same kind) and `children` in
    /// place of its own. Layout-only wrappers vanish: their children are pinned already. A
    /// view present in one state only (`interpolating` false, `a` is `b`) keeps its shape and
    /// style as they are.
    private func rebuild(_ b: ViewNode, from a: ViewNode, children: [ViewNode], interpolating: Bool = true) -> ViewNode {
        let child = children.first ?? .empty
        switch (a, b) {
        case (_, .empty), (_, .spacer):
            return .empty
        case let (.shape(ga, sa, _), .shape(gb, sb, rule)):
            let exact = progress == 1 || !interpolating
            let geometry = exact ? gb : gb.interpolated(ga, progress) ?? gb
            let style: any ShapeStyle = exact ? sb : InterpolatedStyle(from: sa, to: sb, progress: progress)
            return .shape(geometry, style: style, fillRule: rule)
        case (_, .sequence), (_, .zstack), (_, .stack):
            return .zstack(.topLeading, children)
        case (_, .image):
            return b
        case (_, .padding), (_, .frame), (_, .flexibleFrame), (_, .aspectRatio), (_, .offset), (_, .position), (_, .fixedSize),
             (_, .layoutPriority), (_, .identity), (_, .geometryGroup), (_, .placed), (_, .transition):
            return child
        case let (.opacity(oa, _), .opacity(ob, _)):
            return .opacity(min(1, max(0, lerp(oa, ob))), child)
        case let (.foregroundStyle(sa, _), .foregroundStyle(sb, _)):
            return .foregroundStyle(progress == 1 ? sb : InterpolatedStyle(from: sa, to: sb, progress: progress), child)
        case let (_, .blendMode(mode, _)):
            return .blendMode(mode, child)
        case let (.shadow(ca, ra, da, _), .shadow(cb, rb, db, _)):
            return .shadow(ca.interpolated(to: cb, progress), radius: max(0, lerp(ra, rb)),
                           offset: CGSize(width: lerp(da.width, db.width), height: lerp(da.height, db.height)), child)
        case let (.clip(ga, _, _), .clip(gb, rule, _)):
            return .clip(gb.interpolated(ga, progress) ?? gb, rule, child)
        case (_, .compositingGroup):
            return .compositingGroup(child)
        case let (.blur(ra, _, _), .blur(rb, opaque, _)):
            return .blur(radius: max(0, lerp(ra, rb)), opaque: opaque, child)
        case let (_, .drawingGroup(opaque, mode, _)):
            return .drawingGroup(opaque: opaque, colorMode: mode, child)
        case let (.colorEffect(ma, _), .colorEffect(mb, _)):
            return .colorEffect(ColorMatrix(zip(ma.rows, mb.rows).map { lerp($0, $1) }), child)
        case let (.transformEffect(ta, _, _), .transformEffect(tb, anchor, _)):
            return .transformEffect(ta.interpolated(to: tb, progress), anchor: anchor, child)
        case let (_, .layered(_, _, alignment, inFront)):
            let (primary, secondary) = inFront ? (children[0], children[1]) : (children[1], children[0])
            return .layered(primary: primary, secondary: secondary, alignment: alignment, secondaryInFront: inFront)
        case let (_, .mask(alignment, _, _)):
            return .mask(alignment: alignment, mask: children[1], children[0])
        default:
            // Unreachable for nodes of the same kind; the new node as it is otherwise.
            return b
        }
    }

    /// Whether two nodes are the same kind of view, so that one can become the other.
    private func sameKind(_ a: ViewNode, _ b: ViewNode) -> Bool {
        switch (a, b) {
        case (.empty, .empty), (.sequence, .sequence), (.shape, .shape), (.zstack, .zstack), (.spacer, .spacer),
             (.padding, .padding), (.frame, .frame), (.flexibleFrame, .flexibleFrame), (.layoutPriority, .layoutPriority),
             (.geometryGroup, .geometryGroup), (.placed, .placed), (.offset, .offset), (.transformEffect, .transformEffect),
             (.opacity, .opacity), (.blendMode, .blendMode), (.shadow, .shadow), (.clip, .clip), (.compositingGroup, .compositingGroup),
             (.blur, .blur), (.drawingGroup, .drawingGroup), (.colorEffect, .colorEffect), (.position, .position),
             (.fixedSize, .fixedSize), (.transition, .transition), (.mask, .mask), (.foregroundStyle, .foregroundStyle),
             (.image, .image), (.aspectRatio, .aspectRatio):
            return true
        case let (.stack(axisA, _, _, _), .stack(axisB, _, _, _)):
            return axisA == axisB
        case let (.layered(_, _, _, frontA), .layered(_, _, _, frontB)):
            return frontA == frontB
        case let (.identity(idA, _), .identity(idB, _)):
            return idA == idB
        default:
            return false
        }
    }
}

private struct IdentityKey: Hashable {
    var chain: [AnyHashable]
    var occurrence: Int
}

extension ViewNode {
    /// Containers whose children are matched by identity (the others' children by position).
    var matchesChildrenByIdentity: Bool {
        switch self {
        case .sequence, .zstack, .stack: true
        default: false
        }
    }

    /// The identities written on a view, outermost first, down to its first container or shape.
    var identityChain: [AnyHashable] {
        var chain: [AnyHashable] = []
        var node = self
        while true {
            switch node {
            case let .identity(id, child):
                chain.append(id)
                node = child
            default:
                guard let child = node.modifiedChild else { return chain }
                node = child
            }
        }
    }

    /// The transition written on a view (the outermost), if any.
    var transition: AnyTransition? {
        var node = self
        while true {
            if case .transition(let t, _) = node { return t }
            guard let child = node.modifiedChild else { return nil }
            node = child
        }
    }
}

extension EffectTransform {
    /// Angles and scales interpolate as numbers; an affine transform entry by entry; different
    /// kinds take the new transform at once.
    func interpolated(to other: EffectTransform, _ p: Double) -> EffectTransform {
        func lerp(_ a: CGFloat, _ b: CGFloat) -> CGFloat { a + (b - a) * CGFloat(p) }
        switch (self, other) {
        case let (.rotation(a), .rotation(b)): return .rotation(radians: a + (b - a) * p)
        case let (.scale(ax, ay), .scale(bx, by)): return .scale(x: lerp(ax, bx), y: lerp(ay, by))
        case let (.affine(a), .affine(b)):
            return .affine(CGAffineTransform(a: lerp(a.a, b.a), b: lerp(a.b, b.b), c: lerp(a.c, b.c), d: lerp(a.d, b.d),
                                             tx: lerp(a.tx, b.tx), ty: lerp(a.ty, b.ty)))
        default: return other
        }
    }
}

extension Color {
    /// `p` of the way to `other`, in linear-light sRGB (as SwiftUI's resolved colours animate),
    /// opacity linearly.
    func interpolated(to other: Color, _ p: Double) -> Color {
        if self == other || p == 0 { return p == 1 ? other : self }
        if p == 1 { return other }
        let a = linearComponents, b = other.linearComponents
        return Color(.sRGBLinear, red: a.red + (b.red - a.red) * p, green: a.green + (b.green - a.green) * p,
                     blue: a.blue + (b.blue - a.blue) * p, opacity: min(1, max(0, alpha + (other.alpha - alpha) * p)))
    }
}

/// A fill part of the way between two styles: colours in linear light; gradients of the same
/// kind and stop count stop by stop, with their geometry; anything else the new style.
struct InterpolatedStyle: ShapeStyle {
    let from: any ShapeStyle
    let to: any ShapeStyle
    let progress: Double

    func _fill(in rect: CGRect) -> ShapeFill {
        let a = from._fill(in: rect), b = to._fill(in: rect)
        let p = progress
        func lerp(_ x: CGPoint, _ y: CGPoint) -> CGPoint { CGPoint(x: x.x + (y.x - x.x) * p, y: x.y + (y.y - x.y) * p) }
        func stops(_ g: Gradient, _ h: Gradient) -> Gradient? {
            guard g.stops.count == h.stops.count else { return nil }
            return Gradient(stops: zip(g.stops, h.stops).map {
                Gradient.Stop(color: $0.color.interpolated(to: $1.color, p), location: $0.location + ($1.location - $0.location) * p)
            })
        }
        switch (a, b) {
        case let (.color(x), .color(y)):
            return .color(x.interpolated(to: y, p))
        case let (.linearGradient(g, s0, e0, _), .linearGradient(h, s1, e1, t)):
            guard let mixed = stops(g, h) else { return b }
            return .linearGradient(mixed, start: lerp(s0, s1), end: lerp(e0, e1), transform: t)
        case let (.radialGradient(g, c0, r0, q0, _), .radialGradient(h, c1, r1, q1, t)):
            guard let mixed = stops(g, h) else { return b }
            return .radialGradient(mixed, center: lerp(c0, c1), startRadius: r0 + (r1 - r0) * p, endRadius: q0 + (q1 - q0) * p, transform: t)
        case let (.angularGradient(g, c0, a0, z0, _), .angularGradient(h, c1, a1, z1, t)):
            guard let mixed = stops(g, h) else { return b }
            return .angularGradient(mixed, center: lerp(c0, c1), startAngle: .radians(a0.radians + (a1.radians - a0.radians) * p),
                                    endAngle: .radians(z0.radians + (z1.radians - z0.radians) * p), transform: t)
        default:
            return b
        }
    }
}
