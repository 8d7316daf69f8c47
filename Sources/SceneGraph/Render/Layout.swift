import Foundation

/// A size proposed by a parent; nil in a dimension asks for the ideal size.
struct ProposedSize {
    var width: CGFloat?
    var height: CGFloat?
}

/// The size a node chooses for a proposal (SwiftUI's proposal model: the parent proposes, the
/// child chooses, the parent places). Shapes and colours are greedy (their ideal size, for a nil
/// proposal, is 10 × 10 points as in SwiftUI); a frame's fixed dimensions replace the proposal;
/// a ZStack takes the largest child size; stacks share their room as SwiftUI does (see
/// `stackSizes`); padding insets the proposal and adds to the child's size. Not modelled yet:
/// flexible frames, fixedSize, layout priorities.
func size(of node: ViewNode, proposal: ProposedSize) -> CGSize {
    switch node {
    case .empty:
        return .zero
    case .shape:
        return CGSize(width: proposal.width ?? 10, height: proposal.height ?? 10)
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
        let main = sizes.reduce(0) { $0 + (axis == 0 ? $1.width : $1.height) } + spacing * CGFloat(max(0, children.count - 1))
        let cross = sizes.reduce(0) { max($0, axis == 0 ? $1.height : $1.width) }
        return axis == 0 ? CGSize(width: main, height: cross) : CGSize(width: cross, height: main)
    case let .padding(top, leading, bottom, trailing, child):
        let inner = size(of: child, proposal: ProposedSize(width: proposal.width.map { max(0, $0 - leading - trailing) },
                                                           height: proposal.height.map { max(0, $0 - top - bottom) }))
        return CGSize(width: inner.width + leading + trailing, height: inner.height + top + bottom)
    case let .frame(width, height, _, child):
        let childSize = size(of: child, proposal: ProposedSize(width: width ?? proposal.width, height: height ?? proposal.height))
        return CGSize(width: width ?? childSize.width, height: height ?? childSize.height)
    case .offset(_, let child), .transformEffect(_, _, let child), .opacity(_, let child), .clip(_, _, let child), .shadow(_, _, _, let child), .compositingGroup(let child), .blendMode(_, let child),
         .blur(_, _, let child), .mask(_, _, let child), .colorEffect(_, let child),
         .drawingGroup(_, _, let child):
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

extension ViewNode {
    /// A sequence outside a container behaves as a centred ZStack.
    var stackChildren: ViewNode {
        switch self {
        case .zstack(_, let children): .sequence(children)
        default: self
        }
    }
}

/// The sizes a stack gives its children, in order (SwiftUI's algorithm): the room along the
/// axis, less the spacing, is offered to the least flexible child first, each receiving an
/// equal share of what the children before it left. Flexibility is the range of sizes a child
/// takes between proposals of 0 and infinity. An unspecified proposal asks every child for its
/// ideal size.
func stackSizes(_ children: [ViewNode], axis: Int, spacing: CGFloat, proposal: ProposedSize) -> [CGSize] {
    func along(_ s: CGSize) -> CGFloat { axis == 0 ? s.width : s.height }
    func propose(_ main: CGFloat?) -> ProposedSize {
        axis == 0 ? ProposedSize(width: main, height: proposal.height) : ProposedSize(width: proposal.width, height: main)
    }
    guard let total = axis == 0 ? proposal.width : proposal.height else {
        return children.map { size(of: $0, proposal: propose(nil)) }
    }
    let flexibility = children.map { child -> CGFloat in
        let small = along(size(of: child, proposal: propose(0)))
        let large = along(size(of: child, proposal: propose(.infinity)))
        return large - small
    }
    var remaining = max(0, total - spacing * CGFloat(max(0, children.count - 1)))
    var result = Array(repeating: CGSize.zero, count: children.count)
    let order = children.indices.sorted { flexibility[$0] < flexibility[$1] }
    for (served, index) in order.enumerated() {
        let share = remaining / CGFloat(children.count - served)
        let s = size(of: children[index], proposal: propose(share))
        result[index] = s
        remaining = max(0, remaining - along(s))
    }
    return result
}
