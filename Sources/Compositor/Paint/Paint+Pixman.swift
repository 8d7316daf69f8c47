import CPixman
import Foundation

/// An owned pixman source image (solid, gradient or bits), released in `deinit`.
final class PixmanSource {
    let image: OpaquePointer
    /// Keeps an image paint's surface alive while pixman reads it.
    private let retained: Surface?
    private let tracker: LiveImageTracker?

    init(_ image: OpaquePointer, retaining surface: Surface? = nil) {
        self.image = image
        self.retained = surface
        tracker = Surface.countImage()
    }

    deinit {
        pixman_image_unref(image)
        Surface.uncountImage(tracker)
    }
}

/// A value in pixman's 16.16 fixed point, clamped to its range.
@inline(__always)
func fixed(_ v: Double) -> pixman_fixed_t {
    let scaled = (v * 65536).rounded()
    return pixman_fixed_t(max(-2_147_483_647, min(2_147_483_647, scaled.isFinite ? scaled : 0)))
}

extension Paint {
    /// The pixman source for this paint, in device space (`transform` maps the paint's own
    /// coordinates to device pixels), with colours encoded for `format`. Opacity is applied by
    /// the mask, not here.
    func pixmanSource(transform: CGAffineTransform, format: PixelFormat) -> PixmanSource? {
        switch self {
        case .color(let color):
            var c = pixmanColor(premultiplied: color, for: format)
            return pixman_image_create_solid_fill(&c).map { PixmanSource($0) }

        case let .linearGradient(gradient, start, end):
            var stops = pixmanStops(gradient.normalizedStops, format: format)
            guard !stops.isEmpty else { return nil }
            var p1 = pixman_point_fixed_t(x: fixed(start.x), y: fixed(start.y))
            var p2 = pixman_point_fixed_t(x: fixed(end.x), y: fixed(end.y))
            guard let img = pixman_image_create_linear_gradient(&p1, &p2, &stops, Int32(stops.count)) else { return nil }
            return finishGradient(img, transform: transform, spread: gradient.spread)

        case let .radialGradient(gradient, center, startRadius, endRadius):
            var stops = pixmanStops(gradient.normalizedStops, format: format)
            guard !stops.isEmpty else { return nil }
            var c = pixman_point_fixed_t(x: fixed(center.x), y: fixed(center.y))
            var c2 = c
            guard let img = pixman_image_create_radial_gradient(&c, &c2, fixed(max(0, startRadius)),
                                                                fixed(max(0, endRadius)), &stops, Int32(stops.count))
            else { return nil }
            return finishGradient(img, transform: transform, spread: gradient.spread)

        case let .focalRadialGradient(gradient, focus, focalRadius, center, radius):
            var stops = pixmanStops(gradient.normalizedStops, format: format)
            guard !stops.isEmpty else { return nil }
            var inner = pixman_point_fixed_t(x: fixed(focus.x), y: fixed(focus.y))
            var outer = pixman_point_fixed_t(x: fixed(center.x), y: fixed(center.y))
            guard let img = pixman_image_create_radial_gradient(&inner, &outer, fixed(max(0, focalRadius)), fixed(max(0, radius)),
                                                                &stops, Int32(stops.count))
            else { return nil }
            return finishGradient(img, transform: transform, spread: gradient.spread)

        case let .angularGradient(gradient, center, startAngle, endAngle):
            // pixman's conical gradient runs one full turn counter-clockwise on screen from its
            // angle; ours runs clockwise. Mirroring y in the gradient's own space turns one into
            // the other, and stops are remapped so [start, end] covers its share of the turn.
            let span = endAngle.radians - startAngle.radians
            let turn = 2 * Double.pi
            let fraction = span > 0 ? min(1, span / turn) : 1
            let remapped = gradient.normalizedStops.map {
                Gradient.Stop(color: $0.color, location: $0.location * fraction)
            }
            var stops = pixmanStops(remapped, format: format)
            guard !stops.isEmpty else { return nil }
            var c = pixman_point_fixed_t(x: 0, y: 0)
            guard let img = pixman_image_create_conical_gradient(&c, fixed(0), &stops, Int32(stops.count)) else { return nil }
            let local = CGAffineTransform(scaleX: 1, y: -1)
                .concatenating(CGAffineTransform(rotationAngle: startAngle.radians))
                .concatenating(CGAffineTransform(translationX: center.x, y: center.y))
            return finishGradient(img, transform: local.concatenating(transform))

        case let .image(surface, imageTransform, filter, clampToEdge, repeats):
            // A pixman image of its own over the surface's pixels (no copy): the repeat,
            // transform and filter set below stay with this paint. Set on the surface's own
            // image they outlived the draw: a pooled layer or a cached picture drawn later
            // without a transform (identity sets none) was read through the stale one.
            guard let alias = pixman_image_create_bits(surface.format.pixmanFormat, Int32(surface.width), Int32(surface.height),
                                                       surface.data.assumingMemoryBound(to: UInt32.self), Int32(surface.stride))
            else { return nil }
            let source = PixmanSource(alias, retaining: surface)
            if clampToEdge { pixman_image_set_repeat(source.image, PIXMAN_REPEAT_PAD) }
            if repeats { pixman_image_set_repeat(source.image, PIXMAN_REPEAT_NORMAL) }
            let toDevice = imageTransform.concatenating(transform)
            setTransform(source.image, toDevice)
            switch filter {
            case .nearest: pixman_image_set_filter(source.image, PIXMAN_FILTER_NEAREST, nil, 0)
            case .bilinear: pixman_image_set_filter(source.image, PIXMAN_FILTER_BILINEAR, nil, 0)
            case .bicubic: setBicubicFilter(source.image, toDevice)
            }
            return source
        }
    }

    private func finishGradient(_ img: OpaquePointer, transform: CGAffineTransform, spread: GradientSpread = .pad) -> PixmanSource {
        let source = PixmanSource(img)
        switch spread {
        case .pad: pixman_image_set_repeat(img, PIXMAN_REPEAT_PAD)
        case .reflect: pixman_image_set_repeat(img, PIXMAN_REPEAT_REFLECT)
        case .repeat: pixman_image_set_repeat(img, PIXMAN_REPEAT_NORMAL)
        }
        setTransform(img, transform)
        return source
    }

    private func pixmanStops(_ stops: [Gradient.Stop], format: PixelFormat) -> [pixman_gradient_stop_t] {
        stops.map { pixman_gradient_stop_t(x: fixed($0.location), color: pixmanStopColor($0.color, for: format)) }
    }
}

/// Sets pixman's transform, which maps destination (device) space to source space: the inverse
/// of `toDevice`.
/// A cubic filter for `image` drawn by `toDevice` (image pixels → device pixels): the cubic
/// reconstructs, and where the image is shrunk a box as wide as the source pixels one device
/// pixel covers averages them (as cairo's good filter does).
func setBicubicFilter(_ image: OpaquePointer, _ toDevice: CGAffineTransform) {
    let inv = toDevice.inverted()
    // Source pixels per device pixel along each axis, at least 1 (no widening when enlarged).
    func spread(_ a: CGFloat, _ b: CGFloat) -> Double {
        let v = Double(hypot(a, b))
        return v.isFinite ? min(256, max(1, v)) : 1
    }
    let sx = spread(inv.a, inv.b), sy = spread(inv.c, inv.d)
    // Phases per source pixel: 256 keeps an enlargement symmetric (16 shifts it by up to 1/16
    // of a source pixel, 0.5 device pixel at ×8); a strong reduction's box is wide enough
    // that 16 do, and its table stays small.
    let bits: Int32 = max(sx, sy) > 4 ? 4 : 8
    var count: Int32 = 0
    guard let params = pixman_filter_create_separable_convolution(
        &count, fixed(sx), fixed(sy), PIXMAN_KERNEL_CUBIC, PIXMAN_KERNEL_CUBIC,
        sx > 1 ? PIXMAN_KERNEL_BOX : PIXMAN_KERNEL_IMPULSE, sy > 1 ? PIXMAN_KERNEL_BOX : PIXMAN_KERNEL_IMPULSE, bits, bits)
    else {
        pixman_image_set_filter(image, PIXMAN_FILTER_BILINEAR, nil, 0)
        return
    }
    pixman_image_set_filter(image, PIXMAN_FILTER_SEPARABLE_CONVOLUTION, params, count)
    free(params)
}

func setTransform(_ image: OpaquePointer, _ toDevice: CGAffineTransform) {
    guard !toDevice.isIdentity else { return }
    let inv = toDevice.inverted()
    var t = pixman_transform_t()
    t.matrix.0 = (fixed(inv.a), fixed(inv.c), fixed(inv.tx))
    t.matrix.1 = (fixed(inv.b), fixed(inv.d), fixed(inv.ty))
    t.matrix.2 = (0, 0, fixed(1))
    pixman_image_set_transform(image, &t)
}
