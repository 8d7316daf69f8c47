import CCairo
import Compositor
import Foundation
import SceneGraph

// Text, against cairo's `cairo_show_glyphs` (FreeType font backend, no hinting) and native
// Blend2D's `fillGlyphRun` (Benchmarks/blend2d, built by its build.sh), in one run. Two scenes
// on a 1920 × 1080 canvas at scale 1: a page of 17 pt body text, and 500 short labels in a grid.
// The engine renders the views (layout, shaping, lowering and drawing all in the time); the
// peers draw the very glyphs the engine placed (its display list's glyph ids and positions,
// written to a file for Blend2D), so they skip shaping and layout: the comparison favours them.
//
// Glyph masks cached in all but cold (the steady state of frames and tests). warm: the same
// view value again, so the renderer draws its last display list again (views compared by
// reference); anew: the view made anew each frame, as an app's `body` makes it, compared by
// value with the last and drawn from the last list; relaid: a renderer that never reuses a
// frame, every frame laid out and lowered (text layouts and glyph runs from the caches); draw:
// the display list made once and drawn (`Renderer.render(_:into:)`: planning and drawing, as
// the peers only draw); cold: the mask cache emptied before each frame (new masks per ms =
// masks made ÷ (cold − warm)). Shaping: the page's 10,000+ characters shaped by HarfBuzz and
// broken into lines (`layOut`), alone.

struct TextRow: Codable {
    var scene: String
    var glyphs: Int
    /// The same view value rendered again: the renderer draws its last display list again
    /// (`Renderer.reusesUnchangedFrames`), its views compared by reference.
    var warmMs: Double
    /// The view made anew each frame (as an app's `body` makes it): built, compared with the
    /// last frame's view by value, found the same, the last display list drawn again.
    var anewMs: Double
    /// Every frame laid out and lowered again (`reusesUnchangedFrames` off): the text layouts
    /// and glyph runs come from the caches.
    var relaidMs: Double
    /// The display list (made once) drawn warm: what the peers do, who draw given glyphs.
    var drawMs: Double
    var coldMs: Double
    var newMasksPerMs: Double
    var cairoMs: Double
    var blend2dMs: Double?
    var warmOverCairo: Double
    var anewOverCairo: Double
    var relaidOverCairo: Double
    var drawOverCairo: Double
    var warmOverBlend2d: Double?
    var drawOverBlend2d: Double?
    var shapingMs: Double?
    /// HarfBuzz alone shaping the same text in one call (no fallback, bidi or lines).
    var harfBuzzMs: Double?
    var characters: Int?
}

private let paragraph = """
    Typography on a screen is a compromise between the shapes the designer drew and the pixels \
    the display has. A layered compositing engine adds its own questions: whether a paragraph's \
    opacity applies per glyph or once to the whole, whether its shadow is cast by each letter or \
    by the block, and what it costs to rasterize the words into an offscreen surface once and \
    reuse them in every frame of an animation. 
    """

private func page() -> (AnyView, Int) {
    let text = String(repeating: paragraph, count: 24)
    let view = AnyView(Text(text).foregroundStyle(.black).frame(width: 1880, height: 1060, alignment: .topLeading)
        .frame(width: 1920, height: 1080))
    return (view, text.count)
}

private func labels() -> AnyView {
    let words = ["Disponible", "Descargando", "Settings", "Wi-Fi", "Bluetooth", "Battery 82%", "Notifications", "Sounds",
                 "Focus", "Screen Time", "General", "Display", "Privacy", "Passwords", "Mail", "Calendar", "Photos", "Camera",
                 "Maps", "Music"]
    return AnyView(VStack(alignment: .leading, spacing: 14) {
        ForEach(0..<25) { row in
            HStack(spacing: 12) {
                ForEach(0..<20) { column in
                    Text(words[(row * 20 + column) % words.count]).font(.callout).foregroundStyle(.black)
                        .frame(width: 84, alignment: .leading)
                }
            }
        }
    }.frame(width: 1920, height: 1080))
}

/// The page's text laid out (`layOut`: fallback, bidi, HarfBuzz, line breaks, lines) and, for
/// comparison, shaped by HarfBuzz alone in one call (`FontInstance.shape`, a thin wrapper of
/// `hb_shape`): median and best ms of each, a text not seen before each time.
func shapingTimes(runs: Int) throws -> (layOut: Double, harfBuzz: Double, layOutBest: Double, harfBuzzBest: Double) {
    let font = try SystemFont.instance(size: 17, weight: 400, italic: false)
    let text = String(repeating: paragraph, count: 24)
    var t: [Double] = [], h: [Double] = []
    for k in 0..<runs {
        let unique = text + String(k)
        var t0 = now()
        _ = layOut([TextRun(text: unique, font: font, size: 17)], width: 1880)
        t.append(ms(now() - t0))
        t0 = now()
        _ = font.shape(unique)
        h.append(ms(now() - t0))
    }
    return (median(t), median(h), t.min() ?? 0, h.min() ?? 0)
}

/// The text scenes by their `--profile` names: what makes each scene's view.
func textProfileView(_ name: String) -> (() -> AnyView)? {
    switch name {
    case "text-page": { page().0 }
    case "text-labels": labels
    default: nil
    }
}

/// cairo drawing a display list's glyph runs (black on white), its fonts loaded once.
private final class CairoText {
    let surface: OpaquePointer
    let cr: OpaquePointer
    var library: FT_Library?
    var faces: [String: OpaquePointer] = [:]
    var runs: [(font: OpaquePointer, size: Double, glyphs: [cairo_glyph_t])] = []

    init(width: Int, height: Int, runs glyphRuns: [GlyphRun]) {
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        cr = cairo_create(surface)
        FT_Init_FreeType(&library)
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_set_font_options(cr, options)
        cairo_font_options_destroy(options)
        for run in glyphRuns {
            // One cairo run per (font file, size), in order.
            var groups: [(String, Double, [cairo_glyph_t])] = []
            for g in run.glyphs {
                let glyph = cairo_glyph_t(index: UInt(g.glyph), x: run.origin.x + g.x, y: run.origin.y + g.y)
                if let last = groups.last, last.0 == g.font.face.path, last.1 == g.pixelsPerEm {
                    groups[groups.count - 1].2.append(glyph)
                } else {
                    groups.append((g.font.face.path, g.pixelsPerEm, [glyph]))
                }
            }
            for (path, size, glyphs) in groups { runs.append((face(path), size, glyphs)) }
        }
    }

    private func face(_ path: String) -> OpaquePointer {
        if let known = faces[path] { return known }
        var ft: FT_Face?
        FT_New_Face(library, path, 0, &ft)
        let face = cairo_ft_font_face_create_for_ft_face(ft, 0)!
        faces[path] = face
        return face
    }

    func draw() {
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_paint(cr)
        cairo_set_source_rgb(cr, 0, 0, 0)
        for run in runs {
            cairo_set_font_face(cr, run.font)
            cairo_set_font_size(cr, run.size)
            run.glyphs.withUnsafeBufferPointer { cairo_show_glyphs(cr, $0.baseAddress, Int32($0.count)) }
        }
        cairo_surface_flush(surface)
    }

    deinit {
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }
}

/// Runs the native Blend2D program on the runs, when it has been built; its median ms.
private func blend2d(_ runs: [GlyphRun], width: Int, height: Int, name: String) -> Double? {
    let binary = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../.build-b2d/b2dtext").standardized
    guard FileManager.default.isExecutableFile(atPath: binary.path) else { return nil }
    var lines = ["canvas \(width) \(height)"]
    for run in runs {
        var groups: [(String, Double, [String])] = []
        for g in run.glyphs {
            let line = "\(g.glyph) \(run.origin.x + g.x) \(run.origin.y + g.y)"
            if let last = groups.last, last.0 == g.font.face.path, last.1 == g.pixelsPerEm {
                groups[groups.count - 1].2.append(line)
            } else {
                groups.append((g.font.face.path, g.pixelsPerEm, [line]))
            }
        }
        for (path, size, glyphLines) in groups { lines.append("run \(path) \(size) \(glyphLines.count)"); lines += glyphLines }
    }
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("b2dtext-\(name).txt")
    try? (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = binary
    process.arguments = [file.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    guard (try? process.run()) != nil else { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let fields = String(decoding: data, as: UTF8.self).split(separator: "\t")
    return fields.count >= 2 ? Double(fields[1]) : nil
}

func textSeries(runs: Int) throws -> [TextRow] {
    print("\ntext: 1920 × 1080 at scale 1, median of \(runs) frames (ms); peers draw the engine's glyphs")
    if !FileManager.default.isExecutableFile(atPath: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../.build-b2d/b2dtext").standardized.path) {
        print("  (no Blend2D column: build it with Benchmarks/blend2d/build.sh)")
    }
    print("  scene     glyphs    warm    anew  relaid    draw    cold  masks/ms   cairo  blend2d  warm/cairo  anew/cairo  relaid/cairo  draw/cairo  warm/b2d")
    let size = CGSize(width: 1920, height: 1080)
    let surface = try Surface(width: 1920, height: 1080)
    var rows: [TextRow] = []
    let characters = page().1
    let scenes: [(String, () -> AnyView)] = [("page", { page().0 }), ("labels", labels)]
    for (name, make) in scenes {
        let view = make()
        let renderer = Renderer(threads: benchThreads)
        let relaying = Renderer(threads: benchThreads)
        relaying.reusesUnchangedFrames = false
        let list = try renderer.displayList(for: view, size: size)
        let glyphRuns = list.leaves.compactMap(\.glyphs)
        let glyphs = glyphRuns.reduce(0) { $0 + $1.glyphs.count }
        var warm: [Double] = [], anew: [Double] = [], relaid: [Double] = [], draw: [Double] = [], cold: [Double] = [], cairoTimes: [Double] = []
        let cairo = CairoText(width: 1920, height: 1080, runs: glyphRuns)
        try renderer.render(view, into: surface)
        try relaying.render(view, into: surface)
        cairo.draw()
        for _ in 0..<runs {
            var t0 = now()
            try renderer.render(view, into: surface)
            warm.append(ms(now() - t0))
            precondition(renderer.lastStats.reusedDisplayList)
            t0 = now()
            try renderer.render(make(), into: surface)
            anew.append(ms(now() - t0))
            precondition(renderer.lastStats.reusedDisplayList)
            t0 = now()
            try relaying.render(view, into: surface)
            relaid.append(ms(now() - t0))
            t0 = now()
            cairo.draw()
            cairoTimes.append(ms(now() - t0))
            t0 = now()
            try renderer.render(list, into: surface)
            draw.append(ms(now() - t0))
            Renderer.removeAllGlyphMasks()
            renderer.forgetGlyphMasks()
            t0 = now()
            try renderer.render(view, into: surface)
            cold.append(ms(now() - t0))
        }
        let b2d = blend2d(glyphRuns, width: 1920, height: 1080, name: name)
        var shaping: Double?
        var harfBuzz: Double?
        if name == "page" { let t = try shapingTimes(runs: runs); (shaping, harfBuzz) = (t.layOut, t.harfBuzz) }
        let (w, a, r) = (median(warm), median(anew), median(relaid))
        let (d, c, k) = (median(draw), median(cold), median(cairoTimes))
        // New masks per ms: the cold frame's rasterized masks over the time it took beyond the
        // warm frame's.
        let misses = Double(renderer.lastStats.glyphCache.misses)
        let row = TextRow(scene: name, glyphs: glyphs, warmMs: w, anewMs: a, relaidMs: r, drawMs: d, coldMs: c,
                          newMasksPerMs: c > w ? misses / (c - w) : misses / c,
                          cairoMs: k, blend2dMs: b2d, warmOverCairo: w / k, anewOverCairo: a / k, relaidOverCairo: r / k, drawOverCairo: d / k,
                          warmOverBlend2d: b2d.map { w / $0 },
                          drawOverBlend2d: b2d.map { d / $0 },
                          shapingMs: shaping, harfBuzzMs: harfBuzz, characters: name == "page" ? characters : nil)
        rows.append(row)
        print("  " + name.padding(toLength: 8, withPad: " ", startingAt: 0)
              + String(format: " %7d %7.2f %7.2f %7.2f %7.2f %7.2f %9.0f %7.2f", glyphs, w, a, r, d, c, row.newMasksPerMs, k)
              + (b2d.map { String(format: " %8.2f", $0) } ?? "        –")
              + String(format: " %11.2f %11.2f %13.2f %11.2f", row.warmOverCairo, row.anewOverCairo, row.relaidOverCairo, row.drawOverCairo)
              + (row.warmOverBlend2d.map { String(format: " %9.2f", $0) } ?? "         –"))
        if let shaping, let harfBuzz {
            print(String(format: "  shaping and line breaking the page's %d characters: %.2f ms (HarfBuzz's hb_shape alone: %.2f ms)",
                         characters, shaping, harfBuzz))
        }
    }
    return rows
}
