import Foundation
import SceneGraph
import Testing

/// `Image` views: natural size, resizing, aspect ratio, sampling, opacity and colour effects.
@Suite struct ImageViewTests {
    /// A 4 × 2 image: left half red, right half blue (opaque).
    func checker() throws -> Surface {
        let s = try Surface(width: 4, height: 2)
        s.fill(.red, in: PixelRect(x: 0, y: 0, width: 2, height: 2))
        s.fill(.blue, in: PixelRect(x: 2, y: 0, width: 2, height: 2))
        return s
    }

    func bounds<V: View>(_ view: V, _ size: CGSize) -> [CGRect] {
        ((try? Renderer().displayList(for: view, size: size))?.items ?? []).compactMap {
            $0.leaf?.path.boundingRect
        }
    }

    @Test func naturalSizeUnlessResizable() throws {
        let image = try Image(surface: checker(), scale: 2)                 // 2 × 1 points
        let size = CGSize(width: 20, height: 10)
        // Whatever is offered, the natural size, centred: (20 − 2)/2 = 9, (10 − 1)/2 = 4.5.
        #expect(bounds(image, size) == [CGRect(x: 9, y: 4.5, width: 2, height: 1)])
        #expect(bounds(image.frame(width: 8, height: 8), size) == [CGRect(x: 9, y: 4.5, width: 2, height: 1)])
        // Resizable: the offer.
        #expect(bounds(image.resizable(), size) == [CGRect(x: 0, y: 0, width: 20, height: 10)])
        // Scaled to fit 20 × 10 with ratio 2: 20 × 10; to fit 8 × 8: 8 × 4, centred at y 3 + 2.
        #expect(bounds(image.resizable().scaledToFit().frame(width: 8, height: 8), size) == [CGRect(x: 6, y: 3, width: 8, height: 4)])
        // To fill 8 × 8: 16 × 8 (overflowing the frame sideways), centred: x 6 − 4 = 2.
        #expect(bounds(image.resizable().scaledToFill().frame(width: 8, height: 8), size) == [CGRect(x: 2, y: 1, width: 16, height: 8)])
        // An explicit ratio: 1:1 in 20 × 10 is 10 × 10.
        #expect(bounds(image.resizable().aspectRatio(1, contentMode: .fit), size) == [CGRect(x: 5, y: 0, width: 10, height: 10)])
    }

    /// At scale 1 on whole pixels the image's pixels are copied exactly; stretched 4× with
    /// `.interpolation(.none)` each pixel becomes a 4 × 4 block (no blending at the red/blue
    /// boundary); bilinear blends there.
    @Test func pixelsAndSampling() throws {
        let exact = try Renderer().render(Image(surface: checker()), size: CGSize(width: 4, height: 2))
        #expect(exact.pixel(x: 1, y: 1) == RGBA8(255, 59, 48, 255) && exact.pixel(x: 2, y: 0) == RGBA8(0, 122, 255, 255))
        let size = CGSize(width: 16, height: 8)
        let nearest = try Renderer().render(Image(surface: checker()).interpolation(.none).resizable(), size: size)
        #expect(nearest.pixel(x: 7, y: 4) == RGBA8(255, 59, 48, 255) && nearest.pixel(x: 8, y: 4) == RGBA8(0, 122, 255, 255))
        let smooth = try Renderer().render(Image(surface: checker()).resizable(), size: size)
        let p = smooth.pixel(x: 7, y: 4)
        #expect(p != RGBA8(255, 59, 48, 255) && p.r > 100 && p.b > 20, "\(p)")
    }

    /// Opacity fades an image like a shape (over white: 255 − 0.5·(255 − c), ±1); colour effects
    /// change its pixels (inverted red (255, 59, 48) is (0, 196, 207)).
    @Test func opacityAndColourEffects() throws {
        let size = CGSize(width: 4, height: 2)
        let faded = try Renderer().render(Image(surface: checker()).opacity(0.5), size: size)
        let q = faded.pixel(x: 0, y: 0)
        #expect(abs(Int(q.r) - 255) <= 1 && abs(Int(q.g) - 157) <= 1 && abs(Int(q.b) - 152) <= 1, "\(q)")
        let inverted = try Renderer().render(Image(surface: checker()).colorInvert(), size: size)
        #expect(inverted.pixel(x: 0, y: 0) == RGBA8(0, 196, 207, 255))
    }

    /// The view keeps its own copy: drawing on the caller's surface afterwards changes nothing.
    @Test func imagesCopyTheirPixels() throws {
        let source = try checker()
        let image = try Image(surface: source)
        source.fill(.green)
        #expect(try Renderer().render(image, size: CGSize(width: 4, height: 2)).pixel(x: 0, y: 0) == RGBA8(255, 59, 48, 255))
        #expect(throws: ImageError.invalidScale(0)) { try Image(surface: source, scale: 0) }
        #expect(throws: PNGError.self) { try Image(contentsOfFile: "/no/such/file.png") }
    }
}
