import Foundation
import SceneGraph

/// The built-in demo: the group-opacity lesson in one picture, 600 × 340 points. Left, three
/// circles at 25 % opacity each (overlaps show every colour); right, the same circles opaque
/// inside one group at 25 % (overlaps show only the top colour). Below, an even-odd star, a
/// continuous rounded rectangle with a gradient and a conic ring.
struct DemoView: View {
    static let size = CGSize(width: 600, height: 340)

    /// Three 120 pt circles whose centres are 40 pt apart, the first centred at (`x`, 90).
    func circles(x: CGFloat) -> some View {
        ZStack(alignment: .topLeading) {
            for (i, colour) in [Color.blue, .pink, .orange].enumerated() {
                Circle().fill(colour).frame(width: 120, height: 120).offset(x: x - 60 + CGFloat(i) * 40, y: 30)
            }
        }
    }

    /// A pentagram around (110, 255), radius 70, its points joined every second vertex.
    var star: Path {
        Path { p in
            p.addLines((0..<5).map { i in
                let a = -Double.pi / 2 + Double(i * 2) * 2 * .pi / 5
                return CGPoint(x: 110 + 70 * cos(a), y: 255 + 70 * sin(a))
            })
            p.closeSubpath()
        }
    }

    /// A 120 pt circle minus a 60 pt one, under the even-odd rule.
    var ring: Path {
        var ring = Path(ellipseIn: CGRect(x: 0, y: 0, width: 120, height: 120))
        ring.addEllipse(in: CGRect(x: 30, y: 30, width: 60, height: 60))
        return ring
    }

    var body: some View {
        ZStack(alignment: .topLeading) {
            circles(x: 110).opacity(0.25)
            circles(x: 410).compositingGroup().opacity(0.25)
            star.fill(.indigo, style: FillStyle(eoFill: true))
            RoundedRectangle(cornerRadius: 28, style: .continuous)
                .fill(LinearGradient(colors: [.mint, .blue], startPoint: .topLeading, endPoint: .bottomTrailing))
                .frame(width: 160, height: 120).offset(x: 220, y: 195)
            ring.fill(AngularGradient(colors: [.red, .yellow, .green, .blue, .purple, .red], center: .center,
                                      startAngle: .zero, endAngle: .degrees(360)), style: FillStyle(eoFill: true))
                .frame(width: 120, height: 120).offset(x: 430, y: 195)
        }
        .frame(width: DemoView.size.width, height: DemoView.size.height, alignment: .topLeading)
    }
}
