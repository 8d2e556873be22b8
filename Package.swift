// swift-tools-version: 6.2
// Playtrace: play media and know exactly what happened while it played.
// The modules, the arrows between them and the rules for time, concurrency and errors: docs/ARCHITECTURE.md.

import PackageDescription

let strictness: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Playtrace",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .visionOS(.v2)],
    products: [
        .library(name: "PlaytraceCore", targets: ["PlaytraceCore"]),
        .library(name: "PlaytraceNetwork", targets: ["PlaytraceNetwork"]),
        .library(name: "PlaytraceHLS", targets: ["PlaytraceHLS"]),
        .library(name: "PlaytraceDASH", targets: ["PlaytraceDASH"]),
        .library(name: "PlaytracePlayer", targets: ["PlaytracePlayer"]),
        .library(name: "PlaytraceHLSPlayback", targets: ["PlaytraceHLSPlayback"]),
        .library(name: "PlaytraceDASHPlayback", targets: ["PlaytraceDASHPlayback"]),
        .library(name: "PlaytraceHeadless", targets: ["PlaytraceHeadless"]),
        .library(name: "PlaytraceMPV", targets: ["PlaytraceMPV"]),
        .library(name: "PlaytraceTelemetry", targets: ["PlaytraceTelemetry"]),
        .library(name: "PlaytraceBackends", targets: ["PlaytraceBackends"]),
        .library(name: "PlaytraceAds", targets: ["PlaytraceAds"]),
        .library(name: "PlaytraceLab", targets: ["PlaytraceLab"]),
        .library(name: "PlaytraceSession", targets: ["PlaytraceSession"]),
        .executable(name: "playtrace", targets: ["playtrace"]),
    ],
    traits: [
        .trait(
            name: "MPV",
            description: "Builds PlaytraceMPV, the libmpv engine (needs libmpv-dev and pkg-config)."
        ),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        // OTLP over HTTP only: the gRPC exporter would add gRPC's build for no gain here.
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        .target(
            name: "PlaytraceCore",
            dependencies: [.product(name: "HeapModule", package: "swift-collections")],
            swiftSettings: strictness
        ),
        .target(
            name: "PlaytraceNetwork",
            dependencies: [
                "PlaytraceCore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ],
            swiftSettings: strictness
        ),
        .target(
            name: "PlaytraceHLS",
            dependencies: ["PlaytraceCore"],
            swiftSettings: strictness
        ),
        // MPEG-DASH presentations read as HLS playlists are: the MPD, its timelines as runs, its URL templates.
        .target(
            name: "PlaytraceDASH",
            dependencies: ["PlaytraceCore"],
            swiftSettings: strictness
        ),
        .target(
            name: "PlaytracePlayer",
            dependencies: ["PlaytraceCore", .product(name: "DequeModule", package: "swift-collections")],
            swiftSettings: strictness
        ),
        // The HLS playback rules every engine keeps: the interstitial schedule, the asset sources, the ad-break ledger.
        .target(
            name: "PlaytraceHLSPlayback",
            dependencies: ["PlaytraceCore", "PlaytraceHLS", "PlaytracePlayer"],
            swiftSettings: strictness
        ),
        // A DASH presentation as the HLS playlists an engine plays: its ladder, its tracks across periods, its breaks.
        .target(
            name: "PlaytraceDASHPlayback",
            dependencies: ["PlaytraceCore", "PlaytraceDASH", "PlaytraceHLS"],
            swiftSettings: strictness
        ),
        .target(
            name: "PlaytraceHeadless",
            dependencies: [
                "PlaytraceCore", "PlaytraceNetwork", "PlaytraceHLS", "PlaytracePlayer", "PlaytraceHLSPlayback",
                "PlaytraceDASH", "PlaytraceDASHPlayback",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: strictness
        ),
        // glibc's malloc.h (mallinfo2): the libmpv tests measure what malloc holds after 300 engines.
        .systemLibrary(name: "CGlibcMalloc"),
        .systemLibrary(
            name: "CMPV",
            pkgConfig: "mpv",
            providers: [.apt(["libmpv-dev"]), .brew(["mpv"])]
        ),
        .target(
            name: "PlaytraceMPV",
            dependencies: [
                // The HLS rules libmpv lacks (the interstitial schedule, the ad-break ledger) are PlaytraceHLSPlayback's.
                "PlaytraceCore", "PlaytracePlayer", "PlaytraceHLS", "PlaytraceNetwork", "PlaytraceHLSPlayback",
                // An MPD is presented as HLS playlists as the headless engine presents it (DASHBridge).
                "PlaytraceDASH", "PlaytraceDASHPlayback",
                .target(name: "CMPV", condition: .when(traits: ["MPV"])),
            ],
            swiftSettings: strictness
        ),
        .target(
            name: "PlaytraceTelemetry",
            dependencies: [
                "PlaytraceCore", "PlaytracePlayer",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: strictness
        ),
        .target(
            name: "PlaytraceBackends",
            dependencies: [
                "PlaytraceCore", "PlaytraceNetwork", "PlaytraceTelemetry",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictness
        ),
        .target(
            name: "PlaytraceAds",
            dependencies: ["PlaytraceCore", "PlaytraceNetwork", "PlaytraceHLS", "PlaytraceDASH", "PlaytracePlayer"],
            swiftSettings: strictness
        ),
        .target(
            name: "PlaytraceLab",
            dependencies: [
                "PlaytraceCore", "PlaytraceHLS", "PlaytraceDASH",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: strictness
        ),
        // One viewer: the Player on an engine with its trackers, telemetry, ad tracking and outbox; its summary,
        // verdict and report. `play`, `demo` and an app run it alike; the probe runs thousands and folds them.
        .target(
            name: "PlaytraceSession",
            dependencies: [
                "PlaytraceCore", "PlaytraceNetwork", "PlaytraceHLS", "PlaytracePlayer",
                "PlaytraceHeadless", "PlaytraceMPV", "PlaytraceTelemetry", "PlaytraceBackends", "PlaytraceAds",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strictness
        ),
        .executableTarget(
            name: "playtrace",
            dependencies: [
                "PlaytraceCore", "PlaytraceNetwork", "PlaytraceHLS", "PlaytraceDASH", "PlaytracePlayer",
                "PlaytraceHeadless", "PlaytraceMPV", "PlaytraceTelemetry", "PlaytraceBackends",
                "PlaytraceAds", "PlaytraceLab", "PlaytraceSession",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                // The probe's /metrics endpoint.
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictness
        ),
        // What several test targets share (the real servers the test script starts).
        .target(
            name: "PlaytraceTestSupport",
            dependencies: [
                "PlaytraceNetwork", "PlaytraceTelemetry", "PlaytraceCore",
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            path: "Tests/PlaytraceTestSupport",
            swiftSettings: strictness
        ),
        // The engine conformance suite: written once, run against every engine (PlaytraceHeadlessTests,
        // PlaytraceMPVTests).
        .target(
            name: "PlaytraceEngineConformance",
            dependencies: ["PlaytracePlayer", "PlaytraceLab", "PlaytraceCore"],
            path: "Tests/PlaytraceEngineConformance",
            swiftSettings: strictness
        ),
        .testTarget(
            name: "PlaytraceSessionTests",
            dependencies: ["PlaytraceSession", "PlaytraceLab", "PlaytraceNetwork", "PlaytracePlayer", "PlaytraceCore",
                           .product(name: "Clocks", package: "swift-clocks")],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "PlaytraceCoreTests",
            dependencies: ["PlaytraceCore", .product(name: "Clocks", package: "swift-clocks")],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "PlaytraceDASHTests",
            dependencies: ["PlaytraceDASH", "PlaytraceCore"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "PlaytraceHLSTests",
            dependencies: ["PlaytraceHLS", "PlaytraceCore", "PlaytraceTestSupport"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "PlaytraceDASHPlaybackTests",
            dependencies: ["PlaytraceDASHPlayback", "PlaytraceDASH", "PlaytraceHLS", "PlaytraceCore"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "PlaytraceHLSPlaybackTests",
            dependencies: ["PlaytraceHLSPlayback", "PlaytraceHLS", "PlaytracePlayer", "PlaytraceCore"],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "PlaytracePlayerTests",
            dependencies: [
                "PlaytracePlayer", "PlaytraceCore", "PlaytraceHeadless", "PlaytraceLab", "PlaytraceNetwork",
                "PlaytraceTelemetry", "PlaytraceBackends", "PlaytraceTestSupport",
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            swiftSettings: strictness
        ),
        // Runs with the trait MPV (`swift test --traits MPV`); empty without it.
        .testTarget(
            name: "PlaytraceMPVTests",
            dependencies: [
                "PlaytraceMPV", "PlaytraceLab", "PlaytracePlayer", "PlaytraceCore", "PlaytraceEngineConformance",
                "PlaytraceTestSupport", "PlaytraceNetwork", "PlaytraceHLS", "PlaytraceDASHPlayback",
                .target(name: "CGlibcMalloc", condition: .when(platforms: [.linux])),
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "PlaytraceHeadlessTests",
            dependencies: [
                "PlaytraceHeadless", "PlaytraceLab", "PlaytraceNetwork", "PlaytracePlayer",
                "PlaytraceHLS", "PlaytraceCore", "PlaytraceTestSupport", "PlaytraceEngineConformance",
                .product(name: "Clocks", package: "swift-clocks"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "PlaytraceNetworkTests",
            dependencies: [
                "PlaytraceNetwork", "PlaytraceCore", "PlaytraceLab",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "PlaytraceTelemetryTests",
            dependencies: [
                "PlaytraceTelemetry", "PlaytraceBackends", "PlaytracePlayer", "PlaytraceCore", "PlaytraceNetwork",
                "PlaytraceLab", "PlaytraceTestSupport",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "PlaytraceBackendsTests",
            dependencies: [
                "PlaytraceBackends", "PlaytraceTelemetry", "PlaytracePlayer", "PlaytraceCore", "PlaytraceNetwork",
                "PlaytraceLab", "PlaytraceTestSupport",
                .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "PlaytraceLabTests",
            dependencies: ["PlaytraceLab", "PlaytraceNetwork", "PlaytraceCore", "PlaytraceDASH", "PlaytraceHLS",
                           .product(name: "Clocks", package: "swift-clocks")],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "PlaytraceAdsTests",
            dependencies: [
                "PlaytraceAds", "PlaytraceCore", "PlaytraceNetwork", "PlaytraceLab", "PlaytracePlayer", "PlaytraceHeadless", "PlaytraceDASH",
                "PlaytraceTestSupport", .product(name: "Clocks", package: "swift-clocks"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "PlaytraceCLITests",
            dependencies: ["playtrace", "PlaytraceLab", "PlaytraceHLS", "PlaytraceCore", "PlaytraceNetwork", "PlaytraceTestSupport"],
            swiftSettings: strictness
        ),
    ]
)
