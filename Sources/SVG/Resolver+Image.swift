import Foundation
import Compositor
import SceneGraph

extension Resolver {
    /// An `image` element: a PNG file or `data:` URL, or another SVG file, placed in its
    /// viewport by `preserveAspectRatio`. Files are read only from within the document's
    /// folder unless the options allow more; nothing is fetched from the network.
    mutating func image(_ i: Int, _ context: Context) -> SVGImageNode? {
        guard (context.style["visibility"] ?? "visible") == "visible" else { return nil }
        guard let reference = href(i)?.trimmingCharacters(in: .whitespacesAndNewlines), !reference.isEmpty else { return nil }
        guard let content = imageContent(reference, i) else { return nil }
        let natural: CGRect
        switch content {
        case .pixels(let pixels): natural = CGRect(x: 0, y: 0, width: pixels.pixelWidth, height: pixels.pixelHeight)
        case .document(let document): natural = document.viewBox ?? CGRect(origin: .zero, size: document.naturalSize)
        }
        let x = length(i, "x", .x, context), y = length(i, "y", .y, context)
        // A missing (or `auto`) width or height: the image's own, keeping its proportions.
        let wGiven = attribute(i, "width").flatMap(SVGLength.init), hGiven = attribute(i, "height").flatMap(SVGLength.init)
        var w = wGiven?.resolved(.x, viewport: context.viewport), h = hGiven?.resolved(.y, viewport: context.viewport)
        let naturalSize: CGSize
        if case .document(let d) = content { naturalSize = d.naturalSize } else { naturalSize = natural.size }
        switch (w, h) {
        case (nil, nil): (w, h) = (naturalSize.width, naturalSize.height)
        case (let w0?, nil): h = w0 * naturalSize.height / max(naturalSize.width, 1e-9)
        case (nil, let h0?): w = h0 * naturalSize.width / max(naturalSize.height, 1e-9)
        default: break
        }
        guard let width = w, let height = h, width > 0, height > 0 else { return nil }
        let viewport = CGRect(x: x, y: y, width: width, height: height)
        var aspect = attribute(i, "preserveAspectRatio").flatMap(AspectRatio.init) ?? AspectRatio()
        if case .document(let d) = content, d.viewBox == nil { aspect = AspectRatio(none: ()) }
        let transform = aspect.transform(box: natural, into: viewport)
        let placed = natural.applying(transform)
        let clip = placed.insetBy(dx: 1e-9, dy: 1e-9).contains(viewport) || viewport.contains(placed) ? nil : viewport
        let rendering = context.style["image-rendering"] ?? "auto"
        let smooth = !(rendering == "optimizeSpeed" || rendering == "pixelated" || rendering == "crisp-edges")
        return SVGImageNode(content: content, transform: transform, clip: clip, smooth: smooth)
    }

    /// The pixels or document an `href` names.
    mutating func imageContent(_ reference: String, _ i: Int) -> SVGImageNode.Content? {
        if reference.hasPrefix("data:") {
            guard let comma = reference.firstIndex(of: ",") else { warn(i, "a data: URL without data"); return nil }
            let header = reference[reference.index(reference.startIndex, offsetBy: 5)..<comma].lowercased()
            let payload = String(reference[reference.index(after: comma)...]).filter { !$0.isWhitespace }
            guard header.hasSuffix(";base64"), let data = Data(base64Encoded: payload, options: .ignoreUnknownCharacters) else {
                warn(i, "only base64 data: URLs are supported")
                return nil
            }
            if header.hasPrefix("image/svg+xml") { return nestedDocument(data, name: "data: URL", i) }
            return pixels(data, name: "data: URL", i)
        }
        guard let base = options.baseDirectory else {
            warn(i, "image '\(reference)' is not drawn: the document has no folder to resolve it in")
            return nil
        }
        if reference.contains("://") {
            warn(i, "image '\(reference)' is not drawn: only local files are read")
            return nil
        }
        let decoded = reference.removingPercentEncoding ?? reference
        let url = URL(fileURLWithPath: decoded, relativeTo: base).standardizedFileURL.resolvingSymlinksInPath()
        let root = (options.allowedImageDirectory ?? base).standardizedFileURL.resolvingSymlinksInPath().path
        guard url.path == root || url.path.hasPrefix(root.hasSuffix("/") ? root : root + "/") else {
            warn(i, "image '\(reference)' is outside \(root): not read (allow its folder to draw it)")
            return nil
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            warn(i, "image '\(reference)' cannot be read")
            return nil
        }
        guard data.count <= options.maximumImageBytes else {
            warn(i, "image '\(reference)' has \(data.count) bytes, more than the limit of \(options.maximumImageBytes)")
            return nil
        }
        if url.pathExtension.lowercased() == "svg" || data.prefix(512).range(of: Data("<svg".utf8)) != nil {
            return nestedDocument(data, name: url.path, i)
        }
        return pixels(data, name: url.path, i)
    }

    mutating func pixels(_ data: Data, name: String, _ i: Int) -> SVGImageNode.Content? {
        guard data.starts(with: [0x89, 0x50, 0x4E, 0x47]) else {
            warn(i, "image \(name) is not a PNG file (only PNG and SVG images are supported)")
            return nil
        }
        do {
            return .pixels(try ImageContent(copying: PNG.decode(data, path: name), scale: 1))
        } catch {
            warn(i, "image \(name): \(error)")
            return nil
        }
    }

    mutating func nestedDocument(_ data: Data, name: String, _ i: Int) -> SVGImageNode.Content? {
        guard options.imageDepth < options.maximumReferenceDepth else {
            warn(i, "SVG images nested more than \(options.maximumReferenceDepth) deep: not drawn")
            return nil
        }
        var nested = options
        nested.imageDepth += 1
        if !name.hasPrefix("data:") { nested.baseDirectory = URL(fileURLWithPath: name).deletingLastPathComponent() }
        do {
            return .document(try SVGDocument(data: data, name: name, options: nested))
        } catch {
            warn(i, "image \(name): \(error)")
            return nil
        }
    }
}

extension AspectRatio {
    /// `none`: stretched to the viewport.
    init(none: ()) {
        self.init()
        x = .none
        y = .none
    }
}
