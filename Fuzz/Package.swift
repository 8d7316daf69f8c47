// swift-tools-version:6.0
import PackageDescription

// libFuzzer executables, one per target of `FuzzTargets` (in the root package). Built by
// `make fuzz` with `-sanitize=fuzzer,address -parse-as-library`; never by `make test`, which
// replays the committed corpora through the same functions instead.
let targets = ["scene", "svg", "svgdoc", "raster", "stroke", "boolean", "png", "text"]

let package = Package(
    name: "Fuzz",
    dependencies: [.package(name: "Compositor", path: "..")],
    targets: [
        // libFuzzer's entry and driver call, shared by the executables.
        .target(name: "FuzzDriver", dependencies: [.product(name: "_FuzzTargets", package: "Compositor")]),
    ] + targets.map { name in
        .executableTarget(name: "fuzz-\(name)", dependencies: ["FuzzDriver"], path: "Sources/fuzz-\(name)")
    },
    swiftLanguageModes: [.v6]
)
