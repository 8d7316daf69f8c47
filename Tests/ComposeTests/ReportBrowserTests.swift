import Compositor
import Foundation
import Testing

/// A scene with known offscreen images: a compositing group at 50 % holding a shadowed
/// rectangle (a layer and a shadow mask inside it), and a green square in a drawing group.
/// At scale 2 the green square's drawing group is at device (320, 80) and 160×160: the stack
/// is 80 + 20 + 80 = 180 pt wide, centred in 300 pt, so it starts at 60 pt and the square at
/// 160 pt; vertically (160 − 80) / 2 = 40 pt.
let reportTestScene = """
canvas(width: 300, height: 160, scale: 2)

HStack(spacing: 20) {
    ZStack {
        Rectangle().fill(.blue).frame(width: 80, height: 80).offset(x: -10)
        Rectangle().fill(.orange).frame(width: 80, height: 80).offset(x: 10).shadow(radius: 4)
    }
    .compositingGroup()
    .opacity(0.5)
    Rectangle().fill(.green).frame(width: 80, height: 80).drawingGroup()
}
"""

/// The pixel of a screenshot at a point of the viewport in CSS pixels (1 device pixel each).
private func pixel(_ shot: Surface, _ x: Double, _ y: Double) -> RGBA8 {
    shot.pixel(x: Int(x.rounded(.down)), y: Int(y.rounded(.down)))
}

private func close(_ a: RGBA8, _ b: RGBA8, within tolerance: Int) -> Bool {
    abs(Int(a.r) - Int(b.r)) <= tolerance && abs(Int(a.g) - Int(b.g)) <= tolerance && abs(Int(a.b) - Int(b.b)) <= tolerance
}

/// Reports and the preview in a real browser (headless Chromium, which `make test` installs).
/// Where Chromium cannot start, these tests are skipped and the reason is printed.
@Suite(.serialized, .enabled("headless Chromium must start here (the reason is printed when it cannot)", { HeadlessBrowser.isAvailable }))
struct ReportBrowserTests {
    /// The report, its render and statistics written by the CLI into a new folder.
    private func writeReport() throws -> (folder: URL, report: URL, render: Surface, layers: Int) {
        let dir = try temporaryDirectory()
        let scene = dir.appendingPathComponent("groups.scene")
        try reportTestScene.write(to: scene, atomically: true, encoding: .utf8)
        let report = dir.appendingPathComponent("groups.html")
        let made = try compose("report", scene.path, "-o", report.path)
        #expect(made.status == 0, "\(made.stderr)")
        // The layer count from another command, so the rows are checked against the renderer,
        // not against the report's own reading of it.
        let stats = dir.appendingPathComponent("stats.json")
        let png = dir.appendingPathComponent("groups.png")
        let rendered = try compose("render", scene.path, "-o", png.path, "--stats-json", stats.path)
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: stats)) as? [String: Any])
        let layers = try #require(json["layers"] as? [Any]).count
        return (dir, report, try PNG.read(path: png.path), layers)
    }

    /// The report written by `writeReport`, opened in a new browser's page of 1280 × `height`
    /// CSS pixels (at `fragment`, when given); `body` gets the page, the render and the layer
    /// count, and everything is removed and closed after it.
    private func withReportPage(height: Int = 900, fragment: String = "",
                                _ body: (HeadlessBrowser.Page, _ render: Surface, _ layers: Int) throws -> Void) throws {
        let (folder, report, render, layers) = try writeReport()
        defer { try? FileManager.default.removeItem(at: folder) }
        let browser = try HeadlessBrowser()
        defer { browser.close() }
        let page = try browser.newPage(width: 1280, height: height)
        try page.open(report.absoluteString + fragment)
        try body(page, render, layers)
    }

    /// The image's rectangle on the page, in viewport CSS pixels, after scrolling it into view.
    private func imageRect(_ page: HeadlessBrowser.Page) throws -> (x: Double, y: Double, width: Double) {
        _ = try page.evaluate("document.querySelector('.stage img').scrollIntoView({block: 'center'})")
        let x = try page.number("document.querySelector('.stage img').getBoundingClientRect().left")
        let y = try page.number("document.querySelector('.stage img').getBoundingClientRect().top")
        let width = try page.number("document.querySelector('.stage img').getBoundingClientRect().width")
        return (x, y, width)
    }

    @Test func theReportShowsTheRenderAndARowPerLayer() throws { try withReportPage { page, render, layers in

        // The image loaded at its size in pixels, shown at its size in points.
        #expect(try page.evaluate("document.querySelector('.stage img').complete") as? Bool == true)
        #expect(try page.number("document.querySelector('.stage img').naturalWidth") == 600)
        #expect(try page.number("document.querySelector('.stage img').naturalHeight") == 320)
        // As many rows as the render made offscreen images (3: group, shadow, drawing group).
        #expect(layers >= 3)
        #expect(try page.number("document.querySelectorAll('#layers tbody tr').length") == Double(layers))

        // The screenshot shows the render: the green square's centre, (200, 80) pt, is the
        // render's pixel (400, 160) (a flat colour, so the browser's 2:1 downscale keeps it).
        let image = try imageRect(page)
        #expect(image.width == 300)
        let shot = try PNG.decode(try page.screenshot())
        let expected = render.pixel(x: 400, y: 160)
        let shown = pixel(shot, image.x + 200, image.y + 80)
        #expect(close(shown, expected, within: 2), "shown \(shown), rendered \(expected)")
        #expect(close(expected, RGBA8(0x34, 0xC7, 0x59, 255), within: 0), "the square is SwiftUI's green")
    }}

    /// Hovering a row outlines its bounds on the render; leaving it removes the outline.
    /// The page is tall enough to show the render and the table at once: hovering needs no
    /// scrolling.
    @Test func hoveringARowOutlinesItsLayer() throws { try withReportPage(height: 1400) { page, _, _ in
        // Nothing overflows sideways at this width.
        let overflowing = try page.evaluate("[...document.querySelectorAll('*')].filter(e => e.getBoundingClientRect().right > innerWidth).map(e => e.tagName + '.' + e.className.baseVal + e.className + '#' + e.id + ' ' + Math.round(e.getBoundingClientRect().left) + '..' + Math.round(e.getBoundingClientRect().right)).join('; ')") as? String ?? "?"
        #expect(try page.number("document.documentElement.scrollWidth") <= 1280, "wider than the viewport: \(overflowing)")
        let row = "document.querySelector('tr[data-kind=drawingGroup]')"
        #expect(try page.string("\(row).dataset.bounds") == "320,80,160,160")
        let image = try (x: page.number("document.querySelector('.stage img').getBoundingClientRect().left"),
                         y: page.number("document.querySelector('.stage img').getBoundingClientRect().top"))
        let rowX = try page.number("(r => r.left + r.width / 2)(\(row).getBoundingClientRect())")
        let rowY = try page.number("(r => r.top + r.height / 2)(\(row).getBoundingClientRect())")
        #expect(rowY < 1400 && image.y > 0, "both on screen")
        let before = try PNG.decode(try page.screenshot())
        try page.moveMouse(x: rowX, y: rowY)
        try page.waitFor("!document.getElementById('highlight').classList.contains('off')", timeout: 5)
        #expect(try page.string("document.querySelector('#highlight .hl').getAttribute('width')") == "160")
        #expect(try page.evaluate("\(row).classList.contains('active')") as? Bool == true)

        // On screen: the outline's colour (#e0007a) along the layer's top edge, at y = 80 px
        // of the image = 40 CSS px, x from 160 to 240 CSS px; it was not there before.
        let shot = try PNG.decode(try page.screenshot())
        func outlined(_ s: Surface) -> Bool {
            (-2...2).contains { dy in
                let p = pixel(s, image.x + 200, image.y + 40 + Double(dy))
                return p.r > 190 && p.g < 60 && (80...170).contains(Int(p.b))
            }
        }
        #expect(outlined(shot))
        #expect(!outlined(before))

        try page.moveMouse(x: 2, y: 2)
        try page.waitFor("document.getElementById('highlight').classList.contains('off')", timeout: 5)
        #expect(!outlined(try PNG.decode(try page.screenshot())))
    }}

    /// The keyboard reaches the rows: `#layer-N` focuses row N, the arrow keys move on, and
    /// focus outlines like hovering.
    @Test func rowsTakeKeyboardFocus() throws { try withReportPage(fragment: "#layer-0") { page, _, layers in
        try page.waitFor("document.activeElement && document.activeElement.id === 'layer-0'", timeout: 5)
        #expect(try page.string("document.getElementById('highlight').dataset.layer") == "0")
        try page.press(key: "ArrowDown", code: "ArrowDown", keyCode: 40)
        let second = try page.string("document.activeElement.id")
        #expect(second.hasPrefix("layer-") && second != "layer-0")
        #expect(try page.string("document.getElementById('highlight').dataset.layer") == String(second.dropFirst(6)))
        try page.press(key: "End", code: "End", keyCode: 35)
        #expect(try page.string("document.activeElement.id") == (try page.string("[...document.querySelectorAll('#layers tbody tr')].pop().id")))
        #expect(layers >= 3)
    }}

    /// The overlay toggles tint and outline the image; the page follows the dark scheme.
    @Test func overlaysAndDarkMode() throws { try withReportPage { page, _, _ in
        #expect(try page.string("getComputedStyle(document.getElementById('overlay-offscreen')).display") == "none")
        let image = try imageRect(page)
        let plain = try PNG.decode(try page.screenshot())
        // The label's place, then a click on it, as a user would.
        let labelX = try page.number("(r => r.left + 8)(document.querySelector('label[for=show-offscreen]').getBoundingClientRect())")
        let labelY = try page.number("(r => r.top + r.height / 2)(document.querySelector('label[for=show-offscreen]').getBoundingClientRect())")
        try page.click(x: labelX, y: labelY)
        try page.waitFor("document.getElementById('show-offscreen').checked", timeout: 5)
        #expect(try page.string("getComputedStyle(document.getElementById('overlay-offscreen')).display") != "none")
        let tinted = try PNG.decode(try page.screenshot())
        // The green square went offscreen (its drawing group): tinted yellow at 50 %, its
        // blue channel drops (0x59 = 89 → (89 + 0) / 2 ≈ 45) and its red rises.
        let a = pixel(plain, image.x + 200, image.y + 80), b = pixel(tinted, image.x + 200, image.y + 80)
        #expect(Int(b.b) < Int(a.b) - 30 && Int(b.r) > Int(a.r) + 60, "\(a) → \(b)")

        try page.emulate(colorScheme: "dark")
        #expect(try page.string("getComputedStyle(document.body).backgroundColor") == "rgb(24, 24, 26)")
        try page.emulate(colorScheme: "light")
        #expect(try page.string("getComputedStyle(document.body).backgroundColor") == "rgb(255, 255, 255)")
    }}

    /// `compose preview`: the page updates itself when the scene changes, shows errors with
    /// their place above the last good render, and Ctrl-C stops the server with status 0.
    @Test func thePreviewFollowsTheFile() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("pv.scene")
        try reportTestScene.write(to: scene, atomically: true, encoding: .utf8)
        let preview = try PreviewProcess(scene: scene)
        defer { preview.stop() }
        let browser = try HeadlessBrowser()
        defer { browser.close() }
        let page = try browser.newPage()
        try page.open(preview.url)
        #expect(try page.string("document.body.dataset.version") == "1")
        let image = try imageRect(page)
        let green = pixel(try PNG.decode(try page.screenshot()), image.x + 200, image.y + 80)
        #expect(close(green, RGBA8(0x34, 0xC7, 0x59, 255), within: 2))

        // A save: the square turns purple (#AF52DE), without a reload by the user.
        let saved = Date()
        try reportTestScene.replacingOccurrences(of: ".fill(.green)", with: ".fill(.purple)").write(to: scene, atomically: true, encoding: .utf8)
        try page.waitFor("document.body.dataset.version === '2'", timeout: 15)
        let seconds = Date().timeIntervalSince(saved)
        print("preview: the page followed the save in \(Int(seconds * 1000)) ms (debug build, test machine)")
        let purple = pixel(try PNG.decode(try page.screenshot()), image.x + 200, image.y + 80)
        #expect(close(purple, RGBA8(0xAF, 0x52, 0xDE, 255), within: 2), "\(purple)")
        #expect(try page.number("window.scrollY") > 0, "the page kept its place")

        // A mistake: the error with its line and column, and the last good render below it.
        try reportTestScene.replacingOccurrences(of: ".fill(.green)", with: ".fill(.purple").write(to: scene, atomically: true, encoding: .utf8)
        try page.waitFor("document.getElementById('problem') !== null", timeout: 15)
        let problem = try page.string("document.querySelector('#problem pre').textContent")
        #expect(problem.contains("pv.scene:"), "\(problem)")
        #expect(problem.range(of: #"pv\.scene:\d+:\d+: error"#, options: .regularExpression) != nil, "\(problem)")
        #expect(try page.evaluate("document.querySelector('.stage img') !== null") as? Bool == true)
        #expect(try page.evaluate("document.querySelector('.stage img').complete && document.querySelector('.stage img').naturalWidth === 600") as? Bool == true)

        // Fixed again: the problem goes.
        try reportTestScene.write(to: scene, atomically: true, encoding: .utf8)
        try page.waitFor("document.getElementById('problem') === null && document.body.dataset.version === '4'", timeout: 15)

        let (status, stderr) = preview.stop()
        #expect(status == 0, "\(stderr)")
        #expect(stderr.contains("preview: stopped"))
    }
}

/// `compose preview SCENE --port 0`, with the address it prints.
final class PreviewProcess: @unchecked Sendable {
    let process = Process()
    let url: String
    private let errors = Pipe()
    private var finished: (Int32, String)?

    init(scene: URL, extra: [String] = []) throws {
        process.executableURL = composeBinary
        process.arguments = ["preview", scene.path, "--port", "0"] + extra
        let out = Pipe()
        process.standardOutput = out
        process.standardError = errors
        try process.run()
        // The first line: "Previewing … at http://127.0.0.1:PORT/ (Ctrl-C stops)".
        var text = ""
        let deadline = Date().addingTimeInterval(60)
        while !text.contains("\n") && Date() < deadline && process.isRunning {
            let data = out.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        guard let range = text.range(of: #"http://127\.0\.0\.1:\d+/"#, options: .regularExpression) else {
            process.terminate()
            throw BrowserUnavailable(description: "preview printed no address: \(text)")
        }
        url = String(text[range])
    }

    var port: UInt16 { UInt16(url.split(separator: ":").last!.dropLast())! }

    /// Ctrl-C, then the exit status and what it wrote on standard error.
    @discardableResult
    func stop() -> (Int32, String) {
        if let finished { return finished }
        if process.isRunning { process.interrupt() }
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let result = (process.terminationStatus, String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        finished = result
        return result
    }
}
