import CCairo
import Compositor
import Foundation
import ReferenceScenes

/// Renders reference scenes with cairo's C API onto one reused ARGB32 image surface.
final class CairoRenderer {
    let surface: OpaquePointer
    let context: OpaquePointer
    let width: Int, height: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        context = cairo_create(surface)
        cairo_set_antialias(context, CAIRO_ANTIALIAS_DEFAULT)
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// One frame: the white SOURCE clear, every operation, then a flush.
    func render(_ scene: ReferenceScene) {
        cairo_set_operator(context, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_rgb(context, 1, 1, 1)
        cairo_paint(context)
        cairo_set_operator(context, CAIRO_OPERATOR_OVER)
        draw(scene.ops)
        cairo_surface_flush(surface)
    }

    private func draw(_ ops: [SceneOp]) {
        for op in ops {
            switch op {
            case let .fill(path, color, rule):
                buildPath(path)
                cairo_set_source_rgba(context, color.red, color.green, color.blue, color.alpha)
                cairo_set_fill_rule(context, rule == .nonZero ? CAIRO_FILL_RULE_WINDING : CAIRO_FILL_RULE_EVEN_ODD)
                cairo_fill(context)
            case let .stroke(path, style, color):
                buildPath(path)
                cairo_set_source_rgba(context, color.red, color.green, color.blue, color.alpha)
                cairo_set_line_width(context, Double(style.lineWidth))
                cairo_set_line_cap(context, style.lineCap == .round ? CAIRO_LINE_CAP_ROUND
                                   : style.lineCap == .square ? CAIRO_LINE_CAP_SQUARE : CAIRO_LINE_CAP_BUTT)
                cairo_set_line_join(context, style.lineJoin == .round ? CAIRO_LINE_JOIN_ROUND
                                    : style.lineJoin == .bevel ? CAIRO_LINE_JOIN_BEVEL : CAIRO_LINE_JOIN_MITER)
                cairo_set_miter_limit(context, Double(style.miterLimit))
                cairo_stroke(context)
            case let .linearGradient(path, gradient, start, end):
                buildPath(path)
                let pattern = cairo_pattern_create_linear(start.x, start.y, end.x, end.y)!
                for stop in gradient.stops {
                    cairo_pattern_add_color_stop_rgba(pattern, stop.location, stop.color.red, stop.color.green,
                                                      stop.color.blue, stop.color.alpha)
                }
                cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
                cairo_set_source(context, pattern)
                cairo_fill(context)
                cairo_pattern_destroy(pattern)
            case let .group(opacity, children):
                cairo_push_group(context)
                draw(children)
                cairo_pop_group_to_source(context)
                cairo_paint_with_alpha(context, opacity)
            }
        }
    }

    private func buildPath(_ path: Path) {
        cairo_new_path(context)
        var current = CGPoint.zero
        path.forEach { element in
            switch element {
            case .move(let p): cairo_move_to(context, p.x, p.y); current = p
            case .line(let p): cairo_line_to(context, p.x, p.y); current = p
            case .quadCurve(let p, let c):
                // Degree elevation: the cubic's controls lie 2/3 of the way to the quad's control.
                cairo_curve_to(context, current.x + 2 / 3 * (c.x - current.x), current.y + 2 / 3 * (c.y - current.y),
                               p.x + 2 / 3 * (c.x - p.x), p.y + 2 / 3 * (c.y - p.y), p.x, p.y)
                current = p
            case .curve(let p, let c1, let c2):
                cairo_curve_to(context, c1.x, c1.y, c2.x, c2.y, p.x, p.y); current = p
            case .closeSubpath: cairo_close_path(context)
            }
        }
    }

    func writePNG(to path: String) {
        cairo_surface_write_to_png(surface, path)
    }

    /// Pixel (x, y) as un-premultiplied RGBA8.
    func pixel(x: Int, y: Int) -> RGBA8 {
        let data = cairo_image_surface_get_data(surface)!
        let stride = Int(cairo_image_surface_get_stride(surface))
        let v = (UnsafeRawPointer(data) + y * stride).load(fromByteOffset: 4 * x, as: UInt32.self)
        let a = v >> 24
        guard a > 0 else { return RGBA8(0, 0, 0, 0) }
        func c(_ s: UInt32) -> UInt8 { UInt8(min(255, (((v >> s) & 0xFF) * 255 + a / 2) / a)) }
        return RGBA8(c(16), c(8), c(0), UInt8(a))
    }
}
