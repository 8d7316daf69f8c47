import CPixman
import Foundation

/// A drop shadow in device space: colour, Gaussian standard deviation in pixels, and offset.
public struct DropShadow: Hashable, Sendable {
    public var color: Color
    public var sigma: Double
    public var offset: CGSize
    public init(color: Color, sigma: Double, offset: CGSize) { self.color = color; self.sigma = sigma; self.offset = offset }

    /// The largest σ drawn, in device pixels: a blur this wide already spreads a shadow over
    /// 3σ = 384 px each side, and the blur's cost grows with σ (6σ + 1 taps a pixel), so
    /// anything larger is an error rather than minutes of blurring.
    public static let maximumSigma = 128.0
    /// The largest offset drawn, in device pixels along either axis.
    public static let maximumOffset = Double(SurfaceLimits.maximumDimension)

    /// Throws unless σ is finite, non-negative and at most `maximumSigma`, and the offset is
    /// finite and within `maximumOffset`.
    public func validate() throws {
        guard sigma.isFinite, sigma >= 0, sigma <= DropShadow.maximumSigma,
              offset.width.isFinite, offset.height.isFinite,
              abs(offset.width) <= DropShadow.maximumOffset, abs(offset.height) <= DropShadow.maximumOffset
        else { throw ShadowError.outOfRange(sigma: sigma, offset: offset) }
    }
}

/// A shadow this engine will not draw.
public enum ShadowError: Error, CustomStringConvertible, Equatable {
    case outOfRange(sigma: Double, offset: CGSize)

    public var description: String {
        switch self {
        case let .outOfRange(sigma, offset):
            "shadow with σ \(sigma) px and offset (\(offset.width), \(offset.height)) px is out of range: σ must be "
                + "finite, from 0 to \(DropShadow.maximumSigma) px (radius up to \(2 * DropShadow.maximumSigma) px at scale 1), "
                + "and the offset finite, at most \(Int(DropShadow.maximumOffset)) px"
        }
    }
}

extension Canvas {
    /// Draws `shadow` of `path` (its coverage, offset and blurred) beneath where the path will
    /// be drawn: only an A8 mask the size of the shadow is allocated, never a colour layer.
    /// - Returns: the blurred A8 mask's bounds in this canvas's pixels (an offscreen image of
    ///   one byte a pixel), or nil when nothing was drawn.
    @discardableResult
    public func drawShadow(of path: Path, fillRule: FillRule = .nonZero, transform: CGAffineTransform = .identity,
                           shadow: DropShadow) throws -> PixelRect? {
        try shadow.validate()
        let moved = path.applying(transform.concatenating(CGAffineTransform(translationX: shadow.offset.width, y: shadow.offset.height)))
        let e = gaussianExtent(sigma: shadow.sigma)
        let region = clip.intersection(surface.bounds)
        let reach = PixelRect(x: region.x - e, y: region.y - e, width: region.width + 2 * e, height: region.height + 2 * e)
        guard let coverage = try CoverageMask.make(moved, fillRule: fillRule, within: reach, rasterizer: rasterizer) else { return nil }
        return try composite(shadow: shadow, coverage: coverage)
    }

    /// Draws `shadow` of an already rendered layer placed at (`x`, `y`) (its alpha, offset and
    /// blurred): the shadow of a compositing group.
    /// - Returns: the blurred A8 mask's bounds in this canvas's pixels.
    @discardableResult
    public func drawShadow(of layer: Surface, at x: Int, y: Int, shadow: DropShadow) throws -> PixelRect? {
        try shadow.validate()
        let alpha = try Surface(width: layer.width, height: layer.height, format: .a8)
        pixman_image_composite32(PIXMAN_OP_SRC, layer.image, nil, alpha.image, 0, 0, 0, 0, 0, 0,
                                 Int32(layer.width), Int32(layer.height))
        let dx = Int(shadow.offset.width.rounded()), dy = Int(shadow.offset.height.rounded())
        return try composite(shadow: shadow, coverage: CoverageMask(surface: alpha, bounds: PixelRect(x: x + dx, y: y + dy,
                                                                                              width: layer.width, height: layer.height)))
    }

    private func composite(shadow: DropShadow, coverage: CoverageMask) throws -> PixelRect {
        // Room for the blur to spread, then blur.
        let e = gaussianExtent(sigma: shadow.sigma)
        let b = coverage.bounds
        let padded = try Surface(width: b.width + 2 * e, height: b.height + 2 * e, format: .a8)
        pixman_image_composite32(PIXMAN_OP_SRC, coverage.surface.image, nil, padded.image, 0, 0, 0, 0, Int32(e), Int32(e),
                                 Int32(b.width), Int32(b.height))
        padded.blurAlpha(sigma: shadow.sigma)
        let origin = (x: b.x - e, y: b.y - e)
        let target = PixelRect(x: origin.x, y: origin.y, width: padded.width, height: padded.height)
            .intersection(clip.intersection(surface.bounds))
        let maskBounds = PixelRect(x: origin.x, y: origin.y, width: padded.width, height: padded.height)
        guard !target.isEmpty, let source = Paint.color(shadow.color).pixmanSource(transform: .identity, format: surface.format)
        else { return maskBounds }
        pixman_image_composite32(PIXMAN_OP_OVER, source.image, padded.image, surface.image, 0, 0,
                                 Int32(target.x - origin.x), Int32(target.y - origin.y), Int32(target.x), Int32(target.y),
                                 Int32(target.width), Int32(target.height))
        return maskBounds
    }
}
