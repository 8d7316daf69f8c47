import Compositor
import Foundation

// Approximate equality for the test suites (swift-numerics' `isApproximatelyEqual` idea, for
// the engine's geometry and pixels): every comparison names its tolerance, and the suites
// share these instead of each keeping its own.

/// Whether `a` is within `tolerance` of `b` (absolute), or also within `relative` × the larger
/// magnitude.
public func isClose(_ a: Double, _ b: Double, tolerance: Double = 1e-9, relative: Double = 0) -> Bool {
    if a == b { return true }
    guard a.isFinite, b.isFinite else { return false }
    return abs(a - b) <= max(tolerance, relative * max(abs(a), abs(b)))
}

/// Both coordinates within `tolerance`; false for a missing point.
public func isClose(_ a: CGPoint?, _ b: CGPoint, tolerance: Double = 1e-9) -> Bool {
    guard let a else { return false }
    return isClose(a.x, b.x, tolerance: tolerance) && isClose(a.y, b.y, tolerance: tolerance)
}

public func isClose(_ a: CGSize, _ b: CGSize, tolerance: Double = 1e-9) -> Bool {
    isClose(a.width, b.width, tolerance: tolerance) && isClose(a.height, b.height, tolerance: tolerance)
}

/// Origin and size within `tolerance`.
public func isClose(_ a: CGRect, _ b: CGRect, tolerance: Double = 1e-9) -> Bool {
    isClose(a.origin, b.origin, tolerance: tolerance) && isClose(a.size, b.size, tolerance: tolerance)
}

/// Every channel within `tolerance` 8-bit levels.
public func isNear(_ a: RGBA8, _ b: RGBA8, within tolerance: Int = 1) -> Bool {
    abs(Int(a.r) - Int(b.r)) <= tolerance && abs(Int(a.g) - Int(b.g)) <= tolerance
        && abs(Int(a.b) - Int(b.b)) <= tolerance && abs(Int(a.a) - Int(b.a)) <= tolerance
}

/// Red, green and blue within `tolerance` 8-bit levels of (`r`, `g`, `b`), alpha ignored.
public func isNear(_ p: RGBA8, _ r: Int, _ g: Int, _ b: Int, within tolerance: Int = 1) -> Bool {
    abs(Int(p.r) - r) <= tolerance && abs(Int(p.g) - g) <= tolerance && abs(Int(p.b) - b) <= tolerance
}
