// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "lifelog",
  products: [
    .executable(name: "lifelog", targets: ["lifelog"])
  ],
  targets: [
    // System libraries
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),

    // Libraries (all logic lives here)
    .target(name: "LifelogSQLite", dependencies: ["CSQLite"]),
    .target(name: "LifelogCore", dependencies: ["LifelogSQLite"]),
    .target(name: "LifelogSync", dependencies: ["LifelogCore"]),
    .target(name: "LifelogCLI", dependencies: ["LifelogSync"]),

    // Executables (thin)
    .executableTarget(name: "lifelog", dependencies: ["LifelogCLI"]),
    .executableTarget(name: "lifelog-bench", dependencies: ["LifelogCore"], path: "Sources/LifelogBench"),

    // Test support and tests
    .target(name: "LifelogTestSupport", dependencies: ["LifelogCLI"]),
    .testTarget(name: "LifelogSQLiteTests", dependencies: ["LifelogSQLite", "LifelogTestSupport"]),
    .testTarget(name: "LifelogCoreTests", dependencies: ["LifelogCore", "LifelogTestSupport"]),
    .testTarget(name: "LifelogSyncTests", dependencies: ["LifelogSync", "LifelogTestSupport"]),
    .testTarget(name: "LifelogCLITests", dependencies: ["LifelogCLI", "LifelogTestSupport"]),
    .testTarget(
      name: "LifelogEndToEndTests", dependencies: ["LifelogTestSupport", "lifelog"]),
  ]
)

for target in package.targets where target.type != .system {
  target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("ExistentialAny")]
}
