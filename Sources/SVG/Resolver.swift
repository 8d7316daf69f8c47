import Foundation
import Compositor
import SceneGraph

/// Turns an XML tree into the resolved tree: computes styles, instantiates `use`, `symbol` and
/// nested `svg`, resolves paint servers, clips and masks against each element's bounding box.
struct Resolver {
    let tree: XMLTree
    let cascade: Cascade
    let file: String
    let options: SVGDocument.Options
    /// The first element with each id.
    let ids: [String: Int]
    var warnings: [SVGWarning] = []
    /// Element indices being instantiated or referenced now (`use`, clip paths, masks,
    /// patterns, markers): a reference back to one of them is a loop, and draws nothing.
    var active: Set<Int> = []
    /// Elements instantiated so far, against `options.maximumElements`.
    var instantiated = 0
    var failure: SVGError?

    /// What an element inherits from where it is drawn.
    struct Context {
        var style: ComputedStyle
        /// The nearest viewport's size, for percentages.
        var viewport: CGSize
        /// `context-fill` and `context-stroke`: the paints of the element a marker or `use`
        /// is drawn for.
        var contextFill: SVGPaint? = nil
        var contextStroke: SVGPaint? = nil
        /// From the current element's coordinates to those of the element the context paints
        /// belong to (a context paint keeps its place when the content is transformed).
        var contextSpace: CGAffineTransform = .identity
    }

    init(tree: XMLTree, file: String, options: SVGDocument.Options) {
        self.tree = tree
        self.file = file
        self.options = options
        cascade = Cascade(tree)
        var ids: [String: Int] = [:]
        for (i, e) in tree.elements.enumerated() {
            if let id = e.attributes["id"], ids[id] == nil { ids[id] = i }
        }
        self.ids = ids
        for w in cascade.warnings { warnings.append(SVGWarning(line: 1, message: w)) }
    }

    mutating func warn(_ i: Int, _ message: String) {
        let w = SVGWarning(line: tree.elements[i].line, message: message)
        if !warnings.contains(w) { warnings.append(w) }
    }

    func attribute(_ i: Int, _ name: String) -> String? { tree.elements[i].attributes[name] }
    func href(_ i: Int) -> String? { attribute(i, "href") ?? attribute(i, "xlink:href") }
    func element(_ id: String?) -> Int? { id.flatMap { ids[$0] } }

    /// The element a `url(#id)` value names, when it is a `<kind>` element.
    func referenced(_ value: String?, _ kind: String) -> Int? {
        guard let value, let (id, _) = SVGValue.urlReference(value), let target = element(id), tree.elements[target].name == kind else {
            return nil
        }
        return target
    }

    /// The style element `i` has where it is defined: the cascade down its own ancestors
    /// (what a clip path's, mask's or gradient's content inherits, whatever references it).
    func ancestorStyle(_ i: Int) -> ComputedStyle {
        var chain: [Int] = []
        var p: Int? = i
        while let q = p { chain.append(q); p = tree.elements[q].parent }
        return chain.reversed().reduce(ComputedStyle.root) { $0.child(cascade.specified[$1]) }
    }

    /// A length attribute (or geometry property set by CSS) in user units.
    func length(_ i: Int, _ name: String, _ axis: SVGLength.Axis, _ context: Context, default value: Double = 0) -> Double {
        let text = cascade.specified[i][name] ?? attribute(i, name)
        guard let text, let l = SVGLength(text) else { return value }
        return l.resolved(axis, viewport: context.viewport, fontSize: fontSize(context))
    }

    /// The font size, for `em` and `ex` (16 px unless an absolute `font-size` is given; text
    /// is not drawn, so relative sizes are not tracked).
    func fontSize(_ context: Context) -> Double {
        guard let text = context.style["font-size"], let l = SVGLength(text) else { return 16 }
        switch l.unit {
        case .percent: return l.value / 100 * 16
        case .em: return l.value * 16
        case .ex: return l.value * 8
        default: return l.resolved(.other, viewport: .zero)
        }
    }

    // MARK: - The root

    /// The root `svg`: its size, its viewBox and how that fits, and its content.
    mutating func root() throws(SVGError) -> (size: CGSize, viewBox: CGRect?, aspect: AspectRatio, content: SVGGroup) {
        let root = 0
        guard tree.elements[root].name == "svg" else { throw .notSVG(file, root: tree.elements[root].name) }
        let viewBox = self.viewBox(root)
        // Width and height default to 100%: with a viewBox, its size (as resvg and browsers
        // show a standalone file); without one, 100 × 100.
        let fallback = viewBox?.size ?? CGSize(width: 100, height: 100)
        func side(_ name: String, _ axis: SVGLength.Axis, _ fallbackSide: Double) -> Double {
            guard let text = attribute(root, name), let l = SVGLength(text) else { return fallbackSide }
            if l.unit == .percent {
                return l.value / 100 * fallbackSide
            }
            return l.resolved(axis, viewport: fallback)
        }
        var size = CGSize(width: side("width", .x, fallback.width), height: side("height", .y, fallback.height))
        // Only one side given: the other follows the viewBox's proportions.
        if let box = viewBox, box.width > 0, box.height > 0 {
            if attribute(root, "width") != nil, attribute(root, "height") == nil { size.height = size.width * box.height / box.width }
            if attribute(root, "height") != nil, attribute(root, "width") == nil { size.width = size.height * box.width / box.height }
        }
        guard size.width > 0, size.height > 0, size.width.isFinite, size.height.isFinite else {
            throw .badSize(file, reason: "the document's width and height must be positive (got \(size.width) × \(size.height))")
        }
        let aspect = attribute(root, "preserveAspectRatio").flatMap(AspectRatio.init) ?? AspectRatio()
        let style = ComputedStyle.root.child(cascade.specified[root])
        var context = Context(style: style, viewport: viewBox?.size ?? size)
        context.style = style
        var content = SVGGroup()
        content.children = children(of: root, context)
        if let failure { throw failure }
        applyGroupEffects(root, context, to: &content)
        return (size, viewBox, aspect, content)
    }

    func viewBox(_ i: Int) -> CGRect? {
        guard let text = attribute(i, "viewBox"), let v = SVGValue.numbers(text), v.count == 4, v[2] > 0, v[3] > 0 else { return nil }
        return CGRect(x: v[0], y: v[1], width: v[2], height: v[3])
    }

    // MARK: - Elements

    mutating func children(of i: Int, _ context: Context) -> [SVGNode] {
        var out: [SVGNode] = []
        for child in tree.elements[i].children {
            if let node = node(child, context) { out.append(node) }
        }
        return out
    }

    /// Whether the element's conditional attributes hold (`systemLanguage`,
    /// `requiredExtensions`; SVG 2 dropped `requiredFeatures`).
    func conditionsHold(_ i: Int) -> Bool {
        if let ext = attribute(i, "requiredExtensions") {
            // No extension is supported; an empty list is false too (SVG 1.1).
            _ = ext
            return false
        }
        if let languages = attribute(i, "systemLanguage") {
            let wanted = options.languages.map { $0.lowercased() }
            let listed = languages.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            return listed.contains { lang in
                wanted.contains { w in lang == w || lang.hasPrefix(w + "-") || w.hasPrefix(lang + "-") }
            }
        }
        return true
    }

    /// The drawing of element `i` drawn where `context` says, nil when it draws nothing.
    mutating func node(_ i: Int, _ parent: Context) -> SVGNode? {
        guard failure == nil else { return nil }
        instantiated += 1
        guard instantiated <= options.maximumElements else {
            failure = .tooManyElements(file, limit: options.maximumElements)
            return nil
        }
        let e = tree.elements[i]
        let nonRendering: Set<String> = ["defs", "symbol", "clipPath", "mask", "marker", "pattern", "linearGradient",
                                         "radialGradient", "filter", "style", "title", "desc", "metadata", "script"]
        if nonRendering.contains(e.name) { return nil }
        guard conditionsHold(i) else { return nil }
        var context = parent
        context.style = parent.style.child(cascade.specified[i])
        if context.style["display"] == "none" { return nil }
        if let t = elementTransform(i, context) { context.contextSpace = t.concatenating(parent.contextSpace) }
        for name in ["fill", "stroke"] {
            if let v = cascade.specified[i][name], v != "inherit", !ComputedStyle.isPaint(v) {
                warn(i, "cannot read the paint '\(v)': the inherited \(name) is used")
            }
        }
        var group = SVGGroup()
        switch e.name {
        case "g", "a":
            group.children = children(of: i, context)
        case "switch":
            // The first child that is a known, drawable element whose conditions hold.
            for child in e.children where conditionsHold(child) && Self.drawable.contains(tree.elements[child].name) {
                if let node = node(child, context) { group.children = [node] }
                break
            }
        case "svg":
            guard let viewport = nestedViewport(i, context, into: &group) else { return nil }
            context.viewport = viewport
            group.children = children(of: i, context)
        case "use":
            guard let used = use(i, context, into: &group) else { return nil }
            group.children = [used]
        case "rect", "circle", "ellipse", "line", "polyline", "polygon", "path":
            guard let shape = shape(i, context) else { return nil }
            group.children = [.shape(shape)]
        case "image":
            guard let image = image(i, context) else { return nil }
            group.children = [.image(image)]
        case "text", "tspan", "textPath", "foreignObject":
            warn(i, "<\(e.name)> is not drawn: SVG text is not supported yet")
            return nil
        default:
            if !e.name.contains(":") { warn(i, "unknown element <\(e.name)> ignored") }
            return nil
        }
        // An empty group still draws what a filter makes from nothing (a flood over a region
        // in user units).
        if group.children.isEmpty, cascade.specified[i]["filter"].map({ $0 == "none" }) ?? true { return nil }
        // After the placement a `use` or nested `svg` made: the element's own transform acts
        // in its parent's coordinates.
        if let t = elementTransform(i, context) { group.transform = group.transform.concatenating(t) }
        applyGroupEffects(i, context, to: &group)
        if group.children.isEmpty, group.filters.isEmpty { return nil }
        if group.needsLayer == false, group.transform == .identity, group.children.count == 1 { return group.children[0] }
        return .group(group)
    }

    /// Elements that draw (what `switch` chooses among).
    static let drawable: Set<String> = ["g", "a", "switch", "svg", "use", "rect", "circle", "ellipse", "line", "polyline", "polygon",
                                        "path", "image", "text", "foreignObject"]

    /// The element's `transform` (with `transform-origin`), nil when it has none.
    func elementTransform(_ i: Int, _ context: Context) -> CGAffineTransform? {
        guard let text = cascade.specified[i]["transform"] ?? attribute(i, "transform"), var t = SVGValue.transform(text) else { return nil }
        if let origin = cascade.specified[i]["transform-origin"], let (ox, oy) = transformOrigin(origin, context) {
            t = CGAffineTransform(translationX: -ox, y: -oy).concatenating(t).concatenating(CGAffineTransform(translationX: ox, y: oy))
        }
        return t
    }

    /// `transform-origin`: one or two lengths or keywords (percentages of the viewport, as
    /// SVG's `transform-box: view-box` default).
    func transformOrigin(_ text: String, _ context: Context) -> (Double, Double)? {
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty, words.count <= 3 else { return nil }
        func value(_ w: String, _ axis: SVGLength.Axis) -> Double? {
            let side = axis == .x ? context.viewport.width : context.viewport.height
            switch w {
            case "left", "top": return 0
            case "center": return side / 2
            case "right", "bottom": return side
            default: return SVGLength(w)?.resolved(axis, viewport: context.viewport)
            }
        }
        var x = words[0], y = words.count > 1 ? words[1] : "center"
        if x == "top" || x == "bottom" || y == "left" || y == "right" { swap(&x, &y) }
        guard let ox = value(x, .x), let oy = value(y, .y) else { return nil }
        return (ox, oy)
    }

    /// Opacity, blend mode, isolation, clip path, mask and filters of element `i`, onto `group`.
    mutating func applyGroupEffects(_ i: Int, _ context: Context, to group: inout SVGGroup) {
        let own = cascade.specified[i]
        if let o = SVGValue.opacity(own["opacity"]) { group.opacity = o }
        if let mode = own["mix-blend-mode"] {
            if let blend = Self.blendModes[mode] { group.blendMode = blend } else { warn(i, "unknown mix-blend-mode '\(mode)'") }
        }
        if own["isolation"] == "isolate" { group.isolate = true }
        let bbox = boundingBox(of: group.children, transform: .identity)
        // A clip or mask that cannot be made (an empty bounding box) hides the element; one that
        // names nothing, or refers back to one being made (a loop), is ignored (resvg's reading).
        if let value = own["clip-path"], value != "none" {
            if let target = referenced(value, "clipPath") {
                if active.contains(target) {
                    warn(i, "clip-path '\(value)' refers back to the clipPath it is in: ignored")
                } else {
                    group.clip = clip(target, bbox: bbox, context)
                    if group.clip == nil { group.children = [] }
                }
            } else {
                warn(i, "clip-path '\(value)' does not name a <clipPath>: ignored")
            }
        }
        if let value = own["mask"], value != "none" {
            if let target = referenced(value, "mask") {
                if active.contains(target) {
                    warn(i, "mask '\(value)' refers back to the mask it is in: ignored")
                } else {
                    group.mask = mask(target, bbox: bbox, context)
                    if group.mask == nil { group.children = [] }
                }
            } else {
                warn(i, "mask '\(value)' does not name a <mask>: ignored")
            }
        }
        if let value = own["filter"], value != "none" {
            switch filters(i, value, bbox: bbox, context) {
            case .unfiltered: break
            case .hidden: group.children = []
            case .filtered(let list): group.filters = list
            }
        }
    }

    static let blendModes: [String: BlendMode] = [
        "normal": .normal, "multiply": .multiply, "screen": .screen, "overlay": .overlay, "darken": .darken,
        "lighten": .lighten, "color-dodge": .colorDodge, "color-burn": .colorBurn, "hard-light": .hardLight,
        "soft-light": .softLight, "difference": .difference, "exclusion": .exclusion, "hue": .hue,
        "saturation": .saturation, "color": .color, "luminosity": .luminosity,
    ]
}
