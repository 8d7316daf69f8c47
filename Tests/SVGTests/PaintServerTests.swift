import Foundation
import Testing
import Compositor
import SceneGraph
@testable import SVG

/// Patterns, spread methods, focal radial gradients and context paints.
struct PaintServerTests {
    @Test func patternTilesRepeat() throws {
        // A 4 × 4 tile holding a red 2 × 2 square at its origin, over an 8 × 8 rect: red at
        // (0, 0), (4, 0), (4, 4); transparent at (2, 0) and (6, 6).
        let s = try render(svg("""
            <pattern id='p' patternUnits='userSpaceOnUse' width='4' height='4'><rect width='2' height='2' fill='red'/></pattern>
            <rect width='8' height='8' fill='url(#p)'/>
            """))
        for (x, y) in [(0, 0), (4, 0), (4, 4), (5, 5)] { #expect(s.pixel(x: x, y: y) == RGBA8(255, 0, 0, 255), "(\(x), \(y))") }
        for (x, y) in [(2, 0), (6, 6), (3, 1)] { #expect(s.pixel(x: x, y: y).a == 0, "(\(x), \(y))") }
    }

    @Test func patternTransformMovesTheTiles() throws {
        // Moved by (2, 0): the squares now start at x = 2 (and 6).
        let s = try render(svg("""
            <pattern id='p' patternUnits='userSpaceOnUse' width='4' height='4' patternTransform='translate(2 0)'>
              <rect width='2' height='2' fill='red'/></pattern>
            <rect width='8' height='8' fill='url(#p)'/>
            """))
        #expect(s.pixel(x: 2, y: 0) == RGBA8(255, 0, 0, 255))
        #expect(s.pixel(x: 0, y: 0).a == 0)
    }

    @Test func patternsInBoundingBoxUnitsNeedAnArea() throws {
        // A line has no area: the pattern cannot lay out, the fallback colour paints instead.
        let s = try render(svg("""
            <pattern id='p' width='0.5' height='0.5'><rect width='2' height='2' fill='red'/></pattern>
            <line x1='0' y1='5' x2='20' y2='5' stroke='url(#p) blue' stroke-width='2'/>
            """))
        #expect(s.pixel(x: 10, y: 5) == RGBA8(0, 0, 255, 255))
    }

    @Test func aPatternThatPaintsItselfIsNotPainted() throws {
        let doc = try document(svg("""
            <pattern id='p' patternUnits='userSpaceOnUse' width='4' height='4'><rect width='4' height='4' fill='url(#p)' stroke='red'/></pattern>
            <rect width='8' height='8' fill='url(#p)'/>
            """))
        #expect(doc.warnings.contains { $0.message.contains("refers to itself") })
    }

    @Test func spreadMethodsReflectAndRepeat() throws {
        // Black → white over x 0…10 of a 20-wide rect. At x = 19.5 the gradient is at 1.95:
        // pad keeps white (255), reflect comes back to 0.05 (≈ 13 encoded), repeat is at 0.95.
        func value(_ spread: String) throws -> UInt8 {
            let s = try render(svg("""
                <linearGradient id='g' gradientUnits='userSpaceOnUse' x1='0' x2='10' spreadMethod='\(spread)'>
                  <stop offset='0' stop-color='black'/><stop offset='1' stop-color='white'/></linearGradient>
                <rect width='20' height='20' fill='url(#g)'/>
                """))
            return s.pixel(x: 19, y: 10).r
        }
        #expect(try value("pad") == 255)
        #expect(try value("reflect") < 30)
        #expect(try value("repeat") > 225)
    }

    @Test func focalPointTakesTheFirstStop() throws {
        // Focus at (5, 10) in a circle centred at (10, 10): the focus is red (stop 0), the
        // circle's centre already part way to blue.
        let s = try render(svg("""
            <radialGradient id='g' gradientUnits='userSpaceOnUse' cx='10' cy='10' r='10' fx='5' fy='10'>
              <stop offset='0' stop-color='red'/><stop offset='1' stop-color='blue'/></radialGradient>
            <rect width='20' height='20' fill='url(#g)'/>
            """))
        let focus = s.pixel(x: 5, y: 10), centre = s.pixel(x: 10, y: 10)
        #expect(focus.r > 240 && focus.b < 20)
        #expect(centre.b > 40)
    }

    @Test func singularServerTransformsAreIgnored() throws {
        // gradientTransform="scale(0)" collapses the plane: ignored, so the gradient paints as
        // if it had none (red at the left edge, blue at the right).
        let s = try render(svg("""
            <linearGradient id='g' gradientTransform='scale(0)'><stop offset='0' stop-color='red'/><stop offset='1' stop-color='blue'/></linearGradient>
            <rect width='20' height='20' fill='url(#g)'/>
            """))
        #expect(s.pixel(x: 0, y: 10).r > 200 && s.pixel(x: 19, y: 10).b > 200)
    }

    @Test func contextFillKeepsItsPlaceUnderTransformedContent() throws {
        // The use's gradient runs red (left) to blue (right) in the use's space; the content
        // is rotated by 180° about the centre, yet the left stays red.
        let s = try render(svg("""
            <linearGradient id='g' gradientUnits='userSpaceOnUse' x1='0' x2='20'>
              <stop offset='0' stop-color='red'/><stop offset='1' stop-color='blue'/></linearGradient>
            <defs><rect id='r' width='20' height='20' fill='context-fill' transform='rotate(180 10 10)'/></defs>
            <use href='#r' fill='url(#g)'/>
            """))
        #expect(s.pixel(x: 1, y: 10).r > 200)
        #expect(s.pixel(x: 18, y: 10).b > 200)
    }
}

/// `paint-order`: a value with an unknown or repeated word is invalid as a whole.
struct PaintOrderTests {
    @Test func invalidValuesGiveTheNormalOrder() throws {
        for (value, expected) in [("stroke", [SVGShape.Step.stroke, .fill, .markers]), ("markers stroke", [.markers, .stroke, .fill]),
                                  ("stroke stroke", [.fill, .stroke, .markers]), ("stroke qwe", [.fill, .stroke, .markers]),
                                  ("normal", [.fill, .stroke, .markers])] {
            let doc = try document(svg("<rect width='5' height='5' stroke='red' paint-order='\(value)'/>"))
            let order = doc.root.children.compactMap { node -> [SVGShape.Step]? in
                if case .shape(let s) = node { return s.order }
                if case .group(let g) = node, case .shape(let s)? = g.children.first { return s.order }
                return nil
            }.first
            #expect(order == expected, "\(value)")
        }
    }
}

/// Stroke lengths in `em` follow the element's font size.
struct StrokeUnitTests {
    @Test func emLengthsUseTheFontSize() throws {
        // font-size 10: "1em 0.5em" dashes draw as "10 5", a 0.2em width as 2.
        let a = try render(svg("<g font-size='10'><line x1='0' y1='10' x2='20' y2='10' stroke='black' stroke-width='0.2em' stroke-dasharray='1em 0.5em'/></g>"))
        let b = try render(svg("<line x1='0' y1='10' x2='20' y2='10' stroke='black' stroke-width='2' stroke-dasharray='10 5'/>"))
        #expect(try a.compare(to: b).differingPixels == 0)
        #expect(a.pixel(x: 5, y: 10).a == 255 && a.pixel(x: 12, y: 10).a == 0)
    }
}
