import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// `lifelog serve --store postgres://…` when its database goes away under it. (Every other
/// HTTP test runs on PostgreSQL too: `make test` runs ServerTests and HTTPSyncTests again with
/// `LIFELOG_TEST_STORE=postgres`.)
@Suite(
  .enabled(if: PostgresCluster.isInstalled, "PostgreSQL is not installed (apt install postgresql)"))
struct PostgresServerTests {
  let folder = TemporaryDirectory(prefix: "lifelog-serve-pg")

  @Test func aLostDatabaseIs503WithRetryAfterAndTheServerCarriesOnWhenItIsBack() throws {
    let cluster = try PostgresCluster.shared()
    let url = try cluster.newDatabase()
    let database = String(url.split(separator: "/").last ?? "")
    let server = try ServerProcess(dataFolder: folder.file("data"), storeURL: url)
    defer { server.terminate() }
    let alice = HTTPTestClient(baseURL: server.baseURL, token: try server.addUser("alice"))
    #expect(try alice.get("/v1/manifest").status == 200)
    let endBackends =
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database)'"

    // Its connections are ended: the next request connects again and is answered.
    try cluster.sql(endBackends)
    #expect(try alice.get("/v1/manifest").status == 200)

    // The database takes no connections: 503 with Retry-After, and the server keeps running.
    try cluster.sql("ALTER DATABASE \(database) ALLOW_CONNECTIONS false")
    try cluster.sql(endBackends)
    let refused = try alice.get("/v1/manifest")
    #expect(refused.status == 503, "\(refused.text)")
    #expect(refused.header("Retry-After") != nil)
    #expect(refused.errorCode == "unavailable")
    #expect(server.process.isRunning)

    try cluster.sql("ALTER DATABASE \(database) ALLOW_CONNECTIONS true")
    let device = "0b9f1f4e-5d2c-4c55-9f7e-6a1d2b3c4d5e"
    let pushed = try alice.put(
      "/v1/batches/\(device)/1", SampleBatches.batch(device: device, seq: 1))
    #expect(pushed.status == 201, "\(pushed.text)")
    #expect(!server.log.contains(url.replacingOccurrences(of: "postgres@", with: "")))
  }

  @Test func userCommandsFindTheStoreInLifelogServeStoreOrStore() throws {
    let url = try PostgresCluster.shared().newDatabase()
    let added = try LifelogProcess.run(
      ["serve", "user", "add", "bob"], environment: ["LIFELOG_SERVE_STORE": url])
    #expect(added.exitCode == 0 && added.stdout.hasPrefix("llt_"), "\(added)")
    let listed = try LifelogProcess.run(["serve", "user", "list", "--store", url])
    #expect(listed.stdout.contains("bob"), "\(listed)")
    // --data wins over the environment: the SQLite store there has no users.
    let sqlite = try LifelogProcess.run(
      ["serve", "user", "list", "--data", folder.file("data")],
      environment: ["LIFELOG_SERVE_STORE": url])
    #expect(sqlite.stdout.hasPrefix("No users"), "\(sqlite)")
    let both = try LifelogProcess.run(
      ["serve", "user", "list", "--data", folder.file("data"), "--store", url])
    #expect(both.exitCode == 64, "\(both)")
    let notPostgres = try LifelogProcess.run(["serve", "--store", "mysql://x@y/z"])
    #expect(notPostgres.exitCode == 65 && notPostgres.stderr.contains("PostgreSQL URL"))
  }

  @Test func anUnreachableStoreIsRefusedBeforeTheServerListensAndThePasswordIsNotShown() throws {
    let result = try LifelogProcess.run([
      "serve", "--listen", "127.0.0.1:0", "--store", "postgres://lifelog:s3cret@127.0.0.1:1/none",
    ])
    #expect(result.exitCode == 69, "\(result)")
    #expect(result.stderr.contains("postgres://lifelog:***@127.0.0.1:1/none"), "\(result)")
    #expect(!result.stderr.contains("s3cret") && result.stdout.isEmpty)
  }
}
