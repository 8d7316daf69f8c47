import Foundation

/// A size proposed by a parent; nil in a dimension asks for the ideal size.
struct ProposedSize {
    var width: CGFloat?
    var height: CGFloat?
}

/// The size a node chooses for a proposal (SwiftUI's proposal model: the parent proposes, the
/// child chooses, the parent places). Shapes and colours are greedy (their ideal size, for a nil
/// proposal, is 10 × 10 points as in SwiftUI); a frame's fixed dimensions replace the proposal;
/// a ZStack takes the largest child size. Not modelled yet: flexible frames, stacks along an
/// axis, padding, fixedSize.
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
    case let .frame(width, height, _, child):
        let childSize = size(of: child, proposal: ProposedSize(width: width ?? proposal.width, height: height ?? proposal.height))
        return CGSize(width: width ?? childSize.width, height: height ?? childSize.height)
    case .offset(_, let child), .opacity(_, let child), .compositingGroup(let child):
        return size(of: child, proposal: proposal)
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
