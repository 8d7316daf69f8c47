import Foundation

extension LayoutPass {
    /// The gaps between consecutive stack children: the explicit spacing, or SwiftUI's default
    /// of 8 points between views and none beside a `Spacer` (a spacer's own length is the room).
    func stackGaps(_ members: [Int], spacing: CGFloat?) -> [CGFloat] {
        guard members.count > 1 else { return [] }
        return (1..<members.count).map { k in
            if let spacing { return spacing }
            return isSpacer[members[k - 1]] || isSpacer[members[k]] ? 0 : defaultStackSpacing
        }
    }

    /// The sizes a stack gives its children, in order (SwiftUI's algorithm): the room along the
    /// axis, less the spacing, goes to the children of the highest layout priority first (less
    /// what the others need at their smallest), and within one priority to the least flexible
    /// child first, each receiving an equal share of what the children before it left.
    /// Flexibility is the range of sizes a child takes between proposals of 0 and infinity. A
    /// spacer takes its share along the axis and nothing across it. An unspecified proposal asks
    /// every child for its ideal size.
    func stackSizes(_ members: [Int], axis: Axis, spacing: CGFloat?, proposal: ProposedSize) -> [CGSize] {
        func propose(_ main: CGFloat?) -> ProposedSize {
            axis == .horizontal ? ProposedSize(width: main, height: proposal.height) : ProposedSize(width: proposal.width, height: main)
        }
        func childSize(_ child: Int, _ main: CGFloat?) -> CGSize {
            if isSpacer[child] {
                let m = spacerLength[child] ?? defaultStackSpacing
                let length = max(m, main ?? m)
                return axis == .horizontal ? CGSize(width: length, height: 0) : CGSize(width: 0, height: length)
            }
            return size(of: child, propose(main))
        }
        guard let total = axis == .horizontal ? proposal.width : proposal.height else {
            return members.map { childSize($0, nil) }
        }
        let smallest = members.map { childSize($0, 0).along(axis) }
        let flexibility = members.indices.map { childSize(members[$0], .infinity).along(axis) - smallest[$0] }
        let priority = members.map { self.priority[$0] }
        var remaining = max(0, total - stackGaps(members, spacing: spacing).reduce(0, +))
        var result = Array(repeating: CGSize.zero, count: members.count)
        // Usually every child has the same priority: one level, nothing held back.
        let levels = priority.allSatisfy { $0 == priority[0] } ? Array(priority.prefix(1)) : Set(priority).sorted(by: >)
        for level in levels {
            let served = members.indices.filter { priority[$0] == level }
            // What the lower priorities need at their smallest is held back for them.
            let reserved = members.indices.filter { priority[$0] < level }.reduce(0) { $0 + smallest[$1] }
            var room = max(0, remaining - reserved)
            let order = served.sorted { (flexibility[$0], $0) < (flexibility[$1], $1) }  // ties: written order
            for (k, index) in order.enumerated() {
                let share = room / CGFloat(order.count - k)
                let s = childSize(members[index], share)
                result[index] = s
                room = max(0, room - s.along(axis))
                remaining = max(0, remaining - s.along(axis))
            }
        }
        return result
    }
}
