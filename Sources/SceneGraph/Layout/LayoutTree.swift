import Foundation

/// A view tree laid out: every node with the rectangle layout gave it and its children laid
/// out (the layout tree, the product of the layout phase). Rectangles are in points, in the
/// space lowering uses: before transforms, a drawing group's content in the group's own space.
/// Lowering and animation read it; nothing lays the views out again.
struct PlacedNode: Sendable {
    /// What the node is, without the views below it (those are `children`, laid out).
    enum Content: Sendable {
        case leaf(Leaf)
        case container(Container)
        case modifier(Modifier)
    }

    var content: Content
    var rect: CGRect
    /// Containers: their children in order. Modifiers: the view they modify, then (for a
    /// background, an overlay or a mask) the second view, laid out in the first's frame.
    var children: [PlacedNode]
}

extension PlacedNode {
    /// `root` laid out in a canvas of `size` points: proposed the canvas, and the size it
    /// chooses centred in it, as a window does.
    /// - Throws: `TypographyError` when text needs a font that cannot be loaded.
    init(laying root: ViewNode, inCanvas size: CGSize) throws(TypographyError) {
        let pass = LayoutPass(root)
        let chosen = pass.size(of: 0, ProposedSize(size))
        let placed = pass.place(0, in: Alignment.center.place(chosen, in: CGRect(origin: .zero, size: size)))
        if let error = pass.error { throw error }
        self = placed
    }
}

/// A size proposed by a parent; nil in a dimension asks for the ideal size.
struct ProposedSize: Hashable {
    var width: CGFloat?
    var height: CGFloat?
    init(width: CGFloat?, height: CGFloat?) { self.width = width; self.height = height }
    init(_ size: CGSize) { width = size.width; height = size.height }
    static let ideal = ProposedSize(width: nil, height: nil)
}

/// One layout of a view tree: the nodes numbered once (an arena, each node's children a run of
/// indices), each node's size memoised per proposal for the whole pass, and the placed tree
/// built from those sizes.
///
/// Why memoise: a stack asks each child its size several times (at 0 and ∞ to learn its
/// flexibility, then with its share), and each of those asks of a nested stack does the same
/// of its children, so without a memo nested stacks cost about 3^depth. The proposals a node
/// meets collapse to a handful (0, ∞, nil, and the real shares), so with it a layout costs a
/// bounded number of size computations per view: linear in the number of views. SwiftUI's
/// `Layout` documents the same reuse of layout results.
final class LayoutPass {
    @exclusivity(unchecked) private var nodes: [ViewNode] = []
    @exclusivity(unchecked) private var firstChild: [Int] = []
    @exclusivity(unchecked) private var childCount: [Int] = []
    @exclusivity(unchecked) private var childIndices: [Int] = []
    /// What a stack asks of each child, found once: whether it is a `Spacer` (and its minimum
    /// length), and its layout priority.
    @exclusivity(unchecked) private(set) var spacerLength: [CGFloat?] = []
    @exclusivity(unchecked) private(set) var isSpacer: [Bool] = []
    @exclusivity(unchecked) private(set) var priority: [Double] = []
    // The arrays are read many times per node on the hot path; one pass runs on one thread
    // and never hands out references to them, so dynamic exclusivity checks (a tenth of the
    // layout's time, measured with perf) are switched off for them.

    /// The memo: each node's (proposal, size) pairs, a short list per node threaded through
    /// one array (a node meets few distinct proposals: at most 9 in a 30-deep alternating
    /// nest, measured), scanned in place, which is cheaper than hashing each lookup.
    @exclusivity(unchecked) private var firstEntry: [Int32] = []
    @exclusivity(unchecked) private var entries: [Entry] = []
    /// Whose size a node takes for any proposal: itself, or for a node that passes its
    /// proposal through and takes its content's size (effects, boundaries, meta modifiers,
    /// offsets, priorities, backgrounds and overlays), the first node below it that does not.
    /// Such nodes are not memoised: a label's identity, style and font wrappers cost nothing.
    @exclusivity(unchecked) private var sizeSource: [Int] = []
    /// A frame's fixed width and height (NaN where it has none): the proposal's dimension it
    /// replaces does not change the frame's size, so the memo keys on the fixed one, and the
    /// several widths a stack proposes to a `.frame(width: 84)` make one entry, not several.
    @exclusivity(unchecked) private var fixedWidth: [CGFloat] = []
    @exclusivity(unchecked) private var fixedHeight: [CGFloat] = []
    /// Each Text's runs, resolved in the environment around it (font, weight), and its
    /// paragraph settings; its layouts per proposal.
    /// By node: the place of its text in `texts` (−1: not a Text). Arrays, not dictionaries
    /// by node: a grid of 500 labels hashed its way to them a few thousand times a frame.
    @exclusivity(unchecked) private var textSlot: [Int32] = []
    @exclusivity(unchecked) private var texts: [TextItem] = []

    private struct TextItem {
        var runs: [TextRun]
        var paragraph: ParagraphStyle
        var layouts: [(ProposedSize, TextLayout)] = []
    }
    /// The first error met (a font that cannot be loaded): the layout is not usable.
    private(set) var error: TypographyError?
    /// Sizes computed (memo misses): what the memo bounds, linear in the number of views.
    var measurements: Int { entries.count }
    /// Nodes in the pass.
    var nodeCount: Int { nodes.count }

    private struct Entry {
        var proposal: ProposedSize
        var size: CGSize
        var next: Int32
    }

    /// Node 0 is `root`.
    init(_ root: ViewNode) {
        _ = add(root, TextEnvironment())
        // Room for a few sizes a node at once (3.1 on the 500-label grid): grown by doubling,
        // the memo was copied into fresh pages several times a frame.
        entries.reserveCapacity(4 * nodes.count)
    }

    /// Numbers `node` and, after it, the subtree below it; each node's children take
    /// consecutive places in `childIndices`.
    private func add(_ node: ViewNode, _ environment: TextEnvironment) -> Int {
        var node = node
        while case let .leaf(.label(icon, title)) = node {
            // Arranged by the label style around it; its parts are numbered as any views.
            node = environment.label(icon: icon, title: title)
        }
        if case let .leaf(.symbol(name, resizable)) = node {
            // Sized and drawn by the font around it, which is known here.
            node = environment.symbol(name, resizable: resizable).map { .leaf(.placedSymbol($0)) } ?? .empty
        }
        let index = nodes.count
        nodes.append(node)
        firstChild.append(0)
        childCount.append(0)
        if case .leaf(.spacer(let minLength)) = node.unwrapped {
            isSpacer.append(true)
            spacerLength.append(minLength)
        } else {
            isSpacer.append(false)
            spacerLength.append(nil)
        }
        priority.append(node.layoutPriority)
        firstEntry.append(-1)
        textSlot.append(-1)
        sizeSource.append(index)
        if case let .modified(.layout(.frame(width, height, _)), _) = node {
            fixedWidth.append(width ?? .nan)
            fixedHeight.append(height ?? .nan)
        } else {
            fixedWidth.append(.nan)
            fixedHeight.append(.nan)
        }
        var inner = environment
        switch node {
        case .leaf(.text(let text)):
            do {
                let item = TextItem(runs: try text.runs(in: environment), paragraph: environment.paragraph)
                textSlot[index] = Int32(texts.count)
                texts.append(item)
            } catch {
                self.error = self.error ?? (error as? TypographyError)
            }
        case .leaf(.layoutFailure(let failure)):
            self.error = self.error ?? failure
        case .modified(.meta(.environment(let value)), _):
            inner = environment.setting(value)
        case .leaf, .container, .modified:
            break
        }
        // What the node lays out: a container's children (flattened), a modifier's content and
        // second view; numbered below it, then listed (a modifier's without an array: most
        // nodes are modifiers).
        switch node {
        case .leaf:
            firstChild[index] = childIndices.count
        case .container(let c):
            var members: [ViewNode] = []
            members.reserveCapacity(c.children.count)
            for child in c.children { ViewNode.appendChildren(of: child, to: &members) }
            let below = members.map { add($0, inner) }
            firstChild[index] = childIndices.count
            childCount[index] = below.count
            childIndices.append(contentsOf: below)
        case let .modified(modifier, content):
            let a = add(content, inner)
            let second: ViewNode?
            switch modifier {
            case .layout(.layered(let s, _, _)), .boundary(.mask(let s, _)): second = s
            case .layout, .effect, .boundary, .meta: second = nil
            }
            let b = second.map { add($0, inner) }
            firstChild[index] = childIndices.count
            childIndices.append(a)
            if let b { childIndices.append(b) }
            childCount[index] = b == nil ? 1 : 2
            switch modifier {
            case .effect, .boundary, .meta, .layout(.offset), .layout(.priority), .layout(.layered):
                // `measure` gives these their content's size for every proposal.
                sizeSource[index] = sizeSource[a]
            case .layout:
                break
            }
        }
        return index
    }

    func node(_ i: Int) -> ViewNode { nodes[i] }
    func children(_ i: Int) -> ArraySlice<Int> { childIndices[firstChild[i]..<firstChild[i] + childCount[i]] }
    func child(_ i: Int, _ k: Int = 0) -> Int { childIndices[firstChild[i] + k] }

    /// The size node `i` chooses for `proposal`, computed once per pass.
    func size(of node: Int, _ offered: ProposedSize) -> CGSize {
        let i = sizeSource[node]
        var proposal = offered
        if !fixedWidth[i].isNaN { proposal.width = fixedWidth[i] }
        if !fixedHeight[i].isNaN { proposal.height = fixedHeight[i] }
        var e = firstEntry[i]
        while e >= 0 {
            let entry = entries[Int(e)]
            if entry.proposal == proposal { return entry.size }
            e = entry.next
        }
        let s = measure(i, proposal)
        entries.append(Entry(proposal: proposal, size: s, next: firstEntry[i]))
        firstEntry[i] = Int32(entries.count - 1)
        return s
    }

    /// Node `i` and everything below it placed in `rect`.
    func place(_ i: Int, in rect: CGRect) -> PlacedNode {
        let node = nodes[i]
        let content: PlacedNode.Content
        switch node {
        case .leaf(.laidOut(let tree)):
            // Laid out already: moved, not laid out again.
            guard rect.origin != tree.rect.origin else { return tree }
            let d = CGAffineTransform(translationX: rect.minX - tree.rect.minX, y: rect.minY - tree.rect.minY)
            return PlacedNode(content: .modifier(.effect(.transform(.affine(d), anchor: .topLeading))), rect: rect, children: [tree])
        case .leaf(.text(let text)):
            let layout = textLayout(i, ProposedSize(rect.size))
            content = .leaf(.placedText(PlacedText(layout: layout, styles: text.segments.map(\.style),
                                                        string: text.segments.map(\.string).joined())))
        case .leaf(let leaf): content = .leaf(leaf)
        case .container(let c): content = .container(c.withoutChildren)
        case .modified(let m, _): content = .modifier(m)
        }
        switch node {
        case .modified(.effect, _), .modified(.meta, _), .modified(.layout(.priority), _),
             .modified(.boundary(.compositingGroup), _), .modified(.boundary(.blur), _):
            // The content in the same rectangle (as `childRects` says), without its array.
            return PlacedNode(content: content, rect: rect, children: [place(child(i), in: rect)])
        case .leaf, .container, .modified:
            let placed = childRects(i, in: rect).map { place($0.0, in: $0.1) }
            return PlacedNode(content: content, rect: rect, children: placed)
        }
    }

    /// Text node `i` laid out for `proposal` (its width wraps, its height keeps whole lines),
    /// once per proposal.
    ///
    /// Only the width wraps; a height matters only when it drops lines. So the layout without a
    /// height is made once per width, and serves every height that keeps all its lines (or
    /// when it has one line, which a height never drops): a stack's several proposals to a
    /// label cost one layout, not one per height (`textLayoutsIgnoreHeightsThatDropNothing`).
    func textLayout(_ i: Int, _ proposal: ProposedSize) -> TextLayout {
        let slot = Int(textSlot[i])
        guard slot >= 0 else { return .empty }
        if let known = texts[slot].layouts.first(where: { $0.0 == proposal }) { return known.1 }
        let runs = texts[slot].runs, paragraph = texts[slot].paragraph
        let width = proposal.width.map(Double.init)
        let unbounded = ProposedSize(width: proposal.width, height: nil)
        let free: TextLayout
        let room = proposal.width ?? .infinity
        if let known = texts[slot].layouts.first(where: { $0.0 == unbounded }) {
            free = known.1
        } else if let wider = texts[slot].layouts.first(where: { entry in
            entry.0.height == nil && !entry.1.truncated && (entry.0.width ?? .infinity) >= room && entry.1.fitWidth <= room + 1e-9
        }) {
            // Laid out wider already, and every stretch its lines took fits this width (its
            // `fitWidth`, within the breaker's own 10⁻⁹): greedy breaking takes the same lines
            // (every stretch taken still fits; every break was forced by a word that fits this
            // width even less), and lines align within the widest, so the layout is the same.
            // A text placed at the size it chose (a label in a wider frame) costs no second
            // layout.
            free = wider.1
            texts[slot].layouts.append((unbounded, free))
        } else {
            free = layOut(runs, paragraph: paragraph, width: width)
            texts[slot].layouts.append((unbounded, free))
        }
        guard let height = proposal.height.map(Double.init) else { return free }
        let made = free.lines.count == 1 || (!free.lines.isEmpty && height >= free.size.height)
            ? free : layOut(runs, paragraph: paragraph, width: width, height: height)
        texts[slot].layouts.append((proposal, made))
        return made
    }
}
