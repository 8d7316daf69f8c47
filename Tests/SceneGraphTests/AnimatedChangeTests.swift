import Foundation
import SceneGraph
import Testing
import _TestSupport

/// Leaves of a display list: device bounds and fill (scale 1).
private func leaves(_ view: AnyView, _ size: CGSize) -> [(bounds: CGRect, fill: ShapeFill)] {
    ((try? Renderer().displayList(for: view, size: size))?.items ?? []).compactMap {
        $0.leaf.map { ($0.path.boundingRect, $0.fill) }
    }
}

private func alpha(_ fill: ShapeFill) -> Double {
    if case .color(let c) = fill { c.alpha } else { .nan }
}

/// A status badge (SwiftUI's classic geometryGroup example, with shapes for the icon and the
/// label until text exists): a capsule background around an icon and a label, at the leading
/// edge when unavailable and the trailing edge when available. The icon and the label change
/// with the state (if/else: a new identity), so they are inserted and removed.
struct Badge: View {
    var isAvailable: Bool
    var grouped: Bool

    var body: some View {
        let badge = HStack(spacing: 6) {
            if isAvailable { Circle().fill(.green).frame(width: 12, height: 12) } else { Rectangle().fill(.red).frame(width: 12, height: 12) }
            if isAvailable { Capsule().fill(.white).frame(width: 60, height: 8) } else { Capsule().fill(.white).frame(width: 40, height: 8) }
        }
        .padding(8)
        .background(Capsule().fill(.blue))
        return Group {
            if grouped { badge.geometryGroup() } else { badge }
        }
        .frame(maxWidth: .infinity, alignment: isAvailable ? .trailing : .leading)
    }
}

@Suite struct AnimatedChangeTests {
    let size = CGSize(width: 300, height: 60)

    @Test func endsAreTheStatesThemselves() throws {
        let change = AnimatedChange(from: Badge(isAvailable: false, grouped: false), to: Badge(isAvailable: true, grouped: false))
        let renderer = Renderer()
        let start = try renderer.render(change.view(progress: 0, in: size), size: size)
        let end = try renderer.render(change.view(progress: 1, in: size), size: size)
        #expect(try start.compare(to: renderer.render(Badge(isAvailable: false, grouped: false), size: size)).differingPixels == 0)
        #expect(try end.compare(to: renderer.render(Badge(isAvailable: true, grouped: false), size: size)).differingPixels == 0)
        // Past the end of the animation the new state is drawn.
        #expect(try renderer.render(change.view(at: 10, in: size), size: size).compare(to: end).differingPixels == 0)
    }

    /// The badge at t = 0.5 of a linear change, both ways. Old badge: 8 + 12 + 6 + 40 + 8 = 74
    /// wide at x 0; new: 8 + 12 + 6 + 60 + 8 = 94 wide at x 300 − 94 = 206; both 28 high at
    /// y (60 − 28)/2 = 16. The background is matched: x 103, width 84 either way.
    /// - Without geometryGroup each leaf's frame moves on its own: the old label (removed,
    ///   opacity 0.5) stays at x 8 + 12 + 6 = 26 and the new one (inserted, opacity 0.5) is
    ///   already at 206 + 26 = 232: both outside the moving capsule (103…187).
    /// - With geometryGroup the group's frame moves as one (x 103) and both labels sit at
    ///   26 inside it: x 129, within the capsule; the icons at 103 + 8 = 111.
    @Test func badgeWithAndWithoutGeometryGroup() throws {
        for grouped in [false, true] {
            let change = AnimatedChange(from: Badge(isAvailable: false, grouped: grouped), to: Badge(isAvailable: true, grouped: grouped),
                                        animation: .linear(duration: 1))
            let drawn = leaves(change.view(at: 0.5, in: size), size)
            let capsule = drawn.filter { if case .color(let c) = $0.fill { c.blue == 1 && c.red == 0 } else { false } }
            let labels = drawn.filter { $0.bounds.height == 8 }
            let icons = drawn.filter { $0.bounds.height == 12 }
            #expect(capsule.count == 1 && isClose(capsule[0].bounds, CGRect(x: 103, y: 16, width: 84, height: 28)))
            #expect(labels.count == 2 && labels.allSatisfy { abs(alpha($0.fill) - 0.5) < 1e-12 })
            #expect(icons.count == 2 && icons.allSatisfy { abs(alpha($0.fill) - 0.5) < 1e-12 })
            let old = labels.first { $0.bounds.width == 40 }!, new = labels.first { $0.bounds.width == 60 }!
            if grouped {
                #expect(old.bounds.minX == 129 && new.bounds.minX == 129)
                #expect(icons.allSatisfy { $0.bounds.minX == 111 })
            } else {
                #expect(old.bounds.minX == 26 && new.bounds.minX == 232)
                #expect(Set(icons.map(\.bounds.minX)) == [8, 214])
            }
            // Vertically everything stays centred: labels at 16 + 8 + 2 = 26.
            #expect(labels.allSatisfy { $0.bounds.minY == 26 })
        }
    }

    /// The sector's two angles interpolate (its `animatableData`); the radius fraction is not
    /// animatable and jumps to the new value at once: at 0.5 from (0°, 90°, r 1) to
    /// (0°, 180°, r 0.5) the drawing is exactly the sector (0°, 135°, r 0.5).
    @Test func shapeAnimatableDataInterpolatesAndTheRestJumps() throws {
        struct Wedge: Shape {
            var start: Double, end: Double, radiusFraction: Double
            var animatableData: AnimatablePair<Double, Double> {
                get { AnimatablePair(start, end) }
                set { start = newValue.first; end = newValue.second }
            }
            func path(in rect: CGRect) -> Path {
                Sector(start: start, end: end).path(in: rect.insetBy(dx: rect.width * (1 - radiusFraction) / 2,
                                                                     dy: rect.height * (1 - radiusFraction) / 2))
            }
        }
        let square = CGSize(width: 100, height: 100)
        let change = AnimatedChange(from: Wedge(start: 0, end: 90, radiusFraction: 1).fill(.orange),
                                    to: Wedge(start: 0, end: 180, radiusFraction: 0.5).fill(.orange))
        let expected = try Renderer().displayList(for: Wedge(start: 0, end: 135, radiusFraction: 0.5).fill(.orange), size: square)
        #expect(try Renderer().displayList(for: change.view(progress: 0.5, in: square), size: square) == expected)
        // Trim ends and the line width are animatable data too: 0…0.2 → 0…1 and width 2 → 6
        // at 0.5 are 0…0.6 and 4 (0.2 + 0.4 is 0.6 only to the last bit: compared as pixels).
        let trim = AnimatedChange(from: Circle().trim(from: 0, to: 0.2).stroke(.blue, lineWidth: 2),
                                  to: Circle().trim(from: 0, to: 1).stroke(.blue, lineWidth: 6))
        let drawn = try Renderer().render(trim.view(progress: 0.5, in: square), size: square)
        let direct = try Renderer().render(Circle().trim(from: 0, to: 0.6).stroke(.blue, lineWidth: 4), size: square)
        #expect(try drawn.compare(to: direct).maxChannelDifference <= 1)
    }

    /// Colours interpolate in linear light: black to white at 0.5 is linear 0.5, encoded
    /// 1.055 · 0.5^(1/2.4) − 0.055 = 0.7354 → 187.5 → 188 (as the linear drawing group stores
    /// it); in sRGB-encoded terms it would have been 128.
    @Test func colourMidAnimationIsLinearLight() throws {
        let square = CGSize(width: 4, height: 4)
        let change = AnimatedChange(from: Color.black, to: Color.white)
        let surface = try Renderer().render(change.view(progress: 0.5, in: square), size: square)
        let p = surface.pixel(x: 1, y: 1)
        #expect(p == RGBA8(188, 188, 188, 255))
        // Opacity, rotation and shadow radius interpolate as numbers.
        let turn = AnimatedChange(from: Rectangle().fill(.red).frame(width: 20, height: 20).rotationEffect(.degrees(0)).opacity(1),
                                  to: Rectangle().fill(.red).frame(width: 20, height: 20).rotationEffect(.degrees(90)).opacity(0.2))
        // (0.5 · π/2 and 45° in radians may differ in the last bit: compared as pixels.)
        let canvas = CGSize(width: 100, height: 100)
        let drawn = try Renderer().render(turn.view(progress: 0.5, in: canvas), size: canvas)
        let expected = try Renderer().render(Rectangle().fill(.red).frame(width: 20, height: 20).rotationEffect(.degrees(45)).opacity(0.6), size: canvas)
        #expect(try drawn.compare(to: expected).differingPixels == 0)
    }

    /// Inserted views fade in and removed ones fade out with the progress; other transitions
    /// scale or move them.
    @Test func insertionsAndRemovalsFade() throws {
        struct Toggle: View {
            var on: Bool
            var body: some View {
                ZStack {
                    Color.blue.frame(width: 10, height: 10)
                    if on { Color.red.frame(width: 40, height: 40) }
                    if !on { Color.green.frame(width: 20, height: 20).transition(.scale) }
                }
            }
        }
        let square = CGSize(width: 100, height: 100)
        let change = AnimatedChange(from: Toggle(on: false), to: Toggle(on: true))
        let drawn = leaves(change.view(progress: 0.25, in: square), square)
        // Blue stays (opacity 1); red is inserted at 25 %; green leaves by scaling: presence
        // 1 − 0.25 = 0.75, so 20 × 0.75 = 15 about its centre (42.5…57.5), fully opaque.
        #expect(drawn.count == 3)
        #expect(alpha(drawn[0].fill) == 1 && drawn[0].bounds.width == 10)
        #expect(drawn.contains { abs(alpha($0.fill) - 0.25) < 1e-12 && $0.bounds == CGRect(x: 30, y: 30, width: 40, height: 40) })
        #expect(drawn.contains { alpha($0.fill) == 1 && isClose($0.bounds, CGRect(x: 42.5, y: 42.5, width: 15, height: 15)) })
    }

    /// Views in a ForEach keep their identity by id: reordering moves them, it does not fade.
    @Test func forEachElementsAreMatchedByID() throws {
        struct Row: View {
            var order: [Int]
            var body: some View {
                HStack(spacing: 0) {
                    ForEach(order, id: \.self) { i in Color(white: Double(i) / 4).frame(width: 10, height: 10) }
                }
            }
        }
        let size = CGSize(width: 30, height: 10)
        let change = AnimatedChange(from: Row(order: [1, 2, 3]), to: Row(order: [3, 2, 1]))
        let drawn = leaves(change.view(progress: 0.5, in: size), size)
        // 1 moves 0 → 20 and 3 moves 20 → 0: both at 10 half-way; 2 stays at 10. No fades.
        #expect(drawn.count == 3 && drawn.allSatisfy { $0.bounds.minX == 10 && alpha($0.fill) == 1 })
    }
}
