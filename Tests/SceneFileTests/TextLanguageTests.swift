import Foundation
import SceneFile
import SceneGraph
import Testing

/// Text in scene files: the same display list as the same views written in Swift, and located
/// errors for bad text input.
@Suite struct TextLanguageTests {
    @Test func textScenesEqualSwift() throws {
        let scene = try Scene(source: """
            canvas(width: 240, height: 160)
            VStack(alignment: .leading, spacing: 4) {
                Text("Disponible").font(.headline).foregroundStyle(.green)
                Text("Hola, ") + Text("mundo").bold().foregroundColor(.pink)
                Text("A paragraph that wraps to the width it is given.")
                    .font(.system(size: 13, weight: .medium))
                    .frame(width: 120, alignment: .leading)
                Text("Tracking").tracking(2).italic()
                Text("Font.system").font(Font.system(size: 20, weight: .bold).italic())
            }
            .lineLimit(2)
            .multilineTextAlignment(.center)
            .font(.caption)
            """)
        let swift = VStack(alignment: .leading, spacing: 4) {
            Text("Disponible").font(.headline).foregroundStyle(.green)
            Text("Hola, ") + Text("mundo").bold().foregroundColor(.pink)
            Text("A paragraph that wraps to the width it is given.")
                .font(.system(size: 13, weight: .medium))
                .frame(width: 120, alignment: .leading)
            Text("Tracking").tracking(2).italic()
            Text("Font.system").font(Font.system(size: 20, weight: .bold).italic())
        }
        .lineLimit(2)
        .multilineTextAlignment(.center)
        .font(.caption)
        let size = CGSize(width: 240, height: 160)
        let fromScene = try Renderer().displayList(for: scene.view, size: size)
        #expect(fromScene == (try Renderer().displayList(for: swift, size: size)))
        #expect(fromScene.leaves.count == 6)
    }

    @Test(arguments: [
        ("Text(\"a\").font(.system(size: -3))", "argument 'size' must be a positive number below 10000, got -3"),
        ("Text(\"a\").font(.system(size: 50000))", "argument 'size' must be a positive number below 10000, got 50000"),
        ("Text(\"a\").font(.huge)", "type 'Font' has no member 'huge'"),
        ("Text(\"a\").lineLimit(0)", "a line limit must be at least 1, got 0"),
        ("Text(\"a\") + Circle()", "'+' joins two texts, got a text and a shape"),
        ("Text(\"a\").fontWeight(.heavyish)", "type 'Font.Weight' has no member 'heavyish'"),
    ])
    func badTextIsALocatedError(_ source: String, _ message: String) {
        #expect {
            try Scene(source: source, fileName: "t.scene")
        } throws: { error in
            "\(error)".contains("t.scene:1:") && "\(error)".contains(message)
        }
    }

    /// The seed's label and the radar seal's symbol, in a scene and in Swift: the same display
    /// list (TEXT.md §6.14); the builder form with labelled trailing closures too.
    @Test func labelsAndSymbolsEqualSwift() throws {
        let scene = try Scene(source: """
            canvas(width: 240, height: 160)
            VStack(spacing: 24) {
                Label("Descargando", systemImage: "arrow.down")
                    .font(.headline)
                    .foregroundStyle(.blue)
                    .padding(.horizontal, 16)
                    .padding(.vertical, 10)
                    .background(Color.blue.opacity(0.15), in: .capsule)
                Image(systemName: "wave.3.right")
                    .font(.system(size: 38, weight: .semibold))
                    .foregroundStyle(.mint)
                Label { Text("Radar") } icon: { Circle().frame(width: 8, height: 8) }
                    .labelStyle(.titleAndIcon)
                Image(systemName: "heart").symbolVariant(.fill).imageScale(.large)
            }
            """)
        let swift = VStack(spacing: 24) {
            Label("Descargando", systemImage: "arrow.down")
                .font(.headline)
                .foregroundStyle(.blue)
                .padding(.horizontal, 16)
                .padding(.vertical, 10)
                .background(Color.blue.opacity(0.15), in: Capsule())
            Image(systemName: "wave.3.right")
                .font(.system(size: 38, weight: .semibold))
                .foregroundStyle(.mint)
            Label { Text("Radar") } icon: { Circle().frame(width: 8, height: 8) }
                .labelStyle(.titleAndIcon)
            Image(systemName: "heart").symbolVariant(.fill).imageScale(.large)
        }
        let size = CGSize(width: 240, height: 160)
        let fromScene = try Renderer().displayList(for: scene.view, size: size)
        #expect(fromScene == (try Renderer().displayList(for: swift, size: size)))
        #expect(fromScene.leaves.count == 7)
    }

    /// A Button draws its label in the accent colour; its action is not run (nor evaluated).
    @Test func buttonsEqualSwift() throws {
        let scene = try Scene(source: """
            VStack {
                Button("Cambiar estado") { withAnimation(.easeInOut(duration: 1.2)) { isAvailable.toggle() } }
                Button(action: {}) { Label("Borrar", systemImage: "trash") }.tint(.red)
            }
            """)
        let swift = VStack {
            Button("Cambiar estado") {}
            Button(action: {}) { Label("Borrar", systemImage: "trash") }.tint(.red)
        }
        let size = CGSize(width: 240, height: 100)
        #expect(try Renderer().displayList(for: scene.view, size: size) == Renderer().displayList(for: swift, size: size))
    }

    /// An unknown symbol is a located error in a scene, with the nearest name.
    @Test(arguments: [
        ("Image(systemName: \"chekmark\")", "t.scene:1:7: error: no symbol named 'chekmark'", "did you mean 'checkmark'?"),
        ("Label(\"a\", systemImage: \"arow.down\")", "t.scene:1:12: error: no symbol named 'arow.down'", "did you mean 'arrow.down'?"),
        ("Image(systemName: \"qqqqqqqqqqqq\")", "no symbol named 'qqqqqqqqqqqq'", "docs/text.md"),
        ("Circle().labelStyle(.fancy)", "has no member 'fancy'", ""),
    ])
    func unknownSymbolsAreLocatedErrors(_ source: String, _ message: String, _ hint: String) {
        #expect {
            try Scene(source: source, fileName: "t.scene")
        } throws: { error in
            "\(error)".contains("t.scene:1:") && "\(error)".contains(message) && (hint.isEmpty || "\(error)".contains(hint))
        }
    }

    /// A 10-million-character string is refused before it is laid out.
    @Test func aHugeTextIsRefused() {
        let source = "Text(\"" + String(repeating: "a", count: 200_000) + "\")"
        #expect {
            try Scene(source: source, fileName: "t.scene")
        } throws: { error in
            "\(error)".contains("a Text holds at most 100000 characters, this one 200000")
        }
    }
}
