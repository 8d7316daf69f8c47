import Foundation
import SceneGraph

/// The report's pictures of time, drawn as inline SVG with real text: the phases as bars, the
/// trace as a timeline, frame costs as line plots.
enum Charts {
    /// One bar per phase, its length in proportion to the longest.
    static func phases(_ stats: RenderStats) -> String {
        let phases = RenderStats.phases.map { ($0, stats.phasesMs[$0] ?? 0) }
        let longest = max(phases.map(\.1).max() ?? 0, 1e-9)
        let (labelWidth, barWidth, row) = (110.0, 420.0, 24.0)
        let height = row * Double(phases.count) + 8
        var svg = #"<svg class="chart" role="img" viewBox="0 0 \#(format(labelWidth + barWidth + 110)) \#(format(height))" aria-labelledby="phases-title">"#
        svg += "<title id=\"phases-title\">Milliseconds per phase: "
            + phases.map { "\($0.0) \(milliseconds($0.1))" }.joined(separator: ", ") + "</title>"
        for (i, (name, ms)) in phases.enumerated() {
            let y = 4 + Double(i) * row
            let w = max(ms > 0 ? 1 : 0, barWidth * ms / longest)
            svg += #"<text class="label" x="\#(format(labelWidth - 8))" y="\#(format(y + 16))" text-anchor="end">\#(name)</text>"#
            svg += #"<rect class="bar phase-\#(name)" x="\#(format(labelWidth))" y="\#(format(y + 3))" width="\#(format(w))" height="\#(format(row - 8))"/>"#
            svg += #"<text class="value" x="\#(format(labelWidth + w + 6))" y="\#(format(y + 16))">\#(milliseconds(ms)) ms</text>"#
        }
        return svg + "</svg>"
    }

    /// The trace as lanes: the whole render, its phases (nested calls below one another), then
    /// its offscreen images nested by lifetime. Spans of one name that follow each other with
    /// less than a pixel between them are drawn as one bar (its tooltip counts them), so a
    /// render of thousands of leaves stays a small picture.
    static func timeline(_ trace: RenderTrace, stats: RenderStats) -> String {
        let total = max(trace.spans.map { $0.start + $0.duration }.max() ?? 0, 1)
        let (left, width, lane) = (96.0, 860.0, 20.0)
        let perPixel = total / width

        // Lanes: nesting depth within each category, categories stacked.
        func lanes(_ spans: [RenderTrace.Span]) -> [[RenderTrace.Span]] {
            let sorted = spans.sorted { $0.start != $1.start ? $0.start < $1.start : $0.duration > $1.duration }
            var open: [Double] = []
            var out: [[RenderTrace.Span]] = []
            for span in sorted {
                while let end = open.last, end <= span.start + 1e-6 { open.removeLast() }
                let depth = open.count
                if out.count <= depth { out.append([]) }
                out[depth].append(span)
                open.append(span.start + span.duration)
            }
            return out
        }
        let groups: [(String, [[RenderTrace.Span]])] = [
            ("render", lanes(trace.spans.filter { $0.category == "render" })),
            ("phases", lanes(trace.spans.filter { $0.category == "phase" })),
            ("layers", lanes(trace.spans.filter { $0.category == "layer" })),
        ].filter { !$0.1.isEmpty }
        let laneCount = groups.reduce(0) { $0 + $1.1.count }
        let height = Double(laneCount) * lane + 34
        var svg = #"<svg class="chart timeline" role="img" viewBox="0 0 \#(format(left + width + 8)) \#(format(height))" aria-labelledby="timeline-title">"#
        svg += "<title id=\"timeline-title\">Timeline of the render, \(milliseconds(total / 1000)) ms: \(trace.spans.count) spans in \(laneCount) lanes</title>"
        var y = 4.0
        for (name, groupLanes) in groups {
            svg += #"<text class="label" x="\#(format(left - 8))" y="\#(format(y + 14))" text-anchor="end">\#(name)</text>"#
            for spans in groupLanes {
                // Coalesce neighbours of one name closer than a pixel.
                var merged: [(span: RenderTrace.Span, count: Int, busy: Double)] = []
                for span in spans {
                    if var last = merged.last, last.span.name == span.name,
                       span.start - (last.span.start + last.span.duration) < perPixel, last.span.duration < 4 * perPixel || span.duration < perPixel {
                        last.span.duration = max(last.span.duration, span.start + span.duration - last.span.start)
                        last.count += 1
                        last.busy += span.duration
                        merged[merged.count - 1] = last
                    } else {
                        merged.append((span, 1, span.duration))
                    }
                }
                for (span, count, busy) in merged {
                    let x = left + span.start / perPixel
                    let w = max(1, span.duration / perPixel)
                    let cls = span.category == "layer" ? "span layer kind-\(span.name.split(separator: " ").first.map(String.init) ?? span.name)"
                        : "span \(span.category) phase-\(span.name)"
                    var tip = count > 1 ? "\(span.name) ×\(count): \(milliseconds(busy / 1000)) ms busy in \(milliseconds(span.duration / 1000)) ms"
                        : "\(span.name): \(milliseconds(span.duration / 1000)) ms at \(milliseconds(span.start / 1000)) ms"
                    if let bounds = span.args["bounds"], count == 1 { tip += ", bounds \(bounds), \(span.args["bytes"] ?? "?") bytes" }
                    let index = count == 1 ? span.args["index"].map { #" data-layer="\#($0)""# } ?? "" : ""
                    svg += #"<rect class="\#(cls)"\#(index) x="\#(format(x))" y="\#(format(y + 2))" width="\#(format(w))" height="\#(format(lane - 4))"><title>\#(escape(tip))</title></rect>"#
                    if w > 60 {
                        svg += #"<text class="inbar" x="\#(format(x + 4))" y="\#(format(y + 14))">\#(escape(span.name))\#(count > 1 ? " ×\(count)" : "")</text>"#
                    }
                }
                y += lane
            }
        }
        // The time axis: five ticks.
        svg += #"<line class="axis" x1="\#(format(left))" y1="\#(format(y + 2))" x2="\#(format(left + width))" y2="\#(format(y + 2))"/>"#
        for t in 0...4 {
            let x = left + width * Double(t) / 4
            svg += #"<text class="tick" x="\#(format(x))" y="\#(format(y + 18))" text-anchor="\#(t == 0 ? "start" : t == 4 ? "end" : "middle")">\#(milliseconds(total * Double(t) / 4 / 1000)) ms</text>"#
        }
        return svg + "</svg>"
    }

    /// A line plot of one quantity over the frames' times.
    static func plot(title: String, unit: String, values: [Double], times: [Double], id: String) -> String {
        let (left, width, top, height) = (64.0, 360.0, 22.0, 96.0)
        let maximum = max(values.max() ?? 0, 1e-9)
        let end = max(times.last ?? 0, 1e-9)
        func point(_ i: Int) -> (Double, Double) {
            (left + width * (times.count > 1 ? times[i] / end : 0.5), top + height - height * values[i] / maximum)
        }
        var svg = #"<svg class="chart plot" role="img" viewBox="0 0 \#(format(left + width + 12)) \#(format(top + height + 30))" aria-labelledby="\#(id)-title">"#
        svg += "<title id=\"\(id)-title\">\(escape(title)) per frame: from \(number(values.min() ?? 0)) to \(number(maximum)) \(escape(unit))</title>"
        svg += #"<text class="label" x="0" y="14">\#(escape(title))</text>"#
        svg += #"<text class="tick" x="\#(format(left - 6))" y="\#(format(top + 4))" text-anchor="end">\#(number(maximum))</text>"#
        svg += #"<text class="tick" x="\#(format(left - 6))" y="\#(format(top + height))" text-anchor="end">0</text>"#
        svg += #"<line class="axis" x1="\#(format(left))" y1="\#(format(top + height))" x2="\#(format(left + width))" y2="\#(format(top + height))"/>"#
        svg += #"<line class="axis" x1="\#(format(left))" y1="\#(format(top))" x2="\#(format(left))" y2="\#(format(top + height))"/>"#
        let points = values.indices.map { point($0) }.map { "\(format($0.0)),\(format($0.1))" }.joined(separator: " ")
        svg += #"<polyline class="series" points="\#(points)"/>"#
        for i in values.indices {
            let (x, y) = point(i)
            svg += #"<circle class="dot" cx="\#(format(x))" cy="\#(format(y))" r="2.5"><title>\#(number(times[i])) s: \#(number(values[i])) \#(escape(unit))</title></circle>"#
        }
        svg += #"<text class="tick" x="\#(format(left))" y="\#(format(top + height + 18))">0 s</text>"#
        svg += #"<text class="tick" x="\#(format(left + width))" y="\#(format(top + height + 18))" text-anchor="end">\#(number(end)) s</text>"#
        return svg + "</svg>"
    }

    /// A coordinate in SVG: at most two decimals, no trailing zeros.
    static func format(_ v: Double) -> String {
        let r = (v * 100).rounded() / 100
        return r == r.rounded() ? String(Int(r)) : String(format: "%.2f", r).replacingOccurrences(of: #"0$"#, with: "", options: .regularExpression)
    }

    /// Milliseconds for people: three significant figures or so.
    static func milliseconds(_ ms: Double) -> String {
        ms >= 100 ? String(format: "%.0f", ms) : ms >= 10 ? String(format: "%.1f", ms) : ms >= 1 ? String(format: "%.2f", ms) : String(format: "%.3f", ms)
    }

    static func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : milliseconds(v)
    }
}

/// Text for HTML and SVG: the five characters that could end an element or attribute escaped.
func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for c in text.unicodeScalars {
        switch c {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&#39;"
        default: out.unicodeScalars.append(c)
        }
    }
    return out
}
