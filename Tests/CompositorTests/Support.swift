import Foundation
@testable import Compositor

/// Coverage of `path` over `clip` as one 0…255 byte per pixel (row-major, clip-sized).
func coverage(_ path: Path, fillRule: FillRule = .nonZero, clip: PixelRect,
              transform: CGAffineTransform = .identity) throws -> [UInt8] {
    var out = [UInt8](repeating: 0, count: clip.area)
    try Rasterizer().rasterize(path, transform: transform, fillRule: fillRule, clip: clip) { mask, stride, rect in
        for y in 0..<rect.height {
            for x in 0..<rect.width {
                out[(rect.y - clip.y + y) * clip.width + (rect.x - clip.x + x)] = mask[y * stride + x]
            }
        }
    }
    return out
}

/// Summed coverage in pixels (each byte / 255).
func coveredArea(_ path: Path, fillRule: FillRule = .nonZero, clip: PixelRect,
                 transform: CGAffineTransform = .identity) throws -> Double {
    try coverage(path, fillRule: fillRule, clip: clip, transform: transform).reduce(0.0) { $0 + Double($1) } / 255
}

func fixture(_ name: String) -> String {
    Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil)!.path
}

func relativeError(_ a: Double, _ b: Double) -> Double { abs(a - b) / abs(b) }
