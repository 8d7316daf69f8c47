import Foundation

/// Where frames are measured from while interpolating: the origin of the nearest enclosing
/// `geometryGroup` in the old state, in the new state and now (the origin of the space
/// otherwise, which never moves).
private struct GeometryReference {
    var from: CGPoint = .zero
    var to: CGPoint = .zero
    var now: CGPoint = .zero
}

/// Builds the layout tree drawn `progress` of the way through a change from one laid-out state
/// to another, as SwiftUI renders an animation:
/// - views are matched by identity (structural position, `if`/`else` branch, `ForEach`
///   element, `.id`); a matched view's frame is interpolated, measured from the nearest
///   `geometryGroup` (so without one, each view's absolute frame moves on its own, and with one,
///   the group moves as a unit and its content keeps its place inside it);
/// - matched modifiers interpolate their animatable parameters (opacity, shadow colour,
///   radius and offset, blur radius, colour effects, rotation, scale, transforms, foreground
///   style) and shapes their `animatableData` and fill (colours in linear light, gradient
///   stops); everything else (blend modes, flags, a shape's other parameters) takes the new
///   value at once;
/// - a view only in the new state enters with its transition (a fade by default) placed by
///   its new frame relative to the nearest `geometryGroup`; one only in the old state leaves
///   the same way backwards, drawn where it was in the old order.
/// The result is a layout tree itself: lowering draws it without laying anything out again.
struct Interpolator {
    /// The animation curve's value: may leave [0, 1] (a spring overshoots).
    let progress: Double
    /// The progress for fades and transitions: `progress` clamped to [0, 1].
    var presence: Double { Opacity(progress).value }

    func tree(from old: PlacedNode, to new: PlacedNode) -> PlacedNode {
        matched(old, new, GeometryReference())
    }

    private func lerp(_ a: CGFloat, _ b: CGFloat) -> CGFloat { a + (b - a) * CGFloat(progress) }
    private func lerp(_ a: Double, _ b: Double) -> Double { a + (b - a) * progress }

    private func matched(_ a: PlacedNode, _ b: PlacedNode, _ reference: GeometryReference) -> PlacedNode {
        guard a.content.kind == b.content.kind else {
            return PlacedNode(content: .container(.sequence([])), rect: b.rect, children: [leaving(a, reference), arriving(b, reference)])
        }
        let ra = a.rect.offsetBy(dx: -reference.from.x, dy: -reference.from.y)
        let rb = b.rect.offsetBy(dx: -reference.to.x, dy: -reference.to.y)
        let rect = CGRect(x: reference.now.x + lerp(ra.minX, rb.minX), y: reference.now.y + lerp(ra.minY, rb.minY),
                          width: max(0, lerp(ra.width, rb.width)), height: max(0, lerp(ra.height, rb.height)))
        let inner = innerReference(b.content, from: a.rect.origin, to: b.rect.origin, now: rect.origin, outer: reference)
        let children: [PlacedNode]
        if case .container = b.content {
            children = pairChildren(a.children, b.children).compactMap { pair in
                switch pair {
                case let (old?, new?): matched(old, new, inner)
                case let (old?, nil): leaving(old, inner)
                case let (nil, new?): arriving(new, inner)
                case (nil, nil): nil
                }
            }
        } else {
            children = zip(a.children, b.children).map { matched($0, $1, inner) }
        }
        return PlacedNode(content: interpolated(b.content, from: a.content), rect: rect, children: children)
    }

    /// A view present in one state only, where that state put it relative to the reference
    /// (`fromOld`: the old state's frames).
    private func alone(_ x: PlacedNode, _ reference: GeometryReference, fromOld: Bool) -> PlacedNode {
        let origin = fromOld ? reference.from : reference.to
        let rect = x.rect.offsetBy(dx: reference.now.x - origin.x, dy: reference.now.y - origin.y)
        var inner = innerReference(x.content, from: x.rect.origin, to: x.rect.origin, now: rect.origin, outer: reference)
        if fromOld { inner.to = inner.from } else { inner.from = inner.to }
        return PlacedNode(content: x.content, rect: rect, children: x.children.map { alone($0, inner, fromOld: fromOld) })
    }

    private func arriving(_ b: PlacedNode, _ reference: GeometryReference) -> PlacedNode {
        (b.transition ?? .opacity).apply(to: alone(b, reference, fromOld: false), presence: presence)
    }

    private func leaving(_ a: PlacedNode, _ reference: GeometryReference) -> PlacedNode {
        (a.transition ?? .opacity).apply(to: alone(a, reference, fromOld: true), presence: 1 - presence)
    }

    /// The reference for a node's children: a geometry group measures from its own frame; a
    /// drawing group's content lives in the group's space, whose origin is fixed.
    private func innerReference(_ content: PlacedNode.Content, from: CGPoint, to: CGPoint, now: CGPoint,
                                outer: GeometryReference) -> GeometryReference {
        switch content {
        case .modifier(.meta(.geometryGroup)): GeometryReference(from: from, to: to, now: now)
        case .modifier(.boundary(.drawingGroup)): GeometryReference()
        case .leaf, .container, .modifier: outer
        }
    }

    /// Old and new children paired by identity, in drawing order: the new order, with each
    /// removed child drawn just after the child that preceded it in the old order.
    private func pairChildren(_ old: [PlacedNode], _ new: [PlacedNode]) -> [(PlacedNode?, PlacedNode?)] {
        func keys(_ nodes: [PlacedNode]) -> [IdentityKey] {
            var seen: [[ViewID]: Int] = [:]
            return nodes.map { n in
                let chain = n.identityChain
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

    /// `b` with its animatable parameters interpolated from `a` (of the same kind).
    private func interpolated(_ b: PlacedNode.Content, from a: PlacedNode.Content) -> PlacedNode.Content {
        switch b {
        case .leaf(let leaf):
            guard case let .shape(gb, sb, rule) = leaf, case let .leaf(.shape(ga, sa, _)) = a, progress != 1 else { return b }
            return .leaf(.shape(gb.interpolated(ga, progress) ?? gb, style: InterpolatedStyle(from: sa, to: sb, progress: progress),
                                fillRule: rule))
        case .container:
            return b
        case .modifier(.layout):
            return b
        case .modifier(.effect(let effect)):
            guard case .modifier(.effect(let old)) = a else { return b }
            return .modifier(.effect(interpolated(effect, from: old)))
        case .modifier(.boundary(let boundary)):
            guard case let .blur(rb, opaque) = boundary, case let .modifier(.boundary(.blur(ra, _))) = a else { return b }
            return .modifier(.boundary(.blur(radius: max(0, lerp(ra, rb)), opaque: opaque)))
        case .modifier(.meta(let meta)):
            guard case let .environment(.foregroundStyle(sb)) = meta, case let .modifier(.meta(.environment(.foregroundStyle(sa)))) = a,
                  progress != 1 else { return b }
            return .modifier(.meta(.environment(.foregroundStyle(InterpolatedStyle(from: sa, to: sb, progress: progress)))))
        }
    }

    private func interpolated(_ b: Effect, from a: Effect) -> Effect {
        switch (a, b) {
        case let (.opacity(oa), .opacity(ob)):
            return .opacity(Opacity(lerp(oa, ob)).value)
        case let (.shadow(ca, ra, da), .shadow(cb, rb, db)):
            return .shadow(ca.interpolated(to: cb, progress), radius: max(0, lerp(ra, rb)),
                           offset: CGSize(width: lerp(da.width, db.width), height: lerp(da.height, db.height)))
        case let (.clip(ga, _), .clip(gb, rule)):
            return .clip(gb.interpolated(ga, progress) ?? gb, rule)
        case let (.color(ma), .color(mb)):
            return .color(ma.interpolated(to: mb, progress))
        case let (.transform(ta, _), .transform(tb, anchor)):
            return .transform(ta.interpolated(to: tb, progress), anchor: anchor)
        case (_, .opacity), (_, .shadow), (_, .clip), (_, .color), (_, .transform), (_, .blendMode):
            return b
        }
    }
}

private struct IdentityKey: Hashable {
    var chain: [ViewID]
    var occurrence: Int
}

/// What kind of view a laid-out node is, so that one state's node can become the other's:
/// equal kinds interpolate, different kinds cross-fade (one leaves, the other arrives).
enum NodeKind: Hashable {
    case empty, shape, image, spacer, laidOut, layoutFailure
    /// Texts saying the same interpolate their frames; a changed text cross-fades, as SwiftUI's
    /// default content transition does.
    case text(String)
    /// Symbols of one name interpolate their frames; another name cross-fades.
    case symbol(String)
    case sequence, zstack, stack(Axis)
    case padding, frame, flexibleFrame, aspectRatio, position, fixedSize, offset, priority, layered(inFront: Bool)
    case opacity, blendMode, shadow, clip, color, transform
    case compositingGroup, drawingGroup, blur, mask
    case identity(ViewID), transition, geometryGroup, foregroundStyle, tint
    case font, lineLimit, multilineTextAlignment, truncationMode, lineSpacing, imageScale, symbolVariant, labelStyle
}

extension PlacedNode.Content {
    var kind: NodeKind {
        switch self {
        case .leaf(let leaf):
            switch leaf {
            case .empty: .empty
            case .shape: .shape
            case .image, .drawing: .image
            case .spacer: .spacer
            case .laidOut: .laidOut
            case .text(let text): .text(text.segments.map(\.string).joined())
            case .placedText(let text): .text(text.string)
            case .symbol(let name, _): .symbol(name)
            case .placedSymbol(let symbol): .symbol(symbol.name)
            case .label: .stack(.horizontal)
            case .layoutFailure: .layoutFailure
            }
        case .container(let container):
            switch container {
            case .sequence: .sequence
            case .zstack: .zstack
            case .stack(let axis, _, _, _): .stack(axis)
            }
        case .modifier(.layout(let layout)):
            switch layout {
            case .padding: .padding
            case .frame: .frame
            case .flexibleFrame: .flexibleFrame
            case .aspectRatio: .aspectRatio
            case .position: .position
            case .fixedSize: .fixedSize
            case .offset: .offset
            case .priority: .priority
            case .layered(_, _, let inFront): .layered(inFront: inFront)
            }
        case .modifier(.effect(let effect)):
            switch effect {
            case .opacity: .opacity
            case .blendMode: .blendMode
            case .shadow: .shadow
            case .clip: .clip
            case .color: .color
            case .transform: .transform
            }
        case .modifier(.boundary(let boundary)):
            switch boundary {
            case .compositingGroup: .compositingGroup
            case .drawingGroup: .drawingGroup
            case .blur: .blur
            case .mask: .mask
            }
        case .modifier(.meta(let meta)):
            switch meta {
            case .identity(let id): .identity(id)
            case .transition: .transition
            case .geometryGroup: .geometryGroup
            case .environment(.foregroundStyle): .foregroundStyle
            case .environment(.tint): .tint
            case .environment(.font): .font
            case .environment(.lineLimit): .lineLimit
            case .environment(.multilineTextAlignment): .multilineTextAlignment
            case .environment(.truncationMode): .truncationMode
            case .environment(.lineSpacing): .lineSpacing
            case .environment(.imageScale): .imageScale
            case .environment(.symbolVariant): .symbolVariant
            case .environment(.labelStyle): .labelStyle
            }
        }
    }
}

extension PlacedNode {
    /// The identities written on a view, outermost first, down to its first container or leaf.
    var identityChain: [ViewID] {
        var chain: [ViewID] = []
        var node = self
        while case .modifier(let m) = node.content, let child = node.children.first {
            if case .meta(.identity(let id)) = m { chain.append(id) }
            node = child
        }
        return chain
    }

    /// The transition written on a view (the outermost), if any.
    var transition: AnyTransition? {
        var node = self
        while case .modifier(let m) = node.content, let child = node.children.first {
            if case .meta(.transition(let t)) = m { return t }
            node = child
        }
        return nil
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
        case (_, .rotation), (_, .scale), (_, .affine): return other
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
                     blue: a.blue + (b.blue - a.blue) * p, opacity: Opacity(alpha + (other.alpha - alpha) * p).value)
    }
}

/// A fill part of the way between two styles: colours in linear light; gradients of the same
/// kind and stop count stop by stop, with their geometry; anything else the new style.
struct InterpolatedStyle: ShapeStyle, Equatable {
    static func == (a: InterpolatedStyle, b: InterpolatedStyle) -> Bool {
        a.progress == b.progress && stylesAreCertainlySame(a.from, b.from) && stylesAreCertainlySame(a.to, b.to)
    }
    let from: any ShapeStyle
    let to: any ShapeStyle
    let progress: Double
    var _readsEnvironment: Bool { from._readsEnvironment || to._readsEnvironment }

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
