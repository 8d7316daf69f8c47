import Foundation

extension LayoutPass {
    /// The size a node chooses for a proposal (SwiftUI's proposal model: the parent proposes,
    /// the child chooses, the parent places). Shapes and colours are greedy (their ideal size,
    /// for a nil proposal, is 10 × 10 points as in SwiftUI); a frame's fixed dimensions replace
    /// the proposal; a flexible frame clamps the proposal to its bounds and then its own size
    /// (see `flexibleLength`); a ZStack takes the largest child size; stacks share their room
    /// as SwiftUI does (see `stackSizes`); padding insets the proposal and adds to the child's
    /// size. Effects, boundaries and meta modifiers take their content's size.
    func measure(_ i: Int, _ proposal: ProposedSize) -> CGSize {
        switch node(i) {
        case .leaf(let leaf):
            switch leaf {
            case .empty:
                return .zero
            case .shape:
                return CGSize(width: proposal.width ?? 10, height: proposal.height ?? 10)
            case let .image(content, resizable, _):
                // Natural size unless resizable; resizable, the offer (the natural size when
                // asked for the ideal).
                let natural = content.size
                return resizable ? CGSize(width: proposal.width ?? natural.width, height: proposal.height ?? natural.height) : natural
            case let .drawing(drawing, resizable):
                let natural = drawing.naturalSize
                return resizable ? CGSize(width: proposal.width ?? natural.width, height: proposal.height ?? natural.height) : natural
            case .spacer(let minLength):
                // Outside a stack a spacer takes what it is offered (nothing when asked its ideal).
                let m = minLength ?? 0
                return CGSize(width: max(m, proposal.width ?? m), height: max(m, proposal.height ?? m))
            case .laidOut(let tree):
                return tree.rect.size
            case .placedSymbol(let symbol):
                // A square of the font's size; resizable, the offer.
                return symbol.resizable ? CGSize(width: proposal.width ?? symbol.side, height: proposal.height ?? symbol.side)
                    : CGSize(width: symbol.side, height: symbol.side)
            case .symbol, .label:
                // Resolved when the pass numbers its nodes.
                return .zero
            case .text:
                // Wrapped to the proposed width; a Text is as wide as its widest line.
                return textLayout(i, proposal).size
            case .placedText(let placed):
                return placed.layout.size
            case .layoutFailure:
                return .zero
            }
        case .container(let container):
            switch container {
            case .sequence, .zstack:
                var result = CGSize.zero
                for child in children(i) {
                    let s = size(of: child, proposal)
                    result.width = max(result.width, s.width)
                    result.height = max(result.height, s.height)
                }
                return result
            case let .stack(axis, _, spacing, _):
                let members = Array(children(i))
                let sizes = stackSizes(members, axis: axis, spacing: spacing, proposal: proposal)
                let main = sizes.reduce(0) { $0 + $1.along(axis) } + stackGaps(members, spacing: spacing).reduce(0, +)
                let cross = sizes.reduce(0) { max($0, $1.across(axis)) }
                return axis == .horizontal ? CGSize(width: main, height: cross) : CGSize(width: cross, height: main)
            }
        case .modified(.layout(let layout), _):
            let content = child(i)
            switch layout {
            case let .padding(top, leading, bottom, trailing):
                let inner = size(of: content, ProposedSize(width: proposal.width.map { max(0, $0 - leading - trailing) },
                                                           height: proposal.height.map { max(0, $0 - top - bottom) }))
                return CGSize(width: inner.width + leading + trailing, height: inner.height + top + bottom)
            case let .frame(width, height, _):
                let s = size(of: content, ProposedSize(width: width ?? proposal.width, height: height ?? proposal.height))
                return CGSize(width: width ?? s.width, height: height ?? s.height)
            case let .flexibleFrame(f, _):
                let s = size(of: content, f.childProposal(proposal))
                return CGSize(width: flexibleLength(child: s.width, proposed: proposal.width, min: f.minWidth, ideal: f.idealWidth, max: f.maxWidth),
                              height: flexibleLength(child: s.height, proposed: proposal.height, min: f.minHeight, ideal: f.idealHeight, max: f.maxHeight))
            case let .aspectRatio(ratio, fill):
                return size(of: content, ProposedSize(aspectProposal(ratio, fill: fill, child: content, proposal: proposal)))
            case .position:
                // Greedy: the whole proposal (the child's own size where nothing is proposed).
                let own = size(of: content, proposal)
                return CGSize(width: proposal.width ?? own.width, height: proposal.height ?? own.height)
            case let .fixedSize(horizontal, vertical):
                return size(of: content, ProposedSize(width: horizontal ? nil : proposal.width, height: vertical ? nil : proposal.height))
            case .offset, .priority, .layered:
                return size(of: content, proposal)
            }
        case .modified(.effect, _), .modified(.boundary, _), .modified(.meta, _):
            return size(of: child(i), proposal)
        }
    }

    /// Where node `i`, placed in `rect`, puts each of its children, in the same space as
    /// `rect` (a drawing group's content in the group's own space, origin at its frame):
    /// containers by their layout, layout modifiers by theirs; effects, boundaries and meta
    /// modifiers pass `rect` through. Children are asked their size for `rect`'s size.
    func childRects(_ i: Int, in rect: CGRect) -> [(Int, CGRect)] {
        let proposal = ProposedSize(rect.size)
        switch node(i) {
        case .leaf:
            return []
        case .container(let container):
            switch container {
            case .sequence:
                return children(i).map { ($0, Alignment.center.place(size(of: $0, proposal), in: rect)) }
            case .zstack(let alignment, _):
                return children(i).map { ($0, alignment.place(size(of: $0, proposal), in: rect)) }
            case let .stack(axis, alignment, spacing, _):
                let members = Array(children(i))
                let sizes = stackSizes(members, axis: axis, spacing: spacing, proposal: proposal)
                let gaps = stackGaps(members, spacing: spacing) + [0]
                var position = axis == .horizontal ? rect.minX : rect.minY
                var placed: [(Int, CGRect)] = []
                placed.reserveCapacity(members.count)
                for (k, (child, s)) in zip(members, sizes).enumerated() {
                    placed.append((child, axis == .horizontal
                        ? CGRect(x: position, y: rect.minY + (rect.height - s.height) * alignment, width: s.width, height: s.height)
                        : CGRect(x: rect.minX + (rect.width - s.width) * alignment, y: position, width: s.width, height: s.height)))
                    position += s.along(axis) + gaps[k]
                }
                return placed
            }
        case .modified(.layout(let layout), _):
            let content = child(i)
            switch layout {
            case let .padding(top, leading, bottom, trailing):
                let inner = CGRect(x: rect.minX + leading, y: rect.minY + top,
                                   width: max(0, rect.width - leading - trailing), height: max(0, rect.height - top - bottom))
                return [(content, Alignment.center.place(size(of: content, ProposedSize(inner.size)), in: inner))]
            case let .frame(width, height, alignment):
                let s = size(of: content, ProposedSize(width: width ?? rect.width, height: height ?? rect.height))
                return [(content, alignment.place(s, in: rect))]
            case let .flexibleFrame(f, alignment):
                return [(content, alignment.place(size(of: content, f.childProposal(proposal)), in: rect))]
            case let .aspectRatio(ratio, fill):
                let s = size(of: content, ProposedSize(aspectProposal(ratio, fill: fill, child: content, proposal: proposal)))
                return [(content, Alignment.center.place(s, in: rect))]
            case .position(let p):
                let s = size(of: content, proposal)
                return [(content, CGRect(x: rect.minX + p.x - s.width / 2, y: rect.minY + p.y - s.height / 2, width: s.width, height: s.height))]
            case let .fixedSize(horizontal, vertical):
                let s = size(of: content, ProposedSize(width: horizontal ? nil : rect.width, height: vertical ? nil : rect.height))
                return [(content, Alignment.center.place(s, in: rect))]
            case .offset(let d):
                return [(content, rect.offsetBy(dx: d.width, dy: d.height))]
            case .priority:
                return [(content, rect)]
            case .layered(_, let alignment, _):
                let second = child(i, 1)
                return [(content, rect), (second, alignment.place(size(of: second, proposal), in: rect))]
            }
        case .modified(.boundary(let boundary), _):
            switch boundary {
            case .drawingGroup:
                // A drawing group lays out its content in its own space, origin at its frame.
                return [(child(i), CGRect(origin: .zero, size: rect.size))]
            case .mask(_, let alignment):
                // The content in the frame, the mask in the content's frame.
                let mask = child(i, 1)
                return [(child(i), rect), (mask, alignment.place(size(of: mask, proposal), in: rect))]
            case .compositingGroup, .blur:
                return [(child(i), rect)]
            }
        case .modified(.effect, _), .modified(.meta, _):
            return [(child(i), rect)]
        }
    }

    /// What `aspectRatio` offers its child (see `aspectSize`).
    private func aspectProposal(_ ratio: CGFloat?, fill: Bool, child: Int, proposal: ProposedSize) -> CGSize {
        let ideal = size(of: child, .ideal)
        let r = ratio ?? (ideal.height > 0 && ideal.width > 0 ? ideal.width / ideal.height : 1)
        return aspectSize(ratio: r, fill: fill, proposal: proposal, ideal: ideal)
    }
}

extension CGSize {
    /// The length along `axis`, and across it.
    func along(_ axis: Axis) -> CGFloat { axis == .horizontal ? width : height }
    func across(_ axis: Axis) -> CGFloat { axis == .horizontal ? height : width }
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
