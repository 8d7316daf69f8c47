import FuzzDriver

/// SwiftPM links an executable's entry as `<module>_main`; hand control to libFuzzer.
@_cdecl("fuzz_svgdoc_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer("svgdoc", argc, argv)
}
