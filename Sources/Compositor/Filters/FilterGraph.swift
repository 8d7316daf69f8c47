import Foundation

/// A filter graph (SVG's `filter` element, CSS filter functions): primitives evaluated in
/// order on premultiplied colour, each reading the source graphic, its alpha, an earlier
/// result or a supplied image, its result kept only within its subregion; the last result,
/// within the filter's region, replaces the source.
///
/// Everything is in device pixels: the caller maps user-space lengths (σ, offsets, radii) by
/// the element's scale, and regions to their device bounding boxes (resvg's approach, so a
/// rotated element's filter region is the box around the rotated region).
public struct FilterGraph: Hashable, Sendable {
    /// Outside it the result is transparent.
    public var region: CGRect
    public var primitives: [FilterPrimitive]

    public init(region: CGRect, primitives: [FilterPrimitive]) {
        self.region = region
        self.primitives = primitives
    }
}

/// One step of a `FilterGraph`.
public struct FilterPrimitive: Hashable, Sendable {
    /// Where a primitive's input comes from.
    public enum Input: Hashable, Sendable {
        case sourceGraphic
        /// The source graphic's alpha (colour black).
        case sourceAlpha
        /// The result of the primitive at this index (an earlier one).
        case result(Int)
    }

    /// Porter–Duff operators of `feComposite`: `in` (the first input) against `in2`.
    public enum CompositeOperator: String, Hashable, Sendable, CaseIterable {
        case over, `in`, out, atop, xor, lighter
    }

    /// One channel's function of `feComponentTransfer`, on un-premultiplied values in 0…1.
    public enum TransferFunction: Hashable, Sendable {
        case identity
        /// Piecewise linear through the values, evenly spaced over 0…1.
        case table([Double])
        /// Steps: value k over [k/n, (k+1)/n).
        case discrete([Double])
        case linear(slope: Double, intercept: Double)
        case gamma(amplitude: Double, exponent: Double, offset: Double)

        /// The function at `c` (0…1), clamped to 0…1.
        public func callAsFunction(_ c: Double) -> Double {
            let v: Double
            switch self {
            case .identity: v = c
            case .table(let t):
                guard t.count > 1 else { v = t.first ?? c; break }
                let n = Double(t.count - 1)
                let k = min(t.count - 2, Int(c * n))
                v = t[k] + (c * n - Double(k)) * (t[k + 1] - t[k])
            case .discrete(let t):
                guard !t.isEmpty else { v = c; break }
                v = t[min(t.count - 1, Int(c * Double(t.count)))]
            case let .linear(slope, intercept): v = slope * c + intercept
            case let .gamma(amplitude, exponent, offset): v = amplitude * pow(c, exponent) + offset
            }
            return v.isFinite ? min(1, max(0, v)) : 0
        }
    }

    public enum Kind: Hashable, Sendable {
        /// A Gaussian of σ per axis (device pixels); an axis at 0 is not blurred, both at 0
        /// (or below) pass the input through.
        case gaussianBlur(sigmaX: Double, sigmaY: Double)
        /// The input moved by whole device pixels (rounded).
        case offset(dx: Double, dy: Double)
        /// The subregion filled with one colour (sRGB-encoded, converted to the primitive's
        /// colour space).
        case flood(Color)
        /// The first input blended onto the second.
        case blend(BlendMode)
        case composite(CompositeOperator)
        /// k1·i1·i2 + k2·i1 + k3·i2 + k4 on premultiplied channels, clamped.
        case arithmetic(k1: Double, k2: Double, k3: Double, k4: Double)
        /// On un-premultiplied colour in the primitive's colour space.
        case colorMatrix(ColorMatrix)
        /// Red, green, blue and alpha functions.
        case componentTransfer(red: TransferFunction, green: TransferFunction, blue: TransferFunction, alpha: TransferFunction)
        /// The inputs drawn over each other in order.
        case merge
        /// The input over its alpha, blurred, moved and coloured.
        case dropShadow(sigmaX: Double, sigmaY: Double, dx: Double, dy: Double, color: Color)
        /// The input's subregion repeated over this primitive's subregion.
        case tile
        /// The supplied image at this index, drawn in the same pixels as the source.
        case image(Int)
        /// Each channel's minimum (erode) or maximum over a rectangle of radius rx × ry.
        case morphology(dilate: Bool, radiusX: Double, radiusY: Double)
    }

    public var kind: Kind
    public var inputs: [Input]
    /// Device pixels: the result is transparent outside (and outside the filter's region).
    public var subregion: CGRect
    /// Whether the primitive works in linear-light colour (SVG's default
    /// `color-interpolation-filters: linearRGB`) rather than sRGB-encoded.
    public var linearRGB: Bool

    public init(_ kind: Kind, inputs: [Input], subregion: CGRect, linearRGB: Bool) {
        self.kind = kind
        self.inputs = inputs
        self.subregion = subregion
        self.linearRGB = linearRGB
    }
}

extension FilterPrimitive.Kind {
    /// SVG's element name for the primitive, for printing.
    public var name: String {
        switch self {
        case .gaussianBlur: "feGaussianBlur"
        case .offset: "feOffset"
        case .flood: "feFlood"
        case .blend: "feBlend"
        case .composite, .arithmetic: "feComposite"
        case .colorMatrix: "feColorMatrix"
        case .componentTransfer: "feComponentTransfer"
        case .merge: "feMerge"
        case .dropShadow: "feDropShadow"
        case .tile: "feTile"
        case .image: "feImage"
        case .morphology: "feMorphology"
        }
    }
}
