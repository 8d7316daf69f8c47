// SwiftUI code as people write it, with `import SwiftUI` changed to `import SceneGraph` and
// nothing else: this file compiling (in Swift 6 mode, like the whole package) is the test.
// Keep it free of anything SceneGraph-only; SnippetTests.swift renders what it declares.
import SceneGraph

// A view value at file scope: Swift 6 requires it to be Sendable.
let borde = Capsule().strokeBorder(.blue, lineWidth: 6)

struct TintedBorder: View {
    var body: some View {
        Capsule().strokeBorder(.tint, lineWidth: 6)
            .frame(width: 120, height: 44)
    }
}

struct Badge: View {
    var isAvailable: Bool
    var color: Color { isAvailable ? .green : .orange }

    var body: some View {
        HStack(spacing: 8) {
            Circle().fill(color).frame(width: 10, height: 10)
            Capsule().fill(color.opacity(0.6)).frame(width: 60, height: 8)
        }
        .padding(.horizontal, 16)
        .padding(.vertical, 10)
        .background(color.opacity(0.15), in: .capsule)
    }
}

struct ProgressRing: View {
    var progress: Double

    var body: some View {
        ZStack {
            Circle()
                .stroke(Color.blue.opacity(0.15), lineWidth: 14)
            Circle()
                .trim(from: 0, to: progress)
                .stroke(.blue, style: StrokeStyle(lineWidth: 14, lineCap: .round))
                .rotationEffect(.degrees(-90))
        }
        .frame(width: 120, height: 120)
    }
}

struct CardStyle: ViewModifier {
    var cornerRadius: CGFloat = 16

    func body(content: Content) -> some View {
        content
            .padding()
            .background(RoundedRectangle(cornerRadius: cornerRadius).fill(.white))
            .shadow(radius: 4, y: 2)
    }
}

extension View {
    func cardStyle() -> some View {
        modifier(CardStyle())
    }
}

struct Wedge: Shape {
    var startAngle: Double
    var endAngle: Double

    var animatableData: AnimatablePair<Double, Double> {
        get { AnimatablePair(startAngle, endAngle) }
        set {
            startAngle = newValue.first
            endAngle = newValue.second
        }
    }

    func path(in rect: CGRect) -> Path {
        var path = Path()
        let center = CGPoint(x: rect.midX, y: rect.midY)
        path.move(to: center)
        path.addArc(center: center, radius: min(rect.width, rect.height) / 2,
                    startAngle: .degrees(startAngle), endAngle: .degrees(endAngle), clockwise: false)
        path.closeSubpath()
        return path
    }
}

struct Diamond: InsettableShape {
    var insetAmount: CGFloat = 0

    func path(in rect: CGRect) -> Path {
        let r = rect.insetBy(dx: insetAmount, dy: insetAmount)
        var path = Path()
        path.move(to: CGPoint(x: r.midX, y: r.minY))
        path.addLine(to: CGPoint(x: r.maxX, y: r.midY))
        path.addLine(to: CGPoint(x: r.midX, y: r.maxY))
        path.addLine(to: CGPoint(x: r.minX, y: r.midY))
        path.closeSubpath()
        return path
    }

    func inset(by amount: CGFloat) -> some InsettableShape {
        var diamond = self
        diamond.insetAmount += amount
        return diamond
    }
}

struct Swatches: View {
    let colors: [Color] = [.red, .orange, .yellow, .green, .mint, .blue]
    var showsDiamond = true

    var body: some View {
        VStack(alignment: .leading, spacing: 12) {
            ForEach(colors.indices, id: \.self) { index in
                RoundedRectangle(cornerRadius: 6)
                    .fill(colors[index])
                    .frame(width: 40 + CGFloat(index) * 10, height: 8)
            }
            if showsDiamond {
                Diamond().strokeBorder(.purple, lineWidth: 2).frame(width: 24, height: 24)
            } else {
                EmptyView()
            }
        }
        .frame(maxWidth: .infinity, alignment: .leading)
        .compositingGroup()
        .opacity(0.5)
    }
}

struct Orbit: View {
    @ViewBuilder var planets: some View {
        Circle().fill(.blue).frame(width: 64, height: 64).offset(x: -18)
        Circle().fill(.orange).frame(width: 64, height: 64).offset(x: 18)
    }

    var body: some View {
        ZStack { planets }
            .overlay(alignment: .topTrailing) {
                Circle().fill(.pink).frame(width: 12, height: 12)
            }
            .drawingGroup(opaque: false, colorMode: .linear)
            .geometryGroup()
            .clipShape(.rect(cornerRadius: 20))
    }
}

struct Spotlight: View {
    var body: some View {
        Rectangle()
            .fill(LinearGradient(colors: [.mint, .blue], startPoint: .topLeading, endPoint: .bottomTrailing))
            .mask {
                Circle().padding(10)
            }
            .blendMode(.multiply)
            .tint(.pink)
            .foregroundStyle(.secondary)
    }
}

struct Pie: View {
    var slices: [(Double, Color)] = [(0.5, .blue), (0.3, .orange), (0.2, .green)]

    var body: some View {
        ZStack {
            ForEach(slices.indices, id: \.self) { i in
                let start = slices[..<i].reduce(0) { $0 + $1.0 } * 360
                Wedge(startAngle: start, endAngle: start + slices[i].0 * 360)
                    .fill(slices[i].1)
            }
        }
        .aspectRatio(1, contentMode: .fit)
    }
}

struct Layout: View {
    var body: some View {
        HStack {
            Spacer()
            Group {
                Color.red
                Color.green.layoutPriority(1)
            }
            .frame(minWidth: 20, maxWidth: 80)
            Spacer(minLength: 4)
        }
        .fixedSize(horizontal: false, vertical: true)
        .frame(height: 40)
    }
}

// The geometryGroup seed: a download badge whose label and icon change while it moves across.
struct DownloadStatus: View {
    var isAvailable: Bool

    var body: some View {
        let color: Color = isAvailable ? .green : .blue
        Label(isAvailable ? "Disponible" : "Descargando",
              systemImage: isAvailable ? "checkmark" : "arrow.down")
            .font(.headline)
            .foregroundStyle(color)
            .padding(.horizontal, 16)
            .padding(.vertical, 10)
            .background(color.opacity(0.15), in: .capsule)
    }
}

struct DownloadExample: View {
    @State private var isAvailable = false

    var body: some View {
        VStack(spacing: 24) {
            DownloadStatus(isAvailable: isAvailable)
                .geometryGroup()
                .frame(maxWidth: .infinity, alignment: isAvailable ? .trailing : .leading)

            Button("Cambiar estado") {
                withAnimation(.easeInOut(duration: 1.2)) {
                    isAvailable.toggle()
                }
            }
        }
        .padding()
    }
}

// The radar seal's centre.
struct RadarCentre: View {
    var body: some View {
        Image(systemName: "wave.3.right")
            .font(.system(size: 38, weight: .semibold))
            .foregroundStyle(.mint)
    }
}
