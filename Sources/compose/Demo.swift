import Compositor
import Foundation

/// The built-in demo: the group-opacity lesson in one picture. Left, three circles at 25 %
/// opacity each (overlaps show every colour); right, the same circles opaque inside one group
/// at 25 % (overlaps show only the top colour). Below, an even-odd star, a continuous rounded
/// rectangle with a gradient and a conic ring.
enum Demo {
    static let width = 600.0, height = 340.0

    static func render(scale: Double) throws -> Surface {
        let surface = try Surface(width: Int((width * scale).rounded()), height: Int((height * scale).rounded()))
        surface.fill(.white)
        let canvas = Canvas(surface)
        let t = CGAffineTransform(scaleX: scale, y: scale)
        let colours: [Color] = [.blue, .pink, .orange]

        // Per-leaf opacity.
        for (i, c) in colours.enumerated() {
            let cx = 110.0 + Double(i) * 40
            try canvas.fill(Path(ellipseIn: CGRect(x: cx - 60, y: 30, width: 120, height: 120)), with: .color(c),
                            transform: t, opacity: 0.25)
        }
        // Group opacity: the circles opaque in a layer, the layer at 25 %.
        let layer = try Surface(width: surface.width, height: surface.height)
        let layerCanvas = Canvas(layer, rasterizer: canvas.rasterizer)
        for (i, c) in colours.enumerated() {
            let cx = 410.0 + Double(i) * 40
            try layerCanvas.fill(Path(ellipseIn: CGRect(x: cx - 60, y: 30, width: 120, height: 120)), with: .color(c), transform: t)
        }
        try surface.composite(layer, opacity: 0.25)

        // An even-odd pentagram.
        let star = Path { p in
            p.addLines((0..<5).map { i in
                let a = -Double.pi / 2 + Double(i * 2) * 2 * .pi / 5
                return CGPoint(x: 110 + 70 * cos(a), y: 255 + 70 * sin(a))
            })
            p.closeSubpath()
        }
        try canvas.fill(star, with: .color(.indigo), fillRule: .evenOdd, transform: t)

        // A continuous rounded rectangle with a linear gradient.
        let card = Path(roundedRect: CGRect(x: 220, y: 195, width: 160, height: 120), cornerRadius: 28, style: .continuous)
        try canvas.fill(card, with: .linearGradient(Gradient(colors: [.mint, .blue]), start: CGPoint(x: 220, y: 195),
                                                     end: CGPoint(x: 380, y: 315)), transform: t)

        // A conic ring: a circle minus a smaller one under even-odd.
        var ring = Path(ellipseIn: CGRect(x: 430, y: 195, width: 120, height: 120))
        ring.addEllipse(in: CGRect(x: 460, y: 225, width: 60, height: 60))
        try canvas.fill(ring, with: .angularGradient(Gradient(colors: [.red, .yellow, .green, .blue, .purple, .red]),
                                                     center: CGPoint(x: 490, y: 255), startAngle: .zero, endAngle: .degrees(360)),
                        fillRule: .evenOdd, transform: t)
        return surface
    }
}
