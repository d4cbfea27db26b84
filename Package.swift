// swift-tools-version:6.0
import PackageDescription

/// The list of functions the release link lays out side by side.
///
/// The functions the everyday commands run (`scripts/hot-functions.sh` writes the list;
/// docs/benchmarks.md, "Where the wall time goes, and the code's layout"). The linker skips
/// names it no longer finds. SwiftPM does not know the link reads this file: after changing
/// only the list, remove `.build/release/lifelog` so the next build links again.
let hotFunctions = "\(Context.packageDirectory)/Sources/lifelog/hot-functions.txt"

let package = Package(
  name: "lifelog",
  products: [
    .executable(name: "lifelog", targets: ["lifelog"])
  ],
  targets: [
    // System libraries
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    // libmicrohttpd through dlopen, so only `lifelog serve` loads it (docs/architecture.md)
    .target(
      name: "CLifelogHTTPD", linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread")]),
    // libcurl through dlopen, so only syncing with an HTTP remote loads it
    .target(
      name: "CLifelogCurl", linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread")]),
    // libsodium through dlopen, so only adding or syncing an encrypted remote loads it
    .target(
      name: "CLifelogSodium", linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread")]),
    // libqrencode through dlopen, so only `lifelog pair` and `lifelog share` load it
    .target(name: "CLifelogQR", linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread")]),
    // The web app (Web/, embedded with #embed when compiled) and its WebAssembly module, built
    // into .build/wasm by scripts/web-wasm.sh (make)
    .target(name: "CLifelogWebAssets"),
    // libreadline through dlopen, so only an interactive `lifelog shell` loads it
    .target(name: "CLifelogReadline", linkerSettings: [.linkedLibrary("dl")]),
    // libxml2 and zlib through dlopen, so only `lifelog import --from apple-health` and a
    // spreadsheet import load them
    .target(
      name: "CLifelogXML", linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread")]),
    .target(
      name: "CLifelogZlib", linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread")]),
    // cairo and pango through dlopen, so only `lifelog report --format pdf` loads them
    .target(
      name: "CLifelogPDF", linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread")]),
    // libxlsxwriter through dlopen, so only an xlsx export or report loads it
    .target(
      name: "CLifelogXLSX", linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread")]),
    // libpq through dlopen, so only a server on a PostgreSQL store loads it
    .target(name: "CLifelogPQ", linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread")]),

    // The unix VFS's folder sync skipped for a WAL already on disk (docs/schema.md)
    .target(name: "CLifelogFolderSync", linkerSettings: [.linkedLibrary("pthread")]),

    // Libraries (all logic lives here)
    .target(name: "LifelogSQLite", dependencies: ["CSQLite", "CLifelogFolderSync"]),
    .target(name: "LifelogCore", dependencies: ["LifelogSQLite"]),
    // Imports and exports (docs/architecture.md): only the CLI, the benchmark and the fuzz
    // harness use it; the server and the wire format may not (scripts/check-imports.sh)
    .target(
      name: "LifelogExchange",
      dependencies: ["LifelogCore", "LifelogSQLite", "CLifelogXML", "CLifelogZlib"]),
    // The wire format client and server share (docs/architecture.md): no networking, no crypto
    .target(name: "LifelogProtocol", dependencies: ["LifelogCore"]),
    .target(
      name: "LifelogSync",
      dependencies: [
        "LifelogProtocol", "LifelogCore", "LifelogSQLite", "CLifelogCurl", "CLifelogSodium",
      ]),
    // The server sees the wire format, never the client (scripts/check-imports.sh enforces it)
    .target(
      name: "LifelogServer",
      dependencies: [
        "LifelogProtocol", "LifelogCore", "LifelogSQLite", "CLifelogHTTPD", "CLifelogPQ",
        "CLifelogWebAssets",
      ]
    ),
    .target(
      name: "LifelogCLI",
      dependencies: [
        "LifelogServer", "LifelogSync", "LifelogExchange", "CLifelogReadline", "CLifelogQR",
        "CLifelogPDF", "CLifelogXLSX",
      ]),

    // Executables (thin)
    // Release links with the toolchain's lld to make start-up cheaper for the dynamic loader
    // (docs/benchmarks.md, "Start-up"): its ~31,000 relative relocations packed as RELR (glibc
    // 2.36, Debian 12), and none of lifelog's own ~5,000 symbols exported (the static standard
    // library's link file asks for `-export-dynamic`; nothing loads lifelog's symbols by name, and
    // the Swift runtime's start-up `dladdr` scanned them all), with a read-only-after-relocation
    // (GNU_RELRO) segment as gold gave. gold, the default, cannot pack relocations; GNU ld can, but
    // lays out no RELRO segment when the standard library's `.rodata` is writable, as it is.
    // The functions of `hotFunctions` come first in the code, in the order the commands run them.
    .executableTarget(
      name: "lifelog", dependencies: ["LifelogCLI"], exclude: ["hot-functions.txt"],
      linkerSettings: [
        .unsafeFlags(
          [
            "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
            "-Xlinker", "--no-export-dynamic",
            "-Xlinker", "--symbol-ordering-file=\(hotFunctions)",
            "-Xlinker", "--no-warn-symbol-ordering",
          ], .when(platforms: [.linux], configuration: .release))
      ]),
    .executableTarget(
      name: "lifelog-bench",
      dependencies: [
        "LifelogCore", "LifelogExchange", "LifelogProtocol", "LifelogSync", "LifelogLoopback",
      ],
      path: "Sources/LifelogBench"),

    // Test support and tests
    // Light support (folders, golden files, seeds, sample batches, fake servers in process, the
    // built binary, `lifelog serve` and PostgreSQL as child processes): no app module, so the
    // SQLite, Core, Sync and Server tests compile only what they test (docs/testing.md)
    // The servers the tests and the benchmark start on 127.0.0.1 share this (no Foundation):
    // free ports, and Apache's WebDAV config
    .target(name: "LifelogLoopback"),
    .target(
      name: "LifelogTestSupport",
      dependencies: ["LifelogCore", "LifelogProtocol", "LifelogLoopback"]),
    // The app in process, and sessions of it: InProcessCLI, SyncMachine, TerminalSession
    .target(name: "LifelogCLITestSupport", dependencies: ["LifelogCLI", "LifelogTestSupport"]),
    .testTarget(name: "LifelogSQLiteTests", dependencies: ["LifelogSQLite", "LifelogTestSupport"]),
    .testTarget(name: "LifelogCoreTests", dependencies: ["LifelogCore", "LifelogTestSupport"]),
    .testTarget(
      name: "LifelogExchangeTests", dependencies: ["LifelogExchange", "LifelogTestSupport"]),
    .testTarget(
      name: "LifelogProtocolTests", dependencies: ["LifelogProtocol", "LifelogTestSupport"]),
    .testTarget(
      name: "LifelogSyncTests",
      dependencies: ["LifelogSync", "LifelogTestSupport"]),
    .testTarget(
      name: "LifelogServerTests",
      dependencies: ["LifelogServer", "LifelogTestSupport"],
      exclude: ["Routes/Snapshots"]),
    .testTarget(
      name: "LifelogCLITests",
      dependencies: ["LifelogCLI", "LifelogTestSupport", "LifelogCLITestSupport"],
      exclude: ["Commands/Snapshots"]),
    .testTarget(
      name: "LifelogEndToEndTests",
      dependencies: ["LifelogTestSupport", "LifelogCLITestSupport", "lifelog"],
      exclude: ["Fixtures", "Golden"]),
  ]
)

// The fuzz harnesses (docs/testing.md), only when asked for: they need libFuzzer
// (`-sanitize=fuzzer`), which a normal build does not link. `make fuzz` sets LIFELOG_FUZZ=1.
if Context.environment["LIFELOG_FUZZ"] == "1" {
  package.products.append(.executable(name: "lifelog-fuzz", targets: ["lifelog-fuzz"]))
  package.targets += [
    .target(name: "CLifelogFuzz", path: "Fuzz/CLifelogFuzz"),
    .executableTarget(
      name: "lifelog-fuzz",
      dependencies: [
        "CLifelogFuzz", "LifelogCore", "LifelogExchange", "LifelogProtocol", "LifelogSync",
        "LifelogTestSupport",
      ],
      path: "Fuzz/Harness"),
  ]
}

// Release code asks the Swift runtime for a concrete generic type's metadata through its
// accessor, with the conformances it needs passed in, instead of by its mangled name: the first
// use of each such type (a `Dictionary<String, …>`, an `Optional<String>` read from a row) then
// costs no demangling and no scan of every conformance record in the binary, about a tenth of a
// `list`'s or an `add`'s instructions (docs/benchmarks.md, "Start-up"). The code grows a little.
let metadataByAccessor = SwiftSetting.unsafeFlags(
  ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"],
  .when(configuration: .release))

// Release code puts each function in a section of its own, so the link can lay out side by side
// the functions the everyday commands run (`Sources/lifelog/hot-functions.txt`): they then sit in
// a few pages of the binary instead of being spread over its 8 MB of code, and start-up maps and
// faults in those few (docs/benchmarks.md, "Where the wall time goes, and the code's layout").
// The static standard library is built this way already.
let functionSections = SwiftSetting.unsafeFlags(
  ["-Xfrontend", "-function-sections"], .when(configuration: .release))
let cFunctionSections = CSetting.unsafeFlags(
  ["-ffunction-sections"], .when(configuration: .release))

for target in package.targets where target.type != .system {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .enableUpcomingFeature("ExistentialAny"), metadataByAccessor, functionSections,
    ]
  if target.name.hasPrefix("CLifelog") {
    target.cSettings = (target.cSettings ?? []) + [cFunctionSections]
  }
}
