/// The 32-bit linear congruential generator of `SCENES.md`: every reference scene draws its
/// numbers from it, in a fixed order, so any engine can rebuild the same scene.
public struct SceneLCG: Sendable {
    public private(set) var state: UInt32

    public init(seed: UInt32 = 1) { state = seed }

    /// Advances and returns the new state.
    public mutating func next() -> UInt32 {
        state = state &* 1_664_525 &+ 1_013_904_223
        return state
    }

    /// A double in [0, 1).
    public mutating func u() -> Double { Double(next()) / 4_294_967_296 }
}
