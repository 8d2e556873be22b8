// swift-tools-version: 6.2
// Playtrace's benchmarks (ordo-one/benchmark). Run them with `scripts/bench` from the repository root, which also
// measures the peers (the Python m3u8 package) in the same run and prints the ratios.
import PackageDescription

let package = Package(
    name: "PlaytraceBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Playtrace", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
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
        .executableTarget(
            name: "PlayerObservation",
            dependencies: [
                .product(name: "PlaytracePlayer", package: "Playtrace"),
                .product(name: "PlaytraceCore", package: "Playtrace"),
                .product(name: "PlaytraceHeadless", package: "Playtrace"),
                .product(name: "PlaytraceLab", package: "Playtrace"),
                .product(name: "PlaytraceNetwork", package: "Playtrace"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "SlowTracker",
            dependencies: [
                .product(name: "PlaytracePlayer", package: "Playtrace"),
                .product(name: "PlaytraceCore", package: "Playtrace"),
                "SyntheticEngine",
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "PlayerTracking",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "PlaytracePlayer", package: "Playtrace"),
                .product(name: "PlaytraceCore", package: "Playtrace"),
                "SyntheticEngine",
            ],
            path: "Benchmarks/PlayerTracking",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "TelemetryPipeline",
            dependencies: [
                "TelemetryBenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "PlaytraceTelemetry", package: "Playtrace"),
                .product(name: "PlaytraceBackends", package: "Playtrace"),
                .product(name: "PlaytraceCore", package: "Playtrace"),
            ],
            path: "Benchmarks/TelemetryPipeline",
            swiftSettings: [.swiftLanguageMode(.v6)],
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "XMLParserFloor",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "ParseTimer",
            dependencies: [
                .product(name: "PlaytraceHLS", package: "Playtrace"),
                .product(name: "PlaytraceDASH", package: "Playtrace"),
                .product(name: "PlaytraceDASHPlayback", package: "Playtrace"),
                .product(name: "PlaytraceCore", package: "Playtrace"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "PipelineProfile",
            dependencies: [
                "TelemetryBenchmarkSupport",
                .product(name: "PlaytraceTelemetry", package: "Playtrace"),
                .product(name: "PlaytraceBackends", package: "Playtrace"),
                .product(name: "PlaytraceCore", package: "Playtrace"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "EmitCost",
            dependencies: [
                "TelemetryBenchmarkSupport",
                .product(name: "PlaytraceTelemetry", package: "Playtrace"),
                .product(name: "PlaytraceBackends", package: "Playtrace"),
                .product(name: "PlaytraceNetwork", package: "Playtrace"),
                .product(name: "PlaytraceLab", package: "Playtrace"),
                .product(name: "PlaytraceCore", package: "Playtrace"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "GraphiteSoak",
            dependencies: [
                .product(name: "PlaytraceNetwork", package: "Playtrace"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "WireBytes",
            dependencies: [
                "TelemetryBenchmarkSupport",
                .product(name: "PlaytraceTelemetry", package: "Playtrace"),
                .product(name: "PlaytraceBackends", package: "Playtrace"),
                .product(name: "PlaytraceNetwork", package: "Playtrace"),
                .product(name: "PlaytraceCore", package: "Playtrace"),
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "TelemetryBenchmarkSupport",
            dependencies: [
                .product(name: "PlaytraceTelemetry", package: "Playtrace"),
                .product(name: "PlaytraceBackends", package: "Playtrace"),
                .product(name: "PlaytraceCore", package: "Playtrace"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "SyntheticEngine",
            dependencies: [
                .product(name: "PlaytracePlayer", package: "Playtrace"),
                .product(name: "PlaytraceCore", package: "Playtrace"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "ABRTraces",
            dependencies: [
                .product(name: "PlaytraceHeadless", package: "Playtrace"),
                .product(name: "PlaytraceLab", package: "Playtrace"),
                .product(name: "PlaytraceNetwork", package: "Playtrace"),
                .product(name: "PlaytracePlayer", package: "Playtrace"),
                .product(name: "PlaytraceCore", package: "Playtrace"),
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "AdBeaconLateness",
            dependencies: [
                .product(name: "PlaytraceAds", package: "Playtrace"),
                .product(name: "PlaytraceHeadless", package: "Playtrace"),
                .product(name: "PlaytraceLab", package: "Playtrace"),
                .product(name: "PlaytraceNetwork", package: "Playtrace"),
                .product(name: "PlaytracePlayer", package: "Playtrace"),
                .product(name: "PlaytraceCore", package: "Playtrace"),
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "OutboxBurst",
            dependencies: [
                .product(name: "PlaytraceNetwork", package: "Playtrace"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "PlayerCost",
            dependencies: [
                .product(name: "PlaytraceAds", package: "Playtrace"),
                .product(name: "PlaytracePlayer", package: "Playtrace"),
                .product(name: "PlaytraceCore", package: "Playtrace"),
                .product(name: "PlaytraceTelemetry", package: "Playtrace"),
                .product(name: "PlaytraceBackends", package: "Playtrace"),
                .product(name: "PlaytraceNetwork", package: "Playtrace"),
                .product(name: "Clocks", package: "swift-clocks"),
                "SyntheticEngine",
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
