import Foundation
import SceneGraph

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
    /// `Image("file.png", scale:)`: a PNG file, relative to the scene file's folder, read once
    /// per scene. Only regular files of at most `maximumImageBytes`, whose pixels fit
    /// `maximumCanvasPixels`; every failure is a located error.
    func loadImage(_ name: String, scale: Double, at location: SourceLocation, scaleAt: SourceLocation) -> Image? {
        guard scale > 0, scale <= 8 else {
            error(scaleAt, "an image's scale must be above 0 and at most 8, got \(scale.plainDescription)")
            return nil
        }
        guard !name.isEmpty else {
            error(location, "the image file name is empty")
            return nil
        }
        let url = name.hasPrefix("/") ? URL(fileURLWithPath: name)
            : (baseDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).appendingPathComponent(name)
        let path = url.standardized.path
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
