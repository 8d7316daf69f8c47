import Foundation
import SceneFile
@testable import SceneGraph
import SVG
import Testing

/// Every scene in `Examples/` renders and equals, pixel for pixel, the PNG beside it (the one
/// the README shows). Tolerance 0: the engine is deterministic, and a changed pixel is a
/// decision to take by running `make examples` and looking at the new images.
@Suite struct ExampleSceneTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Examples").standardized
    static let names: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".scene") }.map { String($0.dropLast(6)) }.sorted()
    static let svgNames: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".svg") }.map { String($0.dropLast(4)) }.sorted()

    @Test func everyLessonHasAnExample() {
        #expect(Self.names == ["badge", "capsule-border", "circles", "image", "pie", "plate", "polygons", "progress-ring", "punch-out", "radar-seal",
                               "shadows", "svg-image", "text", "triangle"])
        #expect(Self.svgNames == ["svg-filters", "svg-masking", "svg-paint"])
    }

    /// `Examples/README.md` shows every scene's source, as it is now (HTML-escaped).
    @Test func theExamplesPageShowsEverySource() throws {
        let page = try String(contentsOf: Self.folder.appendingPathComponent("README.md"), encoding: .utf8)
        for name in Self.names {
            let source = try String(contentsOf: Self.folder.appendingPathComponent(name + ".scene"), encoding: .utf8)
            let escaped = source.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
            #expect(page.contains(escaped), "\(name): run 'make examples' to rewrite Examples/README.md")
            #expect(page.contains("<img src=\"\(name).png\""))
        }
    }

    /// The same bytes at 1, 2, 3 and 8 threads as the reference (`make examples`, at the
    /// default count): bands of fills are dealt to threads, each drawn by one, fill after fill.
    @Test(arguments: names) func sameAtEveryThreadCount(_ name: String) throws {
        let scene = try Scene(contentsOfFile: Self.folder.appendingPathComponent(name + ".scene").path)
        let view = scene.change.map { $0.view(at: $0.duration / 2, in: scene.canvas.size) } ?? scene.view
        let reference = try PNG.read(path: Self.folder.appendingPathComponent(name + ".png").path)
        for threads in [1, 2, 3, 8] {
            let surface = try Renderer(threads: threads).render(view, size: scene.canvas.size, scale: scene.canvas.scale,
                                                                background: scene.canvas.background)
            #expect(try surface.compare(to: reference).differingPixels == 0, "\(name) at \(threads) threads")
        }
    }

    /// A scene read twice is the same view twice: the second render draws the first's display
    /// list again (`Renderer.reusesUnchangedFrames`), to the same bytes. Scenes with states
    /// are pictured through their animation (laid out by it, never compared), and a scene's
    /// PNG and SVG images are read anew into new images (compared by identity), so those are
    /// made again.
    @Test(arguments: names) func aSceneReadTwiceIsDrawnFromTheFirstList(_ name: String) throws {
        let path = Self.folder.appendingPathComponent(name + ".scene").path
        let (images, reused) = try Renderer.withoutRegistrationsMeanwhile { () throws -> ([[UInt8]], [Bool]) in
            let renderer = Renderer()
            var images: [[UInt8]] = []
            var reused: [Bool] = []
            for _ in 0..<2 {
                let scene = try Scene(contentsOfFile: path)
                let view = scene.change.map { $0.view(at: $0.duration / 2, in: scene.canvas.size) } ?? scene.view
                let surface = try renderer.render(view, size: scene.canvas.size, scale: scene.canvas.scale, background: scene.canvas.background)
                images.append(surface.withUnsafeMutableBytes { Array($0) })
                reused.append(renderer.lastStats.reusedDisplayList)
            }
            return (images, reused)
        }
        #expect(reused == [false, !Self.madeAgain.contains(name)], "\(name)")
        #expect(images[0] == images[1], "\(name)")
    }

    /// The examples that cannot reuse a frame: the one with states, and those with images.
    static let madeAgain: Set<String> = ["badge", "image", "svg-image"]

    /// A scene with states is pictured half-way through its animation (`make examples` renders
    /// it with `--time 50%`).
    @Test(arguments: names) func rendersAsItsReferenceImage(_ name: String) throws {
        let scene = try Scene(contentsOfFile: Self.folder.appendingPathComponent(name + ".scene").path)
        let view = scene.change.map { $0.view(at: $0.duration / 2, in: scene.canvas.size) } ?? scene.view
        let surface = try Renderer().render(view, size: scene.canvas.size, scale: scene.canvas.scale,
                                            background: scene.canvas.background)
        let reference = try PNG.read(path: Self.folder.appendingPathComponent(name + ".png").path)
        let result = try surface.compare(to: reference)
        #expect(result.passed, "\(name): \(result); run 'make examples' to re-render, and look at the images")
    }

    /// Every SVG file in `Examples/` renders (as `compose render file.svg` does: its own size,
    /// transparent) and equals the PNG beside it.
    @Test(arguments: svgNames) func svgRendersAsItsReferenceImage(_ name: String) throws {
        let document = try SVGDocument(contentsOfFile: Self.folder.appendingPathComponent(name + ".svg").path)
        #expect(document.warnings.isEmpty, "\(name): \(document.warnings)")
        let surface = try Renderer().render(Image(drawing: document).resizable(), size: document.size, background: nil)
        let reference = try PNG.read(path: Self.folder.appendingPathComponent(name + ".png").path)
        let result = try surface.compare(to: reference)
        #expect(result.passed, "\(name): \(result); run 'make examples' to re-render, and look at the images")
    }
}
