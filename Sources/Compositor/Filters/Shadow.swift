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

extension DropShadow {
    /// The A8 mask the shadow of a path needs, in the pixels of a surface whose visible area is
    /// `visible`: the coverage of the path (`pathBounds`, in the same pixels) moved by the offset,
    /// within the blur's reach of the visible area, padded by the blur's extent on every side;
    /// nil when no coverage is left. The one rule for a leaf shadow's mask: a render's plan
    /// and `Canvas.drawShadow` both use it.
    public func maskBounds(ofPathBounds pathBounds: CGRect, within visible: PixelRect) -> PixelRect? {
        let moved = pathBounds.offsetBy(dx: offset.width, dy: offset.height)
        let e = gaussianExtent(sigma: sigma)
        let reach = PixelRect(x: visible.x - e, y: visible.y - e, width: visible.width + 2 * e, height: visible.height + 2 * e)
        guard let coverage = CoverageMask.bounds(of: moved, within: reach) else { return nil }
        return PixelRect(x: coverage.x - e, y: coverage.y - e, width: coverage.width + 2 * e, height: coverage.height + 2 * e)
    }

    /// The A8 mask the shadow of a layer covering `layer` needs: the layer moved by the offset
    /// in whole pixels, padded by the blur's extent on every side.
    public func maskBounds(ofLayer layer: PixelRect) -> PixelRect {
        let e = gaussianExtent(sigma: sigma)
        let dx = Int(offset.width.rounded()), dy = Int(offset.height.rounded())
        return PixelRect(x: layer.x + dx - e, y: layer.y + dy - e, width: layer.width + 2 * e, height: layer.height + 2 * e)
    }
}

extension Canvas {
    /// Draws `shadow` of `path` (its coverage, offset and blurred) beneath where the path will
    /// be drawn: only an A8 mask the size of the shadow is allocated, never a colour layer.
    /// - Returns: the blurred A8 mask's bounds in this canvas's pixels (an offscreen image of
    ///   one byte a pixel, `DropShadow.maskBounds(ofPathBounds:within:)`), or nil when nothing
    ///   was drawn.
    @discardableResult
    public func drawShadow(of path: Path, fillRule: FillRule = .nonZero, transform: CGAffineTransform = .identity,
                           shadow: DropShadow) throws -> PixelRect? {
        try shadow.validate()
        let placed = path.applying(transform)
        guard let bounds = shadow.maskBounds(ofPathBounds: placed.boundingRect, within: clip.intersection(surface.bounds)) else {
            return nil
        }
        try drawShadow(of: placed, fillRule: fillRule, shadow: shadow, maskBounds: bounds)
        return bounds
    }

    /// Draws `shadow` of `path` (in this canvas's pixels) through a mask of `maskBounds`, the
    /// bounds `DropShadow.maskBounds(ofPathBounds:within:)` gave for it.
    public func drawShadow(of path: Path, fillRule: FillRule = .nonZero, shadow: DropShadow, maskBounds: PixelRect) throws {
        try shadow.validate()
        let e = gaussianExtent(sigma: shadow.sigma)
        let inner = PixelRect(x: maskBounds.x + e, y: maskBounds.y + e, width: maskBounds.width - 2 * e, height: maskBounds.height - 2 * e)
        let moved = path.applying(CGAffineTransform(translationX: shadow.offset.width, y: shadow.offset.height))
        guard !inner.isEmpty, let coverage = try CoverageMask.make(moved, fillRule: fillRule, within: inner, rasterizer: rasterizer) else {
            return
        }
        try composite(shadow: shadow, coverage: coverage, maskBounds: maskBounds)
    }

    /// Draws `shadow` of an already rendered layer placed at (`x`, `y`) (its alpha, offset and
    /// blurred): the shadow of a compositing group.
    /// - Returns: the blurred A8 mask's bounds in this canvas's pixels
    ///   (`DropShadow.maskBounds(ofLayer:)`).
    @discardableResult
    public func drawShadow(of layer: Surface, at x: Int, y: Int, shadow: DropShadow) throws -> PixelRect? {
        try shadow.validate()
        let alpha = try Surface(width: layer.width, height: layer.height, format: .a8)
        pixman_image_composite32(PIXMAN_OP_SRC, layer.image, nil, alpha.image, 0, 0, 0, 0, 0, 0,
                                 Int32(layer.width), Int32(layer.height))
        let dx = Int(shadow.offset.width.rounded()), dy = Int(shadow.offset.height.rounded())
        let maskBounds = shadow.maskBounds(ofLayer: PixelRect(x: x, y: y, width: layer.width, height: layer.height))
        try composite(shadow: shadow, coverage: CoverageMask(surface: alpha, bounds: PixelRect(x: x + dx, y: y + dy,
                                                                                         width: layer.width, height: layer.height)),
                      maskBounds: maskBounds)
        return maskBounds
    }

    /// The coverage, copied into an A8 mask of `maskBounds` (room for the blur to spread),
    /// blurred, and composited in the shadow's colour.
    private func composite(shadow: DropShadow, coverage: CoverageMask, maskBounds: PixelRect) throws {
        let b = coverage.bounds
        let padded = try Surface(width: maskBounds.width, height: maskBounds.height, format: .a8)
        pixman_image_composite32(PIXMAN_OP_SRC, coverage.surface.image, nil, padded.image, 0, 0, 0, 0,
                                 Int32(b.x - maskBounds.x), Int32(b.y - maskBounds.y), Int32(b.width), Int32(b.height))
        padded.blurAlpha(sigma: shadow.sigma, threads: rasterizer.threads)
        let target = maskBounds.intersection(clip.intersection(surface.bounds))
        guard !target.isEmpty, let source = Paint.color(shadow.color).pixmanSource(transform: .identity, format: surface.format)
        else { return }
        pixman_image_composite32(PIXMAN_OP_OVER, source.image, padded.image, surface.image, 0, 0,
                                 Int32(target.x - maskBounds.x), Int32(target.y - maskBounds.y), Int32(target.x), Int32(target.y),
                                 Int32(target.width), Int32(target.height))
    }
}
