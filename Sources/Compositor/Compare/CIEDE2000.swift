import Foundation

/// CIE L*a*b* (D65 white), from sRGB-encoded components.
public struct Lab: Hashable, Sendable {
    public var l: Double, a: Double, b: Double
    public init(l: Double, a: Double, b: Double) { self.l = l; self.a = a; self.b = b }

    /// From sRGB-encoded red, green, blue in [0, 1]: decode, sRGB primaries → XYZ (D65), XYZ → Lab.
    public init(srgbRed r: Double, green g: Double, blue b: Double) {
        let (lr, lg, lb) = (srgbDecode(r), srgbDecode(g), srgbDecode(b))
        let x = 0.4124564 * lr + 0.3575761 * lg + 0.1804375 * lb
        let y = 0.2126729 * lr + 0.7151522 * lg + 0.0721750 * lb
        let z = 0.0193339 * lr + 0.1191920 * lg + 0.9503041 * lb
        // D65 reference white.
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        let fx = f(x / 0.95047), fy = f(y / 1.0), fz = f(z / 1.08883)
        self.init(l: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz))
    }
}

/// The CIEDE2000 colour difference ΔE₀₀ (kL = kC = kH = 1), as defined by CIE 142-2001 and
/// implemented following Sharma, Wu and Dalal (2005), whose test pairs the tests use.
public func ciede2000(_ c1: Lab, _ c2: Lab) -> Double {
    let (l1, a1, b1, l2, a2, b2) = (c1.l, c1.a, c1.b, c2.l, c2.a, c2.b)
    let cab = (hypot(a1, b1) + hypot(a2, b2)) / 2
    let g = 0.5 * (1 - (pow(cab, 7) / (pow(cab, 7) + pow(25, 7))).squareRoot())
    let a1p = (1 + g) * a1, a2p = (1 + g) * a2
    let c1p = hypot(a1p, b1), c2p = hypot(a2p, b2)
    func hue(_ b: Double, _ a: Double) -> Double {
        if a == 0 && b == 0 { return 0 }
        let h = atan2(b, a) * 180 / .pi
        return h < 0 ? h + 360 : h
    }
    let h1p = hue(b1, a1p), h2p = hue(b2, a2p)
    let dLp = l2 - l1, dCp = c2p - c1p
    var dhp = 0.0
    if c1p * c2p != 0 {
        dhp = h2p - h1p
        if dhp > 180 { dhp -= 360 } else if dhp < -180 { dhp += 360 }
    }
    let dHp = 2 * (c1p * c2p).squareRoot() * sin(dhp / 2 * .pi / 180)
    let lbp = (l1 + l2) / 2, cbp = (c1p + c2p) / 2
    var hbp = h1p + h2p
    if c1p * c2p != 0 {
        if abs(h1p - h2p) <= 180 { hbp /= 2 } else { hbp = (h1p + h2p < 360) ? (hbp + 360) / 2 : (hbp - 360) / 2 }
    }
    func rad(_ d: Double) -> Double { d * .pi / 180 }
    let t = 1 - 0.17 * cos(rad(hbp - 30)) + 0.24 * cos(rad(2 * hbp)) + 0.32 * cos(rad(3 * hbp + 6))
        - 0.20 * cos(rad(4 * hbp - 63))
    let dTheta = 30 * exp(-pow((hbp - 275) / 25, 2))
    let rc = 2 * (pow(cbp, 7) / (pow(cbp, 7) + pow(25, 7))).squareRoot()
    let sl = 1 + 0.015 * pow(lbp - 50, 2) / (20 + pow(lbp - 50, 2)).squareRoot()
    let sc = 1 + 0.045 * cbp
    let sh = 1 + 0.015 * cbp * t
    let rt = -sin(rad(2 * dTheta)) * rc
    return (pow(dLp / sl, 2) + pow(dCp / sc, 2) + pow(dHp / sh, 2) + rt * (dCp / sc) * (dHp / sh)).squareRoot()
}
