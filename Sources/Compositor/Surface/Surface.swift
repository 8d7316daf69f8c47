import CPixman
import Foundation
import Synchronization

/// Limits on what one surface may be. Both are far above any screen and well below what makes
/// pixman's 16.16 fixed-point coordinates or a 32-bit stride overflow.
public enum SurfaceLimits {
    /// pixman's transforms use 16.16 fixed point: coordinates beyond ±32767 wrap.
    public static let maximumDimension = 32767
    /// 2^28 pixels: 1 GiB at 4 bytes a pixel, 4 GiB in float.
    public static let maximumPixels = 1 << 28
}

public enum SurfaceError: Error, CustomStringConvertible, Equatable {
    case invalidSize(width: Int, height: Int)
    case tooLarge(width: Int, height: Int)
    case allocationFailed(width: Int, height: Int, format: PixelFormat)

    public var description: String {
        switch self {
        case let .invalidSize(w, h): "surface size \(w)×\(h) is invalid: both sides must be at least 1 pixel"
        case let .tooLarge(w, h):
            "surface size \(w)×\(h) exceeds the limits (\(SurfaceLimits.maximumDimension) px a side, \(SurfaceLimits.maximumPixels) pixels)"
        case let .allocationFailed(w, h, f): "could not allocate a \(w)×\(h) \(f) surface"
        }
    }
}

/// A grid of pixels owned by one pixman image, released when the surface is.
///
/// ```swift
/// let s = try Surface(width: 64, height: 64)
/// s.fill(.white)
/// s.pixel(x: 0, y: 0)   // (255, 255, 255, 255)
/// ```
public final class Surface {
    public let width: Int
    public let height: Int
    public let format: PixelFormat
    /// The pixman image; never escapes the module.
    let image: OpaquePointer
    let data: UnsafeMutableRawPointer
    public let stride: Int
    /// The surface whose pixels this one shares (kept alive while this one is).
    private let pixelOwner: Surface?

    /// How many pixman images this module owns right now, across all threads.
    public static var liveImageCount: Int { liveImages.load(ordering: .relaxed) }
    static let liveImages = Atomic<Int>(0)
    /// The tracker of the task that made this surface, if it had one (see `LiveImageTracker`).
    private let tracker: LiveImageTracker?

    /// Counts one more pixman image, globally and for the current task's tracker, which it
    /// returns for `uncountImage` when the image is released.
    static func countImage() -> LiveImageTracker? {
        liveImages.add(1, ordering: .relaxed)
        let tracker = LiveImageTracker.current
        tracker?.count.add(1, ordering: .relaxed)
        return tracker
    }

    static func uncountImage(_ tracker: LiveImageTracker?) {
        liveImages.subtract(1, ordering: .relaxed)
        tracker?.count.subtract(1, ordering: .relaxed)
    }

    public init(width: Int, height: Int, format: PixelFormat = .argb32) throws {
        guard width > 0, height > 0 else { throw SurfaceError.invalidSize(width: width, height: height) }
        guard width <= SurfaceLimits.maximumDimension, height <= SurfaceLimits.maximumDimension,
              width * height <= SurfaceLimits.maximumPixels else {
            throw SurfaceError.tooLarge(width: width, height: height)
        }
        // pixman allocates zeroed memory: every new surface starts transparent (or black).
        guard let image = pixman_image_create_bits(format.pixmanFormat, Int32(width), Int32(height), nil, 0) else {
            throw SurfaceError.allocationFailed(width: width, height: height, format: format)
        }
        self.image = image
        self.width = width
        self.height = height
        self.format = format
        self.data = UnsafeMutableRawPointer(pixman_image_get_data(image)!)
        self.stride = Int(pixman_image_get_stride(image))
        self.pixelOwner = nil
        tracker = Surface.countImage()
    }

    /// A surface of its own (its own pixman image) over `source`'s pixels, which it keeps alive:
    /// how a cached image is handed to several renders at once. pixman updates an image's
    /// bookkeeping when it reads from it, so concurrent readers each need their own image; the
    /// pixels are shared and must be treated as read-only.
    public init(sharingPixelsOf source: Surface) throws {
        guard let image = pixman_image_create_bits(source.format.pixmanFormat, Int32(source.width), Int32(source.height),
                                                   source.data.assumingMemoryBound(to: UInt32.self), Int32(source.stride)) else {
            throw SurfaceError.allocationFailed(width: source.width, height: source.height, format: source.format)
        }
        self.image = image
        self.width = source.width
        self.height = source.height
        self.format = source.format
        self.data = source.data
        self.stride = source.stride
        self.pixelOwner = source
        tracker = Surface.countImage()
    }

    deinit {
        pixman_image_unref(image)
        Surface.uncountImage(tracker)
    }

    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }
    public var byteCount: Int { stride * height }

    /// Calls `body` with the surface's pixel memory (`byteCount` bytes, rows `stride` bytes
    /// apart, each pixel as `format` stores it: premultiplied BGRA words in native order for
    /// `argb32`, one byte for `a8`), to read or write it directly, as a producer of masks or
    /// images does. The pointer is valid only during the call.
    public func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeMutableRawBufferPointer(start: data, count: byteCount))
    }

    /// Sets every pixel to transparent (opaque black for `xrgb32`).
    public func clear() {
        memset(data, 0, byteCount)
    }

    /// Sets every pixel in `rect` (default: all) to `color`, replacing what was there.
    public func fill(_ color: Color, in rect: PixelRect? = nil) {
        let r = (rect ?? bounds).intersection(bounds)
        guard !r.isEmpty else { return }
        var pc = pixmanColor(premultiplied: color, for: format)
        var box = pixman_box32_t(x1: Int32(r.x), y1: Int32(r.y), x2: Int32(r.maxX), y2: Int32(r.maxY))
        if format == .rgbaFloat {
            // pixman's 16-bit colour cannot carry extended values: write floats ourselves.
            let (pr, pg, pb, pa) = linearPremultiplied(color)
            for y in r.y..<r.maxY {
                let row = (data + y * stride).assumingMemoryBound(to: Float.self)
                for x in r.x..<r.maxX {
                    row[4 * x] = Float(pr); row[4 * x + 1] = Float(pg); row[4 * x + 2] = Float(pb); row[4 * x + 3] = Float(pa)
                }
            }
            return
        }
        pixman_image_fill_boxes(PIXMAN_OP_SRC, image, &pc, 1, &box)
    }

    /// A deep copy in the same format.
    public func copy() throws -> Surface {
        let s = try Surface(width: width, height: height, format: format)
        memcpy(s.data, data, byteCount)
        return s
    }
}

// MARK: - Colour to pixman

/// `color` as pixman's 16-bit premultiplied colour in the encoding `format` blends in:
/// sRGB-encoded for 8-bit sRGB formats, linear for the linear ones.
func pixmanColor(premultiplied color: Color, for format: PixelFormat) -> pixman_color_t {
    if format.blendsInLinearLight {
        // pixman reads these as floats (value / 65535): keep all 16 bits.
        let (r, g, b, a) = linearPremultiplied(color)
        func u16(_ v: Double) -> UInt16 { UInt16((min(1, max(0, v)) * 65535).rounded()) }
        return pixman_color_t(red: u16(r), green: u16(g), blue: u16(b), alpha: u16(a))
    }
    // For 8-bit formats pixman keeps the top byte (value >> 8), which truncates. Rounding to 8
    // bits first and passing v·257 makes that byte the correctly rounded one.
    let a8 = (min(1, max(0, color.alpha)) * 255).rounded()
    func u16(_ c: Double) -> UInt16 { UInt16((min(1, max(0, c)) * a8).rounded()) * 257 }
    return pixman_color_t(red: u16(color.red), green: u16(color.green), blue: u16(color.blue), alpha: UInt16(a8) * 257)
}

/// `color`'s un-premultiplied components as pixman's gradient stops want them, in the encoding
/// `format` blends in.
func pixmanStopColor(_ color: Color, for format: PixelFormat) -> pixman_color_t {
    let (r, g, b) = format.blendsInLinearLight ? color.linearComponents : (color.red, color.green, color.blue)
    func u16(_ v: Double) -> UInt16 { UInt16((min(1, max(0, v)) * 65535).rounded()) }
    return pixman_color_t(red: u16(r), green: u16(g), blue: u16(b), alpha: u16(color.alpha))
}

func linearPremultiplied(_ c: Color) -> (Double, Double, Double, Double) {
    let l = c.linearComponents
    return (l.red * c.alpha, l.green * c.alpha, l.blue * c.alpha, c.alpha)
}

/// Counts the surfaces made inside `track(_:)` and still alive, for leak checks that hold while
/// other tests allocate surfaces in parallel (the global `Surface.liveImageCount` cannot).
///
/// ```swift
/// let alive = try LiveImageTracker.track { _ = try Renderer().render(view, size: size) }
/// #expect(alive == 0)
/// ```
public final class LiveImageTracker: Sendable {
    @TaskLocal static var current: LiveImageTracker?
    let count = Atomic<Int>(0)

    /// Surfaces made by `body` (on this task) still alive when it returns.
    public static func track(_ body: () throws -> Void) rethrows -> Int {
        let tracker = LiveImageTracker()
        try $current.withValue(tracker) { try body() }
        return tracker.count.load(ordering: .relaxed)
    }
}
