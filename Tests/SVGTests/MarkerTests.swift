import Foundation
import Testing
import Compositor
@testable import SVG

/// Markers: where they go and how they turn.
@Suite struct MarkerTests {
    /// Alpha of the pixel whose top-left corner is (x, y).
    func alpha(_ s: Surface, _ x: Int, _ y: Int) -> UInt8 { s.pixel(x: x, y: y).a }

    /// A bar 8 × 2 user units drawn from a vertex at (10, 10), turned by `orient`: at 0 it lies
    /// along x (pixels 10…17 of rows 10 and 11), at 90° along y (rows 10…17 of columns 8 and
    /// 9: (x, y) → (−y, x)).
    func bar(orient: String) throws -> Surface {
        try render(svg("""
            <marker id='m' markerUnits='userSpaceOnUse' markerWidth='10' markerHeight='10' overflow='visible' orient='\(orient)'>
              <rect width='8' height='2' fill='black'/>
            </marker>
            <line x1='10' y1='10' x2='10.5' y2='10' marker-start='url(#m)'/>
            """))
    }

    /// `orient` takes an angle in any CSS unit (SVG 2), or a plain number of degrees; anything
    /// else is 0.
    @Test(arguments: ["90", "90deg", "100grad", "1.5707963267948966rad", "0.25turn", " 0.25turn "])
    func orientTakesAngleUnits(orient: String) throws {
        let s = try bar(orient: orient)
        #expect(alpha(s, 8, 14) == 255 && alpha(s, 9, 14) == 255, "\(orient): the bar turned down")
        #expect(alpha(s, 14, 10) == 0, "\(orient): not along x")
    }

    @Test(arguments: ["0", "90px", "turn", "1e999deg", "nonsense"])
    func orientThatIsNoAngleIsZero(orient: String) throws {
        let s = try bar(orient: orient)
        #expect(alpha(s, 14, 10) == 255 && alpha(s, 14, 11) == 255, "\(orient): along x")
        #expect(alpha(s, 8, 14) == 0 && alpha(s, 9, 14) == 0, "\(orient)")
    }

    /// `orient="auto"` bisects the directions into and out of a vertex; at a cusp (up into
    /// (10, 6), then back down) they are opposite, and the marker points left as resvg draws
    /// it: the bar covers x 2…10 of rows 5 and 6. Elsewhere the bisector is the usual one: at
    /// a right-angle corner (right, then down) it points down and right, at 45°.
    @Test func autoOrientAtACuspPointsLeft() throws {
        let marker = """
            <marker id='m' markerUnits='userSpaceOnUse' markerWidth='10' markerHeight='10' refY='1' overflow='visible' orient='auto'>
              <rect width='8' height='2' fill='black'/>
            </marker>
            """
        let cusp = try render(svg(marker + "<path d='M 10 18 L 10 6 L 10 18' fill='none' marker-mid='url(#m)'/>"))
        #expect(alpha(cusp, 4, 5) == 255 && alpha(cusp, 4, 6) == 255)
        #expect(alpha(cusp, 14, 5) == 0 && alpha(cusp, 14, 6) == 0)
        let corner = try render(svg(marker + "<path d='M 2 4 L 10 4 L 10 16' fill='none' marker-mid='url(#m)'/>"))
        // The bar's axis from (10, 4) along (1, 1)/√2: its point 4 units out is (12.83, 6.83).
        #expect(alpha(corner, 12, 6) == 255)
        #expect(alpha(corner, 6, 3) == 0 && alpha(corner, 14, 3) == 0)
    }

    /// SVG 2 gives markers to every shape, at the vertices of its equivalent path: a rect's
    /// four corners (its start again at the close), an ellipse's four ends of its axes. A
    /// 2 × 2 square centred on each covers the pixels around it; the shapes themselves draw
    /// nothing (no fill, no stroke).
    @Test func rectsAndEllipsesTakeMarkers() throws {
        let marker = """
            <marker id='m' markerUnits='userSpaceOnUse' markerWidth='2' markerHeight='2' refX='1' refY='1'>
              <rect width='2' height='2' fill='black'/>
            </marker>
            """
        let rect = try render(svg(marker + "<rect x='4' y='4' width='12' height='12' fill='none' marker-start='url(#m)' marker-mid='url(#m)' marker-end='url(#m)'/>"))
        for (x, y) in [(3, 3), (4, 4), (15, 3), (16, 4), (15, 15), (16, 16), (3, 15), (4, 16)] {
            #expect(alpha(rect, x, y) == 255, "rect corner pixel (\(x), \(y))")
        }
        #expect(alpha(rect, 9, 9) == 0 && alpha(rect, 9, 3) == 0)

        let ellipse = try render(svg(marker + "<ellipse cx='10' cy='10' rx='6' ry='4' fill='none' marker-mid='url(#m)'/>"))
        // Mid vertices: (10, 14), (4, 10), (10, 6); the start and end (16, 10) take none.
        for (x, y) in [(9, 13), (10, 14), (3, 9), (4, 10), (9, 5), (10, 6)] {
            #expect(alpha(ellipse, x, y) == 255, "ellipse vertex pixel (\(x), \(y))")
        }
        #expect(alpha(ellipse, 15, 9) == 0 && alpha(ellipse, 16, 10) == 0)
    }
}
