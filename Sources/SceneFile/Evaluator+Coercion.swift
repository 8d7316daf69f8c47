import Foundation
import SceneGraph

/// Why an argument does not fit a parameter.
struct Mismatch: Error {
    var message: String
    var hint: String?
}

extension Evaluator {
    /// `value` as the canonical value of `type`, resolving member shorthand by the type; no
    /// report (overload resolution tries several), the caller reports the mismatch it keeps.
    func coerce(_ value: Value, to type: ParamType, argument: String) -> Result<Value, Mismatch> {
        func mismatch() -> Result<Value, Mismatch> {
            .failure(Mismatch(message: "\(argument) expects \(type.expectation), got \(value.kindName)"))
        }
        func unknownMember(_ name: String, _ typeName: String) -> Result<Value, Mismatch> {
            if typeName != "Color", namedColors[name] != nil {
                return .failure(Mismatch(message: "\(argument) expects \(type.expectation), got a colour ('.\(name)')"))
            }
            return .failure(Mismatch(message: "type '\(typeName)' has no member '\(name)'" + (didYouMean(name, type.members).map { "; \($0)" } ?? "")))
        }
        if case .invalid = value { return .success(.invalid) }
        switch type {
        case .any: return .success(value)
        case .number:
            switch value {
            case .int(let v): return .success(.double(Double(v)))
            case .double(let v):
                guard v.isFinite else { return .failure(Mismatch(message: "\(argument) must be a finite number, got \(v)")) }
                return .success(value)
            case .member("pi"): return .success(.double(.pi))
            case .member(let name): return unknownMember(name, "Double")
            default: return mismatch()
            }
        case .length:
            switch value {
            case .int(let v): return .success(.double(Double(v)))
            case .double(let v):
                guard !v.isNaN, v != -.infinity else { return .failure(Mismatch(message: "\(argument) must be a number or .infinity, got \(v)")) }
                return .success(value)
            case .member("infinity"): return .success(.double(.infinity))
            case .member(let name): return unknownMember(name, "CGFloat")
            default: return mismatch()
            }
        case .int:
            switch value {
            case .int: return .success(value)
            case .double(let v) where v.isFinite && v == v.rounded() && abs(v) < 1e15: return .success(.int(Int(v)))
            default: return mismatch()
            }
        case .bool: if case .bool = value { return .success(value) } else { return mismatch() }
        case .string: if case .string = value { return .success(value) } else { return mismatch() }
        case .color:
            switch value {
            case .color: return .success(value)
            case .member(let name):
                if let c = namedColors[name] { return .success(.color(c)) }
                return unknownMember(name, "Color")
            default: return mismatch()
            }
        case .angle:
            switch value {
            case .angle: return .success(value)
            case .member("zero"): return .success(.angle(.zero))
            case .member(let name): return unknownMember(name, "Angle")
            case .int, .double:
                let n = number(value).map { $0.plainDescription } ?? "…"
                return .failure(Mismatch(message: "\(argument) expects an angle, got \(value.kindName)", hint: "write .degrees(\(n)) or .radians(\(n))"))
            default: return mismatch()
            }
        case .point: if case .point = value { return .success(value) } else { return mismatch() }
        case .size: if case .size = value { return .success(value) } else { return mismatch() }
        case .rect: if case .rect = value { return .success(value) } else { return mismatch() }
        case .unitPoint:
            switch value {
            case .unitPoint: return .success(value)
            case .member(let name):
                if let p = unitPoints[name] { return .success(.unitPoint(p)) }
                return unknownMember(name, "UnitPoint")
            default: return mismatch()
            }
        case .alignment:
            switch value {
            case .alignment: return .success(value)
            case .member(let name):
                if let a = alignments[name] { return .success(.alignment(a)) }
                return unknownMember(name, "Alignment")
            default: return mismatch()
            }
        case .font:
            switch value {
            case .font: return .success(value)
            case .member(let name):
                if let f = textStyleFonts[name] { return .success(.font(f)) }
                return unknownMember(name, "Font")
            default: return mismatch()
            }
        case .horizontalAlignment, .verticalAlignment, .blendMode, .colorMode, .cornerStyle, .lineCap, .lineJoin, .colorSpace,
             .contentMode, .interpolation, .fontWeight, .fontDesign, .textAlignment, .truncationMode,
             .labelStyle, .imageScale, .symbolVariant:
            let typeName = String(type.expectation.split(separator: " ").last!)
            switch value {
            case .member(let name):
                if type.members.contains(name) { return .success(.enumCase(type: typeName, name: name)) }
                return unknownMember(name, typeName)
            case .enumCase(let t, _) where t == typeName: return .success(value)
            default: return mismatch()
            }
        case .edges:
            func edge(_ name: String) -> Edge.Set? {
                ["top": .top, "leading": .leading, "bottom": .bottom, "trailing": .trailing, "all": .all,
                 "horizontal": .horizontal, "vertical": .vertical][name]
            }
            switch value {
            case .edges: return .success(value)
            case .member(let name):
                if let e = edge(name) { return .success(.edges(e)) }
                return unknownMember(name, "Edge.Set")
            case .array(let items):
                var set: Edge.Set = []
                for item in items {
                    guard case .member(let name) = item, let e = edge(name) else { return mismatch() }
                    set.formUnion(e)
                }
                return .success(.edges(set))
            default: return mismatch()
            }
        case .view:
            switch value {
            case .view, .shape, .color, .style, .text:
                guard let view = asView(value, at: SourceLocation(line: 0, column: 0), context: "") else { return mismatch() }
                return .success(.view(view))
            case .member(let name):
                if let c = namedColors[name] { return .success(.view(AnyView(c))) }
                return unknownMember(name, "Color")
            default: return mismatch()
            }
        case .shape:
            if case .member(let name) = value, let shape = memberShapes[name] { return .success(.shape(shape)) }
            if case .shape = value { return .success(value) } else { return mismatch() }
        case .insettableShape:
            if case .member(let name) = value, let shape = memberShapes[name] { return .success(.shape(shape)) }
            guard case .shape(let s) = value else { return mismatch() }
            guard s.insetBy != nil else {
                return .failure(Mismatch(message: "\(argument) needs an insettable shape; this \(s.name) cannot be inset",
                                         hint: "stroked and trimmed shapes are not insettable; use stroke(…) instead"))
            }
            return .success(value)
        case .style:
            switch value {
            case .style: return .success(value)
            case .color(let c): return .success(.style(AnyShapeStyle(c), view: AnyView(c), name: "colour"))
            case .member(let name):
                if let c = namedColors[name] { return .success(.style(AnyShapeStyle(c), view: AnyView(c), name: "colour")) }
                if name == "foreground" {
                    return .success(.style(AnyShapeStyle(ForegroundStyle()), view: AnyView(Rectangle()), name: "foreground style"))
                }
                return unknownMember(name, "Color")
            default: return mismatch()
            }
        case .gradient: if case .gradient = value { return .success(value) } else { return mismatch() }
        case .stops, .colors, .numbers, .points:
            guard case .array(let items) = value else { return mismatch() }
            let element: ParamType = type == .stops ? .any : type == .colors ? .color : type == .numbers ? .number : .point
            var out: [Value] = []
            for (i, item) in items.enumerated() {
                if type == .stops {
                    guard case .stop = item else {
                        return .failure(Mismatch(message: "\(argument) expects gradient stops, but element \(i) is \(item.kindName)",
                                                 hint: "write Gradient.Stop(color: …, location: …)"))
                    }
                    out.append(item)
                    continue
                }
                switch coerce(item, to: element, argument: "element \(i) of \(argument)") {
                case .success(let v): out.append(v)
                case .failure(let m): return .failure(m)
                }
            }
            return .success(.array(out))
        case .strokeStyle: if case .strokeStyle = value { return .success(value) } else { return mismatch() }
        case .animation:
            switch value {
            case .animation: return .success(value)
            case .member(let name):
                if let a = namedAnimations[name] { return .success(.animation(a)) }
                return unknownMember(name, "Animation")
            default: return mismatch()
            }
        case .fillStyle: if case .fillStyle = value { return .success(value) } else { return mismatch() }
        case .transform:
            switch value {
            case .transform: return .success(value)
            case .member("identity"): return .success(.transform(.identity))
            default: return mismatch()
            }
        case .closure: if case .closure = value { return .success(value) } else { return mismatch() }
        case .keyPath: if case .keyPath = value { return .success(value) } else { return mismatch() }
        case .sequence:
            switch value {
            case .range, .array: return .success(value)
            default: return mismatch()
            }
        }
    }
}

extension Bound {
    func colors(_ name: String) -> [Color]? {
        array(name)?.compactMap { if case .color(let c) = $0 { c } else { nil } }
    }
    func numbers(_ name: String) -> [CGFloat]? {
        array(name)?.compactMap { if case .double(let d) = $0 { CGFloat(d) } else { nil } }
    }
    func stops(_ name: String) -> [Gradient.Stop]? {
        array(name)?.compactMap { if case .stop(let s) = $0 { s } else { nil } }
    }
    func points(_ name: String) -> [CGPoint]? {
        array(name)?.compactMap { if case .point(let p) = $0 { p } else { nil } }
    }
}
