import Foundation

/// What one render cost: draws, offscreen layers and time per phase. `Renderer.lastStats`
/// holds the last render's.
///
/// ```swift
/// let renderer = Renderer()
/// _ = try renderer.render(Circles().compositingGroup().opacity(0.25), size: size, scale: 3)
/// renderer.lastStats.layers      // [compositingGroup [148, 82, 304, 196], 238336 bytes]
/// ```
public struct RenderStats: Sendable, Codable, Equatable {
    /// Why an offscreen image was made.
    public enum LayerKind: String, Sendable, Codable, CaseIterable {
        /// A `compositingGroup()` (or a group an effect forced): ARGB, 4 bytes a pixel.
        case compositingGroup
        /// A `drawingGroup()`: 4 bytes a pixel, 16 in extended-linear mode.
        case drawingGroup
        /// A shadow's blurred A8 mask, one byte a pixel (per leaf, or once for a group).
        case shadow
        /// A `blur(radius:)`'s content, composited and blurred (4 bytes a pixel).
        case blur
        /// A `mask`'s content and its mask image, one layer each (4 bytes a pixel).
        case mask
        /// An SVG filter's source graphic and its image primitives' pictures (4 bytes a
        /// pixel; the filter's float working images are counted against the offscreen budget
        /// while it runs, not listed).
        case filter
    }

    /// One offscreen image.
    public struct Layer: Sendable, Codable, Equatable, CustomStringConvertible {
        public var kind: LayerKind
        /// Device pixels covered: x, y, width, height (in the canvas's pixels).
        public var bounds: [Int]
        public var pixels: Int
        /// Bytes of pixel data (pixels × bytes a pixel).
        public var bytes: Int

        public init(kind: LayerKind, bounds: PixelRect, bytesPerPixel: Int) {
            self.init(kind: kind, bounds: bounds, bytes: bounds.area * bytesPerPixel)
        }

        /// An image whose bytes are not its device area times its pixel size (a drawing
        /// group's image lives in its own pixels, whatever its placement covers).
        public init(kind: LayerKind, bounds: PixelRect, bytes: Int) {
            self.kind = kind
            self.bounds = [bounds.x, bounds.y, bounds.width, bounds.height]
            pixels = bounds.area
            self.bytes = bytes
        }

        init(_ planned: PlannedImage) {
            self.init(kind: planned.kind, bounds: planned.bounds, bytes: planned.bytes)
        }

        public var description: String { "\(kind.rawValue) \(bounds), \(bytes) bytes" }
    }

    /// Leaf shapes drawn (filled and composited), each counted once per render.
    public var leafDraws = 0
    /// Pixels whose coverage the rasterizer computed (leaves, clips and shadow masks).
    public var coveragePixels = 0
    /// Every offscreen image, in the order they were made.
    public var layers: [Layer] = []
    /// The most offscreen bytes alive at once (nested layers add up; a shadow's mask lives
    /// while it is blurred and composited).
    public var peakOffscreenBytes = 0
    /// The drawing-group cache during this render.
    public struct CacheStats: Sendable, Codable, Equatable {
        /// Drawing groups composited from a stored image (nothing rasterized).
        public var hits = 0
        /// Drawing groups rasterized and stored.
        public var misses = 0
        /// Images evicted to keep within the budget.
        public var evictions = 0
        /// Bytes of images the cache holds after the render.
        public var bytes = 0
        public init() {}
    }
    public var cache = CacheStats()
    /// Glyphs drawn from masks (text drawn from its outlines counts as leaves only).
    public var glyphs = 0
    /// The glyph-mask cache during this render: masks reused and masks rasterized.
    public struct GlyphCacheStats: Sendable, Codable, Equatable {
        public var hits = 0
        public var misses = 0
        public init() {}
    }
    public var glyphCache = GlyphCacheStats()
    /// Drawing-group images reused from the cache: device bounds and the stored image's bytes
    /// (not allocated by this render).
    public var reusedImages: [Layer] = []
    /// Whether the render drew the last render's display list again, its views found the same
    /// (`Renderer.reusesUnchangedFrames`): nothing was laid out or lowered.
    public var reusedDisplayList = false
    /// Wall-clock milliseconds per phase: `layout` (resolving views and building the layout
    /// tree), `lowering` (to the display list), `planning` (the layer plan: every offscreen
    /// image's bounds, format and bytes), `rasterization` (each leaf's coverage and its composite),
    /// `composition` (layers composited back), `filters` (shadows: mask, blur, composite),
    /// `encoding` (PNG, when the image is encoded through `Renderer.encodePNG`).
    public var phasesMs: [String: Double] = [:]

    public init() {}

    /// The layers of `kind`.
    public func layers(_ kind: LayerKind) -> [Layer] { layers.filter { $0.kind == kind } }

    /// A table for people: counts, each layer, then the phases.
    public var table: String {
        var lines = ["leaf draws           \(leafDraws)",
                     "coverage pixels      \(coveragePixels)",
                     "layers               \(layers.count)",
                     "peak offscreen bytes \(peakOffscreenBytes)",
                     "display list         " + (reusedDisplayList ? "reused (the views had not changed)" : "made")]
        func padded(_ text: String, _ width: Int) -> String {
            text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
        }
        for (i, layer) in layers.enumerated() {
            let b = layer.bounds
            lines.append(String(format: "  %2d ", i + 1) + padded(layer.kind.rawValue, 17)
                         + String(format: "x %5d y %5d  %5d × %-5d %10d bytes", b[0], b[1], b[2], b[3], layer.bytes))
        }
        lines.append("cache                \(cache.hits) hits, \(cache.misses) misses, \(cache.evictions) evictions, \(cache.bytes) bytes held")
        lines.append("glyphs               \(glyphs) from masks: \(glyphCache.hits) cached, \(glyphCache.misses) rasterized")
        for (i, image) in reusedImages.enumerated() {
            let b = image.bounds
            lines.append(String(format: "  %2d ", i + 1) + padded("cached image", 17)
                         + String(format: "x %5d y %5d  %5d × %-5d %10d bytes", b[0], b[1], b[2], b[3], image.bytes))
        }
        for phase in RenderStats.phases {
            lines.append(padded(phase, 20) + String(format: " %9.3f ms", phasesMs[phase] ?? 0))
        }
        return lines.joined(separator: "\n")
    }

    /// The phases in order.
    public static let phases = ["layout", "lowering", "planning", "rasterization", "composition", "filters", "encoding"]

    /// The statistics as JSON (keys sorted, so two renders' files diff cleanly).
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }
}

/// A render's timeline: one span per timed call (named by its phase) and per offscreen image
/// (from its allocation to its release), nested by time, as Chrome's Trace Event format wants.
public struct RenderTrace: Sendable, Equatable {
    public struct Span: Sendable, Equatable {
        public var name: String
        /// `render`, `phase` or `layer`. A layer's span has the arguments `bounds`, `bytes` and
        /// `index` (its position in `RenderStats.layers`; a cached image's span has none).
        public var category: String
        /// Microseconds since the render began.
        public var start: Double
        public var duration: Double
        public var args: [String: String] = [:]
    }
    public var spans: [Span] = []

    /// Chrome Trace Event JSON ("X" complete events, microseconds), loadable in Perfetto
    /// (ui.perfetto.dev) or chrome://tracing.
    public func chromeTraceJSON() throws -> Data {
        let events: [[String: Any]] = spans.map { span in
            var event: [String: Any] = ["name": span.name, "cat": span.category, "ph": "X", "ts": span.start,
                                        "dur": span.duration, "pid": 1, "tid": 1]
            if !span.args.isEmpty { event["args"] = span.args }
            return event
        }
        return try JSONSerialization.data(withJSONObject: ["traceEvents": events, "displayTimeUnit": "ms"],
                                          options: [.prettyPrinted, .sortedKeys])
    }
}

/// Accumulates a render's statistics and timeline; timing uses the monotonic clock.
struct StatsRecorder {
    var stats = RenderStats()
    var trace = RenderTrace()
    private(set) var liveBytes = 0
    /// When the render began, in nanoseconds of the monotonic clock.
    private let origin: UInt64
    /// The interval of the last timed call, in microseconds since `origin`.
    private var lastInterval = (start: 0.0, duration: 0.0)
    /// Open layers: index into `stats.layers`, start time.
    private var open: [(index: Int, start: Double)] = []
    /// Milliseconds per phase of `RenderStats.phases`, by index (a draw times every leaf:
    /// thousands of calls a frame, each hashing its phase's name into `phasesMs` cost more
    /// than a leaf's drawing on a page of labels); written to `stats.phasesMs` by `finish`.
    private var phaseTotals = [Double](repeating: 0, count: RenderStats.phases.count)
    /// The span the next timed call of the same phase extends instead of adding its own
    /// (-1: none): the last span, when it is a phase's and no layer opened, closed or was
    /// reused since. So a run of leaves drawn one after another is one span, not thousands.
    private var extendable = -1
    /// The phase of the span `extendable` names.
    private var extendablePhase = Phase.layout

    /// The phases of `RenderStats.phases`, by their index there.
    enum Phase: Int {
        case layout, lowering, planning, rasterization, composition, filters, encoding
        var name: String { RenderStats.phases[rawValue] }
    }

    init() {
        origin = DispatchTime.now().uptimeNanoseconds
        for phase in RenderStats.phases { stats.phasesMs[phase] = 0 }
    }

    /// Microseconds since the render began. The monotonic clock read as one integer: a
    /// `ContinuousClock` instant's `Duration` is split into seconds and attoseconds through
    /// 128-bit division, which every leaf paid twice.
    var now: Double { Self.microseconds(since: origin) }

    /// Microseconds from `origin` (monotonic nanoseconds) to now.
    @inline(__always)
    private static func microseconds(since origin: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds &- origin) / 1e3
    }

    /// Runs `body`, adding its duration to `phase` and a span to the trace: a span of its own,
    /// or the last span extended to its end when that is the same phase's with nothing else
    /// recorded since (the gap between the two calls then counts in the span, not the phase).
    mutating func time<R>(_ phase: Phase, _ body: () throws -> R) rethrows -> R {
        // The clock read through a local `origin`, not `now`: calling a getter on `self` from
        // the `defer` made a copy of the whole recorder (five references retained and
        // released) on every call, a call per leaf drawn.
        let origin = self.origin
        let start = Self.microseconds(since: origin)
        let opened = open.count, spans = trace.spans.count
        defer {
            let end = Self.microseconds(since: origin)
            let duration = end - start
            phaseTotals[phase.rawValue] += duration / 1e3
            lastInterval = (start, duration)
            if extendable >= 0, extendable == spans - 1, trace.spans.count == spans, open.count == opened, extendablePhase == phase {
                trace.spans[extendable].duration = end - trace.spans[extendable].start
            } else {
                trace.spans.append(.init(name: phase.name, category: "phase", start: start, duration: duration))
                extendable = trace.spans.count - 1
                extendablePhase = phase
            }
        }
        return try body()
    }

    /// A planned image was made and stays alive until `release(_:)`.
    mutating func allocate(_ planned: PlannedImage) -> Int {
        let layer = RenderStats.Layer(planned)
        stats.layers.append(layer)
        open.append((stats.layers.count - 1, now))
        extendable = -1
        liveBytes += layer.bytes
        stats.peakOffscreenBytes = max(stats.peakOffscreenBytes, liveBytes)
        return layer.bytes
    }

    /// The innermost open layer (of `bytes`) is gone.
    mutating func release(_ bytes: Int) {
        liveBytes -= bytes
        extendable = -1
        guard let (index, start) = open.popLast() else { return }
        trace.spans.append(layerSpan(index, start: start, duration: now - start))
    }

    /// A drawing group's image came from the cache.
    mutating func reused(_ bounds: PixelRect, bytes: Int) {
        var layer = RenderStats.Layer(kind: .drawingGroup, bounds: bounds, bytesPerPixel: 0)
        layer.bytes = bytes
        stats.reusedImages.append(layer)
        stats.cache.hits += 1
        extendable = -1
        trace.spans.append(.init(name: "drawingGroup (cached)", category: "layer", start: now, duration: 0,
                                 args: ["bounds": "\(layer.bounds)", "bytes": "\(bytes)"]))
    }

    /// A transient planned image (a shadow's mask), alive during the last timed call.
    mutating func transient(_ planned: PlannedImage) {
        let layer = RenderStats.Layer(planned)
        stats.layers.append(layer)
        stats.peakOffscreenBytes = max(stats.peakOffscreenBytes, liveBytes + layer.bytes)
        trace.spans.append(layerSpan(stats.layers.count - 1, start: lastInterval.start, duration: lastInterval.duration))
    }

    /// The span of `stats.layers[index]`; its `index` argument ties the span to the layer.
    private func layerSpan(_ index: Int, start: Double, duration: Double) -> RenderTrace.Span {
        let layer = stats.layers[index]
        return .init(name: layer.kind.rawValue, category: "layer", start: start, duration: duration,
                     args: ["bounds": "\(layer.bounds)", "bytes": "\(layer.bytes)", "index": "\(index)"])
    }

    /// Closes the trace with a span for the whole render.
    mutating func finish() {
        for (k, phase) in RenderStats.phases.enumerated() { stats.phasesMs[phase, default: 0] += phaseTotals[k] }
        phaseTotals = [Double](repeating: 0, count: RenderStats.phases.count)
        trace.spans.insert(.init(name: "render", category: "render", start: 0, duration: now), at: 0)
    }
}
