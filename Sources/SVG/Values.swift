import Foundation
import Compositor

/// Readers for SVG's attribute and property values. Each returns nil for text it cannot read;
/// the caller then uses the property's initial value, as SVG asks for invalid values.
enum SVGValue {
    /// Numbers separated by whitespace and/or commas (`1, 2 3.5e1-4`).
    static func numbers(_ text: String) -> [Double]? {
        var out: [Double] = []
        var scanner = NumberScanner(text)
        while true {
            scanner.skipSeparators()
            if scanner.atEnd { return out }
            guard let n = scanner.number() else { return nil }
            out.append(n)
        }
    }

    static func number(_ text: String) -> Double? {
        var scanner = NumberScanner(text)
        scanner.skipSpace()
        guard let n = scanner.number() else { return nil }
        scanner.skipSpace()
        return scanner.atEnd ? n : nil
    }

    /// A number or a percentage (`50%` → 0.5), as `offset`, opacities and `stop-opacity` take.
    static func fraction(_ text: String) -> Double? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.hasSuffix("%") { return number(String(t.dropLast())).map { $0 / 100 } }
        return number(t)
    }

    /// An opacity: a number or percentage clamped to [0, 1].
    static func opacity(_ text: String?) -> Double? {
        guard let text, let v = fraction(text), v.isFinite else { return nil }
        return min(1, max(0, v))
    }
}

/// Scans SVG number syntax (also for path-like lists where numbers run together: `1-2.5.5`).
struct NumberScanner {
    let bytes: [UInt8]
    var i = 0
    init(_ text: String) { bytes = Array(text.utf8) }
    var atEnd: Bool { i >= bytes.count }
    var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

    mutating func skipSpace() { while let c = peek, c == 32 || c == 9 || c == 10 || c == 13 { i += 1 } }
    mutating func skipSeparators() {
        skipSpace()
        if peek == UInt8(ascii: ",") { i += 1; skipSpace() }
    }

    mutating func number() -> Double? {
        let start = i
        if let c = peek, c == UInt8(ascii: "+") || c == UInt8(ascii: "-") { i += 1 }
        var digits = 0
        while let c = peek, c >= 48 && c <= 57 { i += 1; digits += 1 }
        if peek == UInt8(ascii: ".") {
            i += 1
            while let c = peek, c >= 48 && c <= 57 { i += 1; digits += 1 }
        }
        guard digits > 0 else { i = start; return nil }
        if let c = peek, c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
            let mark = i
            i += 1
            if let s = peek, s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { i += 1 }
            var exp = 0
            while let d = peek, d >= 48 && d <= 57 { i += 1; exp += 1 }
            if exp == 0 { i = mark }
        }
        guard let text = String(bytes: bytes[start..<i], encoding: .ascii), let v = Double(text), v.isFinite else { i = start; return nil }
        return v
    }

    /// The letters that follow (a unit), lowercased.
    mutating func unit() -> String {
        let start = i
        while let c = peek, (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == UInt8(ascii: "%") { i += 1 }
        return String(decoding: bytes[start..<i], as: UTF8.self).lowercased()
    }
}

/// A length with its unit, resolved to user units against a viewport and a font size.
struct SVGLength: Equatable {
    enum Unit: String { case none = "", px, pt, pc, mm, cm, `in`, em, ex, percent = "%" }
    var value: Double
    var unit: Unit

    static let zero = SVGLength(value: 0, unit: .none)

    init(value: Double, unit: Unit) { self.value = value; self.unit = unit }

    init?(_ text: String) {
        var scanner = NumberScanner(text)
        scanner.skipSpace()
        guard let n = scanner.number() else { return nil }
        let u = scanner.unit()
        scanner.skipSpace()
        guard scanner.atEnd, let unit = Unit(rawValue: u) else { return nil }
        self.init(value: n, unit: unit)
    }

    /// Which side of the viewport a percentage refers to.
    enum Axis { case x, y, other }

    /// User units; a percentage of the viewport's side (`other`: its diagonal ÷ √2).
    func resolved(_ axis: Axis, viewport: CGSize, fontSize: Double = 16) -> Double {
        switch unit {
        case .none, .px: return value
        case .pt: return value * 4 / 3
        case .pc: return value * 16
        case .mm: return value * 96 / 25.4
        case .cm: return value * 96 / 2.54
        case .in: return value * 96
        case .em: return value * fontSize
        case .ex: return value * fontSize / 2
        case .percent:
            let side: Double
            switch axis {
            case .x: side = viewport.width
            case .y: side = viewport.height
            case .other: side = ((viewport.width * viewport.width + viewport.height * viewport.height) / 2).squareRoot()
            }
            return value / 100 * side
        }
    }

    /// As a fraction of a bounding box (objectBoundingBox units): a percentage divided by
    /// 100, a number as it is.
    var fractionOfBox: Double { unit == .percent ? value / 100 : value }
}

/// `preserveAspectRatio`: how a viewBox fits a viewport.
struct AspectRatio: Equatable {
    enum Align { case none, min, mid, max }
    var x: Align = .mid
    var y: Align = .mid
    var slice = false

    init() {}

    init?(_ text: String) {
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init).filter { $0 != "defer" }
        guard let first = words.first else { return nil }
        if first == "none" {
            x = .none; y = .none
        } else {
            guard first.count == 8, first.hasPrefix("x"), first.dropFirst(4).hasPrefix("Y") else { return nil }
            func align(_ s: Substring) -> Align? { s == "Min" ? .min : s == "Mid" ? .mid : s == "Max" ? .max : nil }
            guard let ax = align(first.dropFirst(1).prefix(3)), let ay = align(first.dropFirst(5).prefix(3)) else { return nil }
            x = ax; y = ay
        }
        if words.count > 1 {
            guard words[1] == "meet" || words[1] == "slice" else { return nil }
            slice = words[1] == "slice"
        }
    }

    /// The transform fitting `box` into `viewport`.
    func transform(box: CGRect, into viewport: CGRect) -> CGAffineTransform {
        guard box.width > 0, box.height > 0 else { return .identity }
        var sx = viewport.width / box.width, sy = viewport.height / box.height
        if x != .none {
            let s = slice ? max(sx, sy) : min(sx, sy)
            sx = s; sy = s
        }
        func offset(_ a: Align, _ free: Double) -> Double { a == .mid ? free / 2 : a == .max ? free : 0 }
        let tx = viewport.minX - box.minX * sx + offset(x, viewport.width - box.width * sx)
        let ty = viewport.minY - box.minY * sy + offset(y, viewport.height - box.height * sy)
        return CGAffineTransform(a: sx, b: 0, c: 0, d: sy, tx: tx, ty: ty)
    }
}

extension SVGValue {
    /// A CSS colour: a name, `transparent`, `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb()`,
    /// `rgba()` (numbers or percentages, commas or spaces with `/ alpha`), `hsl()`, `hsla()`.
    /// `currentColor` is the caller's.
    static func color(_ raw: String) -> Color? {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        let lower = text.lowercased()
        if lower == "transparent" { return Color(red: 0, green: 0, blue: 0, opacity: 0) }
        if let rgb = cssNamedColors[lower] { return Color(rgb: rgb) }
        if lower.hasPrefix("#") {
            let hex = Array(lower.dropFirst())
            guard hex.allSatisfy(\.isHexDigit) else { return nil }
            func v(_ s: ArraySlice<Character>) -> Double { Double(Int(String(s), radix: 16)!) }
            switch hex.count {
            case 3, 4:
                let c = hex.map { v([$0, $0][...]) / 255 }
                return Color(red: c[0], green: c[1], blue: c[2], opacity: hex.count == 4 ? c[3] : 1)
            case 6, 8:
                let c = stride(from: 0, to: hex.count, by: 2).map { v(hex[$0..<$0 + 2]) / 255 }
                return Color(red: c[0], green: c[1], blue: c[2], opacity: hex.count == 8 ? c[3] : 1)
            default: return nil
            }
        }
        guard let open = lower.firstIndex(of: "("), lower.hasSuffix(")") else { return nil }
        let function = lower[..<open].trimmingCharacters(in: .whitespaces)
        let inside = String(lower[lower.index(after: open)..<lower.index(before: lower.endIndex)])
        let parts = inside.replacingOccurrences(of: "/", with: " / ").split(whereSeparator: { $0 == "," || $0.isWhitespace })
            .map(String.init).filter { $0 != "/" }
        guard parts.count == 3 || parts.count == 4 else { return nil }
        func alpha() -> Double? {
            guard parts.count == 4 else { return 1 }
            return fraction(parts[3]).map { min(1, max(0, $0)) }
        }
        switch function {
        case "rgb", "rgba":
            var c: [Double] = []
            for p in parts.prefix(3) {
                if p.hasSuffix("%") { guard let n = number(String(p.dropLast())) else { return nil }; c.append(n / 100) }
                else { guard let n = number(p) else { return nil }; c.append(n / 255) }
            }
            guard let a = alpha() else { return nil }
            return Color(red: clamp(c[0]), green: clamp(c[1]), blue: clamp(c[2]), opacity: a)
        case "hsl", "hsla":
            let hText = parts[0].hasSuffix("deg") ? String(parts[0].dropLast(3)) : parts[0]
            guard let h = number(hText), parts[1].hasSuffix("%"), parts[2].hasSuffix("%"),
                  let s = number(String(parts[1].dropLast())), let l = number(String(parts[2].dropLast())), let a = alpha() else { return nil }
            let (r, g, b) = hslToRGB(h, clamp(s / 100), clamp(l / 100))
            return Color(red: r, green: g, blue: b, opacity: a)
        default:
            return nil
        }
    }

    private static func clamp(_ v: Double) -> Double { min(1, max(0, v)) }

    /// CSS Color 3's HSL to RGB.
    private static func hslToRGB(_ hue: Double, _ s: Double, _ l: Double) -> (Double, Double, Double) {
        let h = ((hue.truncatingRemainder(dividingBy: 360)) + 360).truncatingRemainder(dividingBy: 360) / 360
        let m2 = l <= 0.5 ? l * (s + 1) : l + s - l * s
        let m1 = l * 2 - m2
        func channel(_ t0: Double) -> Double {
            var t = t0
            if t < 0 { t += 1 }
            if t > 1 { t -= 1 }
            if t * 6 < 1 { return m1 + (m2 - m1) * t * 6 }
            if t * 2 < 1 { return m2 }
            if t * 3 < 2 { return m1 + (m2 - m1) * (2.0 / 3 - t) * 6 }
            return m1
        }
        return (channel(h + 1.0 / 3), channel(h), channel(h - 1.0 / 3))
    }

    /// A `transform` list; nil when any part is malformed (the attribute is then ignored).
    /// A transform list that can be inverted; nil for a singular one (a paint server's
    /// `gradientTransform` or `patternTransform` that collapses the plane is ignored, as resvg
    /// and browsers do).
    static func invertibleTransform(_ text: String) -> CGAffineTransform? {
        guard let t = transform(text) else { return nil }
        let det = Double(t.a * t.d - t.b * t.c)
        return det != 0 && det.isFinite ? t : nil
    }

    static func transform(_ text: String) -> CGAffineTransform? {
        var result = CGAffineTransform.identity
        var rest = Substring(text)
        while true {
            rest = rest.drop(while: { $0.isWhitespace || $0 == "," })
            if rest.isEmpty { return result }
            guard let open = rest.firstIndex(of: "("), let close = rest[open...].firstIndex(of: ")") else { return nil }
            let name = rest[..<open].trimmingCharacters(in: .whitespaces)
            guard let v = numbers(String(rest[rest.index(after: open)..<close])) else { return nil }
            rest = rest[rest.index(after: close)...]
            let t: CGAffineTransform
            switch (name, v.count) {
            case ("matrix", 6): t = CGAffineTransform(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5])
            case ("translate", 1): t = CGAffineTransform(translationX: v[0], y: 0)
            case ("translate", 2): t = CGAffineTransform(translationX: v[0], y: v[1])
            case ("scale", 1): t = CGAffineTransform(scaleX: v[0], y: v[0])
            case ("scale", 2): t = CGAffineTransform(scaleX: v[0], y: v[1])
            case ("rotate", 1): t = rotation(v[0])
            case ("rotate", 3):
                t = CGAffineTransform(translationX: -v[1], y: -v[2]).concatenating(rotation(v[0]))
                    .concatenating(CGAffineTransform(translationX: v[1], y: v[2]))
            case ("skewX", 1): t = CGAffineTransform(a: 1, b: 0, c: tan(v[0] * .pi / 180), d: 1, tx: 0, ty: 0)
            case ("skewY", 1): t = CGAffineTransform(a: 1, b: tan(v[0] * .pi / 180), c: 0, d: 1, tx: 0, ty: 0)
            default: return nil
            }
            // Written left to right, applied right to left: each later one acts first.
            result = t.concatenating(result)
        }
    }

    static func rotation(_ degrees: Double) -> CGAffineTransform {
        let r = degrees * .pi / 180
        let (c, s) = (cos(r), sin(r))
        // Exact quarter turns: cos(90°) is 6e-17, which would smear an aligned rectangle's edges.
        func snap(_ x: Double) -> Double { abs(x) < 1e-12 ? 0 : abs(abs(x) - 1) < 1e-12 ? x.sign == .minus ? -1 : 1 : x }
        return CGAffineTransform(a: snap(c), b: snap(s), c: snap(-s), d: snap(c), tx: 0, ty: 0)
    }

    /// `url(#id)` (quotes allowed) → id; nil for anything else.
    static func urlReference(_ text: String) -> (id: String, rest: String)? {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard t.hasPrefix("url("), let close = t.firstIndex(of: ")") else { return nil }
        var inner = t[t.index(t.startIndex, offsetBy: 4)..<close].trimmingCharacters(in: .whitespaces)
        if inner.count >= 2, let f = inner.first, f == "\"" || f == "'", inner.last == f { inner = String(inner.dropFirst().dropLast()) }
        guard inner.hasPrefix("#") else { return nil }
        return (String(inner.dropFirst()), t[t.index(after: close)...].trimmingCharacters(in: .whitespaces))
    }

    /// An `href`'s fragment: `#id` → id.
    static func fragment(_ href: String?) -> String? {
        guard let h = href?.trimmingCharacters(in: .whitespaces), h.hasPrefix("#"), h.count > 1 else { return nil }
        return String(h.dropFirst())
    }
}
