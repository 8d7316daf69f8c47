import Foundation
import Testing
import _TestSupport
import SceneGraph

/// Coverage bytes of `path` over `clip` (row-major), through the public rasterizer.
func coverage(_ path: Path, clip: PixelRect) throws -> [UInt8] {
    var out = [UInt8](repeating: 0, count: clip.area)
    try Rasterizer().rasterize(path, clip: clip) { mask, stride, rect in
        for y in 0..<rect.height {
            for x in 0..<rect.width { out[(rect.y - clip.y + y) * clip.width + rect.x - clip.x + x] = mask[y * stride + x] }
        }
    }
    return out
}

func area(_ path: Path, clip: PixelRect) throws -> Double {
    try coverage(path, clip: clip).reduce(0.0) { $0 + Double($1) } / 255
}


@Suite struct ExampleShapeTests {
    let frame = CGRect(x: 0, y: 0, width: 100, height: 100)

    @Test func triangleVertices() {
        let p = Triangle().path(in: CGRect(x: 10, y: 20, width: 80, height: 60))
        #expect(p.elements == [.move(to: CGPoint(x: 50, y: 20)), .line(to: CGPoint(x: 90, y: 80)),
                               .line(to: CGPoint(x: 10, y: 80)), .closeSubpath])
    }

    @Test func polygonStartsAtTheTopAndInsets() {
        // radius = min(w, h)/2 − inset; the first vertex at −90°: straight above the centre.
        let hexagon = RegularPolygon(sides: 6).path(in: frame)
        #expect(isClose(hexagon.elements.first.flatMap { if case .move(let p) = $0 { p } else { nil } }, CGPoint(x: 50, y: 0)))
        // Vertex 1 at −30°: (50 + 50·cos 30°, 50 − 50·sin 30°) = (93.30, 25).
        if case .line(let p) = hexagon.elements[1] { #expect(isClose(p, CGPoint(x: 50 + 50 * cos(Double.pi / 6), y: 25))) }
        let inset = RegularPolygon(sides: 6).inset(by: 10).path(in: frame)
        #expect(isClose(inset.elements.first.flatMap { if case .move(let p) = $0 { p } else { nil } }, CGPoint(x: 50, y: 10)))
        // strokeBorder is the stroke of the shape inset by half the width. (This polygon's inset
        // is radial: its edges move in by 5·cos 30° = 4.33, so a 10-wide miter border pokes
        // 0.77 beyond the frame at the vertices, as it does in SwiftUI.)
        #expect(RegularPolygon(sides: 6).strokeBorder(lineWidth: 10).path(in: frame)
                == RegularPolygon(sides: 6).inset(by: 5).stroke(lineWidth: 10).path(in: frame))
    }

    @Test func sectorFillsOnlyTheTopRightQuadrant() throws {
        // Sector(0…90): from −90° (top) clockwise on screen to 0° (right): the top-right quarter
        // of the disc, π·50²/4 = 1963.5 px², nothing elsewhere.
        let sector = Sector(start: 0, end: 90).path(in: frame)
        let cov = try coverage(sector, clip: PixelRect(x: 0, y: 0, width: 100, height: 100))
        var quadrants = [0.0, 0.0, 0.0, 0.0]   // TL, TR, BL, BR
        for y in 0..<100 { for x in 0..<100 {
            quadrants[(y < 50 ? 0 : 2) + (x < 50 ? 0 : 1)] += Double(cov[y * 100 + x]) / 255
        } }
        #expect(abs(quadrants[1] - .pi * 2500 / 4) / (.pi * 2500 / 4) < 0.001)
        #expect(quadrants[0] == 0 && quadrants[2] == 0 && quadrants[3] == 0)
    }

    @Test func sectorExposesItsAnglesAsAnimatableData() {
        var s = Sector(start: 10, end: 90)
        #expect(s.animatableData == AnimatablePair(10, 90))
        s.animatableData = AnimatablePair(20, 45)
        #expect(s.start == 20 && s.end == 45)
        // Shapes that declare nothing animate nothing.
        #expect(Triangle().animatableData == EmptyAnimatableData())
    }
}

@Suite struct VectorArithmeticTests {
    @Test func pairsAddScaleAndMeasure() {
        var p = AnimatablePair(1.0, AnimatablePair(2.0, 3.0))
        p = p + AnimatablePair(1.0, AnimatablePair(1.0, 1.0))
        #expect(p == AnimatablePair(2.0, AnimatablePair(3.0, 4.0)))
        p.scale(by: 0.5)
        #expect(p == AnimatablePair(1.0, AnimatablePair(1.5, 2.0)))
        #expect(p.magnitudeSquared == 1 + 2.25 + 4)
        #expect((AnimatablePair(3.0, 4.0) - .zero).magnitudeSquared == 25)
        #expect(CGFloat(2).scaled(by: 1.5) == 3 && Float(2).magnitudeSquared == 4)
    }
}

@Suite struct BuiltInShapeTests {
    let frame = CGRect(x: 10, y: 20, width: 100, height: 60)

    @Test func circleIsCentredWithTheShorterSide() {
        #expect(Circle().path(in: frame).boundingRect == CGRect(x: 30, y: 20, width: 60, height: 60))
        #expect(Circle().inset(by: 5).path(in: frame).boundingRect == CGRect(x: 35, y: 25, width: 50, height: 50))
        #expect(Ellipse().path(in: frame).boundingRect == frame)
    }

    @Test func rectanglesAndInsets() throws {
        #expect(Rectangle().path(in: frame) == Path(frame))
        #expect(Rectangle().inset(by: 4).inset(by: 1).path(in: frame) == Path(frame.insetBy(dx: 5, dy: 5)))
        // RoundedRectangle defaults to continuous corners; insetting shrinks the radius too.
        #expect(RoundedRectangle(cornerRadius: 8).path(in: frame) == Path(roundedRect: frame, cornerRadius: 8, style: .continuous))
        #expect(RoundedRectangle(cornerRadius: 8).inset(by: 3).path(in: frame)
                == Path(roundedRect: frame.insetBy(dx: 3, dy: 3), cornerRadius: 5, style: .continuous))
    }

    @Test func capsuleIsAStadium() throws {
        // 100 × 60: radius 30, area 40·60 + π·30² = 5227.4 px².
        let clip = PixelRect(x: 0, y: 0, width: 128, height: 96)
        #expect(abs(try area(Capsule().path(in: frame), clip: clip) - (2400 + .pi * 900)) / 5227.4 < 0.001)
    }

    @Test func unevenCornersEachHaveTheirRadius() throws {
        // Only the top-leading corner rounded, r = 20 circular: area 6000 − (4 − π)·400/4.
        let shape = UnevenRoundedRectangle(topLeadingRadius: 20, style: .circular)
        let clip = PixelRect(x: 0, y: 0, width: 128, height: 96)
        #expect(abs(try area(shape.path(in: frame), clip: clip) - (6000 - (4 - .pi) * 100)) < 0.5)
        let p = shape.path(in: frame)
        #expect(p.contains(CGPoint(x: 109, y: 21)) && !p.contains(CGPoint(x: 11, y: 21)))
    }
}

@Suite struct ShapeTransformTests {
    let frame = CGRect(x: 0, y: 0, width: 100, height: 100)

    @Test func offsetScaleRotateSizeTransformTrim() {
        #expect(Rectangle().offset(x: 5, y: -3).path(in: frame).boundingRect == CGRect(x: 5, y: -3, width: 100, height: 100))
        #expect(Rectangle().scale(0.5).path(in: frame).boundingRect == CGRect(x: 25, y: 25, width: 50, height: 50))
        #expect(Rectangle().scale(x: 2, y: 1, anchor: .topLeading).path(in: frame).boundingRect == CGRect(x: 0, y: 0, width: 200, height: 100))
        // 90° about the top-leading corner: clockwise on screen, (100, 0) goes to (0, 100).
        let r = Rectangle().size(width: 100, height: 10).rotation(.degrees(90), anchor: .topLeading).path(in: frame).boundingRect
        #expect(abs(r.minX + 10) < 1e-9 && abs(r.maxX) < 1e-9 && abs(r.maxY - 100) < 1e-9)
        #expect(Rectangle().size(width: 20, height: 30).path(in: frame).boundingRect == CGRect(x: 0, y: 0, width: 20, height: 30))
        #expect(Rectangle().transform(CGAffineTransform(translationX: 1, y: 2)).path(in: frame).boundingRect == CGRect(x: 1, y: 2, width: 100, height: 100))
        // Rectangle perimeter 400 from the top-left corner: 0.25…0.5 is the right edge.
        let t = Rectangle().trim(from: 0.25, to: 0.5).path(in: frame)
        #expect(t.elements == [.move(to: CGPoint(x: 100, y: 0)), .line(to: CGPoint(x: 100, y: 100))])
        // Offsetting an insettable shape keeps it insettable.
        #expect(Circle().offset(x: 10).inset(by: 10).path(in: frame).boundingRect == CGRect(x: 20, y: 10, width: 80, height: 80))
    }
}

@Suite struct StrokeShapeTests {
    let frame = CGRect(x: 20, y: 20, width: 80, height: 60)
    let clip = PixelRect(x: 0, y: 0, width: 128, height: 128)

    func outsideAndInside(_ path: Path) throws -> (outside: Double, inside: Double) {
        let cov = try coverage(path, clip: clip)
        var outside = 0.0, inside = 0.0
        for y in 0..<128 { for x in 0..<128 {
            let v = Double(cov[y * 128 + x]) / 255
            if x >= 20 && x < 100 && y >= 20 && y < 80 { inside += v } else { outside += v }
        } }
        return (outside, inside)
    }

    @Test func strokeSpillsHalfTheWidthAndStrokeBorderNone() throws {
        // stroke(lineWidth: 8) on the frame's rectangle: the band from −4 to +4 around the edge,
        // miter corners: outside (80 + 8)·(60 + 8) − 80·60 = 1184, inside 80·60 − 72·52 = 1056.
        let stroked = try outsideAndInside(Rectangle().stroke(lineWidth: 8).path(in: frame))
        #expect(abs(stroked.outside - 1184) < 0.5 && abs(stroked.inside - 1056) < 0.5)
        // strokeBorder insets by 4 first: nothing outside, inside 80·60 − 64·44 = 1984.
        let border = try outsideAndInside(Rectangle().strokeBorder(lineWidth: 8).path(in: frame))
        #expect(border.outside == 0 && abs(border.inside - 1984) < 0.5)
        // The same for a circle: strokeBorder stays within the frame's circle.
        let ring = try outsideAndInside(Circle().strokeBorder(lineWidth: 6).path(in: frame))
        #expect(ring.outside == 0)
    }

    @Test func capsuleStrokeBorder() {
        let p = Capsule().strokeBorder(style: StrokeStyle(lineWidth: 4)).path(in: frame)
        let b = p.boundingRect
        // The straight sides lie on the frame exactly. The round ends are polygons within the
        // stroke's tolerance of their arcs: where a step of the flattened end turns by θ, its
        // outer vertex is where the offset lines meet, hw(1/cos(θ/2) − 1) beyond the arc (0.0009
        // here), at most hw·t/(hw − t) for the largest step the tolerance t allows.
        #expect(b.minY >= 20 - 1e-9 && b.maxY <= 80 + 1e-9)
        let hw = 2.0, t = strokeFlatteningTolerance
        #expect(b.minX >= 20 - hw * t / (hw - t) && b.maxX <= 100 + hw * t / (hw - t))
    }
}
