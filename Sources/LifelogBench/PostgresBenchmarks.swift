@preconcurrency import Glibc

/// The server's two stores side by side under the load of `http_load` (50 clients on loopback):
/// SQLite, PostgreSQL behind one `lifelog serve`, and PostgreSQL behind two sharing it.
///
/// The benchmark starts its own PostgreSQL cluster (scripts/postgres-cluster.sh, durable: fsync
/// and synchronous_commit on, as the SQLite store's `synchronous = FULL`), or skips these figures
/// with a line saying why when PostgreSQL is not installed.
extension BenchmarkSuite {
  func runPostgres(report: (Figure) -> Void) throws {
    let script = Self.clusterScript
    guard access("/usr/lib/postgresql", F_OK) == 0, access(script, R_OK) == 0 else {
      Log.info(
        "postgres: skipped: PostgreSQL is not installed (apt install postgresql, or make bench)")
      return
    }
    let sqlite = try measureLoad(
      label: "store_sqlite", store: ["--data", folder + "/store-sqlite"], servers: 1)
    let started = String(
      decoding: try ChildCommand(
        executable: "/bin/sh", arguments: [script, "start", String(getpid()), "durable"],
        environment: ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin"]
      ).capturedOutput(discardingErrors: true), as: UTF8.self)
    let words = (started.split(separator: "\n").last ?? "").split(separator: " ")
    guard words.count == 2 else { throw BenchmarkError("cannot start PostgreSQL: '\(started)'") }
    let cluster = String(words[0])
    defer {
      _ = try? ChildCommand(
        executable: "/bin/sh", arguments: [script, "stop", cluster],
        environment: ["PATH": "/usr/bin:/bin:/usr/sbin:/sbin"]
      ).capturedOutput(discardingErrors: true)
    }
    Log.info("postgres: a cluster in \(cluster) on port \(words[1])")
    var results: [LoadResult] = []
    for servers in 1...2 {
      let database = "bench\(servers)"
      _ = try ChildCommand(
        executable: "/bin/sh", arguments: [script, "createdb", cluster, database],
        environment: ["PATH": "/usr/bin:/bin"]
      ).capturedOutput()
      let url = "postgres://postgres@127.0.0.1:\(words[1])/\(database)"
      results.append(
        try measureLoad(
          label: "store_postgres_\(servers)", store: ["--store", url], servers: servers))
    }
    // The target of the PostgreSQL rows: half the SQLite store's throughput in the same run.
    let half = (sqlite.requestsPerSecond / 2).rounded()
    for (name, result, goal) in [
      ("store_sqlite", sqlite, 5_000.0), ("store_postgres_1", results[0], half),
      ("store_postgres_2", results[1], half),
    ] {
      report(
        Figure(
          name: name + "_requests_per_s", value: result.requestsPerSecond, unit: "requests/s",
          goal: .atLeast(goal), decimals: 0))
      report(
        Figure(
          name: name + "_p50_ms", value: result.p50 * 1e3, unit: "ms", goal: .atMost(25),
          decimals: 2))
      report(
        Figure(
          name: name + "_p99_ms", value: result.p99 * 1e3, unit: "ms", goal: .atMost(50),
          decimals: 2))
    }
  }

  /// scripts/postgres-cluster.sh of the checkout this benchmark was built from.
  static var clusterScript: String {
    var path = #filePath
    for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
    return path + "/scripts/postgres-cluster.sh"
  }
}
