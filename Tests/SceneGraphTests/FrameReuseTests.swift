import Foundation
@testable import Compositor
@testable import SceneGraph
import Testing

/// A render whose views are the same as the last render's draws the last display list again
/// (`Renderer.reusesUnchangedFrames`). It must never draw a stale list: every change of a view
/// is a different frame.
@Suite struct FrameReuseTests {
    let size = CGSize(width: 120, height: 72)

    /// A user's shape that is not `Equatable`: frames holding it can never be compared.
    struct Wedge: Shape {
        var bend: CGFloat
        func path(in rect: CGRect) -> Path {
            var p = Path()
            p.move(to: CGPoint(x: rect.minX, y: rect.maxY))
            p.addLine(to: CGPoint(x: rect.midX + bend, y: rect.minY))
            p.addLine(to: CGPoint(x: rect.maxX, y: rect.maxY))
            p.closeSubpath()
            return p
        }
    }

    /// The same shape, `Equatable`: compared by value.
    struct EquatableWedge: Shape, Equatable {
        var bend: CGFloat
        func path(in rect: CGRect) -> Path { Wedge(bend: bend).path(in: rect) }
    }

    private static let pixels: ImageContent = {
        let s = try! Surface(width: 4, height: 4)
        s.fill(.red)
        return try! ImageContent(copying: s, scale: 1)
    }()
    private static let otherPixels: ImageContent = {
        let s = try! Surface(width: 4, height: 4)
        s.fill(.red)
        return try! ImageContent(copying: s, scale: 1)
    }()

    /// Views that differ from each other in one thing each; each closure makes its view anew.
    static let variants: [(String, @Sendable () -> AnyView)] = [
        ("text", { AnyView(Text("Disponible").font(.callout)) }),
        ("other string", { AnyView(Text("Descargando").font(.callout)) }),
        ("other font", { AnyView(Text("Disponible").font(.headline)) }),
        ("bold", { AnyView(Text("Disponible").font(.callout).bold()) }),
        ("tracking", { AnyView(Text("Disponible").font(.callout).tracking(1)) }),
        ("text colour", { AnyView(Text("Disponible").font(.callout).foregroundStyle(.green)) }),
        ("environment colour", { AnyView(AnyView(Text("Disponible").font(.callout)).foregroundStyle(Color.green)) }),
        ("joined", { AnyView(Text("Dispo").font(.callout) + Text("nible").font(.callout).foregroundStyle(.red)) }),
        ("line limit", { AnyView(Text("Disponible Descargando").font(.callout).lineLimit(1).frame(width: 60)) }),
        ("circle", { AnyView(Circle().fill(.blue).frame(width: 40, height: 40)) }),
        ("circle, other colour", { AnyView(Circle().fill(.orange).frame(width: 40, height: 40)) }),
        ("circle, other frame", { AnyView(Circle().fill(.blue).frame(width: 42, height: 40)) }),
        ("circle, offset", { AnyView(Circle().fill(.blue).frame(width: 40, height: 40).offset(x: 3)) }),
        ("circle, opacity", { AnyView(Circle().fill(.blue).frame(width: 40, height: 40).opacity(0.5)) }),
        ("circle, group opacity", { AnyView(Circle().fill(.blue).frame(width: 40, height: 40).compositingGroup().opacity(0.5)) }),
        ("circle, blend", { AnyView(Circle().fill(.blue).frame(width: 40, height: 40).blendMode(.multiply)) }),
        ("circle, shadow", { AnyView(Circle().fill(.blue).frame(width: 40, height: 40).shadow(radius: 3)) }),
        ("circle, drawing group", { AnyView(Circle().fill(.blue).frame(width: 40, height: 40).drawingGroup()) }),
        ("circle, opaque drawing group", { AnyView(Circle().fill(.blue).frame(width: 40, height: 40).drawingGroup(opaque: true)) }),
        ("circle, rotated", { AnyView(Circle().fill(.blue).frame(width: 40, height: 20).rotationEffect(.degrees(30))) }),
        ("stroke", { AnyView(Circle().stroke(.blue, lineWidth: 3).frame(width: 40, height: 40)) }),
        ("wider stroke", { AnyView(Circle().stroke(.blue, lineWidth: 4).frame(width: 40, height: 40)) }),
        ("dashed stroke", { AnyView(Circle().stroke(.blue, style: StrokeStyle(lineWidth: 3, dash: [4, 2])).frame(width: 40, height: 40)) }),
        ("trimmed", { AnyView(Circle().trim(from: 0, to: 0.6).stroke(.blue, lineWidth: 3).frame(width: 40, height: 40)) }),
        ("rounded", { AnyView(RoundedRectangle(cornerRadius: 8).fill(.blue).frame(width: 60, height: 40)) }),
        ("rounder", { AnyView(RoundedRectangle(cornerRadius: 9).fill(.blue).frame(width: 60, height: 40)) }),
        ("gradient", { AnyView(Capsule().fill(LinearGradient(colors: [.mint, .blue], startPoint: .leading, endPoint: .trailing))) }),
        ("other gradient", { AnyView(Capsule().fill(LinearGradient(colors: [.mint, .teal], startPoint: .leading, endPoint: .trailing))) }),
        ("gradient, erased", { AnyView(Capsule().fill(AnyShapeStyle(LinearGradient(colors: [.mint, .blue], startPoint: .top, endPoint: .bottom)))) }),
        ("clipped", { AnyView(Color.blue.frame(width: 50, height: 50).clipShape(Circle())) }),
        ("clipped otherwise", { AnyView(Color.blue.frame(width: 50, height: 50).clipShape(Capsule())) }),
        ("masked", { AnyView(Color.blue.frame(width: 50, height: 50).mask { Circle() }) }),
        ("padded stack", { AnyView(HStack(spacing: 4) { Color.red; Color.blue }.padding(6)) }),
        ("stack, other padding", { AnyView(HStack(spacing: 4) { Color.red; Color.blue }.padding(7)) }),
        ("stack, other spacing", { AnyView(HStack(spacing: 5) { Color.red; Color.blue }.padding(6)) }),
        ("vertical stack", { AnyView(VStack(spacing: 4) { Color.red; Color.blue }.padding(6)) }),
        ("tinted", { AnyView(Capsule().fill(.tint).frame(width: 50, height: 20).tint(.pink)) }),
        ("label", { AnyView(Label("Disponible", systemImage: "checkmark")) }),
        ("other symbol", { AnyView(Label("Disponible", systemImage: "arrow.down")) }),
        ("for each", { AnyView(HStack { ForEach(0..<3) { Text("\($0)") } }) }),
        ("for each, other ids", { AnyView(HStack { ForEach(1..<4, id: \.self) { _ in Text("0") } }) }),
        ("image", { AnyView(Image(source: .pixels(pixels)).resizable().frame(width: 20, height: 20)) }),
        ("other image", { AnyView(Image(source: .pixels(otherPixels)).resizable().frame(width: 20, height: 20)) }),
        ("equatable shape", { AnyView(EquatableWedge(bend: 0).fill(.blue)) }),
        ("equatable shape, bent", { AnyView(EquatableWedge(bend: 10).fill(.blue)) }),
    ]

    private static func image(_ view: AnyView, renderer: Renderer) throws -> [UInt8] {
        let surface = try Surface(width: 120, height: 72)
        try renderer.render(view, into: surface)
        return surface.withUnsafeMutableBytes { Array($0) }
    }

    /// Every ordered pair: the second view drawn after the first is reused exactly when it is
    /// the same view (made anew), and its pixels are always those of a renderer that never
    /// reuses.
    @Test func aChangedViewIsNeverDrawnFromTheLastList() throws {
        let fresh = Renderer(threads: 1)
        fresh.reusesUnchangedFrames = false
        var expected: [[UInt8]] = []
        for (_, make) in Self.variants { expected.append(try Self.image(make(), renderer: fresh)) }
        #expect(!fresh.lastStats.reusedDisplayList)
        for (i, (first, makeFirst)) in Self.variants.enumerated() {
            let renderer = Renderer(threads: 1)
            for (j, (second, makeSecond)) in Self.variants.enumerated() {
                let (reused, pixels) = try Renderer.withoutRegistrationsMeanwhile { () throws -> (Bool, [UInt8]) in
                    _ = try Self.image(makeFirst(), renderer: renderer)
                    let pixels = try Self.image(makeSecond(), renderer: renderer)
                    return (renderer.lastStats.reusedDisplayList, pixels)
                }
                #expect(reused == (i == j), "\(first) then \(second)")
                #expect(pixels == expected[j], "\(first) then \(second)")
            }
        }
    }

    /// A shape that cannot be compared is laid out every frame; the same view value passed
    /// again is one reference, which needs no comparison.
    @Test func shapesThatAreNotEquatableAreNeverCompared() throws {
        let renderer = Renderer()
        for _ in 0..<2 {
            _ = try renderer.render(Wedge(bend: 4).fill(.blue), size: size)
            #expect(!renderer.lastStats.reusedDisplayList)
        }
        let kept = AnyView(Wedge(bend: 4).fill(.blue))
        let stats = try Renderer.withoutRegistrationsMeanwhile { () throws -> RenderStats in
            _ = try renderer.render(kept, size: size)
            _ = try renderer.render(kept, size: size)
            return renderer.lastStats
        }
        #expect(stats.reusedDisplayList)
        #expect(stats.phasesMs["lowering"] == 0)
        #expect(stats.table.contains("display list         reused"))
    }

    /// The canvas, the scale, the renderer's limits and the glyph setting are inputs too.
    @Test func otherInputsMakeANewList() throws {
        let renderer = Renderer()
        let view = AnyView(Circle().stroke(.blue, lineWidth: 3).padding(4))
        _ = try renderer.render(view, size: size)
        _ = try renderer.render(view, size: CGSize(width: 121, height: 72))
        #expect(!renderer.lastStats.reusedDisplayList)
        _ = try renderer.render(view, size: CGSize(width: 121, height: 72), scale: 2)
        #expect(!renderer.lastStats.reusedDisplayList)
        #expect(try Renderer.withoutRegistrationsMeanwhile {
            // (Twice: a registration just before the first would make it anew.)
            _ = try renderer.render(view, size: CGSize(width: 121, height: 72), scale: 2)
            _ = try renderer.render(view, size: CGSize(width: 121, height: 72), scale: 2)
            return renderer.lastStats.reusedDisplayList
        })
        renderer.maximumDashes = 100
        _ = try renderer.render(view, size: CGSize(width: 121, height: 72), scale: 2)
        #expect(!renderer.lastStats.reusedDisplayList)
        renderer.drawsGlyphsFromMasks = false
        _ = try renderer.render(view, size: CGSize(width: 121, height: 72), scale: 2)
        #expect(!renderer.lastStats.reusedDisplayList)
        renderer.reusesUnchangedFrames = false
        _ = try renderer.render(view, size: CGSize(width: 121, height: 72), scale: 2)
        _ = try renderer.render(view, size: CGSize(width: 121, height: 72), scale: 2)
        #expect(!renderer.lastStats.reusedDisplayList)
    }

    /// A symbol registered between two frames draws in the second: the name that drew
    /// nothing now draws the file's triangle.
    @Test func aSymbolRegisteredSinceMakesANewList() throws {
        let name = "test.reuse.\(UUID().uuidString.prefix(8).lowercased())"
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reuse-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(#"<svg viewBox="0 0 24 24"><path d="M0 0L24 0L12 24Z"/></svg>"#.utf8).write(to: dir.appendingPathComponent(name + ".svg"))
        let renderer = Renderer()
        let view = AnyView(Image(systemName: name).font(.system(size: 30)))
        _ = try renderer.render(view, size: size)
        #expect(renderer.lastStats.leafDraws == 0)
        try SymbolSet.register(contentsOf: dir)
        _ = try renderer.render(view, size: size)
        #expect(!renderer.lastStats.reusedDisplayList)
        #expect(renderer.lastStats.leafDraws == 1)
    }

    /// A font registered between two frames: the frame is made again (a name may find
    /// another font now).
    @Test func aFontRegisteredSinceMakesANewList() throws {
        let file = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
        try #require(FileManager.default.fileExists(atPath: file))
        let renderer = Renderer()
        let view = AnyView(Text("Hola").font(.custom("DejaVu Sans", size: 20)))
        #expect(try Renderer.withoutRegistrationsMeanwhile {
            _ = try renderer.render(view, size: size)
            _ = try renderer.render(view, size: size)
            return renderer.lastStats.reusedDisplayList
        })
        try FontRegistry.shared.register(contentsOf: URL(fileURLWithPath: file))
        _ = try renderer.render(view, size: size)
        #expect(!renderer.lastStats.reusedDisplayList)
    }

    /// An animation's frames differ until it has finished; the frames held after it are the
    /// same view, drawn from the last display list, to the same bytes as a renderer that never
    /// reuses draws them.
    @Test func framesHeldAfterAnAnimationReuseTheLastList() throws {
        let change = AnimatedChange(from: Circle().fill(.blue).frame(width: 20, height: 20).offset(x: -30),
                                    to: Circle().fill(.orange).frame(width: 40, height: 40).offset(x: 30),
                                    animation: .easeInOut(duration: 0.5))
        let (reused, differing) = try Renderer.withoutRegistrationsMeanwhile { () throws -> ([Bool], [Int]) in
            let renderer = Renderer(), fresh = Renderer()
            fresh.reusesUnchangedFrames = false
            var reused: [Bool] = [], differing: [Int] = []
            for frame in 0..<12 {
                let view = change.view(at: Double(frame) / 10, in: size)
                let surface = try renderer.render(view, size: size)
                reused.append(renderer.lastStats.reusedDisplayList)
                let expected = try fresh.render(view, size: size)
                if surface.withUnsafeMutableBytes({ Array($0) }) != expected.withUnsafeMutableBytes({ Array($0) }) { differing.append(frame) }
            }
            return (reused, differing)
        }
        #expect(differing.isEmpty, "frames drawn differently from a renderer that never reuses")
        // 0.0 … 0.5 s move (frame 5 lands on 1); 0.6 s and later hold the end.
        #expect(reused == Array(repeating: false, count: 6) + Array(repeating: true, count: 6))
    }

    /// Explicit ids are equal as their values are as `AnyHashable`s, integers compared without
    /// boxing; a structural identity is never an explicit one.
    @Test func explicitIDsKeepAnyHashableEquality() {
        #expect(ExplicitID(3) == ExplicitID(Int8(3)))
        #expect(ExplicitID(3).hashValue == ExplicitID(Int8(3)).hashValue)
        #expect(ExplicitID(3) != ExplicitID(4))
        #expect(ExplicitID(3) != ExplicitID("3"))
        #expect(ExplicitID("a") == ExplicitID("a"))
        #expect(ViewID(ExplicitID(0)) != ViewID(StructuralID.position(0)))
        #expect(ViewID(StructuralID.position(2)).structural == .position(2))
        #expect(ViewID(ExplicitID(2)).structural == nil)
    }
}
