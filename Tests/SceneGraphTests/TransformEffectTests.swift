import Foundation
import Testing
import _TestSupport
import SceneGraph

@Suite struct TransformEffectTests {
    func bounds<V: View>(_ view: V, scale: Double = 1) -> [CGRect] {
        ((try? Renderer().displayList(for: view, size: CGSize(width: 100, height: 100), scale: scale))?.items ?? []).compactMap {
            $0.leaf?.path.boundingRect
        }
    }

    @Test func rotationAboutTheCentreKeepsLayout() throws {
        // A 40 × 20 frame at (30, 40), turned 90° about its centre (50, 50): 20 × 40 at (40, 30).
        let b = bounds(Color.red.frame(width: 40, height: 20).rotationEffect(.degrees(90)))
        #expect(b.count == 1 && isClose(b[0], CGRect(x: 40, y: 30, width: 20, height: 40)), "\(b)")
    }

    @Test func rotationIsClockwiseOnScreen() throws {
        // About the top-leading corner (30, 40): +90° sends the frame's right edge downwards, so
        // the rotated frame spans x 10…30, y 40…80.
        let b = bounds(Color.red.frame(width: 40, height: 20).rotationEffect(.degrees(90), anchor: .topLeading))
        #expect(b.count == 1 && isClose(b[0], CGRect(x: 10, y: 40, width: 20, height: 40)), "\(b)")
    }

    @Test func scaleAndTransformComposeWithTheRenderScale() throws {
        // scaleEffect(2) about the centre of a 20 × 20 frame at (40, 40): 40 × 40 at (30, 30);
        // at render scale 3 that is (90, 90, 120, 120).
        let b = bounds(Color.red.frame(width: 20, height: 20).scaleEffect(2), scale: 3)
        #expect(b.count == 1 && isClose(b[0], CGRect(x: 90, y: 90, width: 120, height: 120)), "\(b)")
        // transformEffect works in the view's own coordinates from its top-leading corner.
        let t = bounds(Color.red.frame(width: 20, height: 20).transformEffect(CGAffineTransform(translationX: 5, y: 0)))
        #expect(isClose(t[0], CGRect(x: 45, y: 40, width: 20, height: 20)), "\(t)")
    }

    @Test func effectsDistributeToEveryLeaf() throws {
        let b = bounds(ZStack {
            Color.red.frame(width: 10, height: 10).offset(x: -20)
            Color.blue.frame(width: 10, height: 10).offset(x: 20)
        }.rotationEffect(.degrees(180)))
        // Half a turn about (50, 50) swaps the two squares' places.
        #expect(b.count == 2 && isClose(b[0], CGRect(x: 65, y: 45, width: 10, height: 10))
                && isClose(b[1], CGRect(x: 25, y: 45, width: 10, height: 10)), "\(b)")
    }
}
