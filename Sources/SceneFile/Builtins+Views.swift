import Foundation
import SceneGraph

extension Builtins {
    /// Shapes, stacks, `ForEach`, `Group`, `Path { p in … }` and `EmptyView`.
    static let viewConstructors: [Builtin] = [
        Builtin("Circle", "") { _, _ in .shape(SceneShape(insettable: Circle(), name: "Circle")) },
        Builtin("Rectangle", "") { _, _ in .shape(SceneShape(insettable: Rectangle(), name: "Rectangle")) },
        Builtin("Ellipse", "") { _, _ in .shape(SceneShape(insettable: Ellipse(), name: "Ellipse")) },
        Builtin("Capsule", "style: cornerStyle?") { b, _ in
            .shape(SceneShape(insettable: Capsule(style: b.cornerStyle("style") ?? .continuous), name: "Capsule"))
        },
        Builtin("RoundedRectangle", "cornerRadius: number, style: cornerStyle?") { b, e in
            guard e.nonNegative(b, "cornerRadius") else { return .invalid }
            return .shape(SceneShape(insettable: RoundedRectangle(cornerRadius: try b.required(b.cg("cornerRadius"), "cornerRadius"), style: b.cornerStyle("style") ?? .continuous),
                                     name: "RoundedRectangle"))
        },
        Builtin("RoundedRectangle", "cornerSize: size, style: cornerStyle?") { b, _ in
            .shape(SceneShape(insettable: RoundedRectangle(cornerSize: try b.required(b.size("cornerSize"), "cornerSize"), style: b.cornerStyle("style") ?? .continuous),
                              name: "RoundedRectangle"))
        },
        Builtin("UnevenRoundedRectangle", "topLeadingRadius: number?, bottomLeadingRadius: number?, bottomTrailingRadius: number?, topTrailingRadius: number?, style: cornerStyle?") { b, _ in
            .shape(SceneShape(insettable: UnevenRoundedRectangle(
                topLeadingRadius: b.cg("topLeadingRadius") ?? 0, bottomLeadingRadius: b.cg("bottomLeadingRadius") ?? 0,
                bottomTrailingRadius: b.cg("bottomTrailingRadius") ?? 0, topTrailingRadius: b.cg("topTrailingRadius") ?? 0,
                style: b.cornerStyle("style") ?? .continuous), name: "UnevenRoundedRectangle"))
        },
        Builtin("Path", "") { _, _ in .shape(SceneShape(Path(), name: "Path")) },
        Builtin("Path", "_ build: closure") { b, e in
            let (closure, scope) = try b.required(b.closure("build"), "build")
            let builder = PathBuilder()
            for (value, location) in try e.invoke(closure, scope, with: [.path(builder)], at: b.call) where !value.isInvalid {
                e.error(location, "a Path closure draws with its parameter; this expression makes \(value.kindName) that is not used")
            }
            return .shape(SceneShape(builder.path, name: "Path"))
        },
        Builtin("Path", "_ rect: rect") { b, _ in .shape(SceneShape(Path(try b.required(b.rect("rect"), "rect")), name: "Path")) },
        Builtin("Path", "ellipseIn rect: rect") { b, _ in .shape(SceneShape(Path(ellipseIn: try b.required(b.rect("rect"), "rect")), name: "Path")) },
        Builtin("Path", "roundedRect rect: rect, cornerRadius: number, style: cornerStyle?") { b, _ in
            .shape(SceneShape(Path(roundedRect: try b.required(b.rect("rect"), "rect"), cornerRadius: try b.required(b.cg("cornerRadius"), "cornerRadius"), style: b.cornerStyle("style") ?? .continuous),
                              name: "Path"))
        },
        Builtin("EmptyView", "") { _, _ in .view(AnyView(EmptyView())) },
        Builtin("Image", "_ file: string, scale: number?") { b, e in
            guard let image = e.loadImage(b.values["file"].flatMap { if case .string(let s) = $0 { s } else { nil } } ?? "",
                                          scale: b.double("scale") ?? 1, at: b.location("file"), scaleAt: b.location("scale")) else { return .invalid }
            return .image(image)
        },
        Builtin("Image", "svg file: string") { b, e in
            guard let image = e.loadSVG(b.values["file"].flatMap { if case .string(let s) = $0 { s } else { nil } } ?? "",
                                        at: b.location("file")) else { return .invalid }
            return .image(image)
        },
        Builtin("Spacer", "minLength: number?") { b, e in
            guard e.nonNegative(b, "minLength") else { return .invalid }
            return .view(AnyView(Spacer(minLength: b.cg("minLength"))))
        },
        Builtin("ZStack", "alignment: alignment?, content: closure") { b, e in
            let content = try e.content(b)
            return .view(AnyView(ZStack(alignment: b.alignment("alignment") ?? .center) { content }))
        },
        Builtin("HStack", "alignment: verticalAlignment?, spacing: number?, content: closure") { b, e in
            let content = try e.content(b)
            let alignment: VerticalAlignment = switch b.enumCase("alignment") { case "top": .top; case "bottom": .bottom; default: .center }
            return .view(AnyView(HStack(alignment: alignment, spacing: b.cg("spacing")) { content }))
        },
        Builtin("VStack", "alignment: horizontalAlignment?, spacing: number?, content: closure") { b, e in
            let content = try e.content(b)
            let alignment: HorizontalAlignment = switch b.enumCase("alignment") { case "leading": .leading; case "trailing": .trailing; default: .center }
            return .view(AnyView(VStack(alignment: alignment, spacing: b.cg("spacing")) { content }))
        },
        Builtin("Group", "content: closure") { b, e in .view(try e.content(b)) },
        Builtin("ForEach", "_ data: sequence, id: keyPath?, content: closure") { b, e in
            let (closure, scope) = try b.required(b.closure("content"), "content")
            guard let elements = try e.elements(of: try b.required(b.values["data"], "data"), at: b.location("data")) else { return .invalid }
            var views: [AnyView] = []
            for element in elements {
                try e.count(at: b.location("data"))
                let made = try e.buildViews(closure, scope, arguments: [element], at: b.location("content"))
                // Each element's identity is its value, as `id: \.self` gives in Swift.
                views.append(e.identity(element).map { AnyView(made.id($0)) } ?? made)
            }
            return .view(AnyView(sequence: views))
        },
    ]

    /// View modifiers (on views, and on shapes, colours and gradients as views).
    static let modifiers: [Builtin] = [
        Builtin("frame", "width: number?, height: number?, alignment: alignment?") { b, e in
            guard e.nonNegative(b, "width"), e.nonNegative(b, "height") else { return .invalid }
            return .view(AnyView(try b.required(b.view("self"), "self").frame(width: b.cg("width"), height: b.cg("height"), alignment: b.alignment("alignment") ?? .center)))
        },
        Builtin("frame", "minWidth: length?, idealWidth: length?, maxWidth: length?, minHeight: length?, idealHeight: length?, maxHeight: length?, alignment: alignment?") { b, e in
            let names = ["minWidth", "idealWidth", "maxWidth", "minHeight", "idealHeight", "maxHeight"]
            for name in names where !e.nonNegative(b, name) { return .invalid }
            for name in ["minWidth", "idealWidth", "minHeight", "idealHeight"] where b.double(name) == .infinity {
                e.error(b.location(name), "argument '\(name)' must be finite", hint: "only maxWidth and maxHeight may be .infinity")
                return .invalid
            }
            return .view(AnyView(try b.required(b.view("self"), "self").frame(minWidth: b.cg("minWidth"), idealWidth: b.cg("idealWidth"), maxWidth: b.cg("maxWidth"),
                                                       minHeight: b.cg("minHeight"), idealHeight: b.cg("idealHeight"), maxHeight: b.cg("maxHeight"),
                                                       alignment: b.alignment("alignment") ?? .center)))
        },
        Builtin("foregroundStyle", "_ content: style") { b, _ in .view(AnyView(try b.required(b.view("self"), "self").foregroundStyle(try b.required(b.style("content"), "content")))) },
        Builtin("tint", "_ tint: style") { b, _ in .view(AnyView(try b.required(b.view("self"), "self").tint(try b.required(b.style("tint"), "tint")))) },
        Builtin("aspectRatio", "_ ratio: number?, contentMode: contentMode") { b, e in
            if let r = b.double("ratio"), r <= 0 {
                e.error(b.location("ratio"), "the aspect ratio must be positive, got \(r.plainDescription)")
                return .invalid
            }
            return .view(AnyView(try b.required(b.view("self"), "self").aspectRatio(b.cg("ratio"), contentMode: b.enumCase("contentMode") == "fill" ? .fill : .fit)))
        },
        Builtin("scaledToFit", "") { b, _ in .view(AnyView(try b.required(b.view("self"), "self").scaledToFit())) },
        Builtin("scaledToFill", "") { b, _ in .view(AnyView(try b.required(b.view("self"), "self").scaledToFill())) },
        Builtin("layoutPriority", "_ value: number") { b, _ in .view(AnyView(try b.required(b.view("self"), "self").layoutPriority(try b.required(b.double("value"), "value")))) },
        Builtin("id", "_ id: any") { b, e in
            guard let id = e.identity(try b.required(b.values["id"], "id")) else {
                e.error(b.location("id"), "an id must be a number, a string or a boolean, got \(try b.required(b.values["id"], "id").kindName)")
                return .invalid
            }
            return .view(AnyView(try b.required(b.view("self"), "self").id(id)))
        },
        Builtin("geometryGroup", "") { b, _ in .view(AnyView(try b.required(b.view("self"), "self").geometryGroup())) },
        Builtin("padding", "") { b, _ in .view(AnyView(try b.required(b.view("self"), "self").padding())) },
        Builtin("padding", "_ length: number") { b, _ in .view(AnyView(try b.required(b.view("self"), "self").padding(try b.required(b.cg("length"), "length")))) },
        Builtin("padding", "_ edges: edges, _ length: number?") { b, _ in
            .view(AnyView(try b.required(b.view("self"), "self").padding(try b.required(b.edges("edges"), "edges"), b.cg("length") ?? 16)))
        },
        Builtin("offset", "x: number?, y: number?") { b, _ in .view(AnyView(try b.required(b.view("self"), "self").offset(x: b.cg("x") ?? 0, y: b.cg("y") ?? 0))) },
        Builtin("offset", "_ offset: size") { b, _ in .view(AnyView(try b.required(b.view("self"), "self").offset(try b.required(b.size("offset"), "offset")))) },
        Builtin("position", "x: number?, y: number?") { b, _ in .view(AnyView(try b.required(b.view("self"), "self").position(x: b.cg("x") ?? 0, y: b.cg("y") ?? 0))) },
        Builtin("position", "_ point: point") { b, _ in .view(AnyView(try b.required(b.view("self"), "self").position(try b.required(b.point("point"), "point")))) },
        Builtin("fixedSize", "") { b, _ in .view(AnyView(try b.required(b.view("self"), "self").fixedSize())) },
        Builtin("fixedSize", "horizontal: bool, vertical: bool") { b, _ in
            .view(AnyView(try b.required(b.view("self"), "self").fixedSize(horizontal: try b.required(b.bool("horizontal"), "horizontal"), vertical: try b.required(b.bool("vertical"), "vertical"))))
        },
        Builtin("rotationEffect", "_ angle: angle, anchor: unitPoint?") { b, _ in
            .view(AnyView(try b.required(b.view("self"), "self").rotationEffect(try b.required(b.angle("angle"), "angle"), anchor: b.unitPoint("anchor") ?? .center)))
        },
        Builtin("scaleEffect", "_ scale: number, anchor: unitPoint?") { b, _ in
            .view(AnyView(try b.required(b.view("self"), "self").scaleEffect(try b.required(b.cg("scale"), "scale"), anchor: b.unitPoint("anchor") ?? .center)))
        },
        Builtin("scaleEffect", "_ scale: size, anchor: unitPoint?") { b, _ in
            let s = try b.required(b.size("scale"), "scale")
            return .view(AnyView(try b.required(b.view("self"), "self").scaleEffect(x: s.width, y: s.height, anchor: b.unitPoint("anchor") ?? .center)))
        },
        Builtin("scaleEffect", "x: number?, y: number?, anchor: unitPoint?") { b, _ in
            .view(AnyView(try b.required(b.view("self"), "self").scaleEffect(x: b.cg("x") ?? 1, y: b.cg("y") ?? 1, anchor: b.unitPoint("anchor") ?? .center)))
        },
        Builtin("transformEffect", "_ transform: transform") { b, _ in .view(AnyView(try b.required(b.view("self"), "self").transformEffect(try b.required(b.transform("transform"), "transform")))) },
        Builtin("opacity", "_ value: number") { b, _ in .view(AnyView(try b.required(b.view("self"), "self").opacity(try b.required(b.double("value"), "value")))) },
        Builtin("blendMode", "_ mode: blendMode") { b, _ in .view(AnyView(try b.required(b.view("self"), "self").blendMode(try b.required(b.blendMode("mode"), "mode")))) },
        Builtin("clipShape", "_ shape: shape, style: fillStyle?") { b, _ in
            .view(AnyView(try b.required(b.view("self"), "self").clipShape(try b.required(b.shape("shape"), "shape"), style: b.fillStyle("style") ?? FillStyle())))
        },
        Builtin("clipped", "antialiased: bool?") { b, _ in .view(AnyView(try b.required(b.view("self"), "self").clipped())) },
        Builtin("shadow", "color: color?, radius: number, x: number?, y: number?") { b, e in
            let radius = try b.required(b.double("radius"), "radius")
            guard radius >= 0, radius <= e.limits.maximumShadowRadius else {
                e.error(b.location("radius"), "a shadow radius must be from 0 to \(e.limits.maximumShadowRadius.plainDescription) points, got \(radius.plainDescription)",
                        hint: radius > 0 && e.limits.maximumShadowRadius < 2 * DropShadow.maximumSigma ? "raise the limit with --max-shadow-radius" : nil)
                return .invalid
            }
            return .view(AnyView(try b.required(b.view("self"), "self").shadow(color: b.color("color") ?? Color(.sRGBLinear, white: 0, opacity: 0.33),
                                                        radius: CGFloat(radius), x: b.cg("x") ?? 0, y: b.cg("y") ?? 0)))
        },
        Builtin("background", "_ content: view, alignment: alignment?") { b, _ in
            .view(AnyView(try b.required(b.view("self"), "self").background(try b.required(b.view("content"), "content"), alignment: b.alignment("alignment") ?? .center)))
        },
        Builtin("background", "_ style: style, in shape: shape") { b, _ in
            let shape = try b.required(b.shape("shape"), "shape")
            return .view(AnyView(try b.required(b.view("self"), "self").background(shape.fill(try b.required(b.style("style"), "style")))))
        },
        Builtin("background", "alignment: alignment?, content: closure") { b, e in
            let content = try e.content(b)
            return .view(AnyView(try b.required(b.view("self"), "self").background(content, alignment: b.alignment("alignment") ?? .center)))
        },
        Builtin("overlay", "_ content: view, alignment: alignment?") { b, _ in
            .view(AnyView(try b.required(b.view("self"), "self").overlay(try b.required(b.view("content"), "content"), alignment: b.alignment("alignment") ?? .center)))
        },
        Builtin("overlay", "alignment: alignment?, content: closure") { b, e in
            let content = try e.content(b)
            return .view(AnyView(try b.required(b.view("self"), "self").overlay(content, alignment: b.alignment("alignment") ?? .center)))
        },
        Builtin("compositingGroup", "") { b, _ in .view(AnyView(try b.required(b.view("self"), "self").compositingGroup())) },
        Builtin("colorMultiply", "_ color: color") { b, _ in .view(AnyView(try b.required(b.view("self"), "self").colorMultiply(try b.required(b.color("color"), "color")))) },
        Builtin("brightness", "_ amount: number") { b, _ in .view(AnyView(try b.required(b.view("self"), "self").brightness(try b.required(b.double("amount"), "amount")))) },
        Builtin("contrast", "_ amount: number") { b, _ in .view(AnyView(try b.required(b.view("self"), "self").contrast(try b.required(b.double("amount"), "amount")))) },
        Builtin("saturation", "_ amount: number") { b, _ in .view(AnyView(try b.required(b.view("self"), "self").saturation(try b.required(b.double("amount"), "amount")))) },
        Builtin("grayscale", "_ amount: number") { b, _ in .view(AnyView(try b.required(b.view("self"), "self").grayscale(try b.required(b.double("amount"), "amount")))) },
        Builtin("hueRotation", "_ angle: angle") { b, _ in .view(AnyView(try b.required(b.view("self"), "self").hueRotation(try b.required(b.angle("angle"), "angle")))) },
        Builtin("colorInvert", "") { b, _ in .view(AnyView(try b.required(b.view("self"), "self").colorInvert())) },
        Builtin("blur", "radius: number, opaque: bool?") { b, e in
            let radius = try b.required(b.double("radius"), "radius")
            guard radius >= 0, radius <= e.limits.maximumBlurRadius else {
                e.error(b.location("radius"), "a blur radius must be from 0 to \(e.limits.maximumBlurRadius.plainDescription) points, got \(radius.plainDescription)",
                        hint: radius > 0 && e.limits.maximumBlurRadius < DropShadow.maximumSigma ? "raise the limit with --max-blur-radius" : nil)
                return .invalid
            }
            return .view(AnyView(try b.required(b.view("self"), "self").blur(radius: CGFloat(radius), opaque: b.bool("opaque") ?? false)))
        },
        Builtin("mask", "alignment: alignment?, _ mask: closure") { b, e in
            let (closure, scope) = try b.required(b.closure("mask"), "mask")
            let mask = try e.buildViews(closure, scope, at: b.location("mask"))
            return .view(AnyView(try b.required(b.view("self"), "self").mask(alignment: b.alignment("alignment") ?? .center) { mask }))
        },
        Builtin("mask", "_ mask: view") { b, _ in
            let mask = try b.required(b.view("mask"), "mask")
            return .view(AnyView(try b.required(b.view("self"), "self").mask { mask }))
        },
        Builtin("drawingGroup", "opaque: bool?, colorMode: colorMode?") { b, _ in
            .view(AnyView(try b.required(b.view("self"), "self").drawingGroup(opaque: b.bool("opaque") ?? false,
                                                       colorMode: try b.required(ColorRenderingMode(rawValue: b.enumCase("colorMode") ?? "nonLinear"), "colorMode"))))
        },
        // Identity matters to animation only; a still render accepts and ignores it.
        Builtin("id", "_ id: any") { b, _ in try b.required(b.values["self"], "self") },
    ]

    /// Shape methods: fills and strokes make views; transforms, trims and insets make shapes.
    static let shapeOperations: [Builtin] = [
        Builtin("fill", "_ content: style?, style: fillStyle?") { b, _ in
            let s = try b.required(b.shape("self"), "self")
            return .view(AnyView(s.fill(b.style("content") ?? AnyShapeStyle(ForegroundStyle()), style: b.fillStyle("style") ?? FillStyle())))
        },
        Builtin("stroke", "_ content: style?, lineWidth: number?") { b, e in
            guard e.nonNegative(b, "lineWidth") else { return .invalid }
            return try stroked(b, StrokeStyle(lineWidth: b.cg("lineWidth") ?? 1), border: false, e)
        },
        Builtin("stroke", "_ content: style?, style: strokeStyle") { b, e in try stroked(b, try b.required(b.strokeStyle("style"), "style"), border: false, e) },
        Builtin("strokeBorder", "_ content: style?, lineWidth: number?") { b, e in
            guard e.nonNegative(b, "lineWidth") else { return .invalid }
            return try stroked(b, StrokeStyle(lineWidth: b.cg("lineWidth") ?? 1), border: true, e)
        },
        Builtin("strokeBorder", "_ content: style?, style: strokeStyle") { b, e in try stroked(b, try b.required(b.strokeStyle("style"), "style"), border: true, e) },
        Builtin("trim", "from start: number?, to end: number?") { b, _ in
            let s = try b.required(b.shape("self"), "self")
            return .shape(SceneShape(s.trim(from: b.cg("start") ?? 0, to: b.cg("end") ?? 1), name: "trimmed \(s.name)"))
        },
        Builtin("offset", "x: number?, y: number?") { b, _ in
            let (x, y) = (b.cg("x") ?? 0, b.cg("y") ?? 0)
            return .shape(try b.required(b.shape("self"), "self").transformed { $0.offset(x: x, y: y) })
        },
        Builtin("offset", "_ offset: size") { b, _ in
            let size = try b.required(b.size("offset"), "offset")
            return .shape(try b.required(b.shape("self"), "self").transformed { $0.offset(size) })
        },
        Builtin("offset", "_ offset: point") { b, _ in
            let point = try b.required(b.point("offset"), "offset")
            return .shape(try b.required(b.shape("self"), "self").transformed { $0.offset(point) })
        },
        Builtin("rotation", "_ angle: angle, anchor: unitPoint?") { b, _ in
            let (angle, anchor) = (try b.required(b.angle("angle"), "angle"), b.unitPoint("anchor") ?? .center)
            return .shape(try b.required(b.shape("self"), "self").transformed { $0.rotation(angle, anchor: anchor) })
        },
        Builtin("scale", "_ scale: number, anchor: unitPoint?") { b, _ in
            let (k, anchor) = (try b.required(b.cg("scale"), "scale"), b.unitPoint("anchor") ?? .center)
            return .shape(try b.required(b.shape("self"), "self").transformed { $0.scale(k, anchor: anchor) })
        },
        Builtin("scale", "x: number?, y: number?, anchor: unitPoint?") { b, _ in
            let (x, y, anchor) = (b.cg("x") ?? 1, b.cg("y") ?? 1, b.unitPoint("anchor") ?? .center)
            return .shape(try b.required(b.shape("self"), "self").transformed { $0.scale(x: x, y: y, anchor: anchor) })
        },
        Builtin("transform", "_ transform: transform") { b, _ in
            let t = try b.required(b.transform("transform"), "transform")
            return .shape(try b.required(b.shape("self"), "self").transformed { $0.transform(t) })
        },
        Builtin("size", "width: number, height: number") { b, e in
            guard e.nonNegative(b, "width"), e.nonNegative(b, "height") else { return .invalid }
            let size = CGSize(width: try b.required(b.cg("width"), "width"), height: try b.required(b.cg("height"), "height"))
            return .shape(try b.required(b.shape("self"), "self").transformed { $0.size(size) })
        },
        Builtin("size", "_ size: size") { b, _ in
            let size = try b.required(b.size("size"), "size")
            return .shape(try b.required(b.shape("self"), "self").transformed { $0.size(size) })
        },
        Builtin("inset", "by amount: number") { b, e in
            let s = try b.required(b.shape("self"), "self")
            guard s.insetBy != nil else {
                e.error(b.call, "inset(by:) needs an insettable shape; this \(s.name) cannot be inset")
                return .invalid
            }
            return .shape(s.inset(by: try b.required(b.cg("amount"), "amount")))
        },
        boolean("union"), boolean("intersection"), boolean("subtracting"), boolean("symmetricDifference"),
        boolean("lineIntersection"), boolean("lineSubtraction"),
        Builtin("path", "in rect: rect") { b, _ in .shape(SceneShape(try b.required(b.shape("self"), "self").path(in: try b.required(b.rect("rect"), "rect")), name: "Path")) },
    ]

    /// A shape boolean: a new shape (not insettable, as in SwiftUI).
    private static func boolean(_ name: String) -> Builtin {
        Builtin(name, "_ other: shape, eoFill: bool?") { b, _ in
            let first = try b.required(b.shape("self"), "self"), second = try b.required(b.shape("other"), "other"), eoFill = b.bool("eoFill") ?? false
            let shape: SceneShape = switch name {
            case "union": SceneShape(first.union(second, eoFill: eoFill), name: "union")
            case "intersection": SceneShape(first.intersection(second, eoFill: eoFill), name: "intersection")
            case "subtracting": SceneShape(first.subtracting(second, eoFill: eoFill), name: "difference")
            case "symmetricDifference": SceneShape(first.symmetricDifference(second, eoFill: eoFill), name: "symmetric difference")
            case "lineIntersection": SceneShape(first.lineIntersection(second, eoFill: eoFill), name: "line intersection")
            default: SceneShape(first.lineSubtraction(second, eoFill: eoFill), name: "line subtraction")
            }
            return .shape(shape)
        }
    }

    /// `stroke`/`strokeBorder`: with a style argument a view (SwiftUI's `stroke(_:lineWidth:)`),
    /// without one `stroke` is a shape and `strokeBorder` a view, as in SwiftUI.
    private static func stroked(_ b: Bound, _ style: StrokeStyle, border: Bool, _ e: Evaluator) throws -> Value {
        let s = try b.required(b.shape("self"), "self")
        if border {
            guard s.insetBy != nil else {
                e.error(b.call, "strokeBorder needs an insettable shape; this \(s.name) cannot be inset",
                        hint: "stroked and trimmed shapes and paths are not insettable; use stroke(…) instead")
                return .invalid
            }
            return .view(AnyView(s.strokeBorder(b.style("content") ?? AnyShapeStyle(ForegroundStyle()), style: style)))
        }
        if let content = b.style("content") { return .view(AnyView(s.stroke(content, style: style))) }
        return .shape(SceneShape(s.stroke(style: style), name: "stroked \(s.name)"))
    }
}

extension Evaluator {
    /// The views of a builder closure argument named `content`.
    func content(_ b: Bound, _ name: String = "content") throws -> AnyView {
        let (closure, scope) = try b.required(b.closure(name), name)
        return try buildViews(closure, scope, at: b.location(name))
    }

    /// A value usable as a view identity (`.id(_:)`, a `ForEach` element).
    func identity(_ value: Value) -> String? {
        switch value {
        case .int(let v): "i\(v)"
        case .double(let v): "d\(v)"
        case .string(let v): "s\(v)"
        case .bool(let v): "b\(v)"
        default: nil
        }
    }

    /// Reports a negative argument; true when it is fine (or absent).
    func nonNegative(_ b: Bound, _ name: String) -> Bool {
        guard let v = b.double(name), v < 0 else { return true }
        error(b.location(name), "argument '\(name)' must not be negative, got \(v.plainDescription)")
        return false
    }

    /// Reports an argument that is not a positive number below 10,000 (a font size); true
    /// when it is fine (or absent).
    func positive(_ b: Bound, _ name: String) -> Bool {
        guard let v = b.double(name), !(v > 0 && v < 10_000) else { return true }
        error(b.location(name), "argument '\(name)' must be a positive number below 10000, got \(v.plainDescription)")
        return false
    }
}
