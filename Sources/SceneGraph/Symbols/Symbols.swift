import Foundation

/// The symbols `Image(systemName:)` draws: SF Symbols' names, drawn by Phosphor's icons (MIT;
/// SF Symbols may ship only on Apple's systems). Each icon has four line weights (thin, light,
/// regular, bold) and a filled drawing, in a 256-unit square. A name ending in `.fill` (or a
/// `symbolVariant(.fill)` around it) takes the filled drawing. `wave.3.right` and
/// `wave.3.left`, which Phosphor lacks, are drawn here: three concentric arcs of ±50° with
/// round caps, as thick as the weight's lines.
///
/// Font weights map to the icon weights: ultraLight and thin → thin, light → light, regular
/// and medium → regular, semibold and heavier → bold.
public enum SymbolSet {
    /// The side of the square the drawings are in.
    static let unitsPerEm = 256.0

    /// Every name `Image(systemName:)` knows, sorted (a name's `.fill` form included), with
    /// the symbols registered from files (`register(contentsOf:)`).
    public static var names: [String] {
        let custom = customDrawings.withLock { Array($0.keys) }
        guard !custom.isEmpty else { return builtInNames }
        return Array(Set(builtInNames + custom + custom.map { $0 + ".fill" })).sorted()
    }

    private static let builtInNames: [String] = {
        let plain = Array(icons.keys) + handDrawn
        return (plain + plain.map { $0 + ".fill" }).sorted()
    }()

    /// Whether `name` names a symbol.
    public static func contains(_ name: String) -> Bool { customDrawing(name) != nil || resolve(name) != nil }

    /// The known name closest to an unknown `name` (fewest edits), for "did you mean".
    public static func suggestion(for name: String) -> String? {
        let scored = names.map { ($0, editDistance($0, name)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, name.count / 3) else { return nil }
        return best.0
    }

    /// The drawing of `name` at `weight` (`wght` units), in the unit square (y down); nil for
    /// an unknown name.
    static func path(_ name: String, weight: Double, filled: Bool) -> Path? {
        if let custom = customDrawing(filled && !name.hasSuffix(".fill") ? name + ".fill" : name) { return custom }
        guard let (base, named) = resolve(name) else { return nil }
        let style = named || filled ? "fill" : lineWeight(weight)
        let key = base + " " + style
        if let known = cache.withLock({ $0[key] }) { return known }
        let drawn: Path
        if handDrawn.contains(base) {
            drawn = wave(mirrored: base == "wave.3.left", lineWidth: lineWidths[style == "fill" ? "bold" : style] ?? 16)
        } else {
            guard let icon = icons[base], let data = drawingTable[icon + " " + style], let parsed = try? Path(svgPath: String(data)) else { return nil }
            drawn = parsed
        }
        let unit = drawn.applying(CGAffineTransform(scaleX: 1 / unitsPerEm, y: 1 / unitsPerEm))
        cache.withLock { $0[key] = unit }
        return unit
    }

    // MARK: - Tables

    private static let cache = Locked<[String: Path]>([:])
    private static let handDrawn = ["wave.3.right", "wave.3.left"]
    /// Phosphor's stroke widths per weight, in its 256 units.
    private static let lineWidths = ["thin": 4.0, "light": 12.0, "regular": 16.0, "bold": 24.0]

    /// SF name → Phosphor icon.
    private static let icons: [String: String] = {
        var table: [String: String] = [:]
        for line in sfNames.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2 { table[String(parts[0])] = String(parts[1]) }
        }
        return table
    }()

    /// "icon weight" → path data (unparsed until asked for).
    private static let drawingTable: [String: Substring] = {
        var table: [String: Substring] = [:]
        for line in SymbolSet.drawings.split(separator: "\n") {
            guard let first = line.firstIndex(of: " "), let second = line[line.index(after: first)...].firstIndex(of: " ") else { continue }
            table[String(line[..<second])] = line[line.index(after: second)...]
        }
        return table
    }()

    /// The base name (without `.fill`) and whether the name asks for the filled drawing.
    private static func resolve(_ name: String) -> (String, Bool)? {
        let known = { (n: String) in icons[n] != nil || handDrawn.contains(n) }
        if known(name) { return (name, false) }
        if name.hasSuffix(".fill"), case let base = String(name.dropLast(5)), known(base) { return (base, true) }
        return nil
    }

    private static func lineWeight(_ weight: Double) -> String {
        switch weight {
        case ..<250: "thin"
        case ..<350: "light"
        case ..<550: "regular"
        default: "bold"
        }
    }

    /// Three arcs of ±50° about a centre left of the square's middle (mirrored: right of it),
    /// the whole drawing centred in the square.
    private static func wave(mirrored: Bool, lineWidth: Double) -> Path {
        var arcs = Path()
        let centre = CGPoint(x: 44, y: 128)
        for radius in [44.0, 92.0, 140.0] {
            let start = CGPoint(x: centre.x + radius * cos(-50 * .pi / 180), y: centre.y + radius * sin(-50 * .pi / 180))
            arcs.move(to: start)
            arcs.addArc(center: centre, radius: radius, startAngle: .degrees(-50), endAngle: .degrees(50), clockwise: false)
        }
        let stroked = arcs.strokedPath(StrokeStyle(lineWidth: lineWidth, lineCap: .round))
        return mirrored ? stroked.applying(CGAffineTransform(a: -1, b: 0, c: 0, d: 1, tx: unitsPerEm, ty: 0)) : stroked
    }

    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.utf8), b = Array(b.utf8)
        var row = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var previous = row[0]
            row[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let substitution = previous + (a[i - 1] == b[j - 1] ? 0 : 1)
                previous = row[j]
                row[j] = min(substitution, row[j] + 1, row[j - 1] + 1)
            }
        }
        return a.isEmpty ? b.count : row[b.count]
    }
}

/// Which drawing of a symbol to use (SwiftUI's `SymbolVariants`): `.fill` takes the filled one.
public struct SymbolVariants: Hashable, Sendable {
    let filled: Bool
    public static let none = SymbolVariants(filled: false)
    public static let fill = SymbolVariants(filled: true)
}

/// A symbol as layout resolved it in its environment: its drawing in the unit square and its
/// natural size (a square of the font's size × the image scale).
struct PlacedSymbol: Sendable {
    var name: String
    var path: Path
    var side: CGFloat
    var resizable: Bool
}

/// Warnings about symbols made in Swift (scenes report unknown names as errors), each name once.
enum SymbolWarnings {
    private static let warned = Locked<Set<String>>([])

    static func unknown(_ name: String) {
        guard warned.withLock({ $0.insert(name).inserted }) else { return }
        let hint = SymbolSet.suggestion(for: name).map { "; did you mean '\($0)'?" } ?? ""
        FileHandle.standardError.write(Data("warning: no symbol named '\(name)' found\(hint)\n".utf8))
    }
}

extension View {
    /// The size of every symbol inside relative to its font.
    public func imageScale(_ scale: Image.Scale) -> _ModifiedView<Self> {
        modified(.meta(.environment(.imageScale(scale))))
    }
    /// The drawing of every symbol inside: `.fill` takes the filled one.
    public func symbolVariant(_ variant: SymbolVariants) -> _ModifiedView<Self> {
        modified(.meta(.environment(.symbolVariant(variant))))
    }
}
