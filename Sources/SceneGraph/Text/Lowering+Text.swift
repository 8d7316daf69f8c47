import Foundation
import Typography

/// The glyphs each paint of a Text draws, per font and size, for `explain`: counted run by run
/// (consecutive glyphs mostly share a font), not looked up glyph by glyph.
struct FontCount {
    private var counts: [[FontUse: Int]]
    private var current: (group: Int, use: FontUse, count: Int)?

    init(groups: Int) { counts = [[FontUse: Int]](repeating: [:], count: groups) }

    mutating func add(_ g: PlacedGlyph, to group: Int) {
        if let c = current, c.group == group, c.use.font === g.font, c.use.size == g.size {
            current!.count += 1
        } else {
            flush()
            current = (group, FontUse(font: g.font, size: g.size), 1)
        }
    }

    private mutating func flush() {
        if let c = current { counts[c.group][c.use, default: 0] += c.count }
        current = nil
    }

    /// Per group, the glyphs of each font and size.
    var finished: [[FontUse: Int]] {
        var copy = self
        copy.flush()
        return copy.counts
    }
}

/// Glyph outlines are flattened within this many device pixels: glyph curves are small and
/// tight: at 0.1 px a 17 px glyph is up to 19–26 levels off its exact coverage, at 0.02 px
/// within about 3 (measured for TEXT.md, §5.2). (Fills are flattened finer still, at
/// `flatteningTolerance`; glyph masks are cached, text drawn directly is many outlines a frame.)
let glyphFlatteningTolerance = 0.02

extension Lowering {
    /// A Text as leaves: one per paint (usually one for the whole Text), whose path is every
    /// glyph's outline in device space, flattened within `glyphFlatteningTolerance`. A gradient
    /// spans the Text's frame; per-leaf effects apply to the glyphs as to any shape.
    func lowerText(_ text: PlacedText, in rect: CGRect, _ context: LowerContext, into items: inout [DisplayItem]) {
        guard context.opacity > 0 else { return }
        let local = CGRect(origin: .zero, size: rect.size)
        let place = CGAffineTransform(translationX: rect.minX, y: rect.minY).concatenating(context.transform)
        // Runs painted alike share a leaf: each run with a style of its own gets a group, all
        // the runs without one share the environment's.
        // Per paint: its style, and for outlines their path.
        var groups: [(style: (any ShapeStyle)?, path: Path)] = []
        var shared: Int?
        let groupOfRun: [Int] = text.styles.map { style in
            if style == nil, let shared { return shared }
            groups.append((style, Path()))
            if style == nil { shared = groups.count - 1 }
            return groups.count - 1
        }
        // Cached glyph masks when the device transform keeps glyphs upright and unscaled in one
        // direction, nothing needs their outlines (a shadow), and the glyphs sit apart (see
        // `GlyphRun`); otherwise the outlines, filled as one path.
        let upright = place.b == 0 && place.c == 0 && place.a > 0 && abs(place.a - place.d) <= 1e-9 * place.a
        let useMasks = glyphMasks && upright && context.leafShadows.isEmpty && GlyphMasks.canUseMasks(text.string)
            && text.layout.lines.allSatisfy { $0.glyphs.allSatisfy { $0.size * place.a <= GlyphMasks.maximumPixelsPerEm } }
        if useMasks {
            // Glyph positions and boxes relative to the Text's device origin: the same for every
            // frame that draws this layout at this scale, kept by the renderer.
            let origin = CGPoint(x: place.tx, y: place.ty)
            let key = TextLoweringMemo.Key(layout: text.layout.id, scale: place.a.bitPattern, ownStyles: text.styles.map { $0 != nil })
            // (One lookup: a hit is the steady state, a frame of labels makes hundreds.)
            let known = textMemo?.lowered(for: key)
            let lowered = known ?? runs(of: text, groupOfRun: groupOfRun, groups: groups.count, scale: place.a)
            if known == nil, let textMemo, text.layout.id != 0 { textMemo.keep(lowered, for: key) }
            warnAbout(text, lowered.missing, lowered.fontconfig, at: context.source)
            for (k, group) in lowered.groups.enumerated() where !group.box.isNull {
                let box = group.box.offsetBy(dx: origin.x, dy: origin.y)
                items.append(.leaf(leaf(for: groups[k].style, path: Path(box), text, local, place, context,
                                        glyphs: GlyphRun(origin: origin, storage: group.glyphs), fonts: group.fonts, masks: true)))
            }
            lowerColorGlyphs(lowered.colorGlyphs, text, in: rect, place, context, into: &items)
            return
        }
        let walked = walkGlyphs(of: text, groupOfRun: groupOfRun, groups: groups.count) { g, group in
            // Font units, y up → points in the Text's frame, y down → device.
            let scale = g.size / Double(g.font.unitsPerEm)
            let toDevice = CGAffineTransform(a: scale, b: 0, c: 0, d: -scale, tx: g.x, ty: g.baseline).concatenating(place)
            let outline = g.font.outline(of: g.glyph)
            guard !outline.isEmpty else { return }
            groups[group].path.addPath(glyphOutline(outline, toDevice, pixelsPerEm: g.size * sqrt(abs(place.a * place.d - place.b * place.c))))
        }
        let (colorGlyphs, used) = (walked.colorGlyphs, walked.fonts)
        warnAbout(text, walked.missing, fontconfigPaths(used), at: context.source)
        for (k, group) in groups.enumerated() where !group.path.isEmpty {
            items.append(.leaf(leaf(for: group.style, path: group.path, text, local, place, context, glyphs: nil, fonts: used[k], masks: false)))
        }
        lowerColorGlyphs(colorGlyphs, text, in: rect, place, context, into: &items)
    }

    /// A text leaf: `path` (the outlines, or for masks the box around the glyphs' inks, for
    /// planning only) in the style's fill spanning the Text's frame, with the context's effects.
    private func leaf(for style: (any ShapeStyle)?, path: Path, _ text: PlacedText, _ local: CGRect, _ place: CGAffineTransform,
                      _ context: LowerContext, glyphs: GlyphRun?, fonts: [FontUse: Int], masks: Bool) -> DisplayItem.Leaf {
        var fill = context.environment.resolve(style ?? ForegroundStyle())._fill(in: local)
        if let matrix = context.colorMatrix { fill = fill.mapColors(matrix.apply(to:)) }
        fill = fill.transformed(by: place).opacity(context.opacity)
        return DisplayItem.Leaf(path: path, fill: fill, fillRule: .nonZero, blendMode: context.blendMode ?? .normal, clips: context.clips,
                                shadows: context.leafShadows, glyphs: glyphs, textSummary: .text(text.string, fonts, masks: masks))
    }

    /// The text's glyphs as runs for masks, one per paint, at `scale` device pixels per point,
    /// relative to the Text's device origin; its colour glyphs; what explain warns of.
    private func runs(of text: PlacedText, groupOfRun: [Int], groups count: Int, scale s: Double) -> TextLoweringMemo.Lowered {
        var glyphs = [[GlyphRun.Glyph]](repeating: [], count: count)
        var boxes = [CGRect](repeating: .null, count: count)
        let total = text.layout.glyphCount
        for k in 0..<count { glyphs[k].reserveCapacity(total) }
        let walked = walkGlyphs(of: text, groupOfRun: groupOfRun, groups: count) { g, group in
            let box = g.inkBounds
            guard !box.isNull, box.width > 0 || box.height > 0 else { return }
            // Font units, y up → device pixels from the Text's origin, y down.
            let x = g.x * s, y = g.baseline * s
            let k = g.size / Double(g.font.unitsPerEm) * s
            glyphs[group].append(GlyphRun.Glyph(font: g.font, glyph: g.glyph, pixelsPerEm: g.size * s, x: x, y: y, inkBounds: box))
            boxes[group] = boxes[group].union(CGRect(x: x + box.minX * k, y: y - box.maxY * k, width: box.width * k, height: box.height * k))
        }
        return TextLoweringMemo.Lowered(groups: (0..<count).map { (GlyphRun.Storage(glyphs[$0]), boxes[$0], walked.fonts[$0]) },
                                        colorGlyphs: walked.colorGlyphs, missing: walked.missing, fontconfig: fontconfigPaths(walked.fonts))
    }

    /// Every glyph of `text` in order: colour glyphs set aside, glyphs with no font counted as
    /// missing, the others counted per font for `explain` and handed to `body` with their
    /// paint's group.
    @inline(__always)
    private func walkGlyphs(of text: PlacedText, groupOfRun: [Int], groups count: Int, _ body: (PlacedGlyph, Int) -> Void)
        -> (colorGlyphs: [PlacedGlyph], missing: Int, fonts: [[FontUse: Int]]) {
        var fonts = FontCount(groups: count)
        var colorGlyphs: [PlacedGlyph] = []
        var missing = 0
        for line in text.layout.lines {
            for g in line.glyphs {
                if g.glyph == 0 { missing += 1 }
                if g.font.hasColorBitmaps {
                    colorGlyphs.append(g)
                    continue
                }
                guard g.style < groupOfRun.count else { continue }
                let group = groupOfRun[g.style]
                fonts.add(g, to: group)
                body(g, group)
            }
        }
        return (colorGlyphs, missing, fonts.finished)
    }

    /// The files of the fonts fontconfig picked among `fonts` (the chain had none for some
    /// characters): they depend on the machine.
    private func fontconfigPaths(_ fonts: [[FontUse: Int]]) -> [String] {
        var picked: Set<String> = []
        for uses in fonts {
            for use in uses.keys where FontLibrary.isFromFontconfig(use.font) { picked.insert(use.font.face.path) }
        }
        return picked.sorted()
    }

    private func warnAbout(_ text: PlacedText, _ missing: Int, _ fontconfig: [String], at source: SourceLine?) {
        if missing > 0 {
            notes.warn("text “\(text.string.prefix(40))” has \(missing) character\(missing == 1 ? "" : "s") that no installed font draws: "
                       + "drawn as missing-glyph boxes (install a font for the script, or register one with --fonts)", at: source)
        }
        for path in fontconfig {
            notes.warn("text “\(text.string.prefix(40))” draws characters that no font of the fallback chain has with \(path), "
                       + "which fontconfig picked: a machine with other fonts may draw them differently", at: source)
        }
    }

    private func lowerColorGlyphs(_ colorGlyphs: [PlacedGlyph], _ text: PlacedText, in rect: CGRect, _ place: CGAffineTransform,
                                  _ context: LowerContext, into items: inout [DisplayItem]) {
        // Colour glyphs (emoji) keep their own colours: image leaves after the outlines, with the
        // same opacity, blend mode, clips and shadows. Their bitmaps (109 ppem in Noto Color
        // Emoji) are reduced by area averaging to the device size they are drawn at.
        let deviceScale = sqrt(abs(place.a * place.d - place.b * place.c))
        for g in colorGlyphs {
            let scale = g.size / Double(g.font.unitsPerEm)
            guard let box = ColorGlyphs.box(g.font, g.glyph) else { continue }
            let frame = CGRect(x: rect.minX + g.x + box.x * scale, y: rect.minY + g.baseline - box.y * scale,
                               width: box.width * scale, height: box.height * scale)
            let w = (frame.width * deviceScale).rounded(.up), h = (frame.height * deviceScale).rounded(.up)
            // Bitmaps are reduced, never enlarged beyond 4096 px; past that (or not finite) nothing is drawn.
            guard w.isFinite, h.isFinite, w >= 1, h >= 1, w <= 4096, h <= 4096,
                  let content = ColorGlyphs.image(g.font, g.glyph, width: Int(w), height: Int(h)) else { continue }
            lowerPixels(content, filter: .bilinear, in: frame, context, into: &items)
        }
    }
}

/// A glyph's (or symbol's) outline in device space: flattened at `glyphFlatteningTolerance`
/// up to `GlyphMasks.maximumPixelsPerEm` (a bounded number of segments), its curves kept
/// beyond, for the rasterizer to flatten at its own tolerance within its segment limit (a glyph a
/// million pixels tall would otherwise be cut into billions of segments here, unchecked).
func glyphOutline(_ outline: Path, _ toDevice: CGAffineTransform, pixelsPerEm: Double) -> Path {
    pixelsPerEm.isFinite && pixelsPerEm <= GlyphMasks.maximumPixelsPerEm
        ? outline.flattened(transform: toDevice, tolerance: glyphFlatteningTolerance)
        : outline.applying(toDevice)
}

/// Colour glyph bitmaps, decoded once per glyph and reduced once per device size.
enum ColorGlyphs {
    private struct Key: Hashable {
        var font: ObjectIdentifier
        var glyph: UInt32
        var width: Int
        var height: Int
    }

    private static let decoded = Locked<[Key: (Surface, x: Double, y: Double, width: Double, height: Double)?]>([:])
    private static let reduced = Locked<[Key: ImageContent]>([:])

    private static func bitmap(_ font: FontInstance, _ glyph: UInt32) -> (Surface, x: Double, y: Double, width: Double, height: Double)? {
        let key = Key(font: ObjectIdentifier(font), glyph: glyph, width: 0, height: 0)
        if let known = decoded.withLock({ $0[key] }) { return known }
        var made: (Surface, x: Double, y: Double, width: Double, height: Double)?
        if let b = font.colorBitmap(of: glyph), let surface = try? PNG.decode(Data(b.png)) {
            made = (surface, b.x, b.y, b.width, b.height)
        }
        decoded.withLock { $0[key] = made }
        return made
    }

    /// Where the glyph's bitmap goes, font units (left, top, width, height; y up).
    static func box(_ font: FontInstance, _ glyph: UInt32) -> (x: Double, y: Double, width: Double, height: Double)? {
        bitmap(font, glyph).map { ($0.x, $0.y, $0.width, $0.height) }
    }

    /// The bitmap reduced to `width` × `height` pixels (at most its own size).
    static func image(_ font: FontInstance, _ glyph: UInt32, width: Int, height: Int) -> ImageContent? {
        guard width > 0, height > 0, width <= 4096, height <= 4096, let b = bitmap(font, glyph) else { return nil }
        let key = Key(font: ObjectIdentifier(font), glyph: glyph, width: width, height: height)
        if let known = reduced.withLock({ $0[key] }) { return known }
        guard let small = try? b.0.downsampled(toWidth: width, height: height),
              let content = try? ImageContent(copying: small, scale: 1) else { return nil }
        reduced.withLock { table in
            // Bounded (a few megabytes of small bitmaps): an animation zooming emoji starts over.
            if table.count >= 2_048 { table.removeAll(keepingCapacity: true) }
            table[key] = content
        }
        return content
    }
}

/// What a text leaf says and what draws it, formatted only when read (`explain`): a render
/// makes one per Text and never reads it.
enum TextSummary: Hashable, Sendable, CustomStringConvertible {
    case literal(String)
    case text(String, [FontUse: Int], masks: Bool)

    var description: String {
        switch self {
        case .literal(let s): s
        case let .text(string, fonts, masks): FontUse.summary(string, fonts, masks: masks)
        }
    }

    // Equal when they read the same, whichever way they were made (compared in parts when
    // both have them, so comparing never formats them); hashed by nothing of their own, as
    // the two ways to say the same thing must hash alike (a leaf hashes its path and paint).
    static func == (a: TextSummary, b: TextSummary) -> Bool {
        if case let .text(s1, f1, m1) = a, case let .text(s2, f2, m2) = b { return s1 == s2 && f1 == f2 && m1 == m2 }
        return a.description == b.description
    }
    func hash(into hasher: inout Hasher) {}
}

/// A font at a size, as `explain` lists the fonts of a text leaf.
struct FontUse: Hashable, Sendable {
    var font: FontInstance
    var size: Double

    /// `text “Descargando” from masks: Inter-roman.var.ttf wght 600 17 pt × 11` (fonts by glyph
    /// count, most used first: a fallback font for characters the first lacks comes after).
    static func summary(_ string: String, _ fonts: [FontUse: Int], masks: Bool) -> String {
        let excerpt = string.count > 40 ? String(string.prefix(39)) + "…" : string
        let quoted = excerpt.replacingOccurrences(of: "\n", with: "⏎")
        let list = fonts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.font.description < $1.key.font.description }
            .map { use, count in "\(use.font) \(use.size == use.size.rounded() && abs(use.size) < 1e15 ? String(Int(use.size)) : String(use.size)) pt × \(count)" }
        let total = fonts.values.reduce(0, +)
        return "text “\(quoted)”, \(total) glyph\(total == 1 ? "" : "s") from \(masks ? "cached masks" : "outlines"): " + list.joined(separator: ", ")
    }
}
