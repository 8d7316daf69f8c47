import Foundation
import Testing
import SceneGraph

@Suite struct ShadowTests {
    let size = CGSize(width: 60, height: 60)

    /// A 10 × 10 white square on a 40 × 40 white square, centred in 60 × 60 (big: x 10…50,
    /// small: x 25…35), on white.
    var squares: some View {
        ZStack { Color.white.frame(width: 40, height: 40); Color.white.frame(width: 10, height: 10) }
    }

    @Test func perLeafShadowsFallOnSiblingsGroupShadowsDoNot() throws {
        // Offset 8, radius 4 (σ = 2). Per leaf, the small square's shadow (x 33…43) lands on the
        // big square after it was drawn: at x = 39 it is dark. Grouped, the union's shadow lies
        // behind the big square, which stays white there.
        let perLeaf = try Renderer().render(squares.shadow(color: .black, radius: 4, x: 8), size: size)
        let grouped = try Renderer().render(squares.compositingGroup().shadow(color: .black, radius: 4, x: 8), size: size)
        #expect(perLeaf.pixel(x: 39, y: 30).r < 40, "\(perLeaf.pixel(x: 39, y: 30))")
        #expect(grouped.pixel(x: 39, y: 30) == RGBA8(255, 255, 255, 255))
        // Right of the big square both show its shadow (x 18…58), alike.
        let a = perLeaf.pixel(x: 54, y: 30), b = grouped.pixel(x: 54, y: 30)
        #expect(a.r < 40 && abs(Int(a.r) - Int(b.r)) <= 1, "\(a) vs \(b)")
    }

    @Test func shadowProfileIsAGaussianOfHalfTheRadius() throws {
        // A black shadow of a 40 × 40 square, radius 8 → σ = 4, offset 8. In a 70-wide canvas
        // the square spans x 15…55, so the shadow's right edge is at 63. Across an edge a
        // Gaussian blur gives Φ(d/σ): the pixel centred at 62.5 is Φ(0.5/4) = 0.55 covered,
        // the one at 63.5 Φ(−0.5/4) = 0.45, 1.5σ outside (68.5) Φ(−1.375) = 0.085, and just
        // right of the square (55.5, 1.875σ inside) Φ(1.875) = 0.97.
        let view = Color.white.frame(width: 40, height: 40).shadow(color: .black, radius: 8, x: 8)
        let s = try Renderer().render(view, size: CGSize(width: 70, height: 60))
        func coverage(_ x: Int) -> Double { 1 - Double(s.pixel(x: x, y: 30).r) / 255 }
        #expect(abs(coverage(62) - 0.55) < 0.03, "\(coverage(62))")
        #expect(abs(coverage(63) - 0.45) < 0.03, "\(coverage(63))")
        #expect(abs(coverage(68) - 0.085) < 0.03, "\(coverage(68))")
        #expect(abs(coverage(55) - 0.97) < 0.03, "\(coverage(55))")
    }

    /// Above σ = 8 px the blur is three box blurs (the W3C approximation); the edge profile
    /// stays within 0.03 of the Gaussian's Φ(d/σ).
    @Test func wideShadowsFollowTheGaussianWithinThreePercent() throws {
        // A black 200 × 200 mask edge blurred with σ = 20 (a 400 × 200 a8 surface whose left
        // half is opaque): across the edge at x = 200, the pixel centred at 200 + d + 0.5 is
        // Φ(−(d + 0.5)/20) covered.
        let mask = try Surface(width: 400, height: 200, format: .a8)
        mask.fill(.black, in: PixelRect(x: 0, y: 0, width: 200, height: 200))
        mask.blurAlpha(sigma: 20)
        func phi(_ z: Double) -> Double { 0.5 * erfc(-z / 2.squareRoot()) }
        for d in [-40, -20, -10, -1, 0, 10, 20, 40] {
            let measured = Double(mask.pixel(x: 200 + d, y: 100).a) / 255
            #expect(abs(measured - phi(-(Double(d) + 0.5) / 20)) < 0.03, "d \(d): \(measured)")
        }
    }

    @Test func defaultShadowColourIsSwiftUIs() throws {
        let list = try Renderer().displayList(for: Color.red.shadow(radius: 2), size: CGSize(width: 10, height: 10))
        if let shadows = list.items.first?.leaf?.shadows {
            #expect(shadows.count == 1 && shadows[0].color == Color(.sRGBLinear, white: 0, opacity: 0.33) && shadows[0].sigma == 1)
        } else { Issue.record("\(list)") }
    }
}

@Suite struct GroupShadowTests {
    @Test func drawingGroupsCastTheirShadowToo() throws {
        // The same square, with its shadow after a drawing group: drawn once from the image's
        // alpha, like a compositing group's; the edge value matches the plain leaf's within 1.
        let size = CGSize(width: 70, height: 60)
        let leaf = try Renderer().render(Color.white.frame(width: 40, height: 40).shadow(color: .black, radius: 8, x: 8), size: size)
        let group = try Renderer().render(Color.white.frame(width: 40, height: 40).drawingGroup().shadow(color: .black, radius: 8, x: 8),
                                          size: size)
        for x in [56, 60, 62, 63, 66] {
            #expect(abs(Int(leaf.pixel(x: x, y: 30).r) - Int(group.pixel(x: x, y: 30).r)) <= 1, "x \(x)")
        }
    }
}

@Suite struct ShadowLimitTests {
    /// Radii and offsets nobody meant are errors naming the limit, never traps (an infinite σ
    /// converted to Int would trap) and never hours of blurring.
    @Test(arguments: [(CGFloat.infinity, 0.0), (1e300, 0.0), (258, 0.0), (4, Double.nan), (4, 1e300)] as [(CGFloat, Double)])
    func outOfRangeShadowsAreErrors(radius: CGFloat, x: Double) throws {
        let leaf = Color.red.frame(width: 10, height: 10).shadow(radius: radius, x: x)
        let group = ZStack { Color.red.frame(width: 10, height: 10) }.compositingGroup().shadow(radius: radius, x: x)
        for view in [AnyViewBox(leaf), AnyViewBox(group)] {
            let error = #expect(throws: ShadowError.self) { try view.render() }
            #expect(error?.description.contains("out of range") == true && error?.description.contains("128") == true)
        }
    }

    @Test func theLimitIsInclusive() throws {
        // σ = 128 px (radius 256 at scale 1) is the largest allowed; a hair more is an error.
        #expect(throws: Never.self) { try DropShadow(color: .black, sigma: 128, offset: .zero).validate() }
        #expect(throws: ShadowError.self) { try DropShadow(color: .black, sigma: 128.001, offset: .zero).validate() }
        #expect(throws: ShadowError.self) { try DropShadow(color: .black, sigma: -1, offset: .zero).validate() }
        // The blur's extent never traps: non-finite or negative σ has none, a huge one is capped at 3 · 128.
        #expect(gaussianExtent(sigma: .infinity) == 0 && gaussianExtent(sigma: -1) == 0 && gaussianExtent(sigma: 1e300) == 384)
    }
}

/// A view and how to render it, for tests that loop over views of different types.
struct AnyViewBox {
    let render: () throws -> Surface
    init<V: View>(_ view: V) { render = { try Renderer().render(view, size: CGSize(width: 20, height: 20)) } }
}

@Suite struct ClippedShadowTests {
    /// A clipped leaf casts the shadow of what is left of it: a 40 × 40 square (30…70) clipped
    /// to its inscribed circle (centre (50, 50), r 20), with a sharp black shadow (radius 0)
    /// 30 to the right. (91, 32) lies in the square's shadow (60…100 × 30…70) but 21.1 from
    /// the circle's shadow centre (80, 50): white. (80, 50), the circle shadow's centre, outside
    /// the square itself: black.
    @Test func clippedLeavesCastTheClippedShape() throws {
        let view = Rectangle().fill(.blue).frame(width: 40, height: 40)
            .clipShape(Circle())
            .shadow(color: .black, radius: 0, x: 30, y: 0)
        let surface = try Renderer().render(view, size: CGSize(width: 100, height: 100))
        #expect(surface.pixel(x: 91, y: 32) == RGBA8(255, 255, 255, 255))
        #expect(surface.pixel(x: 80, y: 50) == RGBA8(0, 0, 0, 255))
    }
}
