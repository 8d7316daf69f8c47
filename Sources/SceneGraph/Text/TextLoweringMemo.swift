import Foundation
import Typography

/// What a renderer keeps of the texts it drew, so a text unchanged since the last frame costs a
/// lookup instead of a pass over its glyphs:
/// - per text layout (its `id`) and device scale, the glyph runs lowering made of it, with
///   positions relative to the Text's device origin (a text that moves keeps them);
/// - per glyph run and exact device position, the masks drawing found for its glyphs (each
///   glyph's mask depends on where its origin falls within a pixel, so any move finds them
///   again, glyph by glyph).
///
/// Both are bounded (a renderer meeting ever new texts starts over) and belong to one renderer,
/// which renders on one thread at a time; the first is read and kept under a lock, as lowering
/// may run on several threads.
final class TextLoweringMemo {
    struct Key: Hashable {
        var layout: UInt64
        /// Device pixels per point, exactly (its bits).
        var scale: UInt
        /// Which runs have a style of their own (they make leaves of their own).
        var ownStyles: [Bool]
    }

    /// One text's runs for masks: per paint the glyphs, the box around their inks and the fonts
    /// used (for `explain`); its colour glyphs; what `explain` warns of.
    struct Lowered {
        var groups: [(glyphs: GlyphRun.Storage, box: CGRect, fonts: [FontUse: Int])]
        var colorGlyphs: [PlacedGlyph]
        var missing: Int
        var fontconfig: [String]
    }

    static let capacity = 4_096

    /// Texts lowered before: read and kept under a lock, since a large container's children
    /// are lowered on several threads at once (`Lowering.lowerInParallel`).
    private let lowered = Locked<[Key: Lowered]>([:])

    func lowered(for key: Key) -> Lowered? {
        lowered.withLock { $0[key] }
    }

    func keep(_ text: Lowered, for key: Key) {
        lowered.withLock { lowered in
            if lowered.count >= TextLoweringMemo.capacity { lowered.removeAll(keepingCapacity: true) }
            lowered[key] = text
        }
    }

    struct MasksKey: Hashable {
        var run: ObjectIdentifier
        var x: UInt, y: UInt
        var layerX: Int, layerY: Int
        /// The part of the layer drawing may touch: glyphs wholly outside are skipped.
        var visible: PixelRect
    }

    /// A run's masks where it was drawn: the run (kept alive, so its identifier stays its own),
    /// each visible glyph's mask and device position in its layer, and how many of those the
    /// first drawing found in the cache.
    private(set) var masks: [MasksKey: (run: GlyphRun.Storage, masks: [(mask: Surface, x: Int, y: Int)])] = [:]

    /// Masks referred to by `masks`, at most `maskCapacity`: the masks it holds stay alive after
    /// the shared cache evicts them, so their number is bounded too (a few megabytes of body
    /// text masks at most).
    private var maskReferences = 0
    static let maskCapacity = 100_000

    func keep(_ found: [(mask: Surface, x: Int, y: Int)], of run: GlyphRun.Storage, for key: MasksKey) {
        guard found.count <= TextLoweringMemo.maskCapacity else { return }
        if masks.count >= TextLoweringMemo.capacity || maskReferences + found.count > TextLoweringMemo.maskCapacity { forgetMasks() }
        masks[key] = (run, found)
        maskReferences += found.count
    }

    /// Forgets every run's masks (they stay in the shared cache).
    func forgetMasks() {
        masks.removeAll(keepingCapacity: true)
        maskReferences = 0
    }
}
