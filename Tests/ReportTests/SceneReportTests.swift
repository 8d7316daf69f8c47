import Compositor
import Foundation
import Report
import SceneGraph
import Testing

/// The report's page, read as text: what it holds is checked against the render and the
/// statistics it came from, without a browser (the browser tests are in ComposeTests).
@Suite struct SceneReportTests {
    /// Three circles with a shadow inside a compositing group at 50 %, beside a drawing group:
    /// a compositing-group layer, a shadow mask, a drawing group's image.
    static var scene: some View {
        HStack(spacing: 10) {
            ZStack {
                Circle().fill(Color.blue).frame(width: 40, height: 40).offset(x: -10)
                Circle().fill(Color.orange).frame(width: 40, height: 40).offset(x: 10).shadow(radius: 4)
            }
            .compositingGroup().opacity(0.5)
            Rectangle().fill(Color.pink.opacity(0.5)).frame(width: 30, height: 30).drawingGroup()
        }
    }

    static let size = CGSize(width: 160, height: 80)

    private func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    /// The data URLs of the page's `<img>` elements, decoded.
    private func images(in html: String) throws -> [Data] {
        let marker = #"src="data:image/png;base64,"#
        return try html.components(separatedBy: marker).dropFirst().map { part in
            let encoded = String(part.prefix { $0 != "\"" })
            return try #require(Data(base64Encoded: encoded))
        }
    }

    @Test func onePageRowPerOffscreenImage() throws {
        let report = try SceneReport(Self.scene, size: Self.size, scale: 2, title: "groups")
        let html = report.html()
        // compositing group, shadow, drawing group (its image, converted for the parent: at
        // least 3 images); every one is a row, and no other row claims to be one.
        #expect(report.stats.layers.count >= 3)
        #expect(count(#"<tr id="layer-"#, in: html) == report.stats.layers.count)
        for index in report.stats.layers.indices {
            #expect(html.contains(#"<tr id="layer-\#(index)" "#), "row \(index)")
        }
        #expect(Set(report.layerRows.map(\.index)) == Set(report.stats.layers.indices))
        // Each row names its kind and its reason.
        let rows = report.layerRows
        #expect(rows.contains { $0.layer.kind == .compositingGroup && $0.reason.contains("compositingGroup()") })
        #expect(rows.contains { $0.layer.kind == .shadow && $0.reason.hasPrefix("shadow of a leaf") })
        #expect(rows.contains { $0.layer.kind == .drawingGroup && $0.format.contains("argb32") })
        // The shadow is inside the compositing group's layer: one level deeper.
        let group = try #require(rows.first { $0.layer.kind == .compositingGroup })
        let shadow = try #require(rows.first { $0.layer.kind == .shadow })
        #expect(shadow.depth == group.depth + 1)
        // Every layer row has its time from the trace.
        #expect(rows.allSatisfy { $0.microseconds != nil })
    }

    /// The embedded image is the render, pixel for pixel.
    @Test func theEmbeddedImageIsTheRender() throws {
        let report = try SceneReport(Self.scene, size: Self.size, scale: 2, title: "groups")
        let embedded = try PNG.decode(try #require(try images(in: report.html()).first))
        let rendered = try Renderer().render(Self.scene, size: Self.size, scale: 2)
        #expect(embedded.width == 320 && embedded.height == 160)
        #expect(try embedded.compare(to: rendered).differingPixels == 0)
    }

    /// Nothing is fetched: no URL but data: URLs, no outside script or style.
    @Test func selfContained() throws {
        let html = try SceneReport(Self.scene, size: Self.size, scale: 1, title: "groups").html()
        for outside in ["http:", "https:", "<link", "src=\"/", "src=\"http", "@import", "url(", "//cdn"] {
            #expect(!html.contains(outside), "\(outside)")
        }
        #expect(count("<script>", in: html) == 1 && !html.contains("<script src"))
        #expect(html.contains(#"<meta name="color-scheme" content="light dark">"#))
        #expect(html.contains("@media (prefers-color-scheme:dark)"))
    }

    @Test func sectionsAndAccessibility() throws {
        let report = try SceneReport(Self.scene, size: Self.size, scale: 1, title: "groups")
        let html = report.html()
        for id in ["summary", "render", "layers-section", "effects", "warnings", "phases", "timeline", "tree"] {
            #expect(html.contains(#"<section id="\#(id)" aria-labelledby="\#(id)-h">"#), "\(id)")
        }
        // Table semantics and keyboard focus on every layer row.
        #expect(html.contains(#"<th scope="col">Kind</th>"#))
        #expect(count(#"<tr id="layer-"#, in: html) == count(#"tabindex="0" data-depth="#, in: html))
        // The picture has words; the charts have titles.
        #expect(html.contains(#"alt="The render of groups, 160×80 pixels""#))
        #expect(count(#"role="img""#, in: html) >= 2)
        // Both overlays are there, off until their toggles are checked.
        #expect(html.contains(#"id="show-offscreen""#) && html.contains(#"id="show-layers""#))
        #expect(html.contains(#"<g id="overlay-offscreen">"#) && html.contains(#"<g id="overlay-layers">"#))
        // The phases chart has a bar per phase; the timeline a span per layer, tied to its row.
        for phase in RenderStats.phases { #expect(html.contains(">\(phase)</text>"), "\(phase)") }
        for index in report.stats.layers.indices { #expect(html.contains(#"data-layer="\#(index)""#), "span of layer \(index)") }
        // Per-leaf effects: the orange circle's shadow is the one distributed shadow.
        #expect(report.explanation.perLeaf.shadow == 1)
        #expect(html.contains("<th scope=\"row\">With shadows (an A8 mask each, listed above)</th><td class=\"num\">1</td>"))
    }

    @Test func textIsEscaped() throws {
        let html = try SceneReport(Rectangle().fill(Color.red), size: CGSize(width: 10, height: 10), title: "<script>alert(1)</script>&").html()
        #expect(!html.contains("<script>alert"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;&amp;"))
    }

    @Test func nothingOffscreen() throws {
        let report = try SceneReport(Circle().fill(Color.blue).opacity(0.5), size: CGSize(width: 40, height: 40), title: "leaf")
        #expect(report.stats.layers.isEmpty)
        #expect(report.html().contains("Nothing went offscreen"))
    }

    /// A change gets a filmstrip and a cost per frame; the drawing group is cached after the
    /// first frame, so the hits plot rises.
    @Test func framesAlongAChange() throws {
        let change = AnimatedChange(from: Self.scene.offset(x: -20), to: Self.scene.offset(x: 20), animation: .linear(duration: 0.5))
        let report = try SceneReport(change.view(at: 0, in: Self.size), size: Self.size, scale: 2, title: "moving",
                                     change: change, frameCount: 6, thumbnails: 3)
        #expect(report.frames.map(\.time) == [0, 0.1, 0.2, 0.3, 0.4, 0.5].map { $0 * 1 })
        #expect(report.frames.filter { $0.thumbnail != nil }.count == 3)
        #expect(report.frames[0].cacheHits == 0 && report.frames[1...].allSatisfy { $0.cacheHits == 1 })
        #expect(report.frames.allSatisfy { $0.layers >= 2 && $0.milliseconds > 0 })
        let html = report.html()
        #expect(html.contains(#"<section id="frames""#))
        #expect(count("<li><figure><img", in: html) == 3)
        for id in ["plot-ms", "plot-layers", "plot-bytes", "plot-hits"] { #expect(html.contains(#"aria-labelledby="\#(id)-title""#)) }
        // Thumbnails are at most 192 px a side.
        let thumbnail = try PNG.decode(try #require(report.frames[0].thumbnail))
        #expect(max(thumbnail.width, thumbnail.height) <= 192)
    }

    /// The preview's page: errors above the last good render, and the version its script
    /// polls with.
    @Test func previewPageShowsTheProblemAndTheLastRender() throws {
        let report = try SceneReport(Self.scene, size: Self.size, title: "groups")
        let page = SceneReport.page(title: "groups", report: report, problem: "s.scene:3:5: error: unknown view 'Cirle'", version: 7)
        #expect(page.contains(#"<body data-version="7">"#))
        #expect(page.contains(#"<section id="problem" class="problem" role="alert""#))
        #expect(page.contains("s.scene:3:5: error: unknown view &#39;Cirle&#39;"))
        #expect(page.contains("The last good render is shown below"))
        #expect(try images(in: page).count == 1)
        let first = SceneReport.page(title: "groups", report: nil, problem: "s.scene:1:1: error: x", version: 1)
        #expect(first.contains("Nothing has rendered yet") && !first.contains("<img"))
        #expect(!report.html().contains("data-version"), "a written report does not poll")
    }
}
