import Foundation

/// A size proposed by a parent; nil in a dimension asks for the ideal size.
struct ProposedSize {
    var width: CGFloat?
    var height: CGFloat?
    init(width: CGFloat?, height: CGFloat?) { self.width = width; self.height = height }
    init(_ size: CGSize) { width = size.width; height = size.height }
}

/// The size a node chooses for a proposal (SwiftUI's proposal model: the parent proposes, the
/// child chooses, the parent places). Shapes and colours are greedy (their ideal size, for a nil
/// proposal, is 10 × 10 points as in SwiftUI); a frame's fixed dimensions replace the proposal;
/// a flexible frame clamps the proposal to its bounds and then its own size (see
/// `flexibleLength`); a ZStack takes the largest child size; stacks share their room as
/// SwiftUI does (see `stackSizes`); padding insets the proposal and adds to the child's size.
func size(of node: ViewNode, proposal: ProposedSize) -> CGSize {
    switch node {
    case .empty:
        return .zero
    case .shape:
        return CGSize(width: proposal.width ?? 10, height: proposal.height ?? 10)
    case let .image(content, resizable, _):
        // Natural size unless resizable; resizable, the offer (the natural size when asked
        // for the ideal).
        let natural = content.size
        return resizable ? CGSize(width: proposal.width ?? natural.width, height: proposal.height ?? natural.height) : natural
    case let .aspectRatio(ratio, fill, child):
        return size(of: child, proposal: ProposedSize(aspectProposal(ratio, fill: fill, child: child, proposal: proposal)))
    case .spacer(let minLength):
        // Outside a stack a spacer takes what it is offered (nothing when asked its ideal).
        let m = minLength ?? 0
        return CGSize(width: max(m, proposal.width ?? m), height: max(m, proposal.height ?? m))
    case .sequence, .zstack:
        let children = ViewNode.children(node.stackChildren)
        var result = CGSize.zero
        for child in children {
            let s = size(of: child, proposal: proposal)
            result.width = max(result.width, s.width)
            result.height = max(result.height, s.height)
        }
        return result
    case let .stack(axis, _, spacing, children):
        let sizes = stackSizes(children, axis: axis, spacing: spacing, proposal: proposal)
        let main = sizes.reduce(0) { $0 + (axis == 0 ? $1.width : $1.height) } + stackGaps(children, spacing: spacing).reduce(0, +)
        let cross = sizes.reduce(0) { max($0, axis == 0 ? $1.height : $1.width) }
        return axis == 0 ? CGSize(width: main, height: cross) : CGSize(width: cross, height: main)
    case let .padding(top, leading, bottom, trailing, child):
        let inner = size(of: child, proposal: ProposedSize(width: proposal.width.map { max(0, $0 - leading - trailing) },
                                                           height: proposal.height.map { max(0, $0 - top - bottom) }))
        return CGSize(width: inner.width + leading + trailing, height: inner.height + top + bottom)
    case let .frame(width, height, _, child):
        let childSize = size(of: child, proposal: ProposedSize(width: width ?? proposal.width, height: height ?? proposal.height))
        return CGSize(width: width ?? childSize.width, height: height ?? childSize.height)
    case let .flexibleFrame(f, _, child):
        let childSize = size(of: child, proposal: f.childProposal(proposal))
        return CGSize(width: flexibleLength(child: childSize.width, proposed: proposal.width, min: f.minWidth, ideal: f.idealWidth, max: f.maxWidth),
                      height: flexibleLength(child: childSize.height, proposed: proposal.height, min: f.minHeight, ideal: f.idealHeight, max: f.maxHeight))
    case .placed(let rect, _):
        return rect.size
    case .offset(_, let child), .transformEffect(_, _, let child), .opacity(_, let child), .clip(_, _, let child), .shadow(_, _, _, let child), .compositingGroup(let child), .blendMode(_, let child),
         .blur(_, _, let child), .mask(_, _, let child), .colorEffect(_, let child),
         .drawingGroup(_, _, let child), .layoutPriority(_, let child), .identity(_, let child), .geometryGroup(let child),
         .transition(_, let child), .foregroundStyle(_, let child):
        return size(of: child, proposal: proposal)
    case .layered(let primary, _, _, _):
        return size(of: primary, proposal: proposal)
    case .position(_, let child):
        // Greedy: the whole proposal (the child's own size where nothing is proposed).
        let own = size(of: child, proposal: proposal)
        return CGSize(width: proposal.width ?? own.width, height: proposal.height ?? own.height)
    case let .fixedSize(horizontal, vertical, child):
        return size(of: child, proposal: ProposedSize(width: horizontal ? nil : proposal.width, height: vertical ? nil : proposal.height))
    }
}

extension FlexibleFrame {
    /// What the child is offered: the proposal clamped to the bounds, or the ideal length where
    /// nothing is proposed.
    func childProposal(_ proposal: ProposedSize) -> ProposedSize {
        func clamp(_ p: CGFloat?, _ lo: CGFloat?, _ ideal: CGFloat?, _ hi: CGFloat?) -> CGFloat? {
            guard var v = p else { return ideal }
            if let lo { v = max(v, lo) }
            if let hi { v = min(v, hi) }
            return v
        }
        return ProposedSize(width: clamp(proposal.width, minWidth, idealWidth, maxWidth),
                            height: clamp(proposal.height, minHeight, idealHeight, maxHeight))
    }
}

/// A flexible frame's length along one axis: the child's, raised towards the proposal (or the
/// ideal) up to `max`, and lowered towards it down to `min`. So `maxWidth: .infinity` takes the
/// whole proposed width and `minWidth: 100` is never narrower than 100, as SwiftUI's flexible
/// frame behaves; a missing bound leaves that side to the child.
func flexibleLength(child: CGFloat, proposed: CGFloat?, min lo: CGFloat?, ideal: CGFloat?, max hi: CGFloat?) -> CGFloat {
    let p = proposed ?? ideal ?? child
    var length = child
    if let lo { length = Swift.max(lo, Swift.min(length, p)) }
    if let hi { length = Swift.min(hi, Swift.max(length, p)) }
    return length
}

extension ViewNode {
    /// A sequence outside a container behaves as a centred ZStack.
    var stackChildren: ViewNode {
        switch self {
        case .zstack(_, let children): .sequence(children)
        default: self
        }
    }

    var isSpacer: Bool {
        if case .spacer = unwrapped { return true }
        return false
    }

    var layoutPriority: Double {
        switch self {
        case .layoutPriority(let p, _): p
        case .identity(_, let child): child.layoutPriority
        default: 0
        }
    }
}

/// The gaps between consecutive stack children: the explicit spacing, or SwiftUI's default of
/// 8 points between views and none beside a `Spacer` (a spacer's own length is the room).
func stackGaps(_ children: [ViewNode], spacing: CGFloat?) -> [CGFloat] {
    guard children.count > 1 else { return [] }
    return (1..<children.count).map { i in
        if let spacing { return spacing }
        return children[i - 1].isSpacer || children[i].isSpacer ? 0 : defaultStackSpacing
    }
}

/// The sizes a stack gives its children, in order (SwiftUI's algorithm): the room along the
/// axis, less the spacing, goes to the children of the highest layout priority first (less
/// what the others need at their smallest), and within one priority to the least flexible
/// child first, each receiving an equal share of what the children before it left.
/// Flexibility is the range of sizes a child takes between proposals of 0 and infinity. A
/// spacer takes its share along the axis and nothing across it. An unspecified proposal asks
/// every child for its ideal size.
func stackSizes(_ children: [ViewNode], axis: Int, spacing: CGFloat?, proposal: ProposedSize) -> [CGSize] {
    func along(_ s: CGSize) -> CGFloat { axis == 0 ? s.width : s.height }
    func propose(_ main: CGFloat?) -> ProposedSize {
        axis == 0 ? ProposedSize(width: main, height: proposal.height) : ProposedSize(width: proposal.width, height: main)
    }
    func childSize(_ child: ViewNode, _ main: CGFloat?) -> CGSize {
        if case .spacer(let minLength) = child.unwrapped {
            let m = minLength ?? defaultStackSpacing
            let length = max(m, main ?? m)
            return axis == 0 ? CGSize(width: length, height: 0) : CGSize(width: 0, height: length)
        }
        return size(of: child, proposal: propose(main))
    }
    guard let total = axis == 0 ? proposal.width : proposal.height else {
        return children.map { childSize($0, nil) }
    }
    let smallest = children.map { along(childSize($0, 0)) }
    let flexibility = children.indices.map { along(childSize(children[$0], .infinity)) - smallest[$0] }
    let priority = children.map(\.layoutPriority)
    var remaining = max(0, total - stackGaps(children, spacing: spacing).reduce(0, +))
    var result = Array(repeating: CGSize.zero, count: children.count)
    for level in Set(priority).sorted(by: >) {
        let members = children.indices.filter { priority[$0] == level }
        // What the lower priorities need at their smallest is held back for them.
        let reserved = children.indices.filter { priority[$0] < level }.reduce(0) { $0 + smallest[$1] }
        var room = max(0, remaining - reserved)
        let order = members.sorted { (flexibility[$0], $0) < (flexibility[$1], $1) }  // ties: written order
        for (served, index) in order.enumerated() {
            let share = room / CGFloat(order.count - served)
            let s = childSize(children[index], share)
            result[index] = s
            room = max(0, room - along(s))
            remaining = max(0, remaining - along(s))
        }
    }
    return result
}

/// Where a container or layout modifier puts each child, in the same space as `rect`: the one
/// place layout decides positions, shared by lowering and by animation (which records these
/// rectangles for two states and interpolates them). Drawing modifiers pass `rect` through.
func childRects(of node: ViewNode, in rect: CGRect) -> [(ViewNode, CGRect)] {
    let proposal = ProposedSize(rect.size)
    switch node {
    case .empty, .shape, .spacer, .image:
        return []
    case let .aspectRatio(ratio, fill, child):
        let s = size(of: child, proposal: ProposedSize(aspectProposal(ratio, fill: fill, child: child, proposal: proposal)))
        return [(child, Alignment.center.place(s, in: rect))]
    case .sequence, .zstack:
        let alignment: Alignment
        if case .zstack(let a, _) = node { alignment = a } else { alignment = .center }
        return ViewNode.children(node.stackChildren).map { ($0, alignment.place(size(of: $0, proposal: proposal), in: rect)) }
    case let .stack(axis, alignment, spacing, children):
        let sizes = stackSizes(children, axis: axis, spacing: spacing, proposal: proposal)
        let gaps = stackGaps(children, spacing: spacing) + [0]
        var position = axis == 0 ? rect.minX : rect.minY
        var placed: [(ViewNode, CGRect)] = []
        for (i, (child, s)) in zip(children, sizes).enumerated() {
            placed.append((child, axis == 0
                ? CGRect(x: position, y: rect.minY + (rect.height - s.height) * alignment, width: s.width, height: s.height)
                : CGRect(x: rect.minX + (rect.width - s.width) * alignment, y: position, width: s.width, height: s.height)))
            position += (axis == 0 ? s.width : s.height) + gaps[i]
        }
        return placed
    case let .padding(top, leading, bottom, trailing, child):
        let inner = CGRect(x: rect.minX + leading, y: rect.minY + top,
                           width: max(0, rect.width - leading - trailing), height: max(0, rect.height - top - bottom))
        return [(child, Alignment.center.place(size(of: child, proposal: ProposedSize(inner.size)), in: inner))]
    case let .frame(width, height, alignment, child):
        let s = size(of: child, proposal: ProposedSize(width: width ?? rect.width, height: height ?? rect.height))
        return [(child, alignment.place(s, in: rect))]
    case let .flexibleFrame(f, alignment, child):
        return [(child, alignment.place(size(of: child, proposal: f.childProposal(proposal)), in: rect))]
    case let .placed(r, child):
        return [(child, r)]
    case let .offset(d, child):
        return [(child, rect.offsetBy(dx: d.width, dy: d.height))]
    case let .position(p, child):
        let s = size(of: child, proposal: proposal)
        return [(child, CGRect(x: rect.minX + p.x - s.width / 2, y: rect.minY + p.y - s.height / 2, width: s.width, height: s.height))]
    case let .fixedSize(horizontal, vertical, child):
        let s = size(of: child, proposal: ProposedSize(width: horizontal ? nil : rect.width, height: vertical ? nil : rect.height))
        return [(child, Alignment.center.place(s, in: rect))]
    case let .layered(primary, secondary, alignment, inFront):
        let back = (secondary, alignment.place(size(of: secondary, proposal: proposal), in: rect))
        return inFront ? [(primary, rect), back] : [back, (primary, rect)]
    case let .mask(alignment, mask, child):
        // The content first, then the mask in the content's frame.
        return [(child, rect), (mask, alignment.place(size(of: mask, proposal: proposal), in: rect))]
    case .drawingGroup(_, _, let child):
        // A drawing group lays out its content in its own space, origin at its frame.
        return [(child, CGRect(origin: .zero, size: rect.size))]
    case .transformEffect(_, _, let child), .opacity(_, let child), .blendMode(_, let child), .shadow(_, _, _, let child),
         .clip(_, _, let child), .compositingGroup(let child), .blur(_, _, let child), .colorEffect(_, let child),
         .layoutPriority(_, let child), .identity(_, let child), .geometryGroup(let child), .transition(_, let child),
         .foregroundStyle(_, let child):
        return [(child, rect)]
    }
}

/// What `aspectRatio` offers its child (see `aspectSize`).
func aspectProposal(_ ratio: CGFloat?, fill: Bool, child: ViewNode, proposal: ProposedSize) -> CGSize {
    let ideal = size(of: child, proposal: ProposedSize(width: nil, height: nil))
    let r = ratio ?? (ideal.height > 0 && ideal.width > 0 ? ideal.width / ideal.height : 1)
    return aspectSize(ratio: r, fill: fill, proposal: proposal, ideal: ideal)
}
