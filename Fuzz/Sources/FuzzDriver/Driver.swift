import FuzzTargets

/// The target the running executable fuzzes (set once, before libFuzzer starts).
nonisolated(unsafe) private var selected: (@Sendable ([UInt8]) -> Bool)?

/// libFuzzer calls this with each input; a false result (a broken invariant) is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    precondition(selected!(bytes), "invariant broken by this input")
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                       _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// Runs libFuzzer's driver (its command line: corpus folders, -max_total_time …) on `target`.
public func runFuzzer(_ target: String, _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    selected = FuzzTargets.all[target]!
    // One-time set-up of the libraries below, before the first input.
    FuzzTargets.prepare(target)
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments, fuzzOneInput)
}
