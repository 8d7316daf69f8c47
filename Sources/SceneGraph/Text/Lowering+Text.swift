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
        for line in text.layout.lines {
            for g in line.glyphs {
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
    }
}
