import Foundation
import SceneGraph

// The ratios to cairo as a bar chart, drawn with this engine itself (there is no font: each
// bar carries its ratio in seven-segment digits above it and its position number below; the
// README lists the scenes in order). Bars: green at or under the scene's target, orange under
// parity, red above it; the grey line is parity (1.0), the dashed tick on each bar its target.

/// One digit or a dot as seven-segment strokes, in a 6 × 10 box at `origin`.
func segmentGlyph(_ c: Character, at origin: CGPoint) -> Path {
    let segments: [Character: String] = [
        "0": "abcdef", "1": "bc", "2": "abdeg", "3": "abcdg", "4": "bcfg", "5": "acdfg", "6": "acdefg",
        "7": "abc", "8": "abcdefg", "9": "abcdfg", "-": "g",
    ]
    var p = Path()
    let (x, y) = (origin.x, origin.y)
    func bar(_ x0: CGFloat, _ y0: CGFloat, _ x1: CGFloat, _ y1: CGFloat) {
        p.addRect(CGRect(x: x + min(x0, x1), y: y + min(y0, y1), width: max(1.2, abs(x1 - x0)), height: max(1.2, abs(y1 - y0))))
    }
    if c == "." { p.addRect(CGRect(x: x, y: y + 8.8, width: 1.6, height: 1.6)); return p }
    for s in segments[c] ?? "" {
        switch s {
        case "a": bar(0, 0, 6, 0)
        case "b": bar(6 - 1.2, 0, 6 - 1.2, 5)
        case "c": bar(6 - 1.2, 5, 6 - 1.2, 10)
        case "d": bar(0, 10 - 1.2, 6, 10 - 1.2)
        case "e": bar(0, 5, 0, 10)
        case "f": bar(0, 0, 0, 5)
        default: bar(0, 5 - 0.6, 6, 5 - 0.6)
        }
    }
    return p
}

func segmentText(_ text: String, centeredAt center: CGPoint) -> Path {
    // A dot takes half a digit's room.
    let advances = text.map { $0 == "." ? CGFloat(4) : 8 }
    let width = advances.reduce(0, +) - 2
    var p = Path()
    var x = center.x - width / 2
    for (c, advance) in zip(text, advances) {
        p.addPath(segmentGlyph(c, at: CGPoint(x: x, y: center.y - 5)))
        x += advance
    }
    return p
}

/// The chart of `ratios` (scene order as given) with each scene's target.
struct RatioChart: View {
    var bars: [(ratio: Double?, target: Double)]
    static let plotHeight: CGFloat = 220, barWidth: CGFloat = 36, gap: CGFloat = 16, margin: CGFloat = 40
    var width: CGFloat { Self.margin * 2 + CGFloat(bars.count) * (Self.barWidth + Self.gap) }
    var height: CGFloat { Self.plotHeight + 90 }
    /// Ratios up to 1.5 fit; taller bars are cut at the top.
    func y(_ ratio: Double) -> CGFloat { 40 + Self.plotHeight * (1 - CGFloat(min(ratio, 1.5) / 1.5)) }

    var body: some View {
        ZStack(alignment: .topLeading) {
            Color.white
            ForEach(Array(bars.enumerated()), id: \.offset) { item in
                let (i, bar) = item
                let x = Self.margin + CGFloat(i) * (Self.barWidth + Self.gap)
                let top = y(bar.ratio ?? 0), bottom = y(0)
                let colour: Color = bar.ratio == nil ? .gray : bar.ratio! <= bar.target ? .green : bar.ratio! <= 1 ? .orange : .red
                Path(CGRect(x: x, y: top, width: Self.barWidth, height: bottom - top)).fill(colour)
                Path { p in
                    p.move(to: CGPoint(x: x - 4, y: y(bar.target)))
                    p.addLine(to: CGPoint(x: x + Self.barWidth + 4, y: y(bar.target)))
                }
                .stroke(.black, style: StrokeStyle(lineWidth: 1.5, dash: [4, 3]))
                segmentText(bar.ratio.map { String(format: "%.2f", $0) } ?? "-", centeredAt: CGPoint(x: x + Self.barWidth / 2, y: top - 12))
                    .fill(.black)
                segmentText("\(i + 1)", centeredAt: CGPoint(x: x + Self.barWidth / 2, y: bottom + 16)).fill(.gray)
            }
            Path { p in
                p.move(to: CGPoint(x: Self.margin - 10, y: y(1)))
                p.addLine(to: CGPoint(x: width - Self.margin + 10, y: y(1)))
                p.move(to: CGPoint(x: Self.margin - 10, y: y(0)))
                p.addLine(to: CGPoint(x: width - Self.margin + 10, y: y(0)))
            }
            .stroke(Color.gray, lineWidth: 1)
        }
        .frame(width: width, height: height)
    }
}
