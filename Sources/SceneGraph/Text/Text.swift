import Foundation
import Typography

/// Text in a font (SwiftUI's `Text`): laid out in lines under the width its parent proposes
/// (its width is its widest line), coloured by the foreground style, drawn from the font's
/// glyph outlines. `+` joins texts that keep their own fonts and colours.
///
/// ```swift
/// Text("Disponible").font(.headline).foregroundStyle(.green)
/// Text("Hola, ") + Text("mundo").bold()
/// ```
public struct Text: View, PrimitiveView, Sendable {
    /// A stretch with its own attributes (nil: the environment's).
    struct Segment: Sendable {
        var string: String
        var font: Font?
        var weight: Font.Weight?
        var italic = false
        var bold = false
        var style: (any ShapeStyle)?
        var tracking: CGFloat = 0
        var baselineOffset: CGFloat = 0
    }

    var segments: [Segment]

    /// The string as it is (SwiftUI would look a literal up as a localization key; there are
    /// no localizations here).
    public init<S: StringProtocol>(_ content: S) {
        segments = [Segment(string: String(content))]
    }
    public init(verbatim content: String) {
        segments = [Segment(string: content)]
    }

    /// Both texts, one after the other, each keeping its attributes.
    public static func + (lhs: Text, rhs: Text) -> Text {
        var joined = lhs
        joined.segments += rhs.segments
        return joined
    }

    private func map(_ change: (inout Segment) -> Void) -> Text {
        var copy = self
        for i in copy.segments.indices { change(&copy.segments[i]) }
        return copy
    }

    // Attributes written on a joined Text apply to the parts that have none of their own: the
    // nearest one wins, as with modifiers on views.

    /// This text in `font` (where it has none; nil: the environment's).
    public func font(_ font: Font?) -> Text { map { if $0.font == nil { $0.font = font } } }
    public func fontWeight(_ weight: Font.Weight?) -> Text { map { if $0.weight == nil { $0.weight = weight } } }
    public func bold() -> Text { map { $0.bold = true } }
    public func bold(_ isActive: Bool) -> Text { map { $0.bold = isActive } }
    public func italic() -> Text { map { $0.italic = true } }
    public func italic(_ isActive: Bool) -> Text { map { $0.italic = isActive } }
    /// This text's glyphs painted with `style` (a colour or a gradient spanning the Text).
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> Text { map { if $0.style == nil { $0.style = style } } }
    public func foregroundColor(_ color: Color?) -> Text { map { if $0.style == nil { $0.style = color } } }
    /// `kerning` points after each character.
    public func kerning(_ kerning: CGFloat) -> Text { map { $0.tracking = kerning.isFinite ? kerning : 0 } }
    /// `tracking` points after each character.
    public func tracking(_ tracking: CGFloat) -> Text { map { $0.tracking = tracking.isFinite ? tracking : 0 } }
    /// The text raised `offset` points above its baseline.
    public func baselineOffset(_ offset: CGFloat) -> Text { map { $0.baselineOffset = offset.isFinite ? offset : 0 } }

    public var body: Never { primitiveBody(of: Self.self) }
    func makeNode() -> ViewNode { .leaf(.text(self)) }
}

/// A `Text` laid out: its lines for the width layout gave it, and what paints each run.
struct PlacedText: Sendable {
    var layout: TextLayout
    /// Per run, its own style (nil: the environment's foreground style).
    var styles: [(any ShapeStyle)?]
    /// What it says: texts saying the same interpolate in an animation, others cross-fade.
    var string: String
}

extension Text {
    /// The runs to lay out with the environment's font and paragraph settings.
    func runs(in environment: TextEnvironment) throws -> [TextRun] {
        let bytes = segments.reduce(0) { $0 + $1.string.utf8.count }
        guard bytes <= TypographyError.maximumTextBytes else {
            throw TypographyError.textTooLong(bytes: bytes, limit: TypographyError.maximumTextBytes)
        }
        return try segments.enumerated().map { k, segment in
            var font = segment.font ?? environment.font ?? .body
            if let weight = segment.weight { font = font.weight(weight) }
            if segment.bold { font = font.bold() }
            if segment.italic { font = font.italic() }
            let (instance, features) = try font.instance()
            // Tracking turns ligatures off, as Core Text does.
            return TextRun(text: segment.string, font: instance, size: Double(font.pointSize),
                           features: features + (segment.tracking != 0 ? ["-liga"] : []), tracking: Double(segment.tracking),
                           baselineOffset: Double(segment.baselineOffset), style: k, italic: font.isItalic)
        }
    }
}

/// What text reads from the environment when it is laid out.
struct TextEnvironment: Sendable {
    var font: Font?
    var paragraph = ParagraphStyle()
    var imageScale = Image.Scale.medium
    var symbolVariant = SymbolVariants.none
    var labelStyle = LabelStyle.automatic

    /// A symbol resolved here: the font's size and weight choose its side and its drawing (nil:
    /// an unknown name, which draws nothing).
    func symbol(_ name: String, resizable: Bool) -> PlacedSymbol? {
        let font = self.font ?? .body
        guard let path = SymbolSet.path(name, weight: font.resolvedWeight.value, filled: symbolVariant.filled) else { return nil }
        return PlacedSymbol(name: name, path: path, side: font.pointSize * imageScale.factor, resizable: resizable)
    }
}
