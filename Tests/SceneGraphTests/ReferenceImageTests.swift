import Foundation
import PixelTesting
import SceneGraph
import Testing

/// Whole renders compared with reference images in `__Snapshots__/ReferenceImageTests/`,
/// exactly (tolerance 0): any change to a pixel of these scenes is a deliberate decision,
/// taken by re-recording (`SNAPSHOT_TESTING_RECORD=failed swift test --filter ReferenceImageTests`)
/// and looking at the new image. The probe tests elsewhere derive values from formulas; these
/// catch everything between the probes (edges, shadows' falloff, layer bounds). `make test`
/// runs with `SNAPSHOT_TESTING_RECORD=never`, so a missing reference fails there.
@Suite struct ReferenceImageTests {
    /// Per-leaf opacity (left: every circle mixes) beside a compositing group (right: the
    /// circles composite first, orange covers the overlap, then one 0.5 opacity).
    @Test func groupOpacity() {
        assertSnapshot(of: HStack(spacing: 48) {
                           Circles().opacity(0.5)
                           Circles().compositingGroup().opacity(0.5)
                       }, size: CGSize(width: 240, height: 80), scale: 2, named: "perLeafThenGroup")
    }

    /// A shadow per leaf (the front square's shadow falls on the square behind it) beside one
    /// shadow for a compositing group (cast by the union, falling on nothing inside).
    @Test func shadows() {
        let squares = ZStack(alignment: .topLeading) {
            Rectangle().fill(.yellow).frame(width: 40, height: 40).offset(x: 20, y: 20)
            Rectangle().fill(.teal).frame(width: 40, height: 40)
        }
        assertSnapshot(of: HStack(spacing: 20) {
                           squares.shadow(color: .black, radius: 4, x: 3, y: 3)
                           squares.compositingGroup().shadow(color: .black, radius: 4, x: 3, y: 3)
                       }.padding(10), size: CGSize(width: 180, height: 100), scale: 2, named: "perLeafThenGroup")
    }

    /// Translucent overlapping circles rasterized offscreen in each colour mode: the overlap
    /// mixes in gamma-encoded sRGB, in linear light, and in extended linear light.
    @Test func drawingGroupColourModes() {
        func discs(_ mode: ColorRenderingMode) -> some View {
            ZStack {
                Circle().fill(Color.red.opacity(0.6)).frame(width: 50, height: 50).offset(x: -12)
                Circle().fill(Color.green.opacity(0.6)).frame(width: 50, height: 50).offset(x: 12)
            }
            .frame(width: 76, height: 52)   // the offscreen surface is the frame: all ink inside
            .drawingGroup(colorMode: mode)
        }
        assertSnapshot(of: HStack(spacing: 6) { discs(.nonLinear); discs(.linear); discs(.extendedLinear) },
                       size: CGSize(width: 240, height: 70), scale: 2, named: "nonLinearLinearExtended")
    }

    /// The circles in a wide, short frame clipped with rounded corners (tops, bottoms and the
    /// outer sides cut), each multiplied onto a coloured background.
    @Test func clipAndBlend() {
        assertSnapshot(of: ZStack {
                           Rectangle().fill(.mint)
                           Circles().frame(width: 90, height: 48)
                               .clipShape(RoundedRectangle(cornerRadius: 16)).blendMode(.multiply)
                       }, size: CGSize(width: 120, height: 80), scale: 2, named: "multiplyInsideRoundedClip")
    }
}
