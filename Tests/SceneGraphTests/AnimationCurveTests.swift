import Foundation
import SceneGraph
import Testing

/// Timing curves against their formulas.
@Suite struct AnimationCurveTests {
    @Test func linearAndDefaults() {
        let linear = Animation.linear(duration: 2)
        #expect(linear.progress(at: -1) == 0 && linear.progress(at: 0) == 0)
        #expect(abs(linear.progress(at: 0.5) - 0.25) < 1e-12)
        #expect(linear.progress(at: 2) == 1 && linear.progress(at: 5) == 1)
        #expect(Animation.easeInOut.duration == 0.35 && Animation.default.duration == 0.35)
    }

    /// A Bézier curve evaluated at its parameter s = 0.5: for ease-in, (0.42, 0) (1, 1),
    /// x = 3·0.25·0.5·0.42 + 3·0.5·0.25·1 + 0.125 = 0.6575 and y = 0 + 0.375 + 0.125 = 0.5;
    /// so at time 0.6575 of the duration the progress is 0.5. Ease-out is ease-in mirrored:
    /// at time 1 − 0.6575 = 0.3425 it is 1 − 0.5. Ease-in-out is symmetric: 0.5 at 0.5.
    @Test func bezierCurvesMatchTheirParametricForm() {
        #expect(abs(Animation.easeIn(duration: 1).progress(at: 0.6575) - 0.5) < 1e-9)
        #expect(abs(Animation.easeOut(duration: 1).progress(at: 0.3425) - 0.5) < 1e-9)
        #expect(abs(Animation.easeInOut(duration: 2).progress(at: 1) - 0.5) < 1e-9)
        // timingCurve(0.25, 0.1, 0.25, 1) (CSS "ease") at s = 0.3:
        // x = 3·0.49·0.3·0.25 + 3·0.7·0.09·0.25 + 0.027 = 0.1845, y = 3·0.49·0.3·0.1 + 3·0.7·0.09·1 + 0.027 = 0.2601.
        #expect(abs(Animation.timingCurve(0.25, 0.1, 0.25, 1, duration: 1).progress(at: 0.1845) - 0.2601) < 1e-9)
        // Monotone in time for every standard curve.
        for curve in [Animation.easeIn, .easeOut, .easeInOut, .linear] {
            var last = 0.0
            for i in 0...100 {
                let v = curve.progress(at: Double(i) / 100 * 0.35)
                #expect(v >= last - 1e-12)
                last = v
            }
        }
    }

    /// The spring against the damped oscillator x'' = ω₀²(1 − x) − 2ζω₀x', integrated with
    /// RK4 at 0.1 ms steps: the closed form agrees within 1e-6 for under-, critically and
    /// over-damped springs; after `duration` it stays within 0.001 of 1.
    @Test(arguments: [(0.5, 0.825), (0.5, 0.3), (0.4, 1.0), (0.6, 1.5)])
    func springFollowsTheDampedOscillator(_ response: Double, _ damping: Double) {
        let spring = Animation.spring(response: response, dampingFraction: damping)
        let w0 = 2 * Double.pi / response
        func accel(_ x: Double, _ v: Double) -> Double { w0 * w0 * (1 - x) - 2 * damping * w0 * v }
        var (x, v, t) = (0.0, 0.0, 0.0)
        let h = 1e-4
        var worst = 0.0
        while t < min(1.0, spring.duration) - h / 2 {
            let k1x = v, k1v = accel(x, v)
            let k2x = v + h / 2 * k1v, k2v = accel(x + h / 2 * k1x, v + h / 2 * k1v)
            let k3x = v + h / 2 * k2v, k3v = accel(x + h / 2 * k2x, v + h / 2 * k2v)
            let k4x = v + h * k3v, k4v = accel(x + h * k3x, v + h * k3v)
            x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
            v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
            t += h
            worst = max(worst, abs(spring.progress(at: t) - x))
        }
        #expect(worst < 1e-6)
        let settled = spring.duration
        #expect(settled.isFinite && settled > 0)
        for i in 0...200 { #expect(abs(spring.progress(at: settled + Double(i) * 0.01) - 1) < 1e-3) }
        // Two milliseconds before (the settling time is rounded up to the next one) it is still
        // 0.001 or more away.
        #expect(abs(spring.progress(at: settled - 0.002) - 1) >= 1e-3)
    }

    @Test func bouncySpringsOvershoot() {
        // .bouncy: damping 1 − 0.3 = 0.7 with response 0.5; the first peak of an underdamped
        // oscillator is at π/ω_d with overshoot e^(−ζπ/√(1−ζ²)) = e^(−0.7π/0.714) ≈ 0.0460.
        let peakTime = Double.pi / (2 * Double.pi / 0.5 * (1 - 0.49).squareRoot())
        #expect(abs(Animation.bouncy.progress(at: peakTime) - (1 + exp(-0.7 * Double.pi / (1 - 0.49).squareRoot()))) < 1e-9)
        #expect(Animation.smooth.progress(at: 0.3) < 1)
        // .snappy is damping 0.85; .smooth 1 (critically damped, never above 1).
        for i in 0...300 { #expect(Animation.smooth.progress(at: Double(i) / 100) <= 1 + 1e-12) }
    }

    @Test func delaySpeedAndRepeats() {
        let base = Animation.linear(duration: 1)
        #expect(base.delay(0.5).progress(at: 0.5) == 0 && abs(base.delay(0.5).progress(at: 1) - 0.5) < 1e-12)
        #expect(base.delay(0.5).duration == 1.5)
        #expect(abs(base.speed(2).progress(at: 0.25) - 0.5) < 1e-12 && base.speed(2).duration == 0.5)
        // Three times, autoreversing: forwards, backwards, forwards; then the new value.
        let bounce = base.repeatCount(3)
        #expect(abs(bounce.progress(at: 0.25) - 0.25) < 1e-12)
        #expect(abs(bounce.progress(at: 1.25) - 0.75) < 1e-12)
        #expect(abs(bounce.progress(at: 2.25) - 0.25) < 1e-12)
        #expect(bounce.duration == 3 && bounce.progress(at: 3) == 1)
        let forever = base.repeatForever(autoreverses: false)
        #expect(forever.duration == .infinity && forever.period == 1)
        #expect(abs(forever.progress(at: 7.5) - 0.5) < 1e-12)
        #expect(base.repeatForever().period == 2)
    }
}
