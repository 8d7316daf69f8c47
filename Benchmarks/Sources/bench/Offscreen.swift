import Foundation
import SceneGraph

// The cost of offscreen work, through the public SceneGraph API: the radar seal and the three
// circles at scales 1, 2 and 3, with no group, in a compositingGroup, and in a drawingGroup
// with an empty cache (every frame a miss: a new renderer each) and a warm one (the same
// renderer: every frame after the first a hit). Each row gives the median time, the layers the
// frame allocated and their bytes.

/// The radar seal of SCENES.md S2 (with its glow), 540 × 540 points.
struct RadarSeal: View {
    var body: some View {
        ZStack {
            ForEach(0..<72, id: \.self) { index in
                Capsule()
                    .fill(Color.mint.opacity(index.isMultiple(of: 3) ? 0.9 : 0.35))
                    .frame(width: 6, height: 42)
                    .offset(y: -210)
                    .rotationEffect(.degrees(Double(index) * 5))
            }
            Circle()
                .fill(LinearGradient(colors: [Color(white: 0.2), .black], startPoint: .top, endPoint: .bottom))
                .frame(width: 330, height: 330)
                .shadow(color: Color.mint.opacity(0.5), radius: 42)
        }
        .frame(width: 540, height: 540)
    }
}

/// SCENES.md S1's three circles (192 pt), opaque, in a 600 × 360 frame, at 25 % opacity.
struct Orbit: View {
    var body: some View {
        ZStack {
            Circle().fill(.blue).frame(width: 192, height: 192).offset(x: -54)
            Circle().fill(.pink).frame(width: 192, height: 192)
            Circle().fill(.orange).frame(width: 192, height: 192).offset(x: 54)
        }
        .frame(width: 600, height: 360)
    }
}

struct OffscreenRow: Codable {
    var scene: String
    var scale: Int
    /// `none`, `compositingGroup`, `drawingGroupCold`, `drawingGroupWarm`.
    var variant: String
    var ms: Double
    var layers: Int
    var offscreenBytes: Int
    var cacheHits: Int
}

func offscreenSeries(runs: Int) throws -> [OffscreenRow] {
    print("\noffscreen cost (SceneGraph; median of \(runs) frames; cold: a new renderer each frame, warm: one renderer)")
    func pad(_ text: String, _ width: Int) -> String { text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0) }
    print(pad("scene", 11) + pad("scale", 6) + pad("variant", 18) + "        ms  layers   offscreen B  hits")
    var rows: [OffscreenRow] = []
    func measure<V: View>(_ name: String, _ scale: Int, _ variant: String, _ view: V, size: CGSize, fresh: Bool) throws {
        // Every frame laid out and lowered: what is timed is the offscreen work, not frame reuse.
        func makeRenderer() -> Renderer {
            let renderer = Renderer(threads: benchThreads)
            renderer.reusesUnchangedFrames = false
            return renderer
        }
        var renderer = makeRenderer()
        _ = try renderer.render(view, size: size, scale: Double(scale))   // warm-up (fills the cache for 'warm')
        var times: [Double] = []
        for _ in 0..<runs {
            if fresh { renderer = makeRenderer() }
            let t0 = now()
            _ = try renderer.render(view, size: size, scale: Double(scale))
            times.append(ms(now() - t0))
        }
        let stats = renderer.lastStats
        let bytes = stats.layers.reduce(0) { $0 + $1.bytes }
        let row = OffscreenRow(scene: name, scale: scale, variant: variant, ms: median(times), layers: stats.layers.count,
                               offscreenBytes: bytes, cacheHits: stats.cache.hits)
        rows.append(row)
        print(pad(name, 11) + pad(String(scale), 6) + pad(variant, 18)
              + String(format: "%10.3f %7d %13d %5d", row.ms, row.layers, row.offscreenBytes, row.cacheHits))
    }
    for scale in [1, 2, 3] {
        let seal = CGSize(width: 540, height: 540)
        try measure("radar seal", scale, "none", RadarSeal(), size: seal, fresh: false)
        try measure("radar seal", scale, "compositingGroup", RadarSeal().compositingGroup(), size: seal, fresh: false)
        try measure("radar seal", scale, "drawingGroupCold", RadarSeal().drawingGroup(), size: seal, fresh: true)
        try measure("radar seal", scale, "drawingGroupWarm", RadarSeal().drawingGroup(), size: seal, fresh: false)
        let orbit = CGSize(width: 600, height: 360)
        try measure("circles", scale, "none", Orbit().opacity(0.25), size: orbit, fresh: false)
        try measure("circles", scale, "compositingGroup", Orbit().compositingGroup().opacity(0.25), size: orbit, fresh: false)
        try measure("circles", scale, "drawingGroupCold", Orbit().drawingGroup().opacity(0.25), size: orbit, fresh: true)
        try measure("circles", scale, "drawingGroupWarm", Orbit().drawingGroup().opacity(0.25), size: orbit, fresh: false)
    }
    for scale in [1, 2, 3] {
        let cold = rows.first { $0.scene == "radar seal" && $0.scale == scale && $0.variant == "drawingGroupCold" }!.ms
        let warm = rows.first { $0.scene == "radar seal" && $0.scale == scale && $0.variant == "drawingGroupWarm" }!.ms
        print(String(format: "radar seal at scale %d: a cached frame costs %.3f of a miss (target ≤ 0.1)", scale, warm / cold))
    }
    return rows
}
