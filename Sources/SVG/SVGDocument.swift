import Foundation
import Compositor
import SceneGraph

/// An SVG file read into a resolved tree, drawn as vector art by `Image(drawing:)` (or
/// `Image(svgFile:)`) and by `compose render file.svg`.
///
/// ```swift
/// let logo = try SVGDocument(contentsOfFile: "logo.svg")
/// let view = Image(drawing: logo).resizable().scaledToFit().frame(width: 120)
/// ```
///
/// Reading never traps and never touches the network: malformed XML, entities, and nesting or
/// instancing beyond the limits are `SVGError`s with the file's name and line; what cannot be
/// drawn (an unknown element, a missing reference, an unsupported feature) is left out with an
/// `SVGWarning`, as browsers do.
public struct SVGDocument: VectorDrawing, Sendable {
    /// Reading limits and where images may come from.
    public struct Options: Sendable {
        /// The folder relative `href`s are resolved in (the file's own, by default).
        public var baseDirectory: URL?
        /// The folder images may be read from (nil: `baseDirectory` and below).
        public var allowedImageDirectory: URL?
        /// The largest file read, the document or an image in it (64 MiB).
        public var maximumFileBytes = 64 << 20
        public var maximumImageBytes = 64 << 20
        /// Elements nested deeper than this are an error (a stack's worth of recursion).
        public var maximumDepth = 256
        /// Elements drawn, counting every `use` instance: bounds the cost of a "billion
        /// laughs" of nested `use`s.
        public var maximumElements = 200_000
        /// `use`, clip path, mask and marker references followed inside one another, and SVG
        /// images inside images.
        public var maximumReferenceDepth = 32
        /// The user's languages for `systemLanguage` (default English).
        public var languages = ["en"]
        var imageDepth = 0

        public init() {}
    }

    /// The document's size in user units (CSS pixels): its `width` and `height`, else its
    /// viewBox's size, else 100 × 100.
    public let size: CGSize
    public let viewBox: CGRect?
    let aspect: AspectRatio
    let root: SVGGroup
    /// What was left out while reading, with lines.
    public let warnings: [SVGWarning]
    /// Identity, for `isSameDrawing`.
    private let token = Token()
    private final class Token: Sendable {}

    public var naturalSize: CGSize { size }

    /// Reads the SVG file at `path` (images resolved relative to its folder).
    public init(contentsOfFile path: String, options: Options = Options()) throws(SVGError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw .unreadable(path, reason: isDirectory.boolValue ? "it is a folder" : "no such file")
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        guard (attributes?[.type] as? FileAttributeType) == .typeRegular else { throw .unreadable(path, reason: "not a regular file") }
        if let size = (attributes?[.size] as? NSNumber)?.intValue, size > options.maximumFileBytes {
            throw .unreadable(path, reason: "\(size) bytes, more than the limit of \(options.maximumFileBytes)")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path, reason: "cannot be read") }
        var options = options
        if options.baseDirectory == nil { options.baseDirectory = URL(fileURLWithPath: path).deletingLastPathComponent() }
        try self.init(data: data, name: path, options: options)
    }

    /// Reads SVG from `data` (`name` names it in errors and warnings).
    public init(data: Data, name: String = "<svg>", options: Options = Options()) throws(SVGError) {
        guard data.count <= options.maximumFileBytes else {
            throw .unreadable(name, reason: "\(data.count) bytes, more than the limit of \(options.maximumFileBytes)")
        }
        let tree = try XMLTree(data: data, path: name, limits: .init(maximumDepth: options.maximumDepth, maximumElements: options.maximumElements))
        var resolver = Resolver(tree: tree, file: name, options: options)
        let (size, viewBox, aspect, root) = try resolver.root()
        self.size = size
        self.viewBox = viewBox
        self.aspect = aspect
        self.root = root
        warnings = resolver.warnings
    }

    /// The transform from the document's user space to a frame of `size` (the viewBox fitted
    /// by `preserveAspectRatio`, else scaled from the document's size).
    func userToFrame(_ frame: CGSize) -> CGAffineTransform {
        if let viewBox { return aspect.transform(box: viewBox, into: CGRect(origin: .zero, size: frame)) }
        return CGAffineTransform(scaleX: frame.width / size.width, y: frame.height / size.height)
    }

    public func displayItems(size frame: CGSize, transform: CGAffineTransform, limits: StrokeLimits) throws(StrokeRefusal) -> [DisplayItem] {
        try items(frame: frame, transform: transform, limits: limits)
    }

    /// Items in the document's own box (its viewBox, else its size) mapped by `transform`:
    /// what an `<image>` of this document draws, clipped to the box by the caller.
    func items(transform: CGAffineTransform, limits: StrokeLimits) throws(StrokeRefusal) -> [DisplayItem] {
        let box = viewBox ?? CGRect(origin: .zero, size: size)
        return try items(frame: box.size, transform: CGAffineTransform(translationX: box.minX, y: box.minY).concatenating(transform), limits: limits)
    }

    private func items(frame: CGSize, transform: CGAffineTransform, limits: StrokeLimits) throws(StrokeRefusal) -> [DisplayItem] {
        let t = userToFrame(frame).concatenating(transform)
        let content = try SVGDrawer(limits: limits).items([.group(root)], t)
        // The frame clips what lies outside it, as an image's edges do; no layer is made when
        // everything lies inside.
        let frameRect = CGRect(origin: .zero, size: frame).applying(transform)
        let ink = content.reduce(CGRect.null) { $0.union(inkBounds($1)) }
        if ink.isNull || frameRect.insetBy(dx: -0.5, dy: -0.5).contains(ink) { return content }
        return [.group(.init(composite: .init(clips: [ClipPath(path: Path(CGRect(origin: .zero, size: frame)).applying(transform))]),
                             children: content))]
    }

    public func isSameDrawing(as other: any VectorDrawing) -> Bool {
        (other as? SVGDocument)?.token === token
    }
}

/// Device bounds of an item's ink, generously (a blur's or shadow's spread is not known here:
/// such items are taken as unbounded).
private func inkBounds(_ item: DisplayItem) -> CGRect {
    switch item {
    case .leaf(let leaf): return leaf.shadows.isEmpty ? leaf.path.boundingRect : .infinite
    case .group(let group):
        if case .blur = group.isolation { return .infinite }
        if !group.composite.shadows.isEmpty { return .infinite }
        return group.children.reduce(CGRect.null) { $0.union(inkBounds($1)) }
    }
}

extension Image {
    /// The SVG file at `path` as a vector image (see `SVGDocument`).
    public init(svgFile path: String) throws(SVGError) {
        self.init(drawing: try SVGDocument(contentsOfFile: path))
    }
}
