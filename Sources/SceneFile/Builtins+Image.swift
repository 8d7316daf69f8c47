import Foundation
import SceneGraph
import SVG

extension Builtins {
    /// Methods only an `Image` has (others are view modifiers).
    static let imageMethods = table([
        Builtin("resizable", "") { b, _ in .image(try b.required(b.image("self"), "self").resizable()) },
        Builtin("interpolation", "_ interpolation: interpolation") { b, _ in
            let modes: [String: Image.Interpolation] = ["none": .none, "low": .low, "medium": .medium, "high": .high]
            return .image(try b.required(b.image("self"), "self").interpolation(modes[try b.required(b.enumCase("interpolation"), "interpolation")] ?? .high))
        },
    ])
}

extension Evaluator {
    /// The path a file name in the scene names: absolute, or relative to the scene file's
    /// folder (the current folder for standard input); nil, with an error, when it is empty.
    func filePath(_ name: String, _ kind: String, at location: SourceLocation) -> String? {
        guard !name.isEmpty else {
            error(location, "the \(kind) file name is empty")
            return nil
        }
        let url = name.hasPrefix("/") ? URL(fileURLWithPath: name)
            : (baseDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).appendingPathComponent(name)
        return url.standardized.path
    }

    /// `Image("file.png", scale:)`: a PNG file, relative to the scene file's folder, read once
    /// per scene. Only regular files of at most `maximumImageBytes`, whose pixels fit
    /// `maximumCanvasPixels`; every failure is a located error.
    func loadImage(_ name: String, scale: Double, at location: SourceLocation, scaleAt: SourceLocation) -> Image? {
        guard scale > 0, scale <= 8 else {
            error(scaleAt, "an image's scale must be above 0 and at most 8, got \(scale.plainDescription)")
            return nil
        }
        guard let path = filePath(name, "image", at: location) else { return nil }
        let key = "\(path)@\(scale)"
        if let known = images[key] { return known }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        guard let attributes else {
            error(location, "cannot read image '\(name)': no such file", hint: "paths are relative to the scene file's folder")
            return nil
        }
        guard (attributes[.type] as? FileAttributeType) == .typeRegular else {
            error(location, "cannot read image '\(name)': not a regular file")
            return nil
        }
        let bytes = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard bytes <= limits.maximumImageBytes else {
            error(location, "the image '\(name)' has \(bytes) bytes, more than the limit of \(limits.maximumImageBytes)",
                  hint: "raise the limit with --max-image-bytes")
            return nil
        }
        do {
            let surface = try PNG.read(path: path)
            guard surface.width * surface.height <= limits.maximumCanvasPixels else {
                error(location, "the image '\(name)' is \(surface.width)×\(surface.height) pixels, more than the limit of \(limits.maximumCanvasPixels)",
                      hint: "raise the limit with --max-pixels")
                return nil
            }
            let image = try Image(surface: surface, scale: scale)
            images[key] = image
            return image
        } catch let problem as PNGError {
            error(location, "cannot read image '\(name)': \(problem.reason)")
            return nil
        } catch let other {
            error(location, "cannot read image '\(name)': \(other)")
            return nil
        }
    }
}

extension Evaluator {
    /// `Image(svg: "file.svg")`: an SVG document, relative to the scene file's folder, read
    /// once per scene and drawn as vectors at whatever size it is given (resizable like any
    /// image). Its own images are read from its folder only. A file that cannot be read or is
    /// not SVG is a located error; the document's warnings are not reported here (`compose
    /// render file.svg` prints them).
    func loadSVG(_ name: String, at location: SourceLocation) -> Image? {
        guard let path = filePath(name, "SVG", at: location) else { return nil }
        let key = "svg:\(path)"
        if let known = images[key] { return known }
        var options = SVGDocument.Options()
        options.maximumFileBytes = limits.maximumImageBytes
        options.maximumImageBytes = limits.maximumImageBytes
        do {
            let document = try SVGDocument(contentsOfFile: path, options: options)
            let image = Image(drawing: document)
            images[key] = image
            return image
        } catch {
            switch error {
            case .unreadable(_, let reason):
                self.error(location, "cannot read SVG '\(name)': \(reason)", hint: "paths are relative to the scene file's folder")
            default:
                self.error(location, "cannot use SVG '\(name)': \(error.description)")
            }
            return nil
        }
    }
}
