import Compositor
import Foundation
import Testing
import _TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `compose report` and `compose preview` as a user runs them, without a browser.
@Suite struct ReportCommandTests {
    private func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    @Test func writesOnePageWithARowPerLayer() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("groups.scene")
        try reportTestScene.write(to: scene, atomically: true, encoding: .utf8)
        // The default output: the scene's name with .html, in the current folder.
        let run = try compose(["report", scene.path], input: nil, in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let html = try String(contentsOf: dir.appendingPathComponent("groups.html"), encoding: .utf8)
        let stats = dir.appendingPathComponent("s.json")
        #expect(try compose("render", scene.path, "-o", dir.appendingPathComponent("g.png").path, "--stats-json", stats.path).status == 0)
        let layers = try #require((try JSONSerialization.jsonObject(with: Data(contentsOf: stats)) as? [String: Any])?["layers"] as? [Any]).count
        #expect(count(#"<tr id="layer-"#, in: html) == layers)
        // Source lines of the views that made the layers: the compositing group's modifier
        // chain starts on line 4, the shadowed rectangle on line 6, the drawing group's on 10.
        #expect(html.contains("groups.scene:4:5") && html.contains("groups.scene:6:9") && html.contains("groups.scene:10:5"))
        // explain's warning, located.
        #expect(html.contains("groups.scene:10:5</code> drawingGroup at [320, 80, 160, 160] holds 1 leaf"))
        #expect(!html.contains("id=\"frames\""), "no states, no frames")

        // Standard output.
        let piped = try compose("report", scene.path, "-o", "-")
        #expect(piped.status == 0 && String(decoding: piped.stdout, as: UTF8.self).hasPrefix("<!doctype html>"))
    }

    @Test func svgFilesDemoAndStates() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let svgPage = dir.appendingPathComponent("svg.html")
        let svg = try compose("report", "Examples/svg-masking.svg", "--width", "360", "-o", svgPage.path)
        #expect(svg.status == 0, "\(svg.stderr)")
        let svgHTML = try String(contentsOf: svgPage, encoding: .utf8)
        #expect(svgHTML.contains("<h1>svg-masking.svg</h1>") && svgHTML.contains(#"data-kind="mask""#))

        let demo = try compose("report", "--demo", "-o", dir.appendingPathComponent("demo.html").path)
        #expect(demo.status == 0, "\(demo.stderr)")

        // A scene with states: a filmstrip and a cost per frame.
        let badge = dir.appendingPathComponent("badge.html")
        let animated = try compose("report", "Examples/badge.scene", "--frames", "5", "-o", badge.path)
        #expect(animated.status == 0, "\(animated.stderr)")
        let badgeHTML = try String(contentsOf: badge, encoding: .utf8)
        #expect(badgeHTML.contains(#"<section id="frames""#) && badgeHTML.contains("5 frames along the scene's change"))
        #expect(try compose("report", "Examples/badge.scene", "--frames", "0", "-o", badge.path).status == 0)
        #expect(!(try String(contentsOf: badge, encoding: .utf8)).contains(#"<section id="frames""#))
        let middle = try compose("report", "Examples/badge.scene", "--time", "50%", "-o", "-")
        #expect(middle.status == 0)
    }

    /// Bad input: a located error, a non-zero exit, and no page written or touched.
    @Test func badInputWritesNothing() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("bad.scene")
        try "canvas(width: 100, height: 100)\nCircle().fill(.blu)\n".write(to: scene, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("bad.html")
        try Data("old".utf8).write(to: out)
        let run = try compose("report", scene.path, "-o", out.path)
        #expect(run.status == 65)
        #expect(run.stderr.contains("bad.scene:2:"), "\(run.stderr)")
        #expect(try String(contentsOf: out, encoding: .utf8) == "old", "an existing page is left untouched")

        #expect(try compose("report", dir.appendingPathComponent("none.scene").path, "-o", out.path).status == 66)
        #expect(try compose("report", "Examples/circles.scene", "-o", dir.appendingPathComponent("no/such/x.html").path).status == 73)
        #expect(try compose("report", "Examples/circles.scene", "--frames", "-1").status == 64)
        #expect(try compose("report", "Examples/circles.scene", "--time", "1", "-o", out.path).status == 65, "--time without states")
        #expect(try compose("report").status == 64)
        #expect(try compose("report", "Examples/circles.scene", "--frame", "3").stderr.contains("Did you mean '--frames'?"))
        #expect(try compose("help", "report").stdout.count > 500)
    }

    /// A scene that loads but cannot be rendered (here: over the offscreen limit) is shown on
    /// the page like a scene error, and the server keeps serving.
    @Test func previewShowsRenderErrors() throws {
        let preview = try PreviewProcess(scene: URL(fileURLWithPath: "Examples/circles.scene"), extra: ["--max-offscreen-bytes", "1000"])
        defer { preview.stop() }
        let page = Loopback.exchange(preview.port, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(page.hasPrefix("HTTP/1.1 200 OK"))
        #expect(page.contains(#"<section id="problem" class="problem" role="alert""#))
        #expect(page.contains("more than the limit of 1000"), "\(page.suffix(600))")
        #expect(page.contains("Nothing has rendered yet"))
        let (status, stderr) = preview.stop()
        #expect(status == 0 && stderr.contains("circles.scene has errors (shown on the page)"), "\(stderr)")
    }

    @Test func previewRefusesWhatItCannotServe() throws {
        #expect(try compose("preview", "-").status == 64, "standard input cannot be watched")
        #expect(try compose("preview").status == 64)
        #expect(try compose("preview", "no-such.scene").status == 66)
        #expect(try compose("preview", "Examples/circles.scene", "--port", "70000").status == 64)
        #expect(try compose("preview", "Examples/circles.scene", "--fonts", "/no/such/fonts").status == 66)
        #expect(try compose("help", "preview").stdout.count > 500)
    }

    /// The command's own server: traversal in every spelling is refused, other paths are
    /// 404, and a taken port is exit 69.
    @Test func previewServesOnlyItsPage() throws {
        let preview = try PreviewProcess(scene: URL(fileURLWithPath: "Examples/circles.scene"))
        defer { preview.stop() }
        let port = preview.port
        func get(_ target: String, host: String = "127.0.0.1") -> String {
            Loopback.exchange(port, "GET \(target) HTTP/1.1\r\nHost: \(host)\r\n\r\n")
        }
        #expect(get("/").hasPrefix("HTTP/1.1 200 OK"))
        #expect(get("/").contains("<h1>circles.scene</h1>"))
        for target in ["/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd", "/..%2f..%2fetc%2fpasswd",
                       "/....//....//etc/passwd/..", "/.%2e/.%2e/etc/passwd", "/..\\..\\etc\\passwd", "/%252e%252e/etc/passwd/."] {
            let response = get(target)
            #expect(response.hasPrefix("HTTP/1.1 400") || response.hasPrefix("HTTP/1.1 404"), "\(target): \(response.prefix(60))")
            #expect(!response.contains("root:"))
        }
        for target in ["/etc/passwd", "/Examples/circles.scene", "/circles.scene", "/report.html"] {
            #expect(get(target).hasPrefix("HTTP/1.1 404"), "\(target)")
        }
        #expect(get("/", host: "rebound.example:80").hasPrefix("HTTP/1.1 403"))
        #expect(Loopback.exchange(port, "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\nab").hasPrefix("HTTP/1.1 413"))

        let taken = try compose("preview", "Examples/circles.scene", "--port", String(port))
        #expect(taken.status == 69 && taken.stderr.contains("port \(port) on 127.0.0.1 is in use"), "\(taken.stderr)")

        let (status, stderr) = preview.stop()
        #expect(status == 0)
        #expect(stderr.contains("preview: refused 400 GET /../../etc/passwd"))
    }
}
