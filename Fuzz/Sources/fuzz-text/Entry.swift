import FuzzDriver

/// SwiftPM links an executable's entry as `<module>_main`; hand control to libFuzzer.
@_cdecl("fuzz_text_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer("text", argc, argv)
}
