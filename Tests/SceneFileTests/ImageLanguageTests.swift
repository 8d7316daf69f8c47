import Foundation
import SceneFile
import SceneGraph
import Testing

/// `Image("file.png")` in scenes: read relative to the scene, the same as the Swift view, and
/// every way it can fail located.
@Suite struct ImageLanguageTests {
    func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("image-scene-\(UUID())")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("art"), withIntermediateDirectories: true)
        let s = try Surface(width: 4, height: 2)
        s.fill(.red, in: PixelRect(x: 0, y: 0, width: 2, height: 2))
        s.fill(.blue, in: PixelRect(x: 2, y: 0, width: 2, height: 2))
        try s.writePNG(to: dir.appendingPathComponent("art/checker.png").path)
        try Data("not a png".utf8).write(to: dir.appendingPathComponent("art/text.png"))
        return dir
    }

    func errors(_ source: String, in dir: URL, limits: SceneLimits = SceneLimits()) -> [String] {
        let path = dir.appendingPathComponent("s.scene").path
        try? source.write(toFile: path, atomically: true, encoding: .utf8)
        do { _ = try Scene(contentsOfFile: path, limits: limits); return [] } catch let e as SceneError {
            return e.diagnostics.map { "\($0.location): \($0.message)" }
        } catch { return ["\(error)"] }
    }

    @Test func imagesMatchSwift() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.scene").path
        try """
            canvas(width: 40, height: 20)
            HStack(spacing: 0) {
                Image("art/checker.png", scale: 0.5)
                Image("art/checker.png").interpolation(.none).resizable().scaledToFit().frame(width: 20, height: 20)
            }
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let scene = try Scene(contentsOfFile: path)
        let image = try Image(contentsOfFile: dir.appendingPathComponent("art/checker.png").path)
        let swift = HStack(spacing: 0) {
            try! Image(contentsOfFile: dir.appendingPathComponent("art/checker.png").path, scale: 0.5)
            image.interpolation(.none).resizable().scaledToFit().frame(width: 20, height: 20)
        }
        let size = CGSize(width: 40, height: 20)
        let a = try Renderer().render(scene.view, size: size), b = try Renderer().render(swift, size: size)
        #expect(try a.compare(to: b).differingPixels == 0)
        // The first image is 8 × 4 points (scale 0.5); the stack, 8 + 20 wide, is centred: the
        // image spans x 6…14, y 8…12. Red at (7, 9), blue at (12, 9) (both samples inside one
        // colour's two pixels, so bilinear gives the colour itself).
        #expect(a.pixel(x: 7, y: 9) == RGBA8(255, 59, 48, 255) && a.pixel(x: 12, y: 9) == RGBA8(0, 122, 255, 255))
    }

    @Test func imageErrorsAreLocated() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(errors("Image(\"missing.png\")", in: dir) == ["1:7: cannot read image 'missing.png': no such file"])
        #expect(errors("Image(\"art\")", in: dir) == ["1:7: cannot read image 'art': not a regular file"])
        #expect(errors("Image(\"art/text.png\")", in: dir).first?.hasPrefix("1:7: cannot read image 'art/text.png': libpng") == true)
        #expect(errors("Image(\"art/checker.png\", scale: 0)", in: dir) == ["1:26: an image's scale must be above 0 and at most 8, got 0"])
        var small = SceneLimits()
        small.maximumImageBytes = 10
        #expect(errors("Image(\"art/checker.png\")", in: dir, limits: small).first?.contains("more than the limit of 10") == true)
        small = SceneLimits()
        small.maximumCanvasPixels = 4
        #expect(errors("canvas(width: 2, height: 2)\nImage(\"art/checker.png\")", in: dir, limits: small)
                == ["2:7: the image 'art/checker.png' is 4×2 pixels, more than the limit of 4"])
        #expect(errors("Image(\"art/checker.png\").resizable().aspectRatio(-1, contentMode: .fit)", in: dir)
                .first?.hasSuffix("the aspect ratio must be positive, got -1") == true)
        #expect(errors("Circle().resizable()", in: dir).first?.contains("resizable") == true)
    }

    @Test func svgImagesMatchSwift() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A 10 × 10 document: red left half, blue right half, drawn resizable at 20 × 20.
        try "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect width='5' height='10' fill='red'/><rect x='5' width='5' height='10' fill='blue'/></svg>"
            .write(toFile: dir.appendingPathComponent("art/halves.svg").path, atomically: true, encoding: .utf8)
        let path = dir.appendingPathComponent("s.scene").path
        try """
            canvas(width: 20, height: 20)
            Image(svg: "art/halves.svg").resizable().frame(width: 20, height: 20)
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let scene = try Scene(contentsOfFile: path)
        let size = CGSize(width: 20, height: 20)
        let a = try Renderer().render(scene.view, size: size)
        let swift = try Image(svgFile: dir.appendingPathComponent("art/halves.svg").path).resizable().frame(width: 20, height: 20)
        let b = try Renderer().render(swift, size: size)
        #expect(try a.compare(to: b).differingPixels == 0)
        // Scaled by 2: red up to x = 10, blue from there (exact: the halves meet on a pixel edge).
        #expect(a.pixel(x: 9, y: 5) == RGBA8(255, 0, 0, 255) && a.pixel(x: 10, y: 5) == RGBA8(0, 0, 255, 255))
    }

    @Test func svgErrorsAreLocated() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "<svg xmlns='http://www.w3.org/2000/svg'><rect".write(toFile: dir.appendingPathComponent("art/broken.svg").path,
                                                                  atomically: true, encoding: .utf8)
        try "<html/>".write(toFile: dir.appendingPathComponent("art/page.svg").path, atomically: true, encoding: .utf8)
        #expect(errors("Image(svg: \"missing.svg\")", in: dir) == ["1:7: cannot read SVG 'missing.svg': no such file"])
        #expect(errors("Image(svg: \"art\")", in: dir) == ["1:7: cannot read SVG 'art': it is a folder"])
        #expect(errors("Image(svg: \"art/broken.svg\")", in: dir).first?.contains("not well-formed XML") == true)
        #expect(errors("Image(svg: \"art/page.svg\")", in: dir).first?.contains("the root element is <html>, not <svg>") == true)
        #expect(errors("Image(svg: \"\")", in: dir) == ["1:7: the SVG file name is empty"])
    }
}
