import Foundation
import Typography

/// A font as SwiftUI describes it (SwiftUI's `Font`): a text style or a size, a weight, a
/// design and italics. The system font is Inter standing in for SF Pro (see `SystemFont`);
/// text styles have iOS's sizes at the default Dynamic Type size.
///
/// ```swift
/// Text("Disponible").font(.headline)
/// Text("38").font(.system(size: 38, weight: .semibold))
/// ```
public struct Font: Hashable, Sendable {
    /// iOS's text styles at the "Large" Dynamic Type size.
    public enum TextStyle: String, Hashable, Sendable, CaseIterable {
        case largeTitle, title, title2, title3, headline, subheadline, body, callout, footnote, caption, caption2

        /// Points, as `UIFont.preferredFont(forTextStyle:)` gives them.
        public var size: CGFloat {
            switch self {
            case .largeTitle: 34
            case .title: 28
            case .title2: 22
            case .title3: 20
            case .headline, .body: 17
            case .callout: 16
            case .subheadline: 15
            case .footnote: 13
            case .caption: 12
            case .caption2: 11
            }
        }

        /// Headline is semibold; every other style regular.
        var weight: Weight { self == .headline ? .semibold : .regular }
    }

    /// The font's design (SwiftUI's `Font.Design`): `.serif` is Noto Serif, `.monospaced`
    /// JetBrains Mono, `.rounded` Quicksand (upright only).
    public enum Design: String, Hashable, Sendable {
        case `default`, serif, rounded, monospaced
    }

    /// A weight: the `wght` axis value (SwiftUI's `Font.Weight`).
    public struct Weight: Hashable, Sendable {
        public let value: Double
        init(_ value: Double) { self.value = value }
        public static let ultraLight = Weight(100), thin = Weight(200), light = Weight(300), regular = Weight(400)
        public static let medium = Weight(500), semibold = Weight(600), bold = Weight(700), heavy = Weight(800)
        public static let black = Weight(900)
    }

    enum Size: Hashable, Sendable {
        case style(TextStyle)
        case points(CGFloat)
    }

    var size: Size
    var weight: Weight?
    var design: Design = .default
    var isItalic = false
    var monospacedDigits = false
    /// `Font.custom`'s name, looked up in `FontRegistry.shared`.
    var customName: String?

    public static let largeTitle = Font(size: .style(.largeTitle))
    public static let title = Font(size: .style(.title))
    public static let title2 = Font(size: .style(.title2))
    public static let title3 = Font(size: .style(.title3))
    public static let headline = Font(size: .style(.headline))
    public static let subheadline = Font(size: .style(.subheadline))
    public static let body = Font(size: .style(.body))
    public static let callout = Font(size: .style(.callout))
    public static let footnote = Font(size: .style(.footnote))
    public static let caption = Font(size: .style(.caption))
    public static let caption2 = Font(size: .style(.caption2))

    /// The system font at `size` points.
    public static func system(size: CGFloat, weight: Weight? = nil, design: Design? = nil) -> Font {
        Font(size: .points(size.isFinite && size > 0 ? size : TextStyle.body.size), weight: weight, design: design ?? .default)
    }
    /// The system font in a text style's size.
    public static func system(_ style: TextStyle, design: Design? = nil, weight: Weight? = nil) -> Font {
        Font(size: .style(style), weight: weight, design: design ?? .default)
    }
    /// A font by name at `size` points: a family, full or PostScript name of a font registered
    /// with `FontRegistry` (or `compose --fonts`, `COMPOSE_FONT_PATH`, a `fonts/` folder beside
    /// the scene) or installed on the machine. A name found nowhere draws in the system font at
    /// that size, with a warning on standard error (SwiftUI falls back silently).
    public static func custom(_ name: String, size: CGFloat) -> Font {
        var font = system(size: size)
        font.customName = name
        return font
    }

    public func weight(_ weight: Weight) -> Font { var f = self; f.weight = weight; return f }
    public func bold() -> Font { weight(.bold) }
    public func italic() -> Font { var f = self; f.isItalic = true; return f }
    /// Digits of one width (OpenType `tnum`), for numbers that change in place.
    public func monospacedDigit() -> Font { var f = self; f.monospacedDigits = true; return f }
    public func monospaced() -> Font { var f = self; f.design = .monospaced; return f }

    /// Points.
    public var pointSize: CGFloat {
        switch size {
        case .style(let s): s.size
        case .points(let p): p
        }
    }

    /// The weight drawn: the one set, else the style's.
    var resolvedWeight: Weight {
        if let weight { return weight }
        if case .style(let s) = size { return s.weight }
        return .regular
    }

    /// The font instance that draws this font, and the features it turns on: the system font
    /// (Inter), or for the serif and monospaced designs Noto Serif and JetBrains Mono (DejaVu
    /// when those are not installed, the system font when neither is), for the rounded design
    /// Quicksand, upright (the system font when it is not installed).
    func instance() throws -> (FontInstance, [String]) {
        let weight = resolvedWeight.value
        let features = monospacedDigits ? ["tnum"] : []
        if let name = customName {
            if let custom = FontRegistry.shared.font(named: name, weight: weight, italic: isItalic) { return (custom, features) }
            FontWarnings.unknown(name)
        }
        switch design {
        case .serif:
            if let serif = FontLibrary.serif(weight: weight, italic: isItalic) { return (serif, features) }
        case .monospaced:
            if let mono = FontLibrary.monospaced(weight: weight, italic: isItalic) { return (mono, features) }
        case .rounded:
            if let rounded = FontLibrary.rounded(weight: weight) {
                if isItalic { FontWarnings.once("warning: the rounded design (Quicksand) has no italic; drawing it upright") }
                return (rounded, features)
            }
            FontWarnings.once("warning: no font for the rounded design (Quicksand, fonts-quicksand) is installed; drawing the default design instead")
        case .default:
            break
        }
        return (try SystemFont.instance(size: Double(pointSize), weight: weight, italic: isItalic), features)
    }
}

/// Warnings about fonts, each name once per process.
enum FontWarnings {
    private static let warned = Locked<Set<String>>([])

    static func unknown(_ name: String) {
        once("warning: no font named '\(name)' is registered or installed; drawing the system font instead")
    }

    /// Writes `message` on standard error the first time it is asked for.
    static func once(_ message: String) {
        guard warned.withLock({ $0.insert(message).inserted }) else { return }
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
