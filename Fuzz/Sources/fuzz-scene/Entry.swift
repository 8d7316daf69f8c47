import FuzzDriver

/// SwiftPM links an executable's entry as `<module>_main`; hand control to libFuzzer.
@_cdecl("fuzz_scene_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer("scene", argc, argv)
}
