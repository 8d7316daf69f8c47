import Foundation

/// How different two images may be and still count as equal. The defaults are exact.
public struct ComparisonTolerance: Hashable, Sendable {
    /// The largest difference allowed in any channel (un-premultiplied, 8-bit units).
    public var channel: Int
    /// The largest CIEDE2000 ΔE allowed (nil: not checked). Pixels within the channel
    /// tolerance pass whatever their ΔE.
    public var perceptual: Double?
    /// The share of pixels (0…1) that may exceed the tolerances.
    public var maxDifferingFraction: Double

    public init(channel: Int = 0, perceptual: Double? = nil, maxDifferingFraction: Double = 0) {
        self.channel = channel
        self.perceptual = perceptual
        self.maxDifferingFraction = maxDifferingFraction
    }

    public static let exact = ComparisonTolerance()
}

/// What a comparison found.
public struct ImageComparison: Sendable, CustomStringConvertible {
    public let width: Int, height: Int
    /// Pixels beyond the tolerances.
    public let differingPixels: Int
    /// The largest channel difference anywhere, and the largest ΔE₀₀ anywhere.
    public let maxChannelDifference: Int
    public let maxDeltaE: Double
    /// The pixel with the largest channel difference (nil when identical), with both values.
    public let worst: (x: Int, y: Int, expected: RGBA8, actual: RGBA8)?
    public let tolerance: ComparisonTolerance

    public var differingFraction: Double { Double(differingPixels) / Double(max(1, width * height)) }
    /// Whether the images count as equal under the tolerance.
    public var passed: Bool { differingFraction <= tolerance.maxDifferingFraction }

    public var description: String {
        var text = String(format: "%d of %d pixels differ (%.4f%%); largest channel difference %d; largest ΔE %.3f",
                          differingPixels, width * height, 100 * differingFraction, maxChannelDifference, maxDeltaE)
        if let w = worst {
            text += "; worst at (\(w.x), \(w.y)): expected \(w.expected), actual \(w.actual)"
        }
        return text
    }
}

public enum ComparisonError: Error, CustomStringConvertible, Equatable {
    case sizeMismatch(expected: (Int, Int), actual: (Int, Int))

    public static func == (l: ComparisonError, r: ComparisonError) -> Bool {
        switch (l, r) {
        case let (.sizeMismatch(a, b), .sizeMismatch(c, d)): a == c && b == d
        }
    }

    public var description: String {
        switch self {
        case let .sizeMismatch(e, a):
            "the images differ in size: expected \(e.0)×\(e.1), actual \(a.0)×\(a.1)"
        }
    }
}

extension Surface {
    /// Compares `self` (the actual image) with `expected`, pixel by pixel, on un-premultiplied
    /// sRGB 8-bit values. Pixels transparent in both are equal whatever their colour channels.
    ///
    /// ```swift
    /// let result = try actual.compare(to: reference, tolerance: .init(channel: 2))
    /// if !result.passed { print(result) }
    /// ```
    /// - Throws: `ComparisonError.sizeMismatch`.
    public func compare(to expected: Surface, tolerance: ComparisonTolerance = .exact) throws -> ImageComparison {
        guard expected.width == width, expected.height == height else {
            throw ComparisonError.sizeMismatch(expected: (expected.width, expected.height), actual: (width, height))
        }
        var differing = 0, maxChannel = 0, maxDE = 0.0
        var worst: (x: Int, y: Int, expected: RGBA8, actual: RGBA8)?
        for y in 0..<height {
            for x in 0..<width {
                let e = expected.pixel(x: x, y: y), a = pixel(x: x, y: y)
                if e.a == 0 && a.a == 0 { continue }
                let d = max(abs(Int(e.r) - Int(a.r)), abs(Int(e.g) - Int(a.g)), abs(Int(e.b) - Int(a.b)), abs(Int(e.a) - Int(a.a)))
                guard d > 0 else { continue }
                if d > maxChannel { maxChannel = d; worst = (x, y, e, a) }
                let de = deltaE(e, a)
                maxDE = max(maxDE, de)
                let withinChannel = d <= tolerance.channel
                let withinPerceptual = tolerance.perceptual.map { de <= $0 && abs(Int(e.a) - Int(a.a)) <= tolerance.channel } ?? false
                if !(withinChannel || withinPerceptual) { differing += 1 }
            }
        }
        return ImageComparison(width: width, height: height, differingPixels: differing, maxChannelDifference: maxChannel,
                                maxDeltaE: maxDE, worst: worst, tolerance: tolerance)
    }

    /// An image of the differences: the expected image faded to 25 % over white, with pixels
    /// beyond the channel tolerance in opaque red.
    public func differenceImage(against expected: Surface, tolerance: ComparisonTolerance = .exact) throws -> Surface {
        guard expected.width == width, expected.height == height else {
            throw ComparisonError.sizeMismatch(expected: (expected.width, expected.height), actual: (width, height))
        }
        let out = try Surface(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let e = expected.pixel(x: x, y: y), a = pixel(x: x, y: y)
                let d = e.a == 0 && a.a == 0 ? 0
                    : max(abs(Int(e.r) - Int(a.r)), abs(Int(e.g) - Int(a.g)), abs(Int(e.b) - Int(a.b)), abs(Int(e.a) - Int(a.a)))
                let differs = d > tolerance.channel
                    && !(tolerance.perceptual.map { deltaE(e, a) <= $0 && abs(Int(e.a) - Int(a.a)) <= tolerance.channel } ?? false)
                if differs {
                    out.setEncodedPixel(x: x, y: y, EncodedPixel(r: 1, g: 0, b: 0, a: 1))
                } else {
                    // 25 % of the expected colour (by its alpha) over white.
                    let k = 0.25 * Double(e.a) / 255
                    func fade(_ c: UInt8) -> Double { 1 - k + k * Double(c) / 255 }
                    out.setEncodedPixel(x: x, y: y, EncodedPixel(r: fade(e.r), g: fade(e.g), b: fade(e.b), a: 1))
                }
            }
        }
        return out
    }
}

/// ΔE₀₀ between two un-premultiplied pixels, each composited over white first so that alpha
/// counts (a translucent pixel is seen over a white page).
func deltaE(_ p: RGBA8, _ q: RGBA8) -> Double {
    func lab(_ c: RGBA8) -> Lab {
        let a = Double(c.a) / 255
        func over(_ v: UInt8) -> Double { 1 - a + a * Double(v) / 255 }
        return Lab(srgbRed: over(c.r), green: over(c.g), blue: over(c.b))
    }
    return ciede2000(lab(p), lab(q))
}
