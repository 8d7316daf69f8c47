import Foundation

/// How a change moves from its old value (progress 0) to its new one (1) over time (SwiftUI's
/// `Animation`): timing curves, springs, and their delay, speed and repetition.
///
/// ```swift
/// let animation = Animation.easeInOut(duration: 1.2).delay(0.1)
/// animation.progress(at: 0.7)   // 0.5: half-way, 0.6 s into the curve
/// ```
public struct Animation: Hashable, Sendable, CustomStringConvertible {
    /// The timing curve itself.
    enum Base: Hashable, Sendable {
        /// A cubic Bézier timing curve from (0, 0) to (1, 1) with these control points.
        case curve(x1: Double, y1: Double, x2: Double, y2: Double, duration: Double)
        /// A unit spring released from rest at 0 towards 1, and when it settles (computed once).
        case spring(response: Double, dampingFraction: Double, blendDuration: Double, settlingTime: Double)
    }
    /// What is applied around it, innermost first. (A flat list rather than a recursive enum:
    /// an indirect enum's boxes are referenced through tagged pointers, which LeakSanitizer
    /// does not recognise, so the named animations held in a global were reported as leaks.)
    enum Modifier: Hashable, Sendable {
        case delay(Double)
        case speed(Double)
        case repeated(count: Int?, autoreverses: Bool)
    }
    let base: Base
    let modifiers: [Modifier]
    init(_ base: Base, _ modifiers: [Modifier] = []) {
        self.base = base
        self.modifiers = modifiers
    }
    private func adding(_ modifier: Modifier) -> Animation { Animation(base, modifiers + [modifier]) }

    /// SwiftUI's default durations for the timing curves.
    public static let defaultDuration = 0.35

    /// The default animation: `easeInOut` over 0.35 s (SwiftUI's classic default; newer
    /// SwiftUI releases default to a spring, which `.smooth` gives here).
    public static let `default` = Animation.easeInOut(duration: defaultDuration)

    public static func linear(duration: Double = defaultDuration) -> Animation { timingCurve(0, 0, 1, 1, duration: duration) }
    public static var linear: Animation { linear() }
    /// Core Animation's ease-in, (0.42, 0) (1, 1).
    public static func easeIn(duration: Double = defaultDuration) -> Animation { timingCurve(0.42, 0, 1, 1, duration: duration) }
    public static var easeIn: Animation { easeIn() }
    /// Core Animation's ease-out, (0, 0) (0.58, 1).
    public static func easeOut(duration: Double = defaultDuration) -> Animation { timingCurve(0, 0, 0.58, 1, duration: duration) }
    public static var easeOut: Animation { easeOut() }
    /// Core Animation's ease-in-ease-out, (0.42, 0) (0.58, 1).
    public static func easeInOut(duration: Double = defaultDuration) -> Animation { timingCurve(0.42, 0, 0.58, 1, duration: duration) }
    public static var easeInOut: Animation { easeInOut() }

    /// A cubic Bézier curve through (0, 0), (c0x, c0y), (c1x, c1y), (1, 1): time on x, progress
    /// on y. The x controls are clamped to [0, 1] so that time never runs backwards.
    public static func timingCurve(_ c0x: Double, _ c0y: Double, _ c1x: Double, _ c1y: Double,
                                   duration: Double = defaultDuration) -> Animation {
        Animation(.curve(x1: clampUnit(c0x), y1: finite(c0y), x2: clampUnit(c1x), y2: finite(c1y), duration: positive(duration)))
    }

    /// A spring (SwiftUI's `spring(response:dampingFraction:blendDuration:)`): a unit mass with
    /// stiffness (2π / response)² and damping 4π·dampingFraction / response, released at rest.
    /// `blendDuration` only matters when a running animation is retargeted, which a rendered
    /// change from one state to another never does; it is kept for source compatibility.
    public static func spring(response: Double = 0.5, dampingFraction: Double = 0.825, blendDuration: Double = 0) -> Animation {
        let response = max(1e-3, positive(response)), damping = min(1e3, max(0, finite(dampingFraction)))
        return Animation(.spring(response: response, dampingFraction: damping, blendDuration: max(0, finite(blendDuration)),
                                 settlingTime: springSettlingTime(response: response, dampingFraction: damping)))
    }
    public static var spring: Animation { spring(response: 0.5) }
    /// A spring given by its perceptual duration and bounce (SwiftUI's
    /// `spring(duration:bounce:)`): response = duration, damping fraction 1 − bounce (bounce ≥
    /// 0) or 1 / (1 + bounce) (bounce < 0).
    public static func spring(duration: Double = 0.5, bounce: Double = 0, blendDuration: Double = 0) -> Animation {
        let b = min(0.99, max(-0.99, finite(bounce)))
        return spring(response: duration, dampingFraction: b >= 0 ? 1 - b : 1 / (1 + b), blendDuration: blendDuration)
    }
    /// A spring with no bounce (SwiftUI's `.smooth`).
    public static func smooth(duration: Double = 0.5, extraBounce: Double = 0) -> Animation { spring(duration: duration, bounce: extraBounce) }
    public static var smooth: Animation { smooth() }
    /// A spring with a little bounce, 0.15 (SwiftUI's `.snappy`).
    public static func snappy(duration: Double = 0.5, extraBounce: Double = 0) -> Animation { spring(duration: duration, bounce: 0.15 + extraBounce) }
    public static var snappy: Animation { snappy() }
    /// A spring with a visible bounce, 0.3 (SwiftUI's `.bouncy`).
    public static func bouncy(duration: Double = 0.5, extraBounce: Double = 0) -> Animation { spring(duration: duration, bounce: 0.3 + extraBounce) }
    public static var bouncy: Animation { bouncy() }

    /// Starts `seconds` later.
    public func delay(_ seconds: Double) -> Animation { adding(.delay(max(0, finite(seconds)))) }
    /// Runs `factor` times as fast.
    public func speed(_ factor: Double) -> Animation { adding(.speed(max(1e-3, positive(factor)))) }
    /// Plays `count` times, backwards every other time when `autoreverses`; it ends at the new
    /// value whatever the count (the state has changed).
    public func repeatCount(_ count: Int, autoreverses: Bool = true) -> Animation {
        adding(.repeated(count: max(1, count), autoreverses: autoreverses))
    }
    /// Plays forever; its `duration` is infinite, and `period` is one cycle (there and back
    /// when it autoreverses).
    public func repeatForever(autoreverses: Bool = true) -> Animation {
        adding(.repeated(count: nil, autoreverses: autoreverses))
    }

    /// The progress `time` seconds after the change: 0 before it starts, the curve's value
    /// while it runs (a spring overshoots 1), exactly 1 once it has finished.
    public func progress(at time: Double) -> Double { progress(modifiers.count, at: time) }

    /// Seconds until the animation has finished (for a spring: until it stays within 0.001
    /// of its target, ±1 ms); infinite for `repeatForever`.
    public var duration: Double { duration(modifiers.count) }

    /// One cycle of a repeating animation (there and back when it autoreverses), else
    /// `duration`: the length of a seamless loop.
    public var period: Double {
        // The outermost repetition's cycle, scaled by the speeds outside it.
        var scale = 1.0
        for level in stride(from: modifiers.count, to: 0, by: -1) {
            switch modifiers[level - 1] {
            case .repeated(_, let autoreverses): return duration(level - 1) * (autoreverses ? 2 : 1) / scale
            case .speed(let s): scale *= s
            case .delay: break
            }
        }
        return duration
    }

    public var description: String { "\(base)" + modifiers.map { " \($0)" }.joined() }

    // MARK: - Evaluation

    /// The progress of the animation made of the base and the first `level` modifiers.
    func progress(_ level: Int, at time: Double) -> Double {
        guard time > 0 else { return 0 }
        guard level > 0 else {
            switch base {
            case let .curve(x1, y1, x2, y2, duration):
                guard time < duration else { return 1 }
                return Self.bezierProgress(x1, y1, x2, y2, time / duration)
            case let .spring(response, damping, _, settlingTime):
                guard time < settlingTime else { return 1 }
                return Self.springProgress(response: response, dampingFraction: damping, time: time)
            }
        }
        switch modifiers[level - 1] {
        case .delay(let d):
            return progress(level - 1, at: time - d)
        case .speed(let s):
            return progress(level - 1, at: time * s)
        case let .repeated(count, autoreverses):
            let period = duration(level - 1)
            guard period > 0, period.isFinite else { return 1 }
            if let count, time >= period * Double(count) { return 1 }
            let cycle = (time / period).rounded(.down)
            let local = time - cycle * period
            let backwards = autoreverses && Int(cycle.truncatingRemainder(dividingBy: 2)) == 1
            return progress(level - 1, at: backwards ? period - local : local)
        }
    }

    func duration(_ level: Int) -> Double {
        guard level > 0 else {
            switch base {
            case .curve(_, _, _, _, let d): return d
            case .spring(_, _, _, let settlingTime): return settlingTime
            }
        }
        switch modifiers[level - 1] {
        case .delay(let d): return d + duration(level - 1)
        case .speed(let s): return duration(level - 1) / s
        case let .repeated(count, _): return count.map { Double($0) * duration(level - 1) } ?? .infinity
        }
    }

    /// y at the curve parameter whose x is `u`: Newton's method from s = u (converges in a few
    /// steps for every curve with x controls in [0, 1]), bisection where it stalls.
    static func bezierProgress(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ u: Double) -> Double {
        func bezier(_ a: Double, _ b: Double, _ s: Double) -> Double {
            let t = 1 - s
            return 3 * t * t * s * a + 3 * t * s * s * b + s * s * s
        }
        func slope(_ a: Double, _ b: Double, _ s: Double) -> Double {
            let t = 1 - s
            return 3 * t * t * a + 6 * t * s * (b - a) + 3 * s * s * (1 - b)
        }
        var s = u
        for _ in 0..<8 {
            let error = bezier(x1, x2, s) - u
            if abs(error) < 1e-12 { return bezier(y1, y2, s) }
            let d = slope(x1, x2, s)
            if abs(d) < 1e-9 { break }
            s = min(1, max(0, s - error / d))
        }
        var (lo, hi) = (0.0, 1.0)
        s = u
        for _ in 0..<60 {
            if bezier(x1, x2, s) < u { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return bezier(y1, y2, s)
    }

    /// The damped oscillator x'' + 2ζω₀x' + ω₀²(x − 1) = 0 from x(0) = 0, x'(0) = 0, with
    /// ω₀ = 2π / response and ζ the damping fraction, solved in closed form.
    static func springProgress(response: Double, dampingFraction zeta: Double, time t: Double) -> Double {
        let w0 = 2 * Double.pi / response
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            return 1 - exp(-zeta * w0 * t) * (cos(wd * t) + zeta * w0 / wd * sin(wd * t))
        } else if zeta == 1 {
            return 1 - exp(-w0 * t) * (1 + w0 * t)
        } else {
            let r = (zeta * zeta - 1).squareRoot()
            let (r1, r2) = (-w0 * (zeta - r), -w0 * (zeta + r))
            // x = 1 + A e^{r1 t} + B e^{r2 t}, A + B = −1, r1 A + r2 B = 0.
            let a = r2 / (r1 - r2), b = -r1 / (r1 - r2)
            return 1 + a * exp(r1 * t) + b * exp(r2 * t)
        }
    }

    /// When a spring has settled: the last time it is 0.001 or more from 1, to the next
    /// millisecond; infinite when that is more than an hour away (an undamped spring).
    /// Underdamped, |1 − x| peaks at e^(−ζω₀t) at multiples of π/ω_d under the envelope
    /// e^(−ζω₀t)/√(1−ζ²), so a backward scan from where the envelope falls below 0.001 ends
    /// within ln(1/√(1−ζ²))/(ζω₀) + π/ω_d. Critically and overdamped, x rises monotonically: bisection.
    static func springSettlingTime(response: Double, dampingFraction zeta: Double) -> Double {
        let w0 = 2 * Double.pi / response
        let tolerance = 1e-3, limit = 3600.0
        func away(_ t: Double) -> Bool { abs(1 - springProgress(response: response, dampingFraction: zeta, time: t)) >= tolerance }
        if zeta < 1 {
            guard zeta > 0 else { return .infinity }
            let envelope = log(1 / ((1 - zeta * zeta).squareRoot() * tolerance)) / (zeta * w0)
            guard envelope < limit else { return .infinity }
            var t = (envelope * 1000).rounded(.up) / 1000
            while t > 0.001, !away(t - 0.001) { t -= 0.001 }
            return t
        }
        var hi = 1 / w0
        while away(hi) {
            hi *= 2
            if hi > limit { return .infinity }
        }
        var lo = 0.0
        while hi - lo > 1e-4 {
            let mid = (lo + hi) / 2
            if away(mid) { lo = mid } else { hi = mid }
        }
        return (hi * 1000).rounded(.up) / 1000
    }
}

private func finite(_ v: Double) -> Double { v.isFinite ? v : 0 }
private func positive(_ v: Double) -> Double { v.isFinite && v > 0 ? v : 0 }
private func clampUnit(_ v: Double) -> Double { min(1, max(0, finite(v))) }

