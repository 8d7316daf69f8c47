import Compositor
import Foundation
import SceneGraph
import Testing

@Suite struct RenderStatsTests {
    let size = CGSize(width: 200, height: 120)

    /// A display list made once and drawn by `render(_:into:)` gives the pixels and layers of
    /// the whole render, and its statistics have no layout or lowering phase.
    @Test func aDisplayListDrawsAsTheViewRenders() throws {
        let view = VStack {
            Circles().compositingGroup().opacity(0.5)
            Text("Descargando").font(.headline).foregroundStyle(.mint)
        }
        let renderer = Renderer()
        let whole = try renderer.render(view, size: size, scale: 2)
        let layers = renderer.lastStats.layers
        #expect(renderer.lastStats.phasesMs["layout"]! > 0)
        let list = try renderer.displayList(for: view, size: size, scale: 2)
        let drawn = try Surface(width: whole.width, height: whole.height)
        try renderer.render(list, into: drawn)
        #expect(try drawn.compare(to: whole).maxChannelDifference == 0)
        #expect(renderer.lastStats.layers == layers && renderer.lastStats.glyphs == 11)
        #expect(renderer.lastStats.phasesMs["layout"] == 0 && renderer.lastStats.phasesMs["lowering"] == 0)
    }

    @Test func perLeafOpacityMakesNoLayer() throws {
        let renderer = Renderer()
        _ = try renderer.render(Circles().opacity(0.25), size: size, scale: 3)
        let stats = renderer.lastStats
        #expect(stats.leafDraws == 3)
        #expect(stats.layers.isEmpty)
        #expect(stats.peakOffscreenBytes == 0)
    }

    @Test func aCompositingGroupIsOneLayerOfItsBoundsTimesFour() throws {
        // The circles' ink at 3×: x 150 … 450, y 84 … 276 (r = 96 around (246 … 354, 180));
        // plus the 2 px margin: [148, 82, 304, 196] → 304 · 196 · 4 = 238,336 bytes.
        let renderer = Renderer()
        _ = try renderer.render(Circles().compositingGroup().opacity(0.25), size: size, scale: 3)
        let stats = renderer.lastStats
        #expect(stats.leafDraws == 3)
        #expect(stats.layers == [RenderStats.Layer(kind: .compositingGroup, bounds: PixelRect(x: 148, y: 82, width: 304, height: 196),
                                                   bytesPerPixel: 4)])
        #expect(stats.layers[0].bytes == 238_336 && stats.layers[0].pixels == 59_584)
        #expect(stats.peakOffscreenBytes == 238_336)
    }

    @Test func nestedLayersAddUpAtThePeakSiblingsDoNot() throws {
        // Two 10 × 10 squares side by side (each with a smaller one on top: a group of one leaf
        // would be folded into it), each its own group, inside an outer group.
        // Each inner layer: (10 + 2·2)² · 4 = 784 bytes; the outer one 34 · 14 · 4 = 1,904.
        // The inner layers live one after the other: peak = outer + one inner.
        let square = ZStack { Color.red.frame(width: 10, height: 10); Color.blue.frame(width: 4, height: 4) }.compositingGroup()
        let view = HStack(spacing: 10) { square; square }.compositingGroup()
        let renderer = Renderer()
        _ = try renderer.render(view, size: CGSize(width: 50, height: 20))
        let stats = renderer.lastStats
        #expect(stats.layers.map(\.kind) == [.compositingGroup, .compositingGroup, .compositingGroup])
        let (outer, inner) = (stats.layers[0], stats.layers[1])
        // The HStack is 30 × 10, centred in 50 × 20: x 10 … 40, y 5 … 15; with margins 34 × 14.
        #expect(outer.bounds == [8, 3, 34, 14] && outer.bytes == 1_904)
        #expect(inner.bounds == [8, 3, 14, 14] && inner.bytes == 784)
        #expect(stats.layers[2].bounds == [28, 3, 14, 14])
        #expect(stats.peakOffscreenBytes == 1_904 + 784)
        #expect(stats.leafDraws == 4)
    }

    @Test func shadowsAndDrawingGroupsAreCounted() throws {
        // A 20 × 20 square at (10, 10) with a shadow of radius 4 (σ = 2, blur extent ⌈3σ⌉ = 6)
        // offset by (3, 3): the mask covers the moved square [13, 13, 20, 20] plus 6 each side,
        // [7, 7, 32, 32], one byte a pixel.
        let renderer = Renderer()
        let square = Color.red.frame(width: 20, height: 20)
        _ = try renderer.render(square.shadow(color: .black, radius: 4, x: 3, y: 3), size: CGSize(width: 40, height: 40))
        #expect(renderer.lastStats.layers == [RenderStats.Layer(kind: .shadow, bounds: PixelRect(x: 7, y: 7, width: 32, height: 32),
                                                                bytesPerPixel: 1)])
        #expect(renderer.lastStats.peakOffscreenBytes == 1_024)
        // An extended-linear drawing group stores 16 bytes a pixel: 20 · 20 · 16 = 6,400.
        _ = try renderer.render(square.drawingGroup(colorMode: .extendedLinear).opacity(0.5), size: CGSize(width: 40, height: 40))
        #expect(renderer.lastStats.layers == [RenderStats.Layer(kind: .drawingGroup, bounds: PixelRect(x: 10, y: 10, width: 20, height: 20),
                                                                bytesPerPixel: 16)])
        #expect(renderer.lastStats.layers[0].bytes == 6_400)
        #expect(renderer.lastLayers == [PixelRect(x: 10, y: 10, width: 20, height: 20)])
    }

    @Test func coveragePixelsCountWhatTheRasterizerComputed() throws {
        // A 10 × 10 square half a pixel off the grid touches 11 × 10 pixels, whose coverage the
        // rasterizer computes: 110; a second one doubles that. On whole pixels a rectangle's
        // coverage is exactly 1 inside, so it skips the rasterizer: 0. A hit of a cached
        // drawing group computes none either.
        let renderer = Renderer()
        let one = Rectangle().fill(.red).frame(width: 10, height: 10).offset(x: 0.5)
        _ = try renderer.render(one, size: CGSize(width: 20, height: 20))
        #expect(renderer.lastStats.coveragePixels == 110)
        _ = try renderer.render(VStack(spacing: 0) { one; one }, size: CGSize(width: 20, height: 20))
        #expect(renderer.lastStats.coveragePixels == 220)
        _ = try renderer.render(Rectangle().fill(.red).frame(width: 10, height: 10), size: CGSize(width: 20, height: 20))
        #expect(renderer.lastStats.coveragePixels == 0)
        _ = try renderer.render(one.drawingGroup(), size: CGSize(width: 20, height: 20))
        _ = try renderer.render(one.drawingGroup(), size: CGSize(width: 20, height: 20))
        #expect(renderer.lastStats.coveragePixels == 0 && renderer.lastStats.cache.hits == 1)
    }

    @Test func phasesAndJSON() throws {
        let renderer = Renderer()
        _ = try renderer.render(Circles().compositingGroup().shadow(radius: 3), size: size, scale: 2)
        let stats = renderer.lastStats
        #expect(Set(stats.phasesMs.keys) == Set(RenderStats.phases))
        #expect(stats.phasesMs.values.allSatisfy { $0 >= 0 && $0.isFinite })
        #expect(stats.phasesMs["rasterization"]! > 0 && stats.phasesMs["filters"]! > 0)
        // The group's shadow mask is made while the group's layer is alive.
        #expect(stats.peakOffscreenBytes == stats.layers[0].bytes + stats.layers[1].bytes)
        let object = try JSONSerialization.jsonObject(with: try stats.json()) as! [String: Any]
        #expect(Set(object.keys) == ["cache", "coveragePixels", "leafDraws", "layers", "peakOffscreenBytes", "phasesMs", "reusedImages",
                                     "glyphs", "glyphCache", "reusedDisplayList"])
        let layers = object["layers"] as! [[String: Any]]
        #expect(layers.map { $0["kind"] as! String } == ["compositingGroup", "shadow"])
        #expect(layers[0]["bounds"] as! [Int] == stats.layers[0].bounds)
        #expect(try JSONDecoder().decode(RenderStats.self, from: try stats.json()) == stats)
        #expect(stats.table.contains("compositingGroup") && stats.table.contains("peak offscreen bytes"))
    }
}

@Suite struct RenderOverlayTests {
    let size = CGSize(width: 200, height: 120)

    @Test func offscreenTintsLayersOnceAndNothingElse() throws {
        let renderer = Renderer()
        // Per leaf: no layer, so the overlay changes no pixel.
        let plain = try renderer.render(Circles().opacity(0.25), size: size, scale: 3)
        let tinted = try renderer.render(Circles().opacity(0.25), size: size, scale: 3)
        try renderer.lastStats.drawOverlay(.offscreen, on: tinted)
        #expect(try tinted.compare(to: plain).differingPixels == 0)

        // Two nested groups: the outer [148, 82, 304, 196] contains the inner; white inside both
        // (at (150, 84), outside the circles' ink) becomes yellow 0xFFCC00 at 0.5 over white,
        // tinted once: (255, 0.5·204 + 127.5 = 229.5, 0 + 127.5 = 127.5), ±1 for the halves.
        let grouped = Circles().compositingGroup().compositingGroup().opacity(0.25)
        let s = try renderer.render(grouped, size: size, scale: 3)
        #expect(renderer.lastStats.layers.count == 2)
        try renderer.lastStats.drawOverlay(.offscreen, on: s)
        let p = s.pixel(x: 150, y: 84)
        #expect(p.r == 255 && abs(Int(p.g) - 230) <= 1 && abs(Int(p.b) - 128) <= 1, "\(p)")
        // Outside the layer the white stays.
        #expect(s.pixel(x: 146, y: 84) == RGBA8(255, 255, 255, 255))
    }

    @Test func layersOutlinesEachLayerInItsKindsColour() throws {
        let renderer = Renderer()
        let s = try renderer.render(Circles().compositingGroup().opacity(0.25), size: size, scale: 3)
        try renderer.lastStats.drawOverlay(.layers, on: s)
        // The layer [148, 82, 304, 196]: its outermost pixels are red (0xFF3B30), the next ring in
        // is the white background again.
        for (x, y) in [(148, 82), (451, 82), (148, 277), (300, 82), (148, 180)] {
            #expect(s.pixel(x: x, y: y) == RGBA8(0xFF, 0x3B, 0x30, 255), "(\(x), \(y))")
        }
        #expect(s.pixel(x: 149, y: 83) == RGBA8(255, 255, 255, 255))
        #expect(s.pixel(x: 147, y: 82) == RGBA8(255, 255, 255, 255))
        #expect(RenderOverlay.colour(of: .drawingGroup) == .blue && RenderOverlay.colour(of: .shadow) == .purple)
    }
}

@Suite struct RenderTraceTests {
    /// Leaves drawn one after another make one span, however many (a page of labels timed
    /// every leaf into a span of its own: thousands a frame), and the phase's time is still
    /// the sum of the calls, each no longer than the span that holds it.
    @Test func consecutiveLeavesShareOneSpan() throws {
        let renderer = Renderer(threads: 1)
        let view = ZStack {
            ForEach(0..<200) { i in Circle().fill(Color(red: Double(i % 7) / 7, green: 0.5, blue: 0.2)).frame(width: 8, height: 8).offset(x: Double(i % 20) * 10 - 100) }
        }
        _ = try renderer.render(view, size: CGSize(width: 220, height: 40))
        let (stats, trace) = (renderer.lastStats, renderer.lastTrace)
        #expect(stats.leafDraws == 200)
        let phases = trace.spans.filter { $0.category == "phase" }
        #expect(phases.map(\.name) == ["layout", "lowering", "planning", "rasterization"])
        let raster = try #require(phases.last)
        let total = try #require(stats.phasesMs["rasterization"])
        #expect(total > 0 && total <= raster.duration / 1e3 + 1e-9)
        #expect(RenderStats.phases.allSatisfy { stats.phasesMs[$0] != nil })
    }

    @Test func spansNestAndSerializeAsChromeTraceEvents() throws {
        let renderer = Renderer()
        let view = HStack {
            Circles().compositingGroup().shadow(radius: 3)
            Circles().shadow(radius: 2)
        }
        _ = try renderer.render(view, size: CGSize(width: 300, height: 100), scale: 2)
        let (stats, trace) = (renderer.lastStats, renderer.lastTrace)
        // One span for the render, one per timed call (3 layout/lowering/planning, 6 leaves, 1
        // group composite, 4 shadows, the batches begun and ended, and no flush: no fill is
        // recorded before a leaf with a shadow or the group) except that calls of one phase with
        // nothing else recorded between share one (the group layer's batch start, its 3 leaves
        // and its batch end; the last leaf and the surface's batch end); one per offscreen image.
        #expect(trace.spans.first?.name == "render")
        #expect(trace.spans.filter { $0.category == "layer" }.map(\.name) .sorted()
                == stats.layers.map(\.kind.rawValue).sorted())
        #expect(stats.leafDraws == 6)
        #expect(trace.spans.filter { $0.category == "phase" }.map(\.name)
                == ["layout", "lowering", "planning", "rasterization", "rasterization", "filters", "composition",
                    "filters", "rasterization", "filters", "rasterization", "filters", "rasterization"])
        // Each layer span names its layer: every index once, with that layer's kind and bounds
        // (spans close in release order, the layers list is in allocation order).
        let indexed = trace.spans.filter { $0.category == "layer" }.compactMap { span in span.args["index"].flatMap(Int.init).map { ($0, span) } }
        #expect(indexed.map(\.0).sorted() == Array(stats.layers.indices))
        #expect(indexed.allSatisfy { stats.layers[$0.0].kind.rawValue == $0.1.name && "\(stats.layers[$0.0].bounds)" == $0.1.args["bounds"] })
        // Spans on one thread must nest: any two are disjoint or one contains the other.
        let eps = 1e-6
        for a in trace.spans {
            for b in trace.spans {
                let (a0, a1, b0, b1) = (a.start, a.start + a.duration, b.start, b.start + b.duration)
                let disjoint = a1 <= b0 + eps || b1 <= a0 + eps
                let aInB = a0 >= b0 - eps && a1 <= b1 + eps, bInA = b0 >= a0 - eps && b1 <= a1 + eps
                #expect(disjoint || aInB || bInA, "\(a) vs \(b)")
            }
        }
        // The group's composite happens inside the group layer's span.
        let group = try #require(trace.spans.first { $0.name == "compositingGroup" })
        #expect(trace.spans.contains { $0.name == "composition" && $0.start >= group.start
                                       && $0.start + $0.duration <= group.start + group.duration })
        let json = try JSONSerialization.jsonObject(with: try trace.chromeTraceJSON()) as! [String: Any]
        let events = json["traceEvents"] as! [[String: Any]]
        #expect(events.count == trace.spans.count)
        #expect(events.allSatisfy { $0["ph"] as? String == "X" && $0["ts"] is Double && $0["dur"] is Double })
        #expect((events.first { $0["name"] as? String == "compositingGroup" }?["args"] as? [String: String])?["bytes"]
                == "\(stats.layers(.compositingGroup)[0].bytes)")
    }
}

@Suite struct OffscreenLimitTests {
    /// Eight nested compositing groups filling a 100 × 100 canvas each hold a 100 × 100 layer
    /// (ink + 2 px margin, cut to the canvas: 40,000 bytes) while the next is drawn: 8 × 40,000 =
    /// 320,000 bytes at once. A limit below that is an error, not an allocation, and every
    /// surface made before the error is released. (Two leaves inside: groups around one leaf
    /// are folded into it, without a layer.)
    @Test func nestedLayersBeyondTheLimitAreAnError() throws {
        var view = AnyView(ZStack { Color.red; Color.blue.frame(width: 10, height: 10) })
        for _ in 0..<8 { view = AnyView(ZStack { view }.compositingGroup().opacity(0.9)) }
        let renderer = Renderer()
        _ = try renderer.render(view, size: CGSize(width: 100, height: 100))
        #expect(renderer.lastStats.peakOffscreenBytes == 8 * 100 * 100 * 4)
        renderer.maximumOffscreenBytes = 300_000
        let alive = LiveImageTracker.track {
            #expect(throws: RenderError.offscreenLimit(needed: 320_000, limit: 300_000)) {
                _ = try renderer.render(view, size: CGSize(width: 100, height: 100))
            }
        }
        #expect(alive == 0)
    }
}

@Suite struct StrokeLimitRenderTests {
    /// 1,000 dashes (a 1,000 pt line, dash [0.5]; see `StrokeLimitTests`): a renderer allowing
    /// 999 refuses the render with the count and the limit instead of drawing a solid line.
    @Test func aRefusedStrokeIsARenderError() throws {
        let view = Path { p in p.move(to: CGPoint(x: 0, y: 10)); p.addLine(to: CGPoint(x: 1000, y: 10)) }
            .stroke(style: StrokeStyle(lineWidth: 2, dash: [0.5]))
        let renderer = Renderer()
        renderer.maximumDashes = 999
        #expect(throws: RenderError.strokeLimit(.dashes(count: 1000, limit: 999))) {
            _ = try renderer.render(view, size: CGSize(width: 1000, height: 20))
        }
        renderer.maximumDashes = 1000
        let surface = try renderer.render(view, size: CGSize(width: 1000, height: 20), background: nil)
        // Dashes alternate on and off each half point: every pixel on the line is half covered.
        #expect(surface.pixel(x: 500, y: 10).a == 128)
    }
}
