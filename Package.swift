// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Compositor",
    products: [
        .library(name: "Compositor", targets: ["Compositor"]),
        .library(name: "SceneGraph", targets: ["SceneGraph"]),
        .library(name: "SceneFile", targets: ["SceneFile"]),
        .library(name: "SVG", targets: ["SVG"]),
        .library(name: "PixelTesting", targets: ["PixelTesting"]),
        .library(name: "Report", targets: ["Report"]),
        // For this repository's own Benchmarks/ and Fuzz/ packages, not for users: underscored.
        .library(name: "_ReferenceScenes", targets: ["ReferenceScenes"]),
        .library(name: "_FuzzTargets", targets: ["FuzzTargets"]),
        .executable(name: "compose", targets: ["compose"]),
    ],
    targets: [
        // MARK: - System libraries (Debian packages, found with pkg-config)

        .systemLibrary(
            name: "CPixman",
            pkgConfig: "pixman-1",
            providers: [.apt(["libpixman-1-dev"])]
        ),
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),

        .systemLibrary(
            name: "CHarfBuzz",
            pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev"])]
        ),
        // ICU's line breaking behind a plain-C header (see its header for why).
        .target(
            name: "CTextICU",
            linkerSettings: [.linkedLibrary("icuuc")]
        ),

        // fontconfig, the last fallback for characters the bundled chain cannot draw.
        .target(
            name: "CFontconfig",
            linkerSettings: [.linkedLibrary("fontconfig")]
        ),

        // libpng's full API, whose longjmp error handling must stay inside C.
        .target(
            name: "CPNGDecode",
            dependencies: ["CPNG"]
        ),

        // What the engine needs from C and Swift lacks: a cache hint, the AVX2 kernels chosen
        // at run time, and glibc's malloc settings (`HeapPolicy`).
        .target(name: "CRasterKernels"),

        // MARK: - Engine

        .target(
            name: "Compositor",
            dependencies: ["CPixman", "CPNG", "CPNGDecode", "CRasterKernels"]
        ),

        // MARK: - Text: fonts, shaping (HarfBuzz), line breaking (ICU), glyph outlines

        .target(
            name: "Typography",
            dependencies: ["Compositor", "CHarfBuzz", "CTextICU", "CFontconfig"]
        ),

        // MARK: - Views and shapes (SwiftUI's API)

        .target(
            name: "SceneGraph",
            dependencies: ["Compositor", "Typography"]
        ),

        // MARK: - SVG files read into a resolved tree and drawn as vector images

        .target(
            name: "SVG",
            dependencies: ["SceneGraph", "Compositor"]
        ),

        // MARK: - The scene language (`.scene` files): SwiftUI syntax, evaluated to views

        .target(
            name: "SceneFile",
            dependencies: ["SceneGraph", "SVG"]
        ),

        // MARK: - What a render cost, as one self-contained HTML page (`compose report`)

        .target(
            name: "Report",
            dependencies: ["SceneGraph"]
        ),

        // MARK: - Snapshot and pixel assertions for Swift Testing and XCTest

        .target(
            name: "PixelTesting",
            dependencies: ["SceneGraph", "Compositor"]
        ),

        // MARK: - The reference scenes of shared/bench/SCENES.md (tests and benchmarks)

        .target(
            name: "ReferenceScenes",
            dependencies: ["Compositor", "SceneGraph"]
        ),

        // MARK: - Fuzzing entry points (the libFuzzer executables live in Fuzz/)

        .target(
            name: "FuzzTargets",
            dependencies: ["SceneFile", "SceneGraph", "SVG"]
        ),

        // MARK: - Command line

        .executableTarget(
            name: "compose",
            dependencies: ["SceneGraph", "SceneFile", "SVG", "Report"]
        ),

        // MARK: - Tests

        // Approximate equality for geometry and pixels, shared by the suites (not a product).
        .target(
            name: "_TestSupport",
            dependencies: ["Compositor"],
            path: "Tests/_TestSupport"
        ),

        .testTarget(
            name: "CompositorTests",
            dependencies: ["_TestSupport", "Compositor", "ReferenceScenes"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "SceneGraphTests",
            dependencies: ["_TestSupport", "SceneGraph", "PixelTesting", "ReferenceScenes"],
            exclude: ["__Snapshots__"]
        ),
        .testTarget(
            name: "SceneFileTests",
            dependencies: ["SceneFile", "PixelTesting", "SVG"],
            exclude: ["Malformed"]
        ),
        .testTarget(
            name: "SVGTests",
            dependencies: ["SVG", "SceneGraph"]
        ),
        .testTarget(
            name: "TypographyTests",
            dependencies: ["Typography"]
        ),
        // Replays the committed fuzz corpora and every input that once broke a target.
        .testTarget(
            name: "FuzzRegressionTests",
            dependencies: ["FuzzTargets"]
        ),
        .testTarget(
            name: "ReportTests",
            dependencies: ["_TestSupport", "Report", "SceneGraph", "Compositor"]
        ),
        .testTarget(
            name: "PixelTestingTests",
            dependencies: ["PixelTesting"]
        ),
        // SwiftUI code compiled with only its import changed (and rendered).
        .testTarget(
            name: "SwiftUICompatibilityTests",
            dependencies: ["SceneGraph"]
        ),
        // Runs the built `compose` binary as a user would (the dependency makes SwiftPM build it).
        .testTarget(
            name: "ComposeTests",
            dependencies: ["_TestSupport", "compose", "Compositor"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
