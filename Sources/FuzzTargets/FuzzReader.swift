import Foundation

/// Reads fuzzer bytes as the values a geometry routine takes. Running out of bytes yields
/// zeros, so every input means something.
public struct FuzzReader {
    private let bytes: [UInt8]
    private var index = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public var isAtEnd: Bool { index >= bytes.count }

    /// The bytes not read yet (and no more after them).
    public mutating func rest() -> [UInt8] {
        defer { index = bytes.count }
        return index < bytes.count ? Array(bytes[index...]) : []
    }

    public mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    /// A coordinate: mostly small (−32…96 in 1/8 steps), sometimes huge, tiny, NaN or infinite,
    /// chosen by the first byte, as the inputs nobody planned for.
    public mutating func coordinate() -> Double {
        let kind = byte()
        switch kind % 16 {
        case 0: return .nan
        case 1: return kind & 0x80 == 0 ? .infinity : -.infinity
        case 2: return Double(Int16(bitPattern: UInt16(byte()) << 8 | UInt16(byte()))) * 1e6
        case 3: return Double(byte()) * 1e-9
        case 4:
            var raw: UInt64 = 0
            for _ in 0..<8 { raw = raw << 8 | UInt64(byte()) }
            return Double(bitPattern: raw)
        default: return Double(Int(byte()) - 64) / 2 + Double(byte() % 8) / 8
        }
    }

    public mutating func point() -> CGPoint { CGPoint(x: coordinate(), y: coordinate()) }
}
