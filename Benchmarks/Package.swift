// swift-tools-version:6.0
import PackageDescription

// The benchmark suite: this engine and cairo's C API render the reference scenes of
// shared/bench/SCENES.md in one process, alternating, after a pixel-correctness gate.
let package = Package(
    name: "Benchmarks",
    dependencies: [
        .package(name: "Compositor", path: ".."),
    ],
    targets: [
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"])]
        ),
        .executableTarget(
            name: "bench",
            dependencies: [
                "CCairo",
                .product(name: "Compositor", package: "Compositor"),
                .product(name: "_ReferenceScenes", package: "Compositor"),
                .product(name: "SceneGraph", package: "Compositor"),
            ]
        ),
        // The SVG suite rendered in one process (Benchmarks/svg-suite-timing.py).
        .executableTarget(
            name: "svg-suite-bench",
            dependencies: [
                .product(name: "Compositor", package: "Compositor"),
                .product(name: "SceneGraph", package: "Compositor"),
                .product(name: "SVG", package: "Compositor"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
