import Foundation

/// A problem in SVG path data, located by its character offset (0-based) in the string.
public struct SVGPathError: Error, CustomStringConvertible, Equatable, Sendable {
    public let offset: Int
    public let message: String
    public var description: String { "SVG path data, column \(offset + 1): \(message)" }
}

extension Path {
    /// Parses SVG path data (`d` attribute syntax): every command, absolute and relative,
    /// `M L H V C S Q T A Z`, with implicit repeats and compact numbers (`1.5.5`, `1e-3`, arc
    /// flags without separators).
    ///
    /// ```swift
    /// let p = try Path(svgPath: "M0 0 h10 v10 h-10 z")
    /// ```
    /// - Throws: `SVGPathError` with the column of the first bad character.
    public init(svgPath data: String) throws {
        self.init()
        var parser = SVGPathParser(Array(data.utf8))
        try parser.parse(into: &self)
    }

    /// Parses SVG path data as SVG renderers must (SVG 1.1 §F.2): the segments before the
    /// first error are kept, and the error is returned beside them (nil when there is none).
    ///
    /// ```swift
    /// let (p, error) = Path.readingSVGPath("M0 0 h10 v10 x")   // p has the two lines
    /// ```
    public static func readingSVGPath(_ data: String) -> (path: Path, error: SVGPathError?) {
        var path = Path()
        var parser = SVGPathParser(Array(data.utf8))
        do {
            try parser.parse(into: &path)
            return (path, nil)
        } catch let error as SVGPathError {
            return (path, error)
        } catch {
            return (path, SVGPathError(offset: 0, message: "\(error)"))
        }
    }

    /// The path as SVG path data with absolute commands (`M L Q C Z`), numbers in their shortest
    /// exact decimal form, so that `Path(svgPath: p.description)` gives back `p`.
    public var description: String {
        var out: [String] = []
        func n(_ v: CGFloat) -> String {
            let d = Double(v)
            if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
            return "\(d)"
        }
        func pt(_ p: CGPoint) -> String { "\(n(p.x)) \(n(p.y))" }
        for element in elements {
            switch element {
            case .move(let p): out.append("M\(pt(p))")
            case .line(let p): out.append("L\(pt(p))")
            case .quadCurve(let p, let c): out.append("Q\(pt(c)) \(pt(p))")
            case .curve(let p, let c1, let c2): out.append("C\(pt(c1)) \(pt(c2)) \(pt(p))")
            case .closeSubpath: out.append("Z")
            }
        }
        return out.joined(separator: " ")
    }
}

extension Path: CustomStringConvertible {}

/// A recursive-descent reader of the SVG path grammar (SVG 1.1 §8.3.9).
private struct SVGPathParser {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func skipSeparators(comma: Bool = true) {
        while index < bytes.count {
            let b = bytes[index]
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C || (comma && b == 0x2C) {
                index += 1
            } else { break }
        }
    }

    func error(_ message: String, at offset: Int? = nil) -> SVGPathError {
        SVGPathError(offset: offset ?? index, message: message)
    }

    var atNumberStart: Bool {
        guard index < bytes.count else { return false }
        let b = bytes[index]
        return (b >= 0x30 && b <= 0x39) || b == 0x2E || b == 0x2D || b == 0x2B
    }

    mutating func number() throws -> Double {
        skipSeparators()
        let start = index
        func digits() -> Int {
            let s = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            return index - s
        }
        if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
        var count = digits()
        if index < bytes.count, bytes[index] == 0x2E {
            index += 1
            count += digits()
        }
        guard count > 0 else {
            index = start
            if start >= bytes.count { throw error("expected a number, found the end of the data") }
            throw error("expected a number, found '\(Character(UnicodeScalar(bytes[start])))'")
        }
        if index < bytes.count, bytes[index] == 0x65 || bytes[index] == 0x45 {
            let e = index
            index += 1
            if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D { index += 1 }
            if digits() == 0 { throw error("exponent without digits", at: e) }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw error("number '\(text)' is out of range", at: start)
        }
        return value
    }

    mutating func flag() throws -> Bool {
        skipSeparators()
        guard index < bytes.count, bytes[index] == 0x30 || bytes[index] == 0x31 else {
            throw error("expected an arc flag, 0 or 1")
        }
        defer { index += 1 }
        return bytes[index] == 0x31
    }

    mutating func parse(into path: inout Path) throws {
        var current = CGPoint.zero, start = CGPoint.zero
        var lastControl: CGPoint?      // reflected by S/s (cubic) or T/t (quadratic)
        var lastWasCubic = false, lastWasQuad = false
        var command: UInt8 = 0
        skipSeparators(comma: false)
        if index < bytes.count, bytes[index] != 0x4D, bytes[index] != 0x6D {
            throw error("path data must start with a moveto (M or m)")
        }
        while true {
            skipSeparators(comma: false)
            guard index < bytes.count else { break }
            var b = bytes[index]
            if b == 0x2C, command != 0, command | 0x20 != 0x7A {
                // A comma may separate coordinate groups of a repeated command; a number must follow.
                index += 1
                skipSeparators(comma: false)
                guard atNumberStart else {
                    if index >= bytes.count { throw error("expected a number, found the end of the data") }
                    throw error("expected a number, found '\(Character(UnicodeScalar(bytes[index])))'")
                }
                b = bytes[index]
            }
            if (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) {
                command = b
                index += 1
            } else if atNumberStart, command != 0, command != 0x5A, command != 0x7A {
                // Implicit repeat; after a moveto, further pairs are linetos.
                if command == 0x4D { command = 0x4C } else if command == 0x6D { command = 0x6C }
            } else if b == 0x2C {
                throw error("unexpected ','")
            } else {
                throw error("unexpected '\(Character(UnicodeScalar(b)))'")
            }
            let relative = command >= 0x61
            let base = relative ? current : .zero
            func point() throws -> CGPoint {
                let x = try number(), y = try number()
                return CGPoint(x: base.x + x, y: base.y + y)
            }
            var cubicControl: CGPoint?, quadControl: CGPoint?
            let elementsBefore = path.elements.count
            switch command | 0x20 {   // lower-cased
            case 0x6D: // m
                current = try point(); start = current
                path.move(to: current)
            case 0x6C: // l
                current = try point(); path.addLine(to: current)
            case 0x68: // h
                let x = try number(); current.x = relative ? current.x + x : x
                path.addLine(to: current)
            case 0x76: // v
                let y = try number(); current.y = relative ? current.y + y : y
                path.addLine(to: current)
            case 0x63: // c
                let c1 = try point(), c2 = try point(), p = try point()
                path.addCurve(to: p, control1: c1, control2: c2)
                cubicControl = c2; current = p
            case 0x73: // s
                let c1 = lastWasCubic ? reflect(lastControl!, about: current) : current
                let c2 = try point(), p = try point()
                path.addCurve(to: p, control1: c1, control2: c2)
                cubicControl = c2; current = p
            case 0x71: // q
                let c = try point(), p = try point()
                path.addQuadCurve(to: p, control: c)
                quadControl = c; current = p
            case 0x74: // t
                let c = lastWasQuad ? reflect(lastControl!, about: current) : current
                let p = try point()
                path.addQuadCurve(to: p, control: c)
                quadControl = c; current = p
            case 0x61: // a
                let rx = try number(), ry = try number(), rotation = try number()
                let large = try flag(), sweep = try flag()
                let p = try point()
                path.addSVGArc(from: current, to: p, rx: rx, ry: ry, rotationDegrees: rotation,
                               largeArc: large, sweep: sweep)
                current = p
            case 0x7A: // z
                path.closeSubpath(); current = start
            default:
                throw error("unknown command '\(Character(UnicodeScalar(command)))'", at: index - 1)
            }
            // Finite numbers can still add up (relative commands, reflections, arcs) to
            // infinity: such a path could not be drawn or printed back.
            guard current.x.isFinite, current.y.isFinite, path.elements[elementsBefore...].allSatisfy(\.isFinite) else {
                throw error("the coordinates overflow", at: index - 1)
            }
            lastWasCubic = cubicControl != nil
            lastWasQuad = quadControl != nil
            lastControl = cubicControl ?? quadControl
        }
    }

    func reflect(_ p: CGPoint, about c: CGPoint) -> CGPoint { CGPoint(x: 2 * c.x - p.x, y: 2 * c.y - p.y) }
}

extension Path.Element {
    /// Whether every coordinate of the element is finite.
    var isFinite: Bool {
        func ok(_ p: CGPoint) -> Bool { p.x.isFinite && p.y.isFinite }
        switch self {
        case .move(let p), .line(let p): return ok(p)
        case .quadCurve(let p, let c): return ok(p) && ok(c)
        case .curve(let p, let c1, let c2): return ok(p) && ok(c1) && ok(c2)
        case .closeSubpath: return true
        }
    }
}

extension Path {
    /// An SVG elliptical arc from `p0` to `p1`, converted from endpoint to centre
    /// parameterisation as SVG 1.1 Appendix F.6.5 describes (radii scaled up when too small,
    /// F.6.6), then appended as cubics.
    mutating func addSVGArc(from p0: CGPoint, to p1: CGPoint, rx rxIn: Double, ry ryIn: Double,
                            rotationDegrees: Double, largeArc: Bool, sweep: Bool) {
        var rx = abs(rxIn), ry = abs(ryIn)
        if p0 == p1 { return }
        if rx == 0 || ry == 0 { addLine(to: p1); return }
        let phi = rotationDegrees * .pi / 180
        let (cp, sp) = (cos(phi), sin(phi))
        let dx = (p0.x - p1.x) / 2, dy = (p0.y - p1.y) / 2
        let x1 = cp * dx + sp * dy, y1 = -sp * dx + cp * dy
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 { rx *= lambda.squareRoot(); ry *= lambda.squareRoot() }
        let num = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
        let den = rx * rx * y1 * y1 + ry * ry * x1 * x1
        var coef = (max(0, num) / den).squareRoot()
        if largeArc == sweep { coef = -coef }
        let cx1 = coef * rx * y1 / ry, cy1 = -coef * ry * x1 / rx
        let cx = cp * cx1 - sp * cy1 + (p0.x + p1.x) / 2
        let cy = sp * cx1 + cp * cy1 + (p0.y + p1.y) / 2
        func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double {
            atan2(ux * vy - uy * vx, ux * vx + uy * vy)
        }
        let theta1 = angle(1, 0, (x1 - cx1) / rx, (y1 - cy1) / ry)
        var delta = angle((x1 - cx1) / rx, (y1 - cy1) / ry, (-x1 - cx1) / rx, (-y1 - cy1) / ry)
        if !sweep, delta > 0 { delta -= 2 * .pi } else if sweep, delta < 0 { delta += 2 * .pi }
        // An ellipse is the unit circle scaled, rotated and moved.
        let place = CGAffineTransform(a: rx * cp, b: rx * sp, c: -ry * sp, d: ry * cp, tx: cx, ty: cy)
        var arc = Path()
        arc.addRelativeArc(center: .zero, radius: 1, startAngle: .radians(theta1), delta: .radians(delta), transform: place)
        // Drop the arc's own moveto; it starts where the current point already is.
        for element in arc.elements.dropFirst() { append(element) }
    }
}
