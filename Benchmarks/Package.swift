// swift-tools-version: 6.1
// Playtrace's benchmarks (ordo-one/benchmark). Run them with `scripts/bench` from the repository root, which also
// measures the peers (the Python m3u8 package) in the same run and prints the ratios.
import PackageDescription

let package = Package(
    name: "PlaytraceBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Playtrace", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "HLSParsing",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "PlaytraceHLS", package: "Playtrace"),
            ],
            path: "Benchmarks/HLSParsing",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
