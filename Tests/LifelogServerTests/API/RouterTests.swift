import Testing

@testable import LifelogServer

@Suite struct RouterTests {
  @Test func knownPathsRoute() throws {
    #expect(try Router.route(method: "GET", path: "/v1/info") == .info)
    #expect(
      try Router.route(method: "PUT", path: "/v1/batches/dev-1/12")
        == .putBatch(device: "dev-1", seq: 12))
    #expect(try Router.route(method: "GET", path: "/v1/snapshots/latest") == .latestSnapshot)
    #expect(
      try Router.route(method: "HEAD", path: "/v1/snapshots/17-abc") == .snapshot(name: "17-abc"))
    #expect(
      try Router.route(method: "DELETE", path: "/v1/batches/abc") == .deleteBatches(device: "abc"))
    #expect(try Router.route(method: "GET", path: "/v1/keys") == .keys)
    #expect(try Router.route(method: "PUT", path: "/v1/keys/3") == .putKeys(version: 3))
  }

  @Test(arguments: [
    "/v1/batches/../12", "/v1/batches/a.b/1", "/v1/batches/a%2Fb/1", "/v1/batches/dev/01",
    "/v1/batches/dev/-1", "/v1/snapshots/..", "/v1/batches/dev/x",
  ])
  func malformedNamesAreRefused(path: String) {
    #expect(throws: HTTPError.self) { try Router.route(method: "PUT", path: path) }
    do {
      _ = try Router.route(method: "PUT", path: path)
    } catch {
      #expect(error.status == 400)
    }
  }

  @Test func unknownPathsAre404AndWrongMethods405() {
    for (method, path, status) in [
      ("GET", "/etc/passwd", 404), ("GET", "/v1/nothing", 404), ("POST", "/v1/info", 405),
      ("GET", "/v1/batches/dev/1", 405), ("PUT", "/v1/keys", 405),
      ("GET", "/v1/keys/1", 405), ("GET", "/v2/info", 404),
    ] {
      do {
        _ = try Router.route(method: method, path: path)
        Issue.record("\(method) \(path) routed")
      } catch {
        #expect(error.status == status, "\(method) \(path)")
      }
    }
  }
}

@Suite struct RequestLogTests {
  @Test func controlCharactersCannotForgeALogLine() {
    #expect(
      SyncServer.printable("/v1/a\nGET /v1/info 200", limit: 200) == "/v1/a%0AGET%20/v1/info%20200")
    #expect(SyncServer.printable("/v1/50%", limit: 200) == "/v1/50%25")
    #expect(SyncServer.printable(String(repeating: "a", count: 300), limit: 10) == "aaaaaaaaaa…")
  }
}
