import Foundation
import Compositor
import SceneGraph

extension Resolver {
    /// What an element's `filter` property does.
    enum FilterOutcome {
        /// Nothing: `none`, or a list that cannot be read (ignored, as CSS ignores an invalid
        /// value).
        case unfiltered
        /// The element is not drawn: a reference to no filter, or a filter that cannot be made
        /// (no primitives, an empty region, a loop).
        case hidden
        case filtered([SVGFilter])
    }

    /// The filters of element `i` (`value` its `filter` property) for its content's bounding
    /// box `bbox` (nil: none).
    mutating func filters(_ i: Int, _ value: String, bbox: CGRect?, _ context: Context) -> FilterOutcome {
        guard let items = FilterList.parse(value) else {
            warn(i, "cannot read the filter list '\(value)': ignored")
            return .unfiltered
        }
        var out: [SVGFilter] = []
        for item in items {
            switch item {
            case .url(let text):
                guard let target = referenced(text, "filter") else {
                    warn(i, "filter '\(text)' does not name a <filter>: the element is not drawn")
                    return .hidden
                }
                guard let f = filter(target, bbox: bbox, context) else { return .hidden }
                out.append(f)
            case let .function(name, arguments):
                guard let f = filterFunction(name, arguments, bbox: bbox, context) else {
                    warn(i, "cannot read the filter function '\(name)(\(arguments))': the filter is ignored")
                    return .unfiltered
                }
                out.append(f)
            }
        }
        return .filtered(out)
    }

    /// A `filter` element for an element of bounding box `bbox`; nil when it cannot be made.
    mutating func filter(_ i: Int, bbox: CGRect?, _ context: Context) -> SVGFilter? {
        guard enter(i, "a filter that refers to itself is invalid: the element is not drawn") else { return nil }
        defer { active.remove(i) }
        // Attributes and primitives along the `href` chain: the first element that has them.
        let chain = hrefChain(i).filter { tree.elements[$0].name == "filter" }
        func inherited(_ name: String) -> String? {
            for k in chain { if let v = attribute(k, name) { return v } }
            return nil
        }
        let owner = chain.first { !tree.elements[$0].children.isEmpty } ?? i
        let userUnits = inherited("filterUnits") == "userSpaceOnUse"
        let primitiveBox = inherited("primitiveUnits") == "objectBoundingBox"
        func side(_ name: String, _ fallback: String) -> SVGLength {
            inherited(name).flatMap(SVGLength.init) ?? SVGLength(fallback)!
        }
        let lx = side("x", "-10%"), ly = side("y", "-10%"), lw = side("width", "120%"), lh = side("height", "120%")
        let region: CGRect
        if userUnits {
            region = CGRect(x: lx.resolved(.x, viewport: context.viewport), y: ly.resolved(.y, viewport: context.viewport),
                            width: lw.resolved(.x, viewport: context.viewport), height: lh.resolved(.y, viewport: context.viewport))
        } else {
            guard let b = bbox, b.width > 0, b.height > 0 else {
                warn(i, "the filter's region is in objectBoundingBox units and the element has no area: it is not drawn")
                return nil
            }
            region = CGRect(x: b.minX + lx.fractionOfBox * b.width, y: b.minY + ly.fractionOfBox * b.height,
                            width: lw.fractionOfBox * b.width, height: lh.fractionOfBox * b.height)
        }
        guard region.width > 0, region.height > 0, region.width.isFinite, region.height.isFinite else {
            warn(i, "the filter's region is empty: the element is not drawn")
            return nil
        }
        if primitiveBox, bbox.map({ $0.width <= 0 || $0.height <= 0 }) ?? true {
            warn(i, "the filter's primitives are in objectBoundingBox units and the element has no area: it is not drawn")
            return nil
        }
        var filter = SVGFilter(region: region, primitives: [])
        var names: [String: Int] = [:]
        for child in tree.elements[owner].children {
            let name = tree.elements[child].name
            guard name.hasPrefix("fe") else { continue }
            let style = ancestorStyle(child)
            // The default input: the previous result, or the source graphic for the first.
            let previous: FilterPrimitive.Input = filter.primitives.isEmpty ? .sourceGraphic : .result(filter.primitives.count - 1)
            func input(_ element: Int, _ attribute: String) -> FilterPrimitive.Input {
                guard let text = self.attribute(element, attribute)?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
                    return previous
                }
                switch text {
                case "SourceGraphic", "FillPaint", "StrokePaint", "BackgroundImage": return .sourceGraphic
                case "SourceAlpha", "BackgroundAlpha": return .sourceAlpha
                default:
                    if let k = names[text] { return .result(k) }
                    warn(element, "'\(attribute)=\"\(text)\"' names no earlier result: the previous result is used")
                    return previous
                }
            }
            let in1 = input(child, "in"), in2 = input(child, "in2")
            let merged = tree.elements[child].children.filter { tree.elements[$0].name == "feMergeNode" }.map { input($0, "in") }
            let context = PrimitiveContext(element: child, bbox: bbox ?? .zero, boxUnits: primitiveBox, viewport: context.viewport)
            guard let (kind, inputs) = primitive(name, child, in1: in1, in2: in2, merged: merged, style: style, context,
                                                 images: &filter.images) else {
                warn(child, "<\(name)> is not supported: its result is transparent")
                filter.primitives.append(SVGFilterPrimitive(kind: .flood(.clear), inputs: [],
                                                            subregion: subregion(child, region, context), linearRGB: true))
                continue
            }
            let linear = (style["color-interpolation-filters"] ?? "linearRGB") != "sRGB"
            filter.primitives.append(SVGFilterPrimitive(kind: kind, inputs: inputs, subregion: subregion(child, region, context),
                                                        linearRGB: linear))
            if let result = attribute(child, "result")?.trimmingCharacters(in: .whitespaces), !result.isEmpty {
                names[result] = filter.primitives.count - 1
            }
        }
        guard !filter.primitives.isEmpty else {
            warn(i, "the filter has no primitives: the element is not drawn")
            return nil
        }
        return filter
    }

    /// What a primitive's lengths are measured against.
    struct PrimitiveContext {
        var element: Int
        var bbox: CGRect
        /// `primitiveUnits="objectBoundingBox"`: lengths are fractions of the box.
        var boxUnits: Bool
        var viewport: CGSize

        /// A number attribute's value as a horizontal (or vertical) length in user units.
        func scaled(_ v: Double, _ axis: SVGLength.Axis) -> Double {
            guard boxUnits else { return v }
            return v * (axis == .x ? bbox.width : bbox.height)
        }
    }

    /// A primitive's subregion. In user units: its x, y, width and height, each defaulting to
    /// the filter region's. In objectBoundingBox units (resvg's reading): fractions of the
    /// filter region, defaulting to 0, 0, 1, 1; for `feFlood` and `feImage` fractions of the
    /// element's bounding box instead.
    func subregion(_ i: Int, _ region: CGRect, _ c: PrimitiveContext) -> CGRect {
        func given(_ name: String) -> SVGLength? { attribute(i, name).flatMap(SVGLength.init) }
        let rect: CGRect
        if c.boxUnits {
            let name = tree.elements[i].name
            let frame = name == "feFlood" || name == "feImage" ? c.bbox : region
            let fx = given("x")?.fractionOfBox ?? 0, fy = given("y")?.fractionOfBox ?? 0
            let fw = given("width")?.fractionOfBox ?? 1, fh = given("height")?.fractionOfBox ?? 1
            rect = CGRect(x: frame.minX + fx * frame.width, y: frame.minY + fy * frame.height,
                          width: fw * frame.width, height: fh * frame.height)
        } else {
            func value(_ name: String, _ axis: SVGLength.Axis) -> Double? { given(name)?.resolved(axis, viewport: c.viewport) }
            rect = CGRect(x: value("x", .x) ?? region.minX, y: value("y", .y) ?? region.minY,
                          width: value("width", .x) ?? region.width, height: value("height", .y) ?? region.height)
        }
        guard rect.width > 0, rect.height > 0, rect.width.isFinite, rect.height.isFinite else { return .zero }
        return rect
    }

    /// The kind and inputs of primitive `i` (element `name`); nil for primitives not drawn.
    mutating func primitive(_ name: String, _ i: Int, in1: FilterPrimitive.Input, in2: FilterPrimitive.Input,
                            merged: [FilterPrimitive.Input], style: ComputedStyle, _ c: PrimitiveContext,
                            images: inout [[SVGNode]]) -> (FilterPrimitive.Kind, [FilterPrimitive.Input])? {
        func numbers(_ attribute: String) -> [Double]? { self.attribute(i, attribute).flatMap(SVGValue.numbers) }
        func number(_ attribute: String, _ fallback: Double) -> Double {
            self.attribute(i, attribute).flatMap(SVGValue.number).flatMap { $0.isFinite ? $0 : nil } ?? fallback
        }
        switch name {
        case "feGaussianBlur":
            let (sx, sy) = pair(numbers("stdDeviation"), default: 0)
            // A negative σ disables the blur (the input passes through).
            guard sx >= 0, sy >= 0 else { return (.gaussianBlur(sigmaX: 0, sigmaY: 0), [in1]) }
            return (.gaussianBlur(sigmaX: c.scaled(sx, .x), sigmaY: c.scaled(sy, .y)), [in1])
        case "feOffset":
            return (.offset(dx: c.scaled(number("dx", 0), .x), dy: c.scaled(number("dy", 0), .y)), [in1])
        case "feFlood":
            return (.flood(floodColor(i, style)), [])
        case "feDropShadow":
            let (sx, sy) = pair(numbers("stdDeviation"), default: 2)
            let ok = sx >= 0 && sy >= 0
            return (.dropShadow(sigmaX: ok ? c.scaled(sx, .x) : 0, sigmaY: ok ? c.scaled(sy, .y) : 0,
                                dx: c.scaled(number("dx", 2), .x), dy: c.scaled(number("dy", 2), .y), color: floodColor(i, style)), [in1])
        case "feBlend":
            let mode = attribute(i, "mode").flatMap { Self.blendModes[$0.trimmingCharacters(in: .whitespaces)] } ?? .normal
            return (.blend(mode), [in1, in2])
        case "feComposite":
            let op = attribute(i, "operator")?.trimmingCharacters(in: .whitespaces) ?? "over"
            if op == "arithmetic" {
                return (.arithmetic(k1: number("k1", 0), k2: number("k2", 0), k3: number("k3", 0), k4: number("k4", 0)), [in1, in2])
            }
            return (.composite(FilterPrimitive.CompositeOperator(rawValue: op) ?? .over), [in1, in2])
        case "feMerge":
            return (.merge, merged)
        case "feColorMatrix":
            return (.colorMatrix(colorMatrix(i)), [in1])
        case "feComponentTransfer":
            var f: [String: FilterPrimitive.TransferFunction] = [:]
            for node in tree.elements[i].children {
                let n = tree.elements[node].name
                guard ["feFuncR", "feFuncG", "feFuncB", "feFuncA"].contains(n) else { continue }
                f[n] = transferFunction(node)
            }
            return (.componentTransfer(red: f["feFuncR"] ?? .identity, green: f["feFuncG"] ?? .identity,
                                       blue: f["feFuncB"] ?? .identity, alpha: f["feFuncA"] ?? .identity), [in1])
        case "feMorphology":
            let (rx, ry) = pair(numbers("radius"), default: 0)
            // Zero or negative radii disable the primitive (the input passes through).
            guard rx > 0, ry > 0 else { return (.morphology(dilate: false, radiusX: 0, radiusY: 0), [in1]) }
            let dilate = attribute(i, "operator")?.trimmingCharacters(in: .whitespaces) == "dilate"
            return (.morphology(dilate: dilate, radiusX: c.scaled(rx, .x), radiusY: c.scaled(ry, .y)), [in1])
        case "feTile":
            return (.tile, [in1])
        case "feImage":
            guard let picture = filterImage(i, c) else { return (.flood(.clear), []) }
            images.append(picture)
            return (.image(images.count - 1), [])
        default:
            return nil
        }
    }

    /// One or two numbers (the second defaults to the first); `fallback` when there are none,
    /// and an invalid list counts as none.
    func pair(_ values: [Double]?, default fallback: Double) -> (Double, Double) {
        guard let v = values, !v.isEmpty, v.count <= 2, v.allSatisfy(\.isFinite) else { return (fallback, fallback) }
        return (v[0], v.count == 2 ? v[1] : v[0])
    }

    /// `flood-color` with `flood-opacity` (neither inherited; `inherit` takes the parent's).
    func floodColor(_ i: Int, _ style: ComputedStyle) -> Color {
        let text = style["flood-color"]?.trimmingCharacters(in: .whitespaces) ?? "black"
        let color = text == "currentColor" ? (style["color"].flatMap(SVGValue.color) ?? .black) : (SVGValue.color(text) ?? .black)
        let opacity = SVGValue.opacity(style["flood-opacity"]) ?? 1
        return color.opacity(opacity)
    }

    /// `feColorMatrix`'s matrix: its type and values, the identity when they are invalid.
    func colorMatrix(_ i: Int) -> ColorMatrix {
        let type = attribute(i, "type")?.trimmingCharacters(in: .whitespaces) ?? "matrix"
        let values = attribute(i, "values").flatMap(SVGValue.numbers)
        switch type {
        case "saturate":
            // SVG 1.1's range, 0…1 (resvg clamps to it too).
            let s = values.flatMap { $0.count == 1 ? $0[0] : nil } ?? 1
            return SVGColorMatrices.saturate(min(1, max(0, s)))
        case "hueRotate":
            let a = values.flatMap { $0.count == 1 ? $0[0] : nil } ?? 0
            return SVGColorMatrices.hueRotate(degrees: a)
        case "luminanceToAlpha":
            return SVGColorMatrices.luminanceToAlpha
        default:
            // `matrix`, which an unknown type also falls back to.
            return values.flatMap(ColorMatrix.init(rows:)) ?? .identity
        }
    }

    func transferFunction(_ i: Int) -> FilterPrimitive.TransferFunction {
        func number(_ name: String, _ fallback: Double) -> Double {
            attribute(i, name).flatMap(SVGValue.number).flatMap { $0.isFinite ? $0 : nil } ?? fallback
        }
        let table = attribute(i, "tableValues").flatMap(SVGValue.numbers) ?? []
        switch attribute(i, "type")?.trimmingCharacters(in: .whitespaces) {
        case "table": return table.isEmpty ? .identity : .table(table)
        case "discrete": return table.isEmpty ? .identity : .discrete(table)
        case "linear": return .linear(slope: number("slope", 1), intercept: number("intercept", 0))
        case "gamma": return .gamma(amplitude: number("amplitude", 1), exponent: number("exponent", 1), offset: number("offset", 0))
        default: return .identity
        }
    }

    /// `feImage`'s picture in the filtered element's user space: an image file fitted into the
    /// primitive's subregion by `preserveAspectRatio`, or an element drawn as `use` would.
    mutating func filterImage(_ i: Int, _ c: PrimitiveContext) -> [SVGNode]? {
        guard let reference = href(i)?.trimmingCharacters(in: .whitespacesAndNewlines), !reference.isEmpty else { return nil }
        if reference.hasPrefix("#") {
            guard let target = element(String(reference.dropFirst())) else {
                warn(i, "feImage '\(reference)' names no element")
                return nil
            }
            guard enter(target, "an feImage that draws its own filter is a loop: its result is transparent") else { return nil }
            defer { active.remove(target) }
            let context = Context(style: ancestorStyle(tree.elements[target].parent ?? target), viewport: c.viewport)
            return node(target, context).map { [$0] }
        }
        guard let content = imageContent(reference, i) else { return nil }
        let region = subregion(i, CGRect(x: c.bbox.minX, y: c.bbox.minY, width: c.bbox.width, height: c.bbox.height), c)
        let frame = attribute(i, "width") == nil || attribute(i, "height") == nil ? nil : region
        let natural: CGRect
        switch content {
        case .pixels(let p): natural = CGRect(x: 0, y: 0, width: p.pixelWidth, height: p.pixelHeight)
        case .document(let d): natural = d.viewBox ?? CGRect(origin: .zero, size: d.naturalSize)
        }
        let viewport = frame ?? CGRect(x: region.minX, y: region.minY, width: natural.width, height: natural.height)
        let aspect = attribute(i, "preserveAspectRatio").flatMap(AspectRatio.init) ?? AspectRatio()
        let transform = aspect.transform(box: natural, into: viewport)
        return [.image(SVGImageNode(content: content, transform: transform, clip: viewport, smooth: true))]
    }
}

/// SVG's colour matrices (Filter Effects §9.6), with its luminance weights.
enum SVGColorMatrices {
    static func saturate(_ s: Double) -> ColorMatrix {
        ColorMatrix(red: SIMD4(0.213 + 0.787 * s, 0.715 - 0.715 * s, 0.072 - 0.072 * s, 0),
                    green: SIMD4(0.213 - 0.213 * s, 0.715 + 0.285 * s, 0.072 - 0.072 * s, 0),
                    blue: SIMD4(0.213 - 0.213 * s, 0.715 - 0.715 * s, 0.072 + 0.928 * s, 0),
                    alpha: SIMD4(0, 0, 0, 1))
    }

    static func hueRotate(degrees: Double) -> ColorMatrix {
        let r = degrees * .pi / 180, c = cos(r), s = sin(r)
        return ColorMatrix(red: SIMD4(0.213 + c * 0.787 - s * 0.213, 0.715 - c * 0.715 - s * 0.715, 0.072 - c * 0.072 + s * 0.928, 0),
                           green: SIMD4(0.213 - c * 0.213 + s * 0.143, 0.715 + c * 0.285 + s * 0.140, 0.072 - c * 0.072 - s * 0.283, 0),
                           blue: SIMD4(0.213 - c * 0.213 - s * 0.787, 0.715 - c * 0.715 + s * 0.715, 0.072 + c * 0.928 + s * 0.072, 0),
                           alpha: SIMD4(0, 0, 0, 1))
    }

    static let luminanceToAlpha = ColorMatrix(red: .zero, green: .zero, blue: .zero, alpha: SIMD4(0.2125, 0.7154, 0.0721, 0))

    static func sepia(_ amount: Double) -> ColorMatrix {
        let a = 1 - min(1, max(0, amount))
        return ColorMatrix(red: SIMD4(0.393 + 0.607 * a, 0.769 - 0.769 * a, 0.189 - 0.189 * a, 0),
                           green: SIMD4(0.349 - 0.349 * a, 0.686 + 0.314 * a, 0.168 - 0.168 * a, 0),
                           blue: SIMD4(0.272 - 0.272 * a, 0.534 - 0.534 * a, 0.131 + 0.869 * a, 0),
                           alpha: SIMD4(0, 0, 0, 1))
    }
}
