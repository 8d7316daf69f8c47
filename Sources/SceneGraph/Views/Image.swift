import Foundation

/// Pixels for an `Image` view: a private copy of a surface (so later changes to the caller's
/// surface cannot reach a cached drawing group), with its scale. Compared by identity: two
/// images are the same only if they are this same object.
public final class ImageContent: Hashable, @unchecked Sendable, CustomStringConvertible {
    let surface: Surface
    /// The pixels' width and height.
    public var pixelWidth: Int { surface.width }
    public var pixelHeight: Int { surface.height }
    /// Pixels per point.
    public let scale: Double

    /// A private copy of `surface`'s pixels, `scale` pixels per point.
    public init(copying surface: Surface, scale: Double) throws {
        self.surface = try surface.copy()
        self.scale = scale
    }

    /// The size in points: pixels divided by the scale.
    public var size: CGSize { CGSize(width: Double(surface.width) / scale, height: Double(surface.height) / scale) }

    public static func == (a: ImageContent, b: ImageContent) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    public var description: String { "image \(surface.width)×\(surface.height)" + (scale == 1 ? "" : " @\(scale.formatted())x") }
}

/// A view that shows pixels (SwiftUI's `Image`): at its natural size (pixels ÷ scale, in points)
/// whatever it is offered, unless made `resizable()`, when it stretches to the size it is given
/// (with `aspectRatio`/`scaledToFit()`/`scaledToFill()` to keep its proportions).
///
/// ```swift
/// let photo = try Image(contentsOfFile: "photo.png", scale: 2)
/// photo.resizable().scaledToFit().frame(width: 120, height: 120).clipShape(Circle())
/// ```
public struct Image: View, PrimitiveView, Sendable {
    /// How an image is sampled when drawn at another size or position (SwiftUI's
    /// `Image.Interpolation`): `.none` takes the nearest pixel; the others are bilinear.
    public enum Interpolation: Hashable, Sendable { case none, low, medium, high }

    /// Pixels, or a symbol's name.
    enum Source: Sendable {
        case pixels(ImageContent)
        case symbol(String)
        case drawing(any VectorDrawing)
    }

    let source: Source

    init(source: Source) { self.source = source }
    var isResizable = false
    var interpolation = Interpolation.high

    /// The image of `surface`'s pixels (copied), `scale` pixels per point.
    public init(surface: Surface, scale: CGFloat = 1) throws {
        guard scale.isFinite, scale > 0 else { throw ImageError.invalidScale(scale) }
        source = .pixels(try ImageContent(copying: surface, scale: scale))
    }

    /// A symbol by its SF Symbols name (see `SymbolSet`), drawn in the foreground style, sized
    /// and weighted by the font around it: its frame is a square of the font's size (times the
    /// `imageScale`). An unknown name draws nothing and takes no room, as in SwiftUI, with a
    /// warning on standard error.
    public init(systemName: String) {
        source = .symbol(systemName)
        if !SymbolSet.contains(systemName) { SymbolWarnings.unknown(systemName) }
    }

    /// The pixels of an image made from a surface or a file (nil for a symbol).
    public var content: ImageContent? {
        if case .pixels(let content) = source { return content }
        return nil
    }

    /// The image in a PNG file, `scale` pixels per point.
    public init(contentsOfFile path: String, scale: CGFloat = 1) throws {
        try self.init(surface: PNG.read(path: path), scale: scale)
    }

    /// The image stretched to whatever size layout gives it.
    public func resizable() -> Image {
        var copy = self
        copy.isResizable = true
        return copy
    }

    public func interpolation(_ interpolation: Interpolation) -> Image {
        var copy = self
        copy.interpolation = interpolation
        return copy
    }

    public var body: Never { primitiveBody(of: Self.self) }
    func makeNode() -> ViewNode {
        switch source {
        case .pixels(let content): .leaf(.image(content, resizable: isResizable, filter: interpolation == .none ? .nearest : .bilinear))
        case .symbol(let name): .leaf(.symbol(name, resizable: isResizable))
        case .drawing(let drawing): .leaf(.drawing(drawing, resizable: isResizable))
        }
    }

    /// How large a symbol is beside the text of its font (SwiftUI's `Image.Scale`).
    public enum Scale: String, Hashable, Sendable {
        case small, medium, large

        /// The symbol's side ÷ the font's size. SwiftUI does not document its factors; these
        /// are the commonly reproduced ones.
        var factor: Double {
            switch self {
            case .small: 0.78
            case .medium: 1
            case .large: 1.29
            }
        }
    }
}

public enum ImageError: Error, CustomStringConvertible, Equatable {
    case invalidScale(Double)
    public var description: String {
        switch self {
        case .invalidScale(let s): "an image's scale must be a positive number, got \(s)"
        }
    }
}

/// How `aspectRatio` fits a view into the space it is offered (SwiftUI's `ContentMode`).
public enum ContentMode: Hashable, Sendable {
    /// The largest size with the ratio inside the offer.
    case fit
    /// The smallest size with the ratio covering the offer.
    case fill
}

/// The size `aspectRatio` proposes: ratio r (width ÷ height) fitted in or filling the proposal;
/// an unspecified dimension follows the other; with neither, the child's ideal width.
func aspectSize(ratio: CGFloat, fill: Bool, proposal: ProposedSize, ideal: CGSize) -> CGSize {
    switch (proposal.width, proposal.height) {
    case (nil, nil): return CGSize(width: ideal.width, height: ideal.width / ratio)
    case let (w?, nil): return CGSize(width: w, height: w / ratio)
    case let (nil, h?): return CGSize(width: h * ratio, height: h)
    case let (w?, h?):
        let wider = w / max(h, .leastNonzeroMagnitude) > ratio
        // Fit: limited by the tighter side; fill: by the looser.
        return wider != fill ? CGSize(width: h * ratio, height: h) : CGSize(width: w, height: w / ratio)
    }
}
