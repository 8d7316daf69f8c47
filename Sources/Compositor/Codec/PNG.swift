import CPNG
import CPNGDecode
import Foundation

/// A PNG that could not be read or written, with the path and libpng's reason.
public struct PNGError: Error, CustomStringConvertible, Equatable {
    public let path: String
    public let reason: String
    public var description: String { "\(path): \(reason)" }
}

/// PNG files in and out through libpng: decoding with its full API in a small C target (every
/// colour type, bit depth and interlacing; errors never unwind through Swift frames), encoding
/// with its simplified API.
public enum PNG {
    /// Reads a PNG file into a premultiplied `argb32` surface (16-bit files are reduced to 8 bits,
    /// grey and palette expanded).
    public static func read(path: String) throws -> Surface {
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot read the file" : "no such file"
            throw PNGError(path: path, reason: reason)
        }
        return try decode(data, path: path)
    }

    /// Decodes PNG bytes; `path` only names the source in errors.
    public static func decode(_ data: Data, path: String = "<memory>") throws -> Surface {
        var width: UInt32 = 0, height: UInt32 = 0, stride = 0
        var pixels: UnsafeMutablePointer<UInt8>?
        var message = [CChar](repeating: 0, count: 256)
        let ok = data.withUnsafeBytes { raw in
            compositor_png_decode(raw.bindMemory(to: UInt8.self).baseAddress, raw.count,
                                  UInt32(SurfaceLimits.maximumDimension), UInt64(SurfaceLimits.maximumPixels),
                                  &width, &height, &pixels, &stride, &message, message.count)
        }
        guard ok != 0, let pixels else {
            let text = String(decoding: message.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw PNGError(path: path, reason: "libpng: " + (text.isEmpty ? "cannot decode" : text))
        }
        defer { free(pixels) }
        let surface: Surface
        do {
            surface = try Surface(width: Int(width), height: Int(height), format: .argb32)
        } catch {
            throw PNGError(path: path, reason: "\(error)")
        }
        for y in 0..<Int(height) {
            memcpy(surface.data + y * surface.stride, pixels + y * stride, Int(width) * 4)
        }
        premultiplyInPlace(surface)
        return surface
    }

    /// Encodes `surface` as an 8-bit RGBA PNG: un-premultiplied, sRGB-encoded (linear formats are
    /// encoded, extended values clamped).
    public static func encode(_ surface: Surface) throws -> Data {
        let w = surface.width, h = surface.height
        // Un-premultiplied B, G, R, A rows, which libpng takes as they are (BGR flag).
        let pixels = surface.straightBGRA()
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(w)
        image.height = UInt32(h)
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA | PNG_FORMAT_FLAG_BGR)
        // Speed over size (libpng's fast mode): with the single pass below, the radar seal's
        // 540² frame encodes in 7 ms instead of 76; files come out from 0.95× to 2.2× the size
        // of the default compression (Examples/: smooth shadows compress worst). `compose
        // animate` writes dozens of frames a second, so time wins.
        image.flags = UInt32(PNG_IMAGE_FLAG_FAST)
        // One compression pass into a buffer large enough for incompressible rows (a filter
        // byte each, zlib's stored-block overhead, the chunks); a second only if libpng asks
        // for more.
        var capacity = h * (w * 4 + 1) + (h * (w * 4 + 1)) / 1000 * 5 + 64 * 1024
        for _ in 0..<2 {
            var size = capacity
            var out = Data(count: capacity)
            let ok = pixels.withUnsafeBytes { source in
                out.withUnsafeMutableBytes { raw in
                    png_image_write_to_memory(&image, raw.baseAddress, &size, 0, source.baseAddress, Int32(w * 4), nil)
                }
            }
            if ok != 0 { return out.prefix(size) }
            guard size > capacity else { break }
            capacity = size
            png_image_free(&image)
            image.warning_or_error = 0
        }
        throw PNGError(path: "<memory>", reason: message(of: &image, default: "cannot encode"))
    }

    /// Encodes and writes atomically: a temporary file in the same folder, renamed over `path`,
    /// so an existing file is never left half-written.
    public static func write(_ surface: Surface, to path: String) throws {
        let data = try encode(surface)
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw PNGError(path: path, reason: (error as NSError).localizedDescription)
        }
    }

    private static func message(of image: inout png_image, default fallback: String) -> String {
        let text = withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        return text.isEmpty ? fallback : "libpng: \(text)"
    }

    private static func premultiplyInPlace(_ surface: Surface) {
        for y in 0..<surface.height {
            let row = (surface.data + y * surface.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<surface.width {
                let v = row[x], a = v >> 24
                if a == 255 { continue }
                // (c·a + 127) / 255: round to nearest.
                @inline(__always) func m(_ c: UInt32) -> UInt32 { (c * a + 127) / 255 }
                row[x] = a << 24 | m((v >> 16) & 0xFF) << 16 | m((v >> 8) & 0xFF) << 8 | m(v & 0xFF)
            }
        }
    }
}

extension Surface {
    /// Writes the surface as PNG, atomically (see `PNG.write`).
    public func writePNG(to path: String) throws { try PNG.write(self, to: path) }
}
