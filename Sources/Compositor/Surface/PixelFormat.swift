import Foundation
import CPixman

/// How a surface stores its pixels. Every format with colour stores premultiplied alpha.
public enum PixelFormat: String, Hashable, Sendable, CaseIterable {
    /// 8-bit premultiplied ARGB, sRGB-encoded, blended without linearisation (the default, and
    /// what the root canvas uses, like SwiftUI and every peer).
    case argb32
    /// 8-bit RGB with no alpha; reads as opaque.
    case xrgb32
    /// 8-bit alpha only (coverage masks).
    case a8
    /// 8-bit ARGB whose colour channels pixman decodes to linear light before blending and
    /// encodes after (`PIXMAN_a8r8g8b8_sRGB`): premultiplied in linear light, stored encoded.
    case argb32Linear
    /// 32-bit float linear RGBA (`PIXMAN_rgba_float`); colour may leave [0, 1].
    case rgbaFloat

    var pixmanFormat: pixman_format_code_t {
        switch self {
        case .argb32: PIXMAN_a8r8g8b8
        case .xrgb32: PIXMAN_x8r8g8b8
        case .a8: PIXMAN_a8
        case .argb32Linear: PIXMAN_a8r8g8b8_sRGB
        case .rgbaFloat: PIXMAN_rgba_float
        }
    }

    public var bytesPerPixel: Int {
        switch self {
        case .a8: 1
        case .rgbaFloat: 16
        default: 4
        }
    }

    /// Whether pixman blends this format's colours in linear light.
    public var blendsInLinearLight: Bool { self == .argb32Linear || self == .rgbaFloat }

    public var hasAlpha: Bool { self != .xrgb32 }

    /// Bytes per row as pixman wants them: a multiple of 4.
    func stride(width: Int) -> Int { (width * bytesPerPixel + 3) & ~3 }
}

/// A pixel as tests and PNG files see it: un-premultiplied, sRGB-encoded, 8 bits a channel.
public struct RGBA8: Hashable, Sendable, CustomStringConvertible {
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8
    public init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) { self.r = r; self.g = g; self.b = b; self.a = a }
    public var description: String { "(\(r), \(g), \(b), \(a))" }
}

/// An integer rectangle in device pixels.
public struct PixelRect: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var area: Int { isEmpty ? 0 : width * height }
    public func intersection(_ o: PixelRect) -> PixelRect {
        let x0 = max(x, o.x), y0 = max(y, o.y), x1 = min(maxX, o.maxX), y1 = min(maxY, o.maxY)
        return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }
    public var description: String { "[\(x), \(y), \(width), \(height)]" }

    /// `rect` if its edges lie on whole pixels (and within ±2^30), else nil.
    public init?(exactly rect: CGRect) {
        let limit: CGFloat = 1_073_741_824
        guard rect.minX == rect.minX.rounded(), rect.minY == rect.minY.rounded(), rect.maxX == rect.maxX.rounded(),
              rect.maxY == rect.maxY.rounded(), abs(rect.minX) < limit, abs(rect.minY) < limit,
              abs(rect.maxX) < limit, abs(rect.maxY) < limit else { return nil }
        self.init(x: Int(rect.minX), y: Int(rect.minY), width: Int(rect.width), height: Int(rect.height))
    }
}
