import Foundation
import SceneGraph

/// What one render of a scene cost, gathered for people to look at: the image, the layer plan
/// (`Explanation`), the statistics and the trace of the same render, and for a scene with an
/// animated change, the cost of frames along it. `html()` writes it as one self-contained page
/// (`compose report`).
///
/// ```swift
/// let report = try SceneReport(Circles().compositingGroup().opacity(0.5),
///                              size: CGSize(width: 300, height: 200), scale: 2, title: "circles")
/// try Data(report.html().utf8).write(to: URL(fileURLWithPath: "circles.html"))
/// ```
public struct SceneReport: Sendable {
    /// One frame of an animated change: its moment, what rendering it cost, and (for some
    /// frames) a small picture of it.
    public struct Frame: Sendable, Equatable {
        /// Seconds after the change starts.
        public var time: Double
        /// Milliseconds of the render, every phase but encoding (frames are not encoded).
        public var milliseconds: Double
        /// Offscreen images made, and their bytes.
        public var layers: Int
        public var layerBytes: Int
        /// Drawing groups drawn from the cache (the frames share one renderer, as an animation
        /// does).
        public var cacheHits: Int
        /// A PNG of the frame at a thumbnail's scale (the filmstrip), or nil.
        public var thumbnail: Data?
    }

    /// The report's heading: the scene's file name, say.
    public var title: String
    /// The name warnings are located in (`name:line:column`), or nil.
    public var sourceName: String?
    /// The canvas in points and the scale it was rendered at.
    public var size: CGSize
    public var scale: Double
    /// The render, as PNG, and its size in pixels.
    public var png: Data
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// The render's statistics and timeline (its `encoding` phase included).
    public var stats: RenderStats
    public var trace: RenderTrace
    /// The layer plan of the same view, read before it is drawn.
    public var explanation: Explanation
    /// Frames along the scene's animated change (empty without one).
    public var frames: [Frame]

    public init(title: String, sourceName: String? = nil, size: CGSize, scale: Double, png: Data, pixelWidth: Int, pixelHeight: Int,
                stats: RenderStats, trace: RenderTrace, explanation: Explanation, frames: [Frame] = []) {
        self.title = title
        self.sourceName = sourceName
        self.size = size
        self.scale = scale
        self.png = png
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.stats = stats
        self.trace = trace
        self.explanation = explanation
        self.frames = frames
    }

    /// Renders `view` (with a new renderer from `makeRenderer`, so its drawing-group cache is
    /// cold and the render makes every image the plan lists), explains it, and, given a
    /// `change`, renders `frameCount` frames along it.
    ///
    /// - Parameters:
    ///   - view: what to render.
    ///   - size: the canvas in points, proposed to the view.
    ///   - scale: pixels per point.
    ///   - background: the canvas colour under the view; nil for transparent.
    ///   - title: the page's heading (the scene file's name, say).
    ///   - sourceName: the file that warnings and layers are located in, or nil.
    ///   - change: an animated change to time frames along, or nil.
    ///   - frameCount: frames sampled evenly from the start of the change to its end (one
    ///     period of a change that repeats forever), both included.
    ///   - thumbnails: how many of those frames get a picture in the filmstrip.
    ///   - makeRenderer: makes each renderer used (one for the report's render, one for the
    ///     frames' costs, one for their pictures), with the limits wanted.
    /// - Throws: what rendering throws (`RenderError`, `SurfaceError` …).
    public init<V: View>(_ view: V, size: CGSize, scale: Double = 1, background: Color? = .white, title: String, sourceName: String? = nil,
                         change: AnimatedChange? = nil, frameCount: Int = 30, thumbnails: Int = 8,
                         makeRenderer: () -> Renderer = { Renderer() }) throws {
        let renderer = makeRenderer()
        let surface = try renderer.render(view, size: size, scale: scale, background: background)
        let png = try renderer.encodePNG(surface)
        let explanation = try renderer.explain(view, size: size, scale: scale)
        var frames: [Frame] = []
        if let change {
            frames = try SceneReport.frames(of: change, size: size, scale: scale, background: background,
                                            count: frameCount, thumbnails: thumbnails, makeRenderer: makeRenderer)
        }
        self.init(title: title, sourceName: sourceName, size: size, scale: scale, png: png, pixelWidth: surface.width,
                  pixelHeight: surface.height, stats: renderer.lastStats, trace: renderer.lastTrace, explanation: explanation, frames: frames)
    }

    /// Frames along `change`: costs from one renderer at `scale`, pictures from another at a
    /// thumbnail's scale (at most 192 pixels a side, so the filmstrip stays small).
    static func frames(of change: AnimatedChange, size: CGSize, scale: Double, background: Color?, count: Int, thumbnails: Int,
                       makeRenderer: () -> Renderer) throws -> [Frame] {
        let length = change.duration.isFinite ? change.duration : change.animation.period
        let count = max(1, count)
        let times = (0..<count).map { i in
            count == 1 || !length.isFinite ? 0 : length * Double(i) / Double(count - 1)
        }
        let renderer = makeRenderer()
        let thumbnailRenderer = makeRenderer()
        let thumbnailScale = min(scale, 192 / max(size.width, size.height, 1))
        // Evenly spread over the frames, the first and last included.
        let pictured: Set<Int> = thumbnails <= 0 ? [] : thumbnails == 1 ? [0]
            : Set((0..<min(thumbnails, count)).map { Int((Double($0) * Double(count - 1) / Double(min(thumbnails, count) - 1)).rounded()) })
        var frames: [Frame] = []
        for (i, time) in times.enumerated() {
            let view = change.view(at: time, in: size)
            _ = try renderer.render(view, size: size, scale: scale, background: background)
            let stats = renderer.lastStats
            var thumbnail: Data?
            if pictured.contains(i) {
                let small = try thumbnailRenderer.render(view, size: size, scale: thumbnailScale, background: background)
                thumbnail = try PNG.encode(small)
            }
            frames.append(Frame(time: time, milliseconds: stats.phasesMs.filter { $0.key != "encoding" }.values.reduce(0, +),
                                layers: stats.layers.count, layerBytes: stats.layers.reduce(0) { $0 + $1.bytes },
                                cacheHits: stats.cache.hits, thumbnail: thumbnail))
        }
        return frames
    }

    /// Milliseconds of the whole render, encoding included.
    public var milliseconds: Double { stats.phasesMs.values.reduce(0, +) }
}
