import Foundation
import Typography

/// The glyphs of a Text drawn from cached masks: each glyph's font, its size in device pixels
/// per em and its pen position on the baseline, in device pixels from `origin`.
///
/// Lowering uses masks when the text is only translated and uniformly scaled, casts no shadow,
/// no glyph is over `GlyphMasks.maximumPixelsPerEm`, and its scripts do not join (Latin, Greek,
/// Cyrillic, Hebrew, CJK …): adding the glyph masks is then the exact coverage of their union,
/// as their inks do not overlap. Otherwise (rotation, shadows, Arabic or Devanagari, whose
/// joined glyphs overlap) the glyph outlines are filled as one path.
///
/// The glyphs are shared, not copied, by every frame that draws the same text at the same
/// scale (only `origin` moves), so a renderer can keep what it resolved for them.
public struct GlyphRun: Hashable, Sendable {
    public struct Glyph: Hashable, Sendable {
        public var font: FontInstance
        public var glyph: UInt32
        public var pixelsPerEm: Double
        /// From the run's origin, device pixels.
        public var x: Double
        public var y: Double
        /// The outline's bounds in font units (y up).
        public var inkBounds: CGRect

        public init(font: FontInstance, glyph: UInt32, pixelsPerEm: Double, x: Double, y: Double, inkBounds: CGRect) {
            (self.font, self.glyph, self.pixelsPerEm, self.x, self.y, self.inkBounds) = (font, glyph, pixelsPerEm, x, y, inkBounds)
        }
    }

    /// The device point the glyphs' positions are measured from.
    public var origin: CGPoint
    public var glyphs: [Glyph] { storage.glyphs }
    /// The glyphs, immutable and shared.
    let storage: Storage

    final class Storage: Sendable {
        let glyphs: [Glyph]
        init(_ glyphs: [Glyph]) { self.glyphs = glyphs }
    }

    public init(origin: CGPoint = .zero, glyphs: [Glyph]) {
        self.origin = origin
        storage = Storage(glyphs)
    }

    init(origin: CGPoint, storage: Storage) {
        self.origin = origin
        self.storage = storage
    }

    public static func == (a: GlyphRun, b: GlyphRun) -> Bool {
        a.origin == b.origin && (a.storage === b.storage || a.storage.glyphs == b.storage.glyphs)
    }

    // Equal runs have the same origin and glyph count (hashing every glyph would cost as much
    // as drawing them).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(origin.x)
        hasher.combine(origin.y)
        hasher.combine(storage.glyphs.count)
    }
}

/// A glyph's mask is made for its size and for where its origin falls within a pixel, to a
/// quarter of a pixel (so a mask serves every position with the same fraction, within 1/8 px).
struct GlyphKey: Hashable, Sendable {
    var font: FontInstance
    var glyph: UInt32
    /// Pixels per em, exactly (its bits): a mask's box is rounded out from the outline at this
    /// size, so sizes a hair apart may need boxes a pixel apart and cannot share a mask.
    var size: UInt64
    var binX: UInt8
    var binY: UInt8
}

/// Glyph masks, rasterized once by the engine's rasterizer (at `glyphFlatteningTolerance`) and
/// kept in an `ImageCache` shared by every renderer (32 MiB: about 100,000 masks of body text).
enum GlyphMasks {
    /// Masks are made up to this size (larger glyphs are filled from their outlines).
    static let maximumPixelsPerEm = 512.0

    static let cache = ImageCache<GlyphKey>(budgetBytes: 32 << 20)

    /// Scripts whose glyphs sit apart, so that adding their masks gives the union's coverage.
    static let separateScripts: Set<String> = [
        "Latin", "Greek", "Cyrillic", "Common", "Inherited", "Armenian", "Georgian", "Hebrew", "Han", "Hiragana", "Katakana",
        "Hangul", "Bopomofo", "Ethiopic", "Cherokee", "Unknown",
    ]

    /// Whether `string`'s characters can be drawn from separate masks.
    static func canUseMasks(_ string: String) -> Bool {
        string.unicodeScalars.allSatisfy { $0.isASCII || separateScripts.contains(FontLibrary.scriptName($0)) }
    }

    /// The glyph's mask at its device position `(x, y)` (its pen on the baseline): the mask and
    /// the device pixel of its top-left corner, from the cache when it was made before; nil
    /// for a glyph without ink. `hit` says which.
    static func mask(for g: GlyphRun.Glyph, x: Double, y: Double, rasterizer: Rasterizer,
                     memo: inout [GlyphKey: (mask: Surface, dx: Int, dy: Int)]) throws -> (mask: Surface, x: Int, y: Int, hit: Bool)? {
        let ix = x.rounded(.down), iy = y.rounded(.down)
        var bx = ((x - ix) * 4).rounded(), by = ((y - iy) * 4).rounded()
        var px = Int(ix), py = Int(iy)
        if bx == 4 { bx = 0; px += 1 }
        if by == 4 { by = 0; py += 1 }
        let key = GlyphKey(font: g.font, glyph: g.glyph, size: g.pixelsPerEm.bitPattern, binX: UInt8(bx), binY: UInt8(by))
        // The renderer's own memo first: no lock, no bookkeeping (the shared cache's LRU order
        // is refreshed when the memo misses).
        if let known = memo[key] { return (known.mask, px + known.dx, py + known.dy, true) }
        guard let made = try sharedMask(for: g, key: key, bx: bx, by: by, rasterizer: rasterizer) else { return nil }
        if memo.count >= 8_192 { memo.removeAll(keepingCapacity: true) }
        memo[key] = (made.mask, made.dx, made.dy)
        return (made.mask, px + made.dx, py + made.dy, made.hit)
    }

    /// The mask of `key` from the shared cache, or rasterized and stored there, with its
    /// top-left corner relative to the glyph's integer origin.
    private static func sharedMask(for g: GlyphRun.Glyph, key: GlyphKey, bx: Double, by: Double,
                                   rasterizer: Rasterizer) throws -> (mask: Surface, dx: Int, dy: Int, hit: Bool)? {
        let bounds = g.inkBounds
        guard !bounds.isNull, bounds.width > 0 || bounds.height > 0 else { return nil }
        // Font units (y up) → pixels from the glyph's integer origin (y down), the bin's offset
        // added; the mask's box is the outline's bounds there, rounded out.
        let scale = g.pixelsPerEm / Double(g.font.unitsPerEm)
        let ox = bx / 4, oy = by / 4
        let x0 = (bounds.minX * scale + ox).rounded(.down), x1 = (bounds.maxX * scale + ox).rounded(.up)
        let y0 = (-bounds.maxY * scale + oy).rounded(.down), y1 = (-bounds.minY * scale + oy).rounded(.up)
        if let known = cache.image(for: key) { return (known, Int(x0), Int(y0), true) }
        let width = Int(x1 - x0), height = Int(y1 - y0)
        guard width > 0, height > 0 else { return nil }
        let toMask = CGAffineTransform(a: scale, b: 0, c: 0, d: -scale, tx: ox - x0, ty: oy - y0)
        let outline = g.font.outline(of: g.glyph).flattened(transform: toMask, tolerance: glyphFlatteningTolerance)
        // Always exact, whatever the renderer asks for: the cache is shared by every renderer
        // (and overlapping contours are common in variable fonts).
        let quality = rasterizer.coverageQuality
        rasterizer.coverageQuality = .exact
        defer { rasterizer.coverageQuality = quality }
        let surface = try CoverageMask.surface(of: outline, width: width, height: height, rasterizer: rasterizer)
        _ = cache.insert(surface, for: key)
        return (surface, Int(x0), Int(y0), false)
    }
}

extension Renderer {
    /// Empties the glyph-mask cache every renderer shares (for measuring cold text; memory is
    /// bounded by its 32 MiB budget anyway).
    public static func removeAllGlyphMasks() { GlyphMasks.cache.removeAll() }
    /// Forgets the masks this renderer keeps at hand (they stay in the shared cache).
    public func forgetGlyphMasks() {
        glyphMemo.removeAll()
        textMemo.forgetMasks()
    }
    /// Bytes of glyph masks the shared cache holds.
    public static var glyphMaskBytes: Int { GlyphMasks.cache.statistics.bytes }
}
