import Foundation
import PixelTesting
import SceneGraph
import Testing

@Suite struct GradientStyleTests {
    let ramp = LinearGradient(colors: [.black, .white], startPoint: .leading, endPoint: .trailing)

    /// pixman samples a linear gradient at pixel centres: across a 100-pixel ramp from black to
    /// white, pixel x holds 255 · (x + 0.5) / 100 (x = 0 → 1.3, x = 49 → 126.2, x = 99 → 253.7).
    func expectRamp(_ s: Surface, y: Int, from x0: Int, width: Double, tolerance: Int = 1,
                    sourceLocation: SourceLocation = #_sourceLocation) {
        for x in stride(from: 0, to: Int(width), by: 7) {
            let expected = 255 * (Double(x) + 0.5) / width
            let p = s.pixel(x: x0 + x, y: y)
            #expect(abs(Double(p.r) - expected) <= Double(tolerance) && p.r == p.g && p.g == p.b, "x \(x0 + x): \(p) vs \(expected)",
                    sourceLocation: sourceLocation)
        }
    }

    @Test func linearGradientSpansTheShapesFrame() throws {
        let s = try Renderer().render(Rectangle().fill(ramp).frame(width: 100, height: 10), size: CGSize(width: 100, height: 10))
        expectRamp(s, y: 5, from: 0, width: 100)
    }

    @Test func theGradientMovesAndScalesWithTheShape() throws {
        // Offset by 20: the same ramp 20 pixels on. At scale 2 the ramp spans 200 pixels.
        let moved = try Renderer().render(Rectangle().fill(ramp).frame(width: 100, height: 10).offset(x: 20),
                                          size: CGSize(width: 140, height: 10))
        expectRamp(moved, y: 5, from: 40, width: 100)
        let doubled = try Renderer().render(Rectangle().fill(ramp).frame(width: 100, height: 10), size: CGSize(width: 100, height: 10),
                                            scale: 2)
        expectRamp(doubled, y: 10, from: 0, width: 200)
        // Rotated 90° about its centre, a 40 × 40 square's left-to-right ramp runs top to bottom.
        let turned = try Renderer().render(Rectangle().fill(ramp).frame(width: 40, height: 40).rotationEffect(.degrees(90)),
                                           size: CGSize(width: 40, height: 40))
        for y in stride(from: 0, to: 40, by: 5) {
            let p = turned.pixel(x: 20, y: y)
            #expect(abs(Double(p.r) - 255 * (Double(y) + 0.5) / 40) <= 1, "y \(y): \(p)")
        }
    }

    @Test func opacityFadesEveryStop() throws {
        // Black → white at 0.5 over white: 0.5 · v + 127.5, so pixel x holds
        // 127.5 + 127.5 · (x + 0.5) / 100 (x = 0 → 128.1, x = 99 → 254.4).
        let s = try Renderer().render(Rectangle().fill(ramp).frame(width: 100, height: 10).opacity(0.5),
                                      size: CGSize(width: 100, height: 10))
        for x in [0, 25, 50, 99] {
            let expected = 127.5 + 127.5 * (Double(x) + 0.5) / 100
            #expect(abs(Double(s.pixel(x: x, y: 5).r) - expected) <= 1, "x \(x): \(s.pixel(x: x, y: 5))")
        }
    }

    @Test func radialAndAngularGradients() throws {
        // Radial black → white from the centre of a 100 × 100 frame, radius 0 to 50: the pixel
        // whose centre is d from the middle holds 255 · d / 50 (d = 20.5 → 104.6); past 50, white.
        let radial = RadialGradient(colors: [.black, .white], center: .center, startRadius: 0, endRadius: 50)
        let r = try Renderer().render(Rectangle().fill(radial).frame(width: 100, height: 100), size: CGSize(width: 100, height: 100))
        #expect(abs(Double(r.pixel(x: 70, y: 50).r) - 255 * 20.5 / 50) <= 1, "\(r.pixel(x: 70, y: 50))")
        #expect(r.pixel(x: 2, y: 2) == RGBA8(255, 255, 255, 255))
        // Angular black → white for a full turn from 0° (pointing right), clockwise on screen:
        // straight below the centre is a quarter turn, 255/4 = 63.75; straight above, three
        // quarters, 191.25 (±2: the sampled pixel centre is 0.5 px off the axis).
        let conic = AngularGradient(colors: [.black, .white], center: .center)
        let a = try Renderer().render(Circle().fill(conic).frame(width: 100, height: 100), size: CGSize(width: 100, height: 100))
        #expect(abs(Double(a.pixel(x: 50, y: 80).r) - 63.75) <= 2, "\(a.pixel(x: 50, y: 80))")
        #expect(abs(Double(a.pixel(x: 49, y: 20).r) - 191.25) <= 2, "\(a.pixel(x: 49, y: 20))")
    }

    @Test func gradientsAreViewsThatFillTheirFrame() throws {
        let s = try Renderer().render(ramp.frame(width: 100, height: 10), size: CGSize(width: 100, height: 30))
        expectRamp(s, y: 15, from: 0, width: 100)
        #expect(s.pixel(x: 50, y: 2) == RGBA8(255, 255, 255, 255))
        // The display list says what fills each leaf.
        let list = try Renderer().displayList(for: ramp.frame(width: 100, height: 10), size: CGSize(width: 100, height: 10))
        #expect(list.description.hasPrefix("fill linearGradient 2 stops nonZero"))
    }
}

@Suite struct ShapeSpaceTests {
    /// A `Path` view's coordinates are relative to its frame, as in SwiftUI: a 10 × 10 square at
    /// (0, 0), in a 10 × 10 frame centred in 30 × 30, lands at (10, 10) … (20, 20).
    @Test func pathViewsDrawInTheirFramesSpace() throws {
        let square = Path(CGRect(x: 0, y: 0, width: 10, height: 10))
        let s = try Renderer().render(square.fill(.red).frame(width: 10, height: 10), size: CGSize(width: 30, height: 30))
        #expect(s.pixel(x: 15, y: 15) == RGBA8(0xFF, 0x3B, 0x30, 255))
        #expect(s.pixel(x: 5, y: 5) == RGBA8(255, 255, 255, 255))
        // A clip by a path, likewise: only the frame's top-left 5 × 5 survives.
        let clipped = Color.blue.frame(width: 10, height: 10).clipShape(Path(CGRect(x: 0, y: 0, width: 5, height: 5)))
        let c = try Renderer().render(clipped, size: CGSize(width: 30, height: 30))
        #expect(c.pixel(x: 12, y: 12) == RGBA8(0, 0x7A, 0xFF, 255))
        #expect(c.pixel(x: 17, y: 17) == RGBA8(255, 255, 255, 255))
    }
}

@Suite struct StyledStrokeTests {
    @Test func strokesAndBordersTakeAStyle() throws {
        // A 20 × 20 frame at (10, 10): the stroke, 4 wide, straddles x = 10 (8 … 12); the border
        // lies inside (10 … 14).
        let size = CGSize(width: 40, height: 40)
        let stroked = try Renderer().render(Rectangle().stroke(.red, lineWidth: 4).frame(width: 20, height: 20), size: size)
        #expect(stroked.pixel(x: 8, y: 20) == RGBA8(0xFF, 0x3B, 0x30, 255) && stroked.pixel(x: 11, y: 20) == RGBA8(0xFF, 0x3B, 0x30, 255))
        #expect(stroked.pixel(x: 7, y: 20) == RGBA8(255, 255, 255, 255) && stroked.pixel(x: 12, y: 20) == RGBA8(255, 255, 255, 255))
        let border = try Renderer().render(Rectangle().strokeBorder(.blue, lineWidth: 4).frame(width: 20, height: 20), size: size)
        #expect(border.pixel(x: 9, y: 20) == RGBA8(255, 255, 255, 255) && border.pixel(x: 10, y: 20) == RGBA8(0, 0x7A, 0xFF, 255))
        #expect(border.pixel(x: 13, y: 20) == RGBA8(0, 0x7A, 0xFF, 255) && border.pixel(x: 14, y: 20) == RGBA8(255, 255, 255, 255))
        // Dashed, with a style: 4 on, 4 off along the top edge from the corner.
        let dashed = try Renderer().render(Rectangle().strokeBorder(.black, style: StrokeStyle(lineWidth: 2, dash: [4, 4]))
                                               .frame(width: 20, height: 20), size: size)
        #expect(dashed.pixel(x: 12, y: 10) == RGBA8(0, 0, 0, 255) && dashed.pixel(x: 16, y: 10) == RGBA8(255, 255, 255, 255))
    }

    @Test func aGradientStrokeIsLaidOutInTheShapesFrame() throws {
        // A border 2 wide of a 100 × 20 frame filling the canvas, painted with the black-to-white
        // ramp across the frame: its top row at x holds 255 · (x + 0.5) / 100, as a fill would.
        let ramp = LinearGradient(colors: [.black, .white], startPoint: .leading, endPoint: .trailing)
        let s = try Renderer().render(Rectangle().strokeBorder(ramp, lineWidth: 2).frame(width: 100, height: 20),
                                      size: CGSize(width: 100, height: 20))
        for x in [3, 25, 49, 75, 96] {
            let p = s.pixel(x: x, y: 0)
            #expect(abs(Double(p.r) - 255 * (Double(x) + 0.5) / 100) <= 1, "x \(x): \(p)")
        }
        #expect(s.pixel(x: 50, y: 10) == RGBA8(255, 255, 255, 255))
    }
}
