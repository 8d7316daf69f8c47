import Foundation
import SceneGraph

// Animation throughput through the public API: a 1.2 s change at 60 fps (73 frames, 0 … 1.2 s
// inclusive) of the status badge (geometryGroup, shapes inserted and removed) and of the radar
// seal turning a quarter inside a drawingGroup, rendered frame after frame by one renderer (its
// cache warm across frames, as `compose animate` does) and by a new renderer per frame (no
// cache). Median over runs of the whole sequence; PNG encoding excluded.

struct AnimationRow: Codable {
    var name: String
    var frames: Int
    var cachedFps: Double
    var uncachedFps: Double
    var cacheHitsPerFrame: Double
    var msPerFrame: Double
}

/// The badge of the animation tests, at 2× (320 × 64 points).
struct BenchBadge: View {
    var isAvailable: Bool
    var body: some View {
        HStack(spacing: 6) {
            if isAvailable {
                Circle().fill(.green).frame(width: 14, height: 14)
                Capsule().fill(.white).frame(width: 64, height: 8)
            } else {
                RoundedRectangle(cornerRadius: 3).fill(.red).frame(width: 14, height: 14)
                Capsule().fill(.white).frame(width: 40, height: 8)
            }
        }
        .padding(10)
        .background(Capsule().fill(.blue))
        .geometryGroup()
        .frame(maxWidth: .infinity, alignment: isAvailable ? .trailing : .leading)
        .padding(.horizontal, 12)
    }
}

func animationSeries(runs: Int) throws -> [AnimationRow] {
    print("\nanimation: 1.2 s at 60 fps = 73 frames, median of \(runs) runs of the sequence")
    let fps = 60.0, frameCount = 73
    var rows: [AnimationRow] = []
    func measure(_ name: String, _ change: AnimatedChange, size: CGSize, scale: Double) throws {
        func sequence(shared: Bool) throws -> (Double, Int) {
            let renderer = Renderer(threads: benchThreads)
            var hits = 0
            let t0 = now()
            for i in 0..<frameCount {
                let r = shared ? renderer : Renderer(threads: benchThreads)
                _ = try r.render(change.view(at: Double(i) / fps, in: size), size: size, scale: scale)
                hits += r.lastStats.cache.hits
            }
            return (ms(now() - t0), hits)
        }
        _ = try sequence(shared: true)
        var cached: [Double] = [], uncached: [Double] = []
        var hits = 0
        for _ in 0..<runs {
            let (t, h) = try sequence(shared: true)
            cached.append(t)
            hits = h
            uncached.append(try sequence(shared: false).0)
        }
        let row = AnimationRow(name: name, frames: frameCount, cachedFps: Double(frameCount) / (median(cached) / 1000),
                               uncachedFps: Double(frameCount) / (median(uncached) / 1000),
                               cacheHitsPerFrame: Double(hits) / Double(frameCount), msPerFrame: median(cached) / Double(frameCount))
        print(String(format: "  %-34@ %7.1f frames/s (%.2f ms a frame), %.2f cache hits a frame; no cache: %7.1f frames/s",
                     row.name, row.cachedFps, row.msPerFrame, row.cacheHitsPerFrame, row.uncachedFps))
        rows.append(row)
    }
    try measure("badge (geometryGroup) 320×64 @2x", AnimatedChange(from: BenchBadge(isAvailable: false), to: BenchBadge(isAvailable: true),
                                                                   animation: .easeInOut(duration: 1.2)),
                size: CGSize(width: 320, height: 64), scale: 2)
    let seal = RadarSeal().drawingGroup()
    try measure("radar seal turning in drawingGroup", AnimatedChange(from: seal.rotationEffect(.degrees(0)), to: seal.rotationEffect(.degrees(90)),
                                                                     animation: .easeInOut(duration: 1.2)),
                size: CGSize(width: 540, height: 540), scale: 1)
    return rows
}
