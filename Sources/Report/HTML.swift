import Foundation
import SceneGraph

extension SceneReport {
    /// The report as one self-contained HTML page: images embedded as data URLs, styles and
    /// the small script inline, nothing fetched from anywhere.
    public func html() -> String {
        SceneReport.page(title: title, report: self, problem: nil, version: nil)
    }

    /// A page for `compose preview`: the report (the last one that rendered, or nil when none
    /// has yet), the scene's current errors above it, and `version`, which the page's script
    /// long-polls the server with (`/wait?version=N`) to replace itself when it changes.
    public static func page(title: String, report: SceneReport?, problem: String?, version: Int?) -> String {
        var html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>\(escape(title)) — compose report</title>
        <style>\(stylesheet)</style>
        </head>
        <body\(version.map { #" data-version="\#($0)""# } ?? "")>
        <main id="report">
        <header>
        <h1>\(escape(title))</h1>

        """
        if let report {
            html += "<p class=\"sub\">\(Charts.number(report.size.width))×\(Charts.number(report.size.height)) pt at scale \(Charts.number(report.scale)): "
                + "\(report.pixelWidth)×\(report.pixelHeight) px, rendered in \(Charts.milliseconds(report.milliseconds)) ms"
                + "\(version != nil ? ", live: the page follows the file" : "")</p>\n"
        }
        html += "</header>\n"
        if let problem {
            html += """
            <section id="problem" class="problem" role="alert" aria-labelledby="problem-h">
            <h2 id="problem-h">The scene cannot be rendered</h2>
            <pre>\(escape(problem))</pre>
            <p>\(report == nil ? "Nothing has rendered yet; the page updates when the file is fixed." : "The last good render is shown below; the page updates when the file is fixed.")</p>
            </section>

            """
        }
        if let report { html += report.body() }
        html += "</main>\n<script>\(script)</script>\n</body>\n</html>\n"
        return html
    }

    /// Every section of the report.
    func body() -> String {
        var html = summarySection() + renderSection() + layerSection()
        html += effectsSection() + warningsSection()
        html += section("phases", "Phases", "<p>Wall-clock milliseconds per phase of this render.</p>" + Charts.phases(stats) + phaseTable())
        html += section("timeline", "Timeline", "<p>The trace of this render: the whole render, each timed call by phase, and each offscreen image from its allocation to its release. Neighbouring calls closer than a pixel are drawn as one bar; hover a bar for its numbers. The same trace loads in Perfetto with <code>compose render --trace</code>.</p>"
                        + Charts.timeline(trace, stats: stats))
        if !frames.isEmpty { html += framesSection() }
        html += section("tree", "Display tree", "<details><summary>Every leaf and group, as <code>compose explain</code> prints it</summary><pre>"
                        + escape(explanation.text(sourceName: sourceName)) + "</pre></details>")
        return html
    }

    private func section(_ id: String, _ heading: String, _ content: String) -> String {
        "<section id=\"\(id)\" aria-labelledby=\"\(id)-h\">\n<h2 id=\"\(id)-h\">\(heading)</h2>\n\(content)\n</section>\n"
    }

    private func summarySection() -> String {
        let layerBytes = stats.layers.reduce(0) { $0 + $1.bytes }
        let items: [(String, String)] = [
            ("Leaves", "\(explanation.leaves)"),
            ("Offscreen images", "\(stats.layers.count)"),
            ("Offscreen bytes", bytes(layerBytes, exact: false)),
            ("Peak offscreen bytes", bytes(stats.peakOffscreenBytes, exact: false)),
            ("Leaf draws", "\(stats.leafDraws)"),
            ("Coverage pixels", grouped(stats.coveragePixels)),
            ("Render", "\(Charts.milliseconds(milliseconds)) ms"),
            ("Drawing-group cache", "\(stats.cache.hits) hits, \(stats.cache.misses) misses"),
            ("Glyphs from masks", "\(stats.glyphs)"),
        ]
        return section("summary", "Summary", "<dl class=\"numbers\">" + items.map { "<div><dt>\($0.0)</dt><dd>\($0.1)</dd></div>" }.joined() + "</dl>")
    }

    private func renderSection() -> String {
        let (w, h) = (pixelWidth, pixelHeight)
        func rect(_ layer: RenderStats.Layer) -> (Int, Int, Int, Int) { (layer.bounds[0], layer.bounds[1], layer.bounds[2], layer.bounds[3]) }
        // The offscreen overlay: one path of every image's rectangle under the non-zero rule,
        // so overlapping images are tinted once (as `--overlay offscreen`); cached images green.
        func union(_ layers: [RenderStats.Layer]) -> String {
            layers.map { l in let (x, y, w, h) = rect(l); return "M\(x) \(y)h\(w)v\(h)h\(-w)z" }.joined()
        }
        var overlay = #"<g id="overlay-offscreen">"#
        if !stats.layers.isEmpty {
            overlay += #"<path d="\#(union(stats.layers))" fill="\#(Color.yellow.hexString)" fill-opacity="0.5" fill-rule="nonzero"/>"#
        }
        if !stats.reusedImages.isEmpty {
            overlay += #"<path d="\#(union(stats.reusedImages))" fill="\#(RenderOverlay.cachedColour.hexString)" fill-opacity="0.5" fill-rule="nonzero"/>"#
        }
        overlay += #"</g><g id="overlay-layers">"#
        // The layers overlay: each image outlined 1 device pixel inside its bounds.
        for (layer, colour) in stats.layers.map({ ($0, RenderOverlay.colour(of: $0.kind)) }) + stats.reusedImages.map({ ($0, RenderOverlay.cachedColour) }) {
            let (x, y, w, h) = rect(layer)
            if w > 2, h > 2 {
                overlay += #"<rect x="\#(Double(x) + 0.5)" y="\#(Double(y) + 0.5)" width="\#(w - 1)" height="\#(h - 1)" fill="none" stroke="\#(colour.hexString)" stroke-width="1"/>"#
            } else {
                overlay += #"<rect x="\#(x)" y="\#(y)" width="\#(w)" height="\#(h)" fill="\#(colour.hexString)"/>"#
            }
        }
        overlay += #"</g><g id="highlight" class="off"><rect class="hl-under" x="0" y="0" width="0" height="0"/><rect class="hl" x="0" y="0" width="0" height="0"/></g>"#
        let legend = RenderStats.LayerKind.allCases.map { kind in
            "<li><span class=\"swatch\" style=\"background:\(RenderOverlay.colour(of: kind).hexString)\"></span>\(kind.rawValue)</li>"
        }.joined() + "<li><span class=\"swatch\" style=\"background:\(RenderOverlay.cachedColour.hexString)\"></span>cached image</li>"
        let content = """
        <div class="render">
        <input type="checkbox" id="show-offscreen" class="toggle"><label for="show-offscreen">Offscreen overlay (yellow: drawn through an offscreen image; green: from the drawing-group cache)</label><br>
        <input type="checkbox" id="show-layers" class="toggle"><label for="show-layers">Layer outlines, coloured by kind</label><br>
        <input type="checkbox" id="show-actual" class="toggle"><label for="show-actual">Actual pixels (1 image pixel to 1 CSS pixel)</label>
        <figure class="stage" style="--points:\(Charts.format(size.width))px;--pixels:\(w)px">
        <img src="data:image/png;base64,\(png.base64EncodedString())" width="\(w)" height="\(h)" alt="The render of \(escape(title)), \(w)×\(h) pixels">
        <svg id="overlay" viewBox="0 0 \(w) \(h)" preserveAspectRatio="none" aria-hidden="true">\(overlay)</svg>
        </figure>
        <ul class="legend" aria-label="Outline colours">\(legend)</ul>
        </div>
        """
        return section("render", "Render", content)
    }

    private func layerSection() -> String {
        let rows = layerRows
        let total = stats.layers.reduce(0) { $0 + $1.bytes }
        var content = "<p>\(stats.layers.count) offscreen image\(stats.layers.count == 1 ? "" : "s"), \(bytes(total)) in all, "
            + "at most \(bytes(stats.peakOffscreenBytes)) alive at once. # is the order the render made them; rows nest as the groups do. "
            + "Hover or focus a row (Tab, then the arrow keys) to outline its bounds on the render.</p>\n"
        if rows.isEmpty {
            content += "<p class=\"none\">Nothing went offscreen: every effect was distributed to the leaves.</p>"
        } else {
            content += """
            <div class="scroller"><table id="layers" class="layers">
            <caption class="sr">Offscreen images; a nested image is marked with the level it sits at</caption>
            <thead><tr><th scope="col">#</th><th scope="col">Kind</th><th scope="col">Why it is a layer</th><th scope="col">Bounds (px)</th><th scope="col">Format</th><th scope="col" class="num">Bytes</th><th scope="col" class="num">Time (ms)</th><th scope="col">Source</th></tr></thead>
            <tbody>

            """
            for row in rows {
                let b = row.layer.bounds
                let colour = RenderOverlay.colour(of: row.layer.kind).hexString
                content += #"<tr id="layer-\#(row.index)" tabindex="0" data-depth="\#(row.depth)" data-bounds="\#(b[0]),\#(b[1]),\#(b[2]),\#(b[3])" data-kind="\#(row.layer.kind.rawValue)">"#
                content += "<td>\(row.index + 1)</td>"
                content += #"<td class="kind" style="padding-left:\#(Double(row.depth) * 1.25 + 0.4)em"><span class="swatch" style="background:\#(colour)"></span>\#(row.layer.kind.rawValue)\#(row.depth > 0 ? "<span class=\"sr\"> (nested, level \(row.depth + 1))</span>" : "")</td>"#
                content += "<td>\(escape(row.reason))<div class=\"muted\">\(escape(row.summary))</div></td>"
                content += "<td class=\"mono\">\(b[0]), \(b[1]), \(b[2])×\(b[3])</td>"
                content += "<td class=\"mono\">\(escape(row.format))</td>"
                content += "<td class=\"num\">\(grouped(row.layer.bytes))</td>"
                content += "<td class=\"num\">\(row.microseconds.map { Charts.milliseconds($0 / 1000) } ?? "—")</td>"
                // The file's name keeps the column narrow; the whole path is the tooltip.
                content += "<td class=\"mono\">\(row.source.map { "<span title=\"\(escape(located($0)))\">\(escape(located($0, short: true)))</span>" } ?? "—")</td></tr>\n"
            }
            content += "</tbody></table></div>\n"
        }
        if !stats.reusedImages.isEmpty {
            content += "<h3>From the drawing-group cache</h3><table class=\"layers\"><thead><tr><th scope=\"col\">#</th><th scope=\"col\">Bounds (px)</th><th scope=\"col\" class=\"num\">Bytes held</th></tr></thead><tbody>"
            for (i, image) in stats.reusedImages.enumerated() {
                let b = image.bounds
                content += #"<tr tabindex="0" data-bounds="\#(b[0]),\#(b[1]),\#(b[2]),\#(b[3])" data-kind="cached"><td>\#(i + 1)</td><td class="mono">\#(b[0]), \#(b[1]), \#(b[2])×\#(b[3])</td><td class="num">\#(grouped(image.bytes))</td></tr>"#
            }
            content += "</tbody></table>\n"
        }
        return section("layers-section", "Layer plan", content)
    }

    private func effectsSection() -> String {
        let p = explanation.perLeaf
        let rows = [("Translucent (opacity or colour alpha below 1)", p.translucent), ("Blended (a blend mode other than normal)", p.blendMode),
                    ("Clipped", p.clip), ("With shadows (an A8 mask each, listed above)", p.shadow)]
        let content = "<p>Effects written on leaves, or on groups without a boundary, are distributed to every leaf: each leaf draws with them itself, and no layer is made. \(explanation.leaves) lea\(explanation.leaves == 1 ? "f" : "ves") in all.</p>"
            + "<table class=\"effects\"><thead><tr><th scope=\"col\">Effect</th><th scope=\"col\" class=\"num\">Leaves</th></tr></thead><tbody>"
            + rows.map { "<tr><th scope=\"row\">\($0.0)</th><td class=\"num\">\($0.1)</td></tr>" }.joined() + "</tbody></table>"
        return section("effects", "Per-leaf effects", content)
    }

    private func warningsSection() -> String {
        let warnings = explanation.warnings
        let content = warnings.isEmpty ? "<p class=\"none\">No warnings.</p>"
            : "<ul class=\"warnings\">" + warnings.map { w in
                "<li>" + (w.source.map { "<code>\(escape(located($0)))</code> " } ?? "") + escape(w.message) + "</li>"
            }.joined() + "</ul>"
        return section("warnings", "Warnings (\(warnings.count))", content)
    }

    private func phaseTable() -> String {
        "<details><summary>As a table</summary><table><thead><tr><th scope=\"col\">Phase</th><th scope=\"col\" class=\"num\">ms</th></tr></thead><tbody>"
            + RenderStats.phases.map { "<tr><th scope=\"row\">\($0)</th><td class=\"num\">\(String(format: "%.3f", stats.phasesMs[$0] ?? 0))</td></tr>" }.joined()
            + "</tbody></table></details>"
    }

    private func framesSection() -> String {
        let times = frames.map(\.time)
        var content = "<p>\(frames.count) frames along the scene's change, rendered at scale \(Charts.number(scale)) by one renderer (drawing groups are cached across frames, as in an animation); \(frames.filter { $0.thumbnail != nil }.count) of them pictured.</p>"
        content += "<ol class=\"filmstrip\">"
        for frame in frames {
            guard let thumbnail = frame.thumbnail else { continue }
            content += "<li><figure><img src=\"data:image/png;base64,\(thumbnail.base64EncodedString())\" alt=\"The frame at \(Charts.number(frame.time)) s\">"
                + "<figcaption>\(String(format: "%.2f", frame.time)) s</figcaption></figure></li>"
        }
        content += "</ol><div class=\"plots\">"
        content += Charts.plot(title: "Render time", unit: "ms", values: frames.map(\.milliseconds), times: times, id: "plot-ms")
        content += Charts.plot(title: "Offscreen images", unit: "images", values: frames.map { Double($0.layers) }, times: times, id: "plot-layers")
        content += Charts.plot(title: "Offscreen bytes", unit: "bytes", values: frames.map { Double($0.layerBytes) }, times: times, id: "plot-bytes")
        content += Charts.plot(title: "Cache hits", unit: "hits", values: frames.map { Double($0.cacheHits) }, times: times, id: "plot-hits")
        content += "</div><details><summary>As a table</summary><table class=\"frames\"><thead><tr><th scope=\"col\">Time (s)</th><th scope=\"col\" class=\"num\">ms</th><th scope=\"col\" class=\"num\">Images</th><th scope=\"col\" class=\"num\">Bytes</th><th scope=\"col\" class=\"num\">Cache hits</th></tr></thead><tbody>"
        for f in frames {
            content += "<tr><th scope=\"row\">\(String(format: "%.3f", f.time))</th><td class=\"num\">\(String(format: "%.3f", f.milliseconds))</td><td class=\"num\">\(f.layers)</td><td class=\"num\">\(grouped(f.layerBytes))</td><td class=\"num\">\(f.cacheHits)</td></tr>"
        }
        content += "</tbody></table></details>"
        return section("frames", "Frames", content)
    }

    /// "file:line:column"; `short`: the file's last path component only.
    private func located(_ source: SourceLine, short: Bool = false) -> String {
        let name = short ? sourceName.map { URL(fileURLWithPath: $0).lastPathComponent } : sourceName
        return (name.map { "\($0):" } ?? "") + source.description
    }
}

/// 1234567 as "1,234,567".
func grouped(_ n: Int) -> String {
    let digits = String(n.magnitude)
    var out = ""
    for (i, c) in digits.enumerated() {
        if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
        out.append(c)
    }
    return (n < 0 ? "-" : "") + out
}

/// Bytes with a binary unit beside the exact count.
/// 481921 as "470.6 KiB (481,921 bytes)"; not `exact`: the rounded size with the exact count
/// as its tooltip (for the summary's small cells).
func bytes(_ n: Int, exact: Bool = true) -> String {
    let units = ["KiB", "MiB", "GiB"]
    var value = Double(n), unit = -1
    while value >= 1024, unit < units.count - 1 { value /= 1024; unit += 1 }
    guard unit >= 0 else { return "\(n) bytes" }
    let rounded = String(format: "%.1f ", value) + units[unit]
    return exact ? rounded + " (\(grouped(n)) bytes)" : "<span title=\"\(grouped(n)) bytes\">\(rounded)</span>"
}
