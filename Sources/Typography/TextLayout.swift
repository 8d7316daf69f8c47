import Compositor
import CTextICU
import Foundation
import Synchronization

/// A stretch of text in one font and style: what `Text` and `Text + Text` are made of.
public struct TextRun: Hashable, Sendable {
    public var text: String
    public var font: FontInstance
    /// Points.
    public var size: Double
    /// OpenType features beyond the font's defaults (`tnum`, `-liga` …).
    public var features: [String]
    /// Points added after each character (SwiftUI's `kerning` and `tracking`).
    public var tracking: Double
    /// Points the run is raised above the baseline.
    public var baselineOffset: Double
    /// The caller's index for what paints this run (its colour or gradient).
    public var style: Int
    /// Whether characters the font lacks fall back to italic fonts.
    public var italic: Bool

    public init(text: String, font: FontInstance, size: Double, features: [String] = [], tracking: Double = 0,
                baselineOffset: Double = 0, style: Int = 0, italic: Bool = false) {
        self.italic = italic
        self.text = text
        self.font = font
        self.size = size
        self.features = features
        self.tracking = tracking
        self.baselineOffset = baselineOffset
        self.style = style
    }
}

/// How lines sit in a text's frame (SwiftUI's `TextAlignment`).
public enum TextAlignment: String, Hashable, Sendable {
    case leading, center, trailing
}

/// Which end of a truncated line gives way to "…" (SwiftUI's `Text.TruncationMode`).
public enum TruncationMode: String, Hashable, Sendable {
    case head, middle, tail
}

/// What applies to every line of a text: SwiftUI's `lineLimit`, `multilineTextAlignment`,
/// `lineSpacing` and `truncationMode`.
public struct ParagraphStyle: Hashable, Sendable {
    /// The most lines shown (nil: as many as the text needs); below 1 counts as 1.
    public var lineLimit: Int?
    public var alignment: TextAlignment
    /// Points added between lines.
    public var lineSpacing: Double
    public var truncation: TruncationMode

    public init(lineLimit: Int? = nil, alignment: TextAlignment = .leading, lineSpacing: Double = 0,
                truncation: TruncationMode = .tail) {
        self.lineLimit = lineLimit.map { max(1, $0) }
        self.alignment = alignment
        self.lineSpacing = lineSpacing.isFinite ? lineSpacing : 0
        self.truncation = truncation
    }
}

/// A glyph where layout put it: in points, x from the text frame's left, `baseline` from its
/// top (y down).
public struct PlacedGlyph: Hashable, Sendable {
    public var font: FontInstance
    public var glyph: UInt32
    public var x: Double
    public var baseline: Double
    public var size: Double
    public var style: Int
    /// The glyph's outline bounds in font units (y up; null without ink), found when the text
    /// was shaped, so drawing needs no lookup.
    public var inkBounds: CGRect = .null
}

/// One line: its glyphs, its width without trailing spaces, and where it sits.
public struct TextLine: Sendable {
    public var glyphs: [PlacedGlyph]
    public var width: Double
    public var top: Double
    public var ascent: Double
    public var descent: Double
    /// Whether its paragraph runs right to left (its first strong character is Arabic,
    /// Hebrew …): leading alignment puts it on the right.
    public var rightToLeft: Bool
}

/// Text laid out for a width: its lines, and the size it takes (the widest line by the lines'
/// heights and spacing).
public struct TextLayout: Sendable {
    public private(set) var lines: [TextLine]
    public private(set) var size: CGSize
    /// Whether lines were dropped or cut (a line limit, a height, a width too narrow for a
    /// word is not truncation: such a word breaks between characters).
    public private(set) var truncated: Bool
    /// The narrowest width that breaks the text into these same lines: the longest stretch of
    /// a line the breaking measured and took (from its start to the end of a word's ink). At
    /// any width from this (within the breaker's 10⁻⁹ pt) up to the width it was laid out at,
    /// greedy breaking takes the same decisions, so the layout is this one. Usually the widest
    /// line, `size.width`; more where the lines' visual order (bidi controls) or invisible
    /// characters make a line draw narrower than it measured.
    public private(set) var fitWidth: Double
    /// Which layout this is: unique to each one made (a layout found in the cache again keeps
    /// its id), so what is derived from a layout can be kept per id. 0 for `empty`.
    public let id: UInt64

    public var glyphCount: Int { lines.reduce(0) { $0 + $1.glyphs.count } }

    /// No lines, no size.
    public static let empty = TextLayout(lines: [], size: .zero, truncated: false, fitWidth: 0, id: 0)

    private static let made = Atomic<UInt64>(0)

    init(lines: [TextLine], size: CGSize, truncated: Bool, fitWidth: Double) {
        self.init(lines: lines, size: size, truncated: truncated, fitWidth: fitWidth,
                  id: TextLayout.made.add(1, ordering: .relaxed).newValue)
    }

    private init(lines: [TextLine], size: CGSize, truncated: Bool, fitWidth: Double, id: UInt64) {
        self.lines = lines
        self.size = size
        self.truncated = truncated
        self.fitWidth = fitWidth
        self.id = id
    }
}

/// One shaped glyph with what layout needs, its advance in points.
private struct Atom {
    var glyph: UInt32
    /// Its cluster: the UTF-8 offset of its first character in the paragraph.
    var cluster: Int
    private var run32: Int32
    /// Its run's index.
    var run: Int { Int(run32) }
    var advance: Double
    var offsetX: Double
    var offsetY: Double
    /// The font that shaped it, by its place in `ShapedText.fonts`: the run's, or a fallback
    /// for characters that font lacks. (An index, not the instance: a page holds 10,000 atoms,
    /// and a reference would be retained and released at every copy.)
    var font: UInt32
    /// Its bidi embedding level (odd: right to left).
    var level: UInt8
    /// A newline or other control character: takes no room and draws nothing.
    var invisible: Bool
    /// Its outline's bounds, font units.
    var inkBounds: CGRect = .null

    init(glyph: UInt32, cluster: Int, advance: Double, offsetX: Double, offsetY: Double, run: Int, font: UInt32,
         inkBounds: CGRect, level: UInt8, invisible: Bool) {
        self.glyph = glyph
        self.cluster = cluster
        // A paragraph's runs are its Text's segments: far fewer than 2^31.
        run32 = Int32(clamping: run)
        self.advance = advance
        self.offsetX = offsetX
        self.offsetY = offsetY
        self.font = font
        self.inkBounds = inkBounds
        self.level = level
        self.invisible = invisible
    }
}

private struct GlyphID: Hashable {
    var font: Int
    var glyph: UInt32
}

/// Which UTF-8 offsets of a text have a property (a space, a grapheme's start): a flag per
/// offset, cheaper than hashing each.
struct OffsetFlags: Sendable, Equatable {
    private var flags: [Bool]
    init(_ count: Int) { flags = [Bool](repeating: false, count: count + 1) }
    func contains(_ offset: Int) -> Bool { offset >= 0 && offset < flags.count && flags[offset] }
    mutating func insert(_ offset: Int) { if offset >= 0 && offset < flags.count { flags[offset] = true } }
}

/// The bidi levels of `text` (UAX #9) per UTF-8 offset, and each offset's paragraph level.
private func bidiLevels(_ text: String) -> (levels: [UInt8], paragraphs: [UInt8]) {
    let units = Array(text.utf16)
    var levels16 = [UInt8](repeating: 0, count: units.count), paragraphs16 = levels16
    let ok = units.withUnsafeBufferPointer { u in
        ctext_bidi_levels(u.baseAddress, Int32(u.count), &levels16, &paragraphs16) == 0
    }
    var levels = [UInt8](repeating: 0, count: text.utf8.count + 1), paragraphs = levels
    guard ok, !units.isEmpty else { return (levels, paragraphs) }
    var u8 = 0, u16 = 0
    for scalar in text.unicodeScalars {
        let n8 = UTF8.width(scalar)
        for k in 0..<n8 {
            levels[u8 + k] = levels16[u16]
            paragraphs[u8 + k] = paragraphs16[u16]
        }
        u8 += n8
        u16 += scalar.utf16.count
    }
    return (levels, paragraphs)
}

/// The run split where the font or the direction changes: each grapheme in the run's font, or
/// the fallback font for a grapheme it cannot draw (punctuation and spaces stay in the font
/// before them, so joined text keeps its font across a space), grouped into items of one font
/// and one bidi level. Ranges are UTF-8 offsets in the run's text.
private func items(of run: TextRun, levels: [UInt8], at start: Int) -> [(range: Range<Int>, font: FontInstance, level: UInt8)] {
    let utf8 = run.text.utf8
    if utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }), levels[start..<(start + utf8.count)].allSatisfy({ $0 == 0 }) {
        // Printable ASCII left to right (most UI text): one item in the run's font when that
        // font draws each of its characters, as the loop below would find, asking once per
        // distinct character instead of once per character.
        var asked = [Bool](repeating: false, count: 128)
        var covered = true
        for byte in utf8 where !asked[Int(byte)] {
            asked[Int(byte)] = true
            if run.font.glyph(for: Unicode.Scalar(byte)) == nil {
                covered = false
                break
            }
        }
        if covered { return utf8.isEmpty ? [] : [(0..<utf8.count, run.font, 0)] }
    }
    var out: [(range: Range<Int>, font: FontInstance, level: UInt8)] = []
    var offset = 0
    let bold = (run.font.weight ?? 400) >= 600
    for character in run.text {
        let length = character.utf8.count
        defer { offset += length }
        let level = levels[start + offset]
        var font = run.font
        let ascii = character.isASCII
        if ascii, run.font === out.last?.font || out.isEmpty, let scalar = character.unicodeScalars.first,
           scalar.value >= 0x20, run.font.glyph(for: scalar) != nil {
            // Printable ASCII the font draws: its own font, no emoji or script questions.
        } else if !run.font.covers(character) {
            let neutral = character.unicodeScalars.allSatisfy {
                let script = FontLibrary.scriptName($0)
                return script == "Common" || script == "Inherited"
            }
            if neutral, !FontLibrary.isEmoji(character), let previous = out.last?.font, previous.covers(character) {
                font = previous
            } else {
                font = FontLibrary.fallback(for: character, bold: bold, italic: run.italic) ?? run.font
            }
        } else if FontLibrary.isEmoji(character), let emoji = FontLibrary.fallback(for: character, bold: bold, italic: run.italic),
                  emoji.hasColorBitmaps {
            // Emoji the text font also draws in black (❤, ☺) show in colour, as on iOS.
            font = emoji
        }
        if let last = out.last, last.font === font, last.level == level, last.range.upperBound == offset {
            out[out.count - 1].range = last.range.lowerBound..<(offset + length)
        } else {
            out.append((offset..<(offset + length), font, level))
        }
    }
    return out
}

/// Lays `runs` out in lines no wider than `width` points (nil: each paragraph on one line),
/// as SwiftUI's `Text` does: lines break greedily at Unicode's break opportunities (a word
/// wider than the line breaks between characters), trailing spaces hang, a newline ends a
/// paragraph; the text's width is its widest line; lines beyond the line limit or the
/// `height` (at least one is kept) are dropped and the last kept one truncated with "…". Line
/// heights use SF Pro's vertical metrics (`SystemFont.ascender`, `.descender`) at each run's
/// size.
///
/// Shaping (fallback fonts, bidi, HarfBuzz, line-break opportunities) is done once per text and
/// reused for every width it is laid out at, and layouts are kept per width: both in bounded
/// process-wide caches, so a text laid out again (the next frame, another proposal) costs a
/// lookup.
public func layOut(_ runs: [TextRun], paragraph: ParagraphStyle = ParagraphStyle(), width: Double? = nil,
                   height: Double? = nil) -> TextLayout {
    guard !runs.isEmpty else { return .empty }
    let key = LayoutKey(runs: runs, paragraph: paragraph, width: width, height: height)
    if let known = TextCaches.layouts.withLock({ $0.table[key] }) { return known }
    let shaped: ShapedText
    if let known = TextCaches.shaped.withLock({ $0.table[runs] }) {
        shaped = known
    } else {
        shaped = ShapedText(runs)
        TextCaches.shaped.withLock { $0.keep(shaped, for: runs, bytes: shaped.bytes) }
    }
    let made = lines(of: shaped, paragraph: paragraph, width: width, height: height)
    TextCaches.layouts.withLock { $0.keep(made, for: key, bytes: made.bytes) }
    return made
}

extension TextLayout {
    /// About what its glyphs take in memory.
    var bytes: Int { lines.reduce(0) { $0 + $1.glyphs.count } * MemoryLayout<PlacedGlyph>.stride + lines.count * 64 }
}

private struct LayoutKey: Hashable {
    var runs: [TextRun]
    var paragraph: ParagraphStyle
    var width: Double?
    var height: Double?
}

/// The shaped texts and the layouts made, bounded in number and in bytes: a long-running
/// process meeting ever new texts starts over when either bound is met. (Bounded by number
/// alone, 2,048 pages of text each shaped once, as an animation typing a page makes, held
/// over 1.5 GB.)
private enum TextCaches {
    struct Bounded<Key: Hashable, Value> {
        var table: [Key: Value] = [:]
        var bytes = 0
        let maximumCount: Int
        let maximumBytes: Int

        mutating func keep(_ value: Value, for key: Key, bytes size: Int) {
            if table.count >= maximumCount || bytes + size > maximumBytes {
                table.removeAll(keepingCapacity: true)
                bytes = 0
            }
            if table.updateValue(value, forKey: key) == nil { bytes += size }
        }
    }

    static let shaped = Locked(Bounded<[TextRun], ShapedText>(maximumCount: 2_048, maximumBytes: 64 << 20))
    static let layouts = Locked(Bounded<LayoutKey, TextLayout>(maximumCount: 8_192, maximumBytes: 64 << 20))
}

/// What the text caches hold now, in bytes, and the bound of each (tests).
func textCacheBytes() -> (shaped: Int, layouts: Int, maximum: Int) {
    (TextCaches.shaped.withLock { $0.bytes }, TextCaches.layouts.withLock { $0.bytes }, 64 << 20)
}

/// A text shaped: its glyphs as atoms in logical order, what each character is, where lines
/// may break and each offset's paragraph direction. Immutable; shared by threads.
private final class ShapedText: Sendable {
    let runs: [TextRun]
    let atoms: [Atom]
    /// The fonts the atoms name by index.
    let fonts: [FontInstance]
    /// About what it takes in memory.
    var bytes: Int { atoms.count * MemoryLayout<Atom>.stride + breaks.count * 16 + paragraphLevels.count * 3 }
    let isSpace: OffsetFlags
    let graphemeStarts: OffsetFlags
    let breaks: [(offset: Int, hard: Bool)]
    let paragraphLevels: [UInt8]

    init(_ runs: [TextRun]) {
    let full = runs.map(\.text).joined()
    // Plain ASCII (most UI text) has no right-to-left character, so every level is 0 (UAX #9:
    // digits after the left-to-right start of the paragraph resolve to L), and its characters
    // are classified from their bytes.
    let ascii = full.utf8.allSatisfy { $0 < 0x80 }
    let (levels, paragraphLevels) = ascii
        ? ([UInt8](repeating: 0, count: full.utf8.count + 1), [UInt8](repeating: 0, count: full.utf8.count + 1))
        : bidiLevels(full)
    var atoms: [Atom] = []
    atoms.reserveCapacity(full.utf8.count)
    var fonts: [FontInstance] = []
    var start = 0
    for (r, run) in runs.enumerated() {
        for item in items(of: run, levels: levels, at: start) {
            let scale = run.size / Double(item.font.unitsPerEm)
            let fontIndex: UInt32
            if let known = fonts.firstIndex(where: { $0 === item.font }) {
                fontIndex = UInt32(known)
            } else {
                fontIndex = UInt32(fonts.count)
                fonts.append(item.font)
            }
            item.font.withShaped(run.text, range: item.range, rightToLeft: item.level % 2 == 1, features: run.features) { glyphs in
                for k in 0..<glyphs.count {
                    let glyph = glyphs.glyph(k), cluster = glyphs.cluster(k), position = glyphs.position(k)
                    // Tracking goes after the last glyph of each cluster.
                    let lastOfCluster = k + 1 == glyphs.count || glyphs.cluster(k + 1) != cluster
                    atoms.append(Atom(glyph: glyph, cluster: start + cluster,
                                      advance: Double(position.x_advance) * scale + (lastOfCluster ? run.tracking : 0),
                                      offsetX: Double(position.x_offset) * scale, offsetY: Double(position.y_offset) * scale,
                                      run: r, font: fontIndex, inkBounds: .null, level: item.level, invisible: false))
                }
            }
        }
        start += run.text.utf8.count
    }
    // Each distinct glyph's ink bounds looked up once (a page has a few dozen distinct
    // glyphs): per font, in a table by glyph index for the low ones, the others (and all of a
    // short text's, where a table would cost more than it saves) in a dictionary.
    var tables = [[CGRect?]](repeating: [], count: fonts.count)
    var known: [GlyphID: CGRect] = [:]
    let tableSize = atoms.count < 512 ? 0 : 4096
    for i in atoms.indices {
        let f = Int(atoms[i].font), g = Int(atoms[i].glyph)
        if g < tableSize {
            if tables[f].isEmpty { tables[f] = [CGRect?](repeating: nil, count: tableSize) }
            if let b = tables[f][g] {
                atoms[i].inkBounds = b
            } else {
                let b = fonts[f].outlineBounds(of: atoms[i].glyph)
                tables[f][g] = b
                atoms[i].inkBounds = b
            }
        } else {
            let id = GlyphID(font: f, glyph: atoms[i].glyph)
            if let b = known[id] {
                atoms[i].inkBounds = b
            } else {
                let b = fonts[f].outlineBounds(of: atoms[i].glyph)
                known[id] = b
                atoms[i].inkBounds = b
            }
        }
    }
    let (isSpace, isControl, graphemeStarts) = characterFlags(full, ascii: ascii)
    for i in atoms.indices where isControl.contains(atoms[i].cluster) {
        atoms[i].invisible = true
        atoms[i].advance = 0
    }
    self.runs = runs
    self.atoms = atoms
    self.fonts = fonts
    self.isSpace = isSpace
    self.graphemeStarts = graphemeStarts
    self.breaks = lineBreakOpportunities(full)
    self.paragraphLevels = paragraphLevels
    }
}

/// What each character of `text` is, by UTF-8 offset: whitespace, a control (takes no room,
/// draws nothing), the start of a grapheme. `ascii` (the text is plain ASCII) reads them from
/// the bytes, which `ShapingTests` checks against the general path.
func characterFlags(_ text: String, ascii: Bool) -> (isSpace: OffsetFlags, isControl: OffsetFlags, graphemeStarts: OffsetFlags) {
    let count = text.utf8.count
    var isSpace = OffsetFlags(count), isControl = OffsetFlags(count), graphemeStarts = OffsetFlags(count)
    var offset = 0
    if ascii {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            // Every byte starts a grapheme but the LF of a CR LF; whitespace as Unicode says
            // of ASCII (tab, LF, VT, FF, CR, space); controls below space and DEL.
            if !(byte == 0x0A && previous == 0x0D) { graphemeStarts.insert(offset) }
            if byte == 0x20 || (0x09...0x0D).contains(byte) { isSpace.insert(offset) }
            if byte < 0x20 || byte == 0x7F { isControl.insert(offset) }
            previous = byte
            offset += 1
        }
        return (isSpace, isControl, graphemeStarts)
    }
    for character in text {
        graphemeStarts.insert(offset)
        for scalar in character.unicodeScalars {
            if scalar.properties.isWhitespace { isSpace.insert(offset) }
            if scalar.properties.generalCategory == .control || scalar.value == 0x2028 || scalar.value == 0x2029 {
                isControl.insert(offset)
            }
            offset += UTF8.width(scalar)
        }
    }
    return (isSpace, isControl, graphemeStarts)
}

/// `shaped` broken into lines for `width` and `height` (see `layOut`).
private func lines(of shaped: ShapedText, paragraph: ParagraphStyle, width: Double?, height: Double?) -> TextLayout {
    let maxWidth = width.map { max(0, $0) } ?? .infinity
    let runs = shaped.runs, atoms = shaped.atoms, fonts = shaped.fonts, isSpace = shaped.isSpace, graphemeStarts = shaped.graphemeStarts
    let breaks = shaped.breaks, paragraphLevels = shaped.paragraphLevels

    // Lines as ranges of atoms, filled greedily.
    var lines: [Range<Int>] = []
    var lineStart = 0, lineEnd = 0
    var penWidth = 0.0         // the line's pen position, trailing spaces included
    var fit = 0.0              // the longest stretch a line took (`TextLayout.fitWidth`)
    var a = 0
    func measure(_ range: Range<Int>) -> (content: Double, total: Double) {
        var total = 0.0, content = 0.0
        for i in range {
            total += atoms[i].advance
            if !isSpace.contains(atoms[i].cluster) && !atoms[i].invisible { content = total }
        }
        return (content, total)
    }
    // Whether a piece whose ink ends `content` past the pen starts a new line: the line holds
    // something and the ink would pass the width. A piece without ink (control or zero-width
    // characters) takes no room, so it never does, even where the line's hanging spaces fill it.
    func overflows(_ content: Double) -> Bool { lineEnd > lineStart && content > 0 && penWidth + content > maxWidth + 1e-9 }
    // Records the stretch a piece taken onto the line reaches (`TextLayout.fitWidth`).
    func took(_ content: Double) { if content > 0 { fit = max(fit, penWidth + content) } }
    func finishLine() {
        lines.append(lineStart..<lineEnd)
        lineStart = lineEnd
        penWidth = 0
    }
    for (breakOffset, hard) in breaks {
        var segmentEnd = a
        while segmentEnd < atoms.count, atoms[segmentEnd].cluster < breakOffset { segmentEnd += 1 }
        let segment = a..<segmentEnd
        let w = measure(segment)
        if overflows(w.content) { finishLine() }
        if lineEnd == lineStart, w.content > maxWidth + 1e-9 {
            // A word wider than the line: break it between characters.
            var i = segment.lowerBound
            while i < segment.upperBound {
                var j = i + 1
                while j < segment.upperBound, !graphemeStarts.contains(atoms[j].cluster) || atoms[j].cluster == atoms[j - 1].cluster { j += 1 }
                let cw = measure(i..<j)
                if overflows(cw.content) { finishLine() }
                took(cw.content)
                lineEnd = j
                penWidth += cw.total
                i = j
            }
        } else {
            took(w.content)
            lineEnd = segmentEnd
            penWidth += w.total
        }
        a = segmentEnd
        if hard { finishLine() }
    }
    if lineEnd > lineStart || lines.isEmpty { finishLine() }
    // A text ending in a newline has an empty last paragraph (as in SwiftUI): kept above by
    // the hard break; drop the empty line `finishLine` adds after the last break otherwise.

    // Metrics of a line: the tallest run in it (the run at its start when empty).
    func metrics(_ range: Range<Int>) -> (ascent: Double, descent: Double) {
        guard let firstRun = range.first.map({ atoms[$0].run }) else {
            let at = range.lowerBound < atoms.count ? atoms[range.lowerBound].run : runs.count - 1
            return (runs[at].size * runs[at].font.ascender, runs[at].size * runs[at].font.descender)
        }
        // Usually one run: no set made.
        guard range.contains(where: { atoms[$0].run != firstRun }) else {
            return (runs[firstRun].size * runs[firstRun].font.ascender, runs[firstRun].size * runs[firstRun].font.descender)
        }
        let runsInLine = Set(range.map { atoms[$0].run })
        let ascent = runsInLine.map { runs[$0].size * runs[$0].font.ascender }.max() ?? 0
        let descent = runsInLine.map { runs[$0].size * runs[$0].font.descender }.max() ?? 0
        return (ascent, descent)
    }

    // Which lines are kept: the line limit, then the height (at least one line).
    var kept = lines.count
    if let limit = paragraph.lineLimit { kept = min(kept, limit) }
    if let height {
        var total = 0.0, fit = 0
        for (k, line) in lines.prefix(kept).enumerated() {
            let m = metrics(line)
            total += m.ascent + m.descent + (k > 0 ? paragraph.lineSpacing : 0)
            if total > height + 1e-9 { break }
            fit += 1
        }
        kept = max(1, min(kept, fit))
    }
    let truncated = kept < lines.count
    var lineAtoms: [[Int]] = lines.prefix(kept).map { Array($0) }
    if truncated, let last = lines.prefix(kept).last {
        // The last kept line takes the rest of the text, cut to fit with "…".
        let rest = Array(last.lowerBound..<atoms.count).filter { !atoms[$0].invisible }
        lineAtoms[kept - 1] = rest
    }

    // Place the glyphs (what each run gives its glyphs, read without copying the run's text
    // and features once a glyph).
    let placement = runs.map { (baselineOffset: $0.baselineOffset, size: $0.size, style: $0.style) }
    var placed: [TextLine] = []
    var top = 0.0
    for (k, indices) in lineAtoms.enumerated() {
        let m = metrics(lines[k])
        var glyphs: [PlacedGlyph] = []
        glyphs.reserveCapacity(indices.count)
        var chosen = indices
        var ellipsis: [PlacedGlyph] = []
        var ellipsisWidth = 0.0
        if truncated, k == kept - 1 {
            let run = indices.last.map { atoms[$0].run } ?? runs.count - 1
            let r = runs[run]
            let scale = r.size / Double(r.font.unitsPerEm)
            for g in r.font.shape("\u{2026}", features: r.features) {
                ellipsis.append(PlacedGlyph(font: r.font, glyph: g.glyph, x: ellipsisWidth + g.offsetX * scale, baseline: 0, size: r.size, style: r.style,
                                            inkBounds: r.font.outlineBounds(of: g.glyph)))
                ellipsisWidth += g.advance * scale
            }
            chosen = cut(indices, atoms: atoms, graphemeStarts: graphemeStarts, isSpace: isSpace,
                         room: maxWidth - ellipsisWidth, mode: paragraph.truncation)
        }
        let baseline = top + m.ascent
        let first = lines[k].lowerBound < atoms.count ? atoms[lines[k].lowerBound].cluster : 0
        let rightToLeft = paragraphLevels[min(first, paragraphLevels.count - 1)] % 2 == 1
        if chosen.contains(where: { atoms[$0].level % 2 == 1 }) {
            // Right-to-left text in the line: its glyphs in visual order (UAX #9, L2: from the
            // highest level down to the lowest odd one, reverse every run at that level or
            // above). Trailing spaces draw nothing and take no room, so they go first.
            while let last = chosen.last, isSpace.contains(atoms[last].cluster) { chosen.removeLast() }
            chosen = visualOrder(chosen, atoms: atoms)
        }
        var pen = 0.0, content = 0.0
        var ellipsisAt: Double?
        for (n, i) in chosen.enumerated() {
            // (In a right-to-left paragraph the glyphs run backwards through the text.)
            if truncated, k == kept - 1, paragraph.truncation == .middle, ellipsisAt == nil,
               n > 0, rightToLeft ? chosen[n - 1] != i + 1 : chosen[n - 1] + 1 != i {
                // Head or middle: the ellipsis stands where glyphs were taken out.
                ellipsisAt = pen
                pen += ellipsisWidth
            }
            let atom = atoms[i]
            if !atom.invisible {
                let r = placement[atom.run]
                glyphs.append(PlacedGlyph(font: fonts[Int(atom.font)], glyph: atom.glyph, x: pen + atom.offsetX,
                                          baseline: baseline - atom.offsetY - r.baselineOffset, size: r.size, style: r.style,
                                          inkBounds: atom.inkBounds))
            }
            pen += atom.advance
            if !isSpace.contains(atom.cluster) && !atom.invisible { content = pen }
        }
        if truncated, k == kept - 1 {
            let x: Double
            if let at = ellipsisAt {
                x = at
            } else if paragraph.truncation == (rightToLeft ? .tail : .head) {
                // Where the text was cut: its logical start (head) or end (tail), which a
                // right-to-left paragraph has on the right and the left.
                x = 0
                for g in glyphs.indices { glyphs[g].x += ellipsisWidth }
                content += ellipsisWidth
            } else {
                x = content
                content += ellipsisWidth
            }
            glyphs += ellipsis.map { var g = $0; g.x += x; g.baseline = baseline; return g }
            if ellipsisAt != nil { content = max(content, pen) }
        }
        placed.append(TextLine(glyphs: glyphs, width: content, top: top, ascent: m.ascent, descent: m.descent,
                               rightToLeft: rightToLeft))
        top += m.ascent + m.descent + (k + 1 < lineAtoms.count ? paragraph.lineSpacing : 0)
    }
    let textWidth = placed.map(\.width).max() ?? 0
    for k in placed.indices {
        // Leading is the left of a left-to-right paragraph and the right of a right-to-left one.
        let end: Double = placed[k].rightToLeft ? 1 : 0
        let shift = (textWidth - placed[k].width) * (paragraph.alignment == .leading ? end : paragraph.alignment == .center ? 0.5 : 1 - end)
        if shift != 0 { for g in placed[k].glyphs.indices { placed[k].glyphs[g].x += shift } }
    }
    return TextLayout(lines: placed, size: CGSize(width: textWidth, height: top), truncated: truncated, fitWidth: fit)
}

/// `indices` (one line's atoms, in logical order) in visual order: UAX #9's rule L2.
private func visualOrder(_ indices: [Int], atoms: [Atom]) -> [Int] {
    var order = indices
    var levels = indices.map { atoms[$0].level }
    guard let highest = levels.max(), let lowestOdd = levels.filter({ $0 % 2 == 1 }).min() else { return order }
    var level = highest
    while level >= lowestOdd {
        var i = 0
        while i < order.count {
            guard levels[i] >= level else { i += 1; continue }
            var j = i
            while j < order.count, levels[j] >= level { j += 1 }
            order[i..<j].reverse()
            levels[i..<j].reverse()
            i = j
        }
        level -= 1
    }
    return order
}

/// The atoms of a truncated line that fit in `room` points beside the ellipsis: the first ones
/// (tail), the last ones (head), or both ends (middle), whole characters, trailing spaces at the
/// cut not counted.
private func cut(_ indices: [Int], atoms: [Atom], graphemeStarts: OffsetFlags, isSpace: OffsetFlags, room: Double,
                 mode: TruncationMode) -> [Int] {
    // Characters as groups of atoms.
    var groups: [[Int]] = []
    for i in indices {
        if let last = groups.last?.last, atoms[last].cluster == atoms[i].cluster || !graphemeStarts.contains(atoms[i].cluster) {
            groups[groups.count - 1].append(i)
        } else {
            groups.append([i])
        }
    }
    func advance(_ g: [Int]) -> Double { g.reduce(0) { $0 + atoms[$1].advance } }
    func spaces(_ g: [Int]) -> Bool { g.allSatisfy { isSpace.contains(atoms[$0].cluster) } }
    switch mode {
    case .tail:
        var out: [[Int]] = [], used = 0.0
        for g in groups {
            if used + advance(g) > room + 1e-9 { break }
            out.append(g)
            used += advance(g)
        }
        while let last = out.last, spaces(last) { out.removeLast() }
        return out.flatMap { $0 }
    case .head:
        var out: [[Int]] = [], used = 0.0
        for g in groups.reversed() {
            if used + advance(g) > room + 1e-9 { break }
            out.insert(g, at: 0)
            used += advance(g)
        }
        while let first = out.first, spaces(first) { out.removeFirst() }
        return out.flatMap { $0 }
    case .middle:
        var front: [[Int]] = [], back: [[Int]] = [], used = 0.0
        var lo = 0, hi = groups.count - 1
        var takeFront = true
        while lo <= hi {
            let g = takeFront ? groups[lo] : groups[hi]
            if used + advance(g) > room + 1e-9 { break }
            used += advance(g)
            if takeFront { front.append(g); lo += 1 } else { back.insert(g, at: 0); hi -= 1 }
            takeFront.toggle()
        }
        return (front + back).flatMap { $0 }
    }
}
