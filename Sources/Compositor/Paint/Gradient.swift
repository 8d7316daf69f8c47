import Foundation

/// Colour stops along a gradient, as SwiftUI's `Gradient`.
///
/// ```swift
/// let g = Gradient(colors: [.blue, .pink])          // evenly spaced
/// let h = Gradient(stops: [.init(color: .black, location: 0), .init(color: .white, location: 0.8)])
/// ```
public struct Gradient: Hashable, Sendable {
    public struct Stop: Hashable, Sendable {
        public var color: Color
        public var location: Double
        public init(color: Color, location: Double) { self.color = color; self.location = location }
    }

    public var stops: [Stop]
    /// What lies beyond the first and last stop: their colours (`pad`, SwiftUI's only
    /// behaviour), or the stops again, mirrored or repeated (SVG's `spreadMethod`).
    public var spread: GradientSpread = .pad

    public init(stops: [Stop], spread: GradientSpread = .pad) {
        self.stops = stops
        self.spread = spread
    }

    /// Evenly spaced stops from 0 to 1.
    public init(colors: [Color]) {
        let n = colors.count
        stops = colors.enumerated().map { i, c in Stop(color: c, location: n > 1 ? Double(i) / Double(n - 1) : 0) }
    }

    /// Stops sorted by location with locations clamped to [0, 1], as pixman requires.
    var normalizedStops: [Stop] {
        stops.map { Stop(color: $0.color, location: min(1, max(0, $0.location.isNaN ? 0 : $0.location))) }
            .enumerated().sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }.map(\.element)
    }
}

/// How a gradient continues beyond its ends.
public enum GradientSpread: String, Hashable, Sendable, CaseIterable {
    case pad, reflect, `repeat`
}

/// How an image is sampled when its transform is not a whole-pixel translation.
public enum ImageFilter: String, Hashable, Sendable {
    case nearest
    case bilinear
    /// Mitchell–Netravali cubic (B = C = 1/3) reconstruction, averaged over the source pixels
    /// a device pixel covers when the image is shrunk (pixman's separable convolution): smoother
    /// enlargements than bilinear, what SVG's `image-rendering: auto` gets.
    case bicubic
}

/// What fills the covered pixels.
public enum Paint {
    case color(Color)
    /// A linear gradient from `start` to `end` (in the drawing's coordinates), padded beyond.
    case linearGradient(Gradient, start: CGPoint, end: CGPoint)
    /// A radial gradient between two concentric circles, padded beyond.
    case radialGradient(Gradient, center: CGPoint, startRadius: Double, endRadius: Double)
    /// A radial gradient from a focal circle (location 0) to an end circle (location 1) that
    /// need not share its centre: SVG's `fx`, `fy`, `fr` (canvas's two-circle gradient).
    case focalRadialGradient(Gradient, focus: CGPoint, focalRadius: Double, center: CGPoint, radius: Double)
    /// An angular (conic) gradient around `center`, from `startAngle` to `endAngle` clockwise on
    /// screen; the rest of the turn is padded with the end colours.
    case angularGradient(Gradient, center: CGPoint, startAngle: Angle, endAngle: Angle)
    /// An image placed by `transform` (image pixels → drawing coordinates); transparent outside,
    /// or, with `clampToEdge`, its edge pixels extended (what a GPU's clamp-to-edge sampler
    /// does: a resampled image then fades only by the coverage of the shape it fills, not also
    /// by the transparent texels beyond its border). With `repeats`, the image tiles the plane
    /// instead (an SVG pattern's tile).
    case image(Surface, transform: CGAffineTransform, filter: ImageFilter, clampToEdge: Bool = false, repeats: Bool = false)
}
