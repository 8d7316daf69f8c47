import Foundation
import Testing
import SceneGraph

/// Strokes in views are outlined for the device resolution: their curves flatten within
/// `strokeFlatteningTolerance` (0.02 device pixel) whatever the render's scale, so a stroked
/// circle is as accurate at scale 6 as at scale 1. Checked against the exact coverage of the
/// ring the stroke is.
///
/// A `Circle` is four cubics, as in CoreGraphics, 2.7e-4 of the radius off the true circle
/// (0.044 px at scale 6's 162 px): each bound below adds that to the flattening tolerance.
@Suite struct StrokeResolutionTests {
    /// The exact area of the disc of radius `r` about `c` inside the pixel at (`px`, `py`):
    /// the midpoint rule over 256 columns, each column's chord exact (its error is far below
    /// one 8-bit level for these radii).
    static func discArea(_ c: CGPoint, _ r: Double, _ px: Int, _ py: Int) -> Double {
        let columns = 256
        var sum = 0.0
        for i in 0..<columns {
            let x = Double(px) + (Double(i) + 0.5) / Double(columns)
            let dx = x - c.x
            guard abs(dx) < r else { continue }
            let h = (r * r - dx * dx).squareRoot()
            let lo = max(Double(py), c.y - h), hi = min(Double(py + 1), c.y + h)
            if hi > lo { sum += hi - lo }
        }
        return sum / Double(columns)
    }

    /// The largest difference, in 8-bit levels, between the alpha of `surface` and the exact
    /// coverage of the ring between radii `inner` and `outer` about `c` (device pixels).
    static func ringError(_ surface: Surface, _ c: CGPoint, inner: Double, outer: Double) -> Int {
        var worst = 0
        for y in 0..<surface.height {
            for x in 0..<surface.width {
                let d = hypot(Double(x) + 0.5 - c.x, Double(y) + 0.5 - c.y)
                // Pixels farther than √2 from both edges are wholly in or out.
                let exact: Double
                if abs(d - inner) > 1.5, abs(d - outer) > 1.5 {
                    exact = d > inner && d < outer ? 1 : 0
                } else {
                    exact = discArea(c, outer, x, y) - discArea(c, inner, x, y)
                }
                worst = max(worst, abs(Int(surface.pixel(x: x, y: y).a) - Int((exact * 255).rounded())))
            }
        }
        return worst
    }

    /// A circle of radius 24 pt stroked 6 pt wide, centred in a 60 × 60 canvas: at scale s the
    /// ring runs from (24 − 3)·s to (24 + 3)·s px about (30·s, 30·s).
    static let size = CGSize(width: 60, height: 60)
    static let ring = Circle().stroke(Color.black, lineWidth: 6).frame(width: 48, height: 48)

    /// The largest distance, in device pixels, between the outline's vertices and segment
    /// midpoints and the nearer of the ring's two circles.
    static func deviation(_ path: Path, _ c: CGPoint, inner: Double, outer: Double) -> Double {
        var worst = 0.0, last: CGPoint?
        func check(_ p: CGPoint) {
            let d = hypot(p.x - c.x, p.y - c.y)
            worst = max(worst, min(abs(d - inner), abs(d - outer)))
        }
        for element in path.elements {
            switch element {
            case .move(let p): check(p); last = p
            case .line(let p):
                check(p)
                if let a = last { check(CGPoint(x: (a.x + p.x) / 2, y: (a.y + p.y) / 2)) }
                last = p
            case .quadCurve, .curve: worst = .infinity
            case .closeSubpath: break
            }
        }
        return worst
    }

    /// How far the outline may stray from the true ring at `scale`: the stroke tolerance plus
    /// the cubics' own 2.7e-4 of the outer radius (27 pt).
    static func allowance(_ scale: Double) -> Double { strokeFlatteningTolerance + 2.7e-4 * 27 * scale }

    /// The stroke's outline, as lowered for the device, lies within the flattening tolerance
    /// of the ring at every scale (plus the cubics' error): it is built for the device, not in
    /// points.
    @Test(arguments: [1.0, 3.0, 6.0])
    func theOutlineIsWithinTheToleranceAtEveryScale(scale: Double) throws {
        let list = try Renderer().displayList(for: Self.ring, size: Self.size, scale: scale)
        let path = try #require(list.items.first?.leaf?.path)
        let c = CGPoint(x: 30 * scale, y: 30 * scale)
        let deviation = Self.deviation(path, c, inner: 21 * scale, outer: 27 * scale)
        #expect(deviation <= Self.allowance(scale) + 1e-9, "\(deviation) px at scale \(scale)")
    }

    /// So its pixels are close to the exact coverage at every scale: an edge moved by at most
    /// `allowance` px changes a pixel's coverage by at most that much, 255 × (0.02 + 0.0073 s)
    /// levels, plus one for rounding the exact value: 8, 12 and 18 at scales 1, 3 and 6.
    @Test(arguments: [1.0, 3.0, 6.0])
    func itsPixelsAreWithinTheToleranceOfTheCoverage(scale: Double) throws {
        let surface = try Renderer().render(Self.ring, size: Self.size, scale: scale, background: nil)
        let c = CGPoint(x: 30 * scale, y: 30 * scale)
        let error = Self.ringError(surface, c, inner: 21 * scale, outer: 27 * scale)
        #expect(Double(error) <= (255 * Self.allowance(scale)).rounded(.up) + 1, "\(error) levels at scale \(scale)")
    }

    /// What the device resolution buys: the same ring outlined once in points (0.1 pt) and then
    /// scaled by 6 strays up to 0.6 px from the circle (measured: 84 levels off).
    @Test func anOutlineMadeInPointsIsCoarseAtScaleSix() throws {
        let scale = 6.0
        let outline = Circle().path(in: CGRect(x: 6, y: 6, width: 48, height: 48)).strokedPath(StrokeStyle(lineWidth: 6), tolerance: 0.1)
        let c = CGPoint(x: 30 * scale, y: 30 * scale)
        #expect(Self.deviation(outline.applying(CGAffineTransform(scaleX: scale, y: scale)), c, inner: 21 * scale, outer: 27 * scale) > 0.3)
        let surface = try Renderer().render(outline.fill(Color.black), size: Self.size, scale: scale, background: nil)
        #expect(Double(Self.ringError(surface, c, inner: 21 * scale, outer: 27 * scale)) > (255 * Self.allowance(scale)).rounded(.up) + 1)
    }

    /// Transforms count too: a stroke scaled up by `scaleEffect` is outlined for its final
    /// size.
    @Test func aScaleEffectOutlinesForTheScaledSize() throws {
        let list = try Renderer().displayList(for: Self.ring.scaleEffect(4), size: Self.size, scale: 1)
        let path = try #require(list.items.first?.leaf?.path)
        #expect(Self.deviation(path, CGPoint(x: 30, y: 30), inner: 84, outer: 108) <= 0.1 + 1e-9)
    }
}
