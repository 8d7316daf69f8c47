import Foundation
import Compositor
import SceneGraph

/// The `filter` property's value: `url(#id)` references and CSS filter functions, in order.
enum FilterList {
    enum Item: Equatable {
        case url(String)
        case function(name: String, arguments: String)
    }

    /// The items, nil when the text is not such a list.
    static func parse(_ text: String) -> [Item]? {
        var items: [Item] = []
        var rest = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        while !rest.isEmpty {
            guard let open = rest.firstIndex(of: "(") else { return nil }
            let name = rest[..<open].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0 == "-" }) else { return nil }
            var depth = 0
            var close: Substring.Index?
            for k in rest.indices[open...] {
                if rest[k] == "(" { depth += 1 }
                if rest[k] == ")" { depth -= 1; if depth == 0 { close = k; break } }
            }
            guard let end = close else { return nil }
            let inside = String(rest[rest.index(after: open)..<end])
            items.append(name.lowercased() == "url" ? .url("url(\(inside))") : .function(name: name.lowercased(), arguments: inside))
            rest = rest[rest.index(after: end)...].drop { $0.isWhitespace }
        }
        return items.isEmpty ? nil : items
    }

    /// Arguments split at whitespace and commas outside parentheses.
    static func arguments(_ text: String) -> [String] {
        var out: [String] = []
        var current = ""
        var depth = 0
        for ch in text {
            if ch == "(" { depth += 1 }
            if ch == ")" { depth -= 1 }
            if depth == 0, ch.isWhitespace || ch == "," {
                if !current.isEmpty { out.append(current); current = "" }
            } else {
                current.append(ch)
            }
        }
        if !current.isEmpty { out.append(current) }
        return out
    }
}

extension Resolver {
    /// A CSS filter function as a one-filter graph in sRGB (Filter Effects §13), over the
    /// element's bounding box widened by 10 % and by what the function spreads; nil when its
    /// arguments are invalid.
    func filterFunction(_ name: String, _ text: String, bbox: CGRect?, _ context: Context) -> SVGFilter? {
        let args = FilterList.arguments(text)
        func amount(default fallback: Double, clampToOne: Bool) -> Double? {
            guard args.count <= 1 else { return nil }
            guard let a = args.first else { return fallback }
            guard let v = SVGValue.fraction(a), v.isFinite, v >= 0 else { return nil }
            return clampToOne ? min(1, v) : v
        }
        func length(_ a: String) -> Double? {
            guard let l = SVGLength(a), l.unit != .percent, l.value.isFinite else { return nil }
            // A bare number counts as pixels (as in SVG attributes; resvg reads it so).
            return l.resolved(.other, viewport: context.viewport, fontSize: fontSize(context))
        }
        var kinds: [FilterPrimitive.Kind] = []
        var spread = 0.0
        switch name {
        case "blur":
            guard args.count <= 1 else { return nil }
            let sigma = args.first.flatMap(length) ?? (args.isEmpty ? 0 : -1)
            guard sigma >= 0 else { return nil }
            kinds = [.gaussianBlur(sigmaX: sigma, sigmaY: sigma)]
            spread = 3 * sigma
        case "drop-shadow":
            // Two or three lengths, with a colour before or after them.
            var words = args[...]
            var color: Color?
            func readColor(_ a: String) -> Color? { a == "currentColor" ? currentColor(context) : SVGValue.color(a) }
            if let first = words.first, length(first) == nil {
                guard let c = readColor(first) else { return nil }
                color = c
                words = words.dropFirst()
            } else if let last = words.last, length(last) == nil {
                guard let c = readColor(last) else { return nil }
                color = c
                words = words.dropLast()
            }
            var lengths: [Double] = []
            for a in words {
                guard let l = length(a) else { return nil }
                lengths.append(l)
            }
            guard lengths.count == 2 || lengths.count == 3, lengths.count < 3 || lengths[2] >= 0 else { return nil }
            let sigma = lengths.count == 3 ? lengths[2] : 0
            kinds = [.dropShadow(sigmaX: sigma, sigmaY: sigma, dx: lengths[0], dy: lengths[1], color: color ?? currentColor(context))]
            spread = 3 * sigma + max(abs(lengths[0]), abs(lengths[1]))
        case "hue-rotate":
            guard args.count <= 1 else { return nil }
            var degrees = 0.0
            if let a = args.first {
                guard let d = Self.angle(a) else { return nil }
                degrees = d
            }
            kinds = [.colorMatrix(SVGColorMatrices.hueRotate(degrees: degrees))]
        case "grayscale":
            guard let a = amount(default: 1, clampToOne: true) else { return nil }
            kinds = [.colorMatrix(SVGColorMatrices.saturate(1 - a))]
        case "sepia":
            guard let a = amount(default: 1, clampToOne: true) else { return nil }
            kinds = [.colorMatrix(SVGColorMatrices.sepia(a))]
        case "saturate":
            guard let a = amount(default: 1, clampToOne: false) else { return nil }
            kinds = [.colorMatrix(SVGColorMatrices.saturate(a))]
        case "invert":
            guard let a = amount(default: 1, clampToOne: true) else { return nil }
            let f = FilterPrimitive.TransferFunction.table([a, 1 - a])
            kinds = [.componentTransfer(red: f, green: f, blue: f, alpha: .identity)]
        case "opacity":
            guard let a = amount(default: 1, clampToOne: true) else { return nil }
            kinds = [.componentTransfer(red: .identity, green: .identity, blue: .identity, alpha: .table([0, a]))]
        case "brightness":
            guard let a = amount(default: 1, clampToOne: false) else { return nil }
            let f = FilterPrimitive.TransferFunction.linear(slope: a, intercept: 0)
            kinds = [.componentTransfer(red: f, green: f, blue: f, alpha: .identity)]
        case "contrast":
            guard let a = amount(default: 1, clampToOne: false) else { return nil }
            let f = FilterPrimitive.TransferFunction.linear(slope: a, intercept: 0.5 - 0.5 * a)
            kinds = [.componentTransfer(red: f, green: f, blue: f, alpha: .identity)]
        default:
            return nil
        }
        let box = bbox ?? .zero
        let region = box.insetBy(dx: -max(0.1 * box.width, spread), dy: -max(0.1 * box.height, spread))
        return SVGFilter(region: region, primitives: kinds.map {
            SVGFilterPrimitive(kind: $0, inputs: [.sourceGraphic], subregion: region, linearRGB: false)
        })
    }

    /// A CSS angle in degrees (`deg`, `grad`, `rad`, `turn`; a bare number only when zero).
    static func angle(_ text: String) -> Double? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        for (unit, factor) in [("grad", 0.9), ("deg", 1.0), ("rad", 180 / Double.pi), ("turn", 360.0)] where t.hasSuffix(unit) {
            return SVGValue.number(String(t.dropLast(unit.count))).flatMap { $0.isFinite ? $0 * factor : nil }
        }
        return SVGValue.number(t).flatMap { $0 == 0 ? 0 : nil }
    }
}
