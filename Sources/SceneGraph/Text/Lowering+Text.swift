import Foundation
import Typography

/// Glyph outlines are flattened within this many device pixels: glyph curves are small and
/// tight, and at the rasterizer's 0.1 px a 17 px glyph is up to 19–26 levels off its exact
/// coverage; at 0.02 px within about 3 (measured for TEXT.md, §5.2).
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
        var groups: [(style: (any ShapeStyle)?, path: Path)] = []
        var shared: Int?
        let groupOfRun: [Int] = text.styles.map { style in
            if style == nil, let shared { return shared }
            groups.append((style, Path()))
            if style == nil { shared = groups.count - 1 }
            return groups.count - 1
        }
        var colorGlyphs: [PlacedGlyph] = []
        for line in text.layout.lines {
            for g in line.glyphs {
                if g.font.hasColorBitmaps {
                    colorGlyphs.append(g)
                    continue
                }
                let outline = g.font.outline(of: g.glyph)
                guard !outline.isEmpty, g.style < groupOfRun.count else { continue }
                let group = groupOfRun[g.style]
                // Font units, y up → points in the Text's frame, y down → device.
                let scale = g.size / Double(g.font.unitsPerEm)
                let toDevice = CGAffineTransform(a: scale, b: 0, c: 0, d: -scale, tx: g.x, ty: g.baseline).concatenating(place)
                groups[group].path.addPath(outline.flattened(transform: toDevice, tolerance: glyphFlatteningTolerance))
            }
        }
        for (style, path) in groups where !path.isEmpty {
            var fill = context.environment.resolve(style ?? ForegroundStyle())._fill(in: local)
            if let matrix = context.colorMatrix { fill = fill.mapColors(matrix.apply(to:)) }
            fill = fill.transformed(by: place).opacity(context.opacity)
            items.append(.leaf(.init(path: path, fill: fill, fillRule: .nonZero, blendMode: context.blendMode ?? .normal,
                                     clips: context.clips, shadows: context.leafShadows)))
        }
        // Colour glyphs (emoji) keep their own colours: image leaves after the outlines, with the
        // same opacity, blend mode, clips and shadows. Their bitmaps (109 ppem in Noto Color
        // Emoji) are reduced by area averaging to the device size they are drawn at.
        let deviceScale = sqrt(abs(place.a * place.d - place.b * place.c))
        for g in colorGlyphs {
            let scale = g.size / Double(g.font.unitsPerEm)
            guard let box = ColorGlyphs.box(g.font, g.glyph) else { continue }
            let frame = CGRect(x: rect.minX + g.x + box.x * scale, y: rect.minY + g.baseline - box.y * scale,
                               width: box.width * scale, height: box.height * scale)
            guard let content = ColorGlyphs.image(g.font, g.glyph, width: Int((frame.width * deviceScale).rounded(.up)),
                                                  height: Int((frame.height * deviceScale).rounded(.up))) else { continue }
            lowerPixels(content, filter: .bilinear, in: frame, context, into: &items)
        }
    }
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
