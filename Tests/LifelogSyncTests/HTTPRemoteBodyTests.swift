import LifelogCore
import LifelogProtocol
import LifelogSync
import LifelogTestSupport
import Testing

/// The HTTP remote reads the server's small answers through `LifelogProtocol`'s body types: a
/// count, manifest or snapshot description that lies is refused with a clear error, and an error
/// body's message is what the user sees.
@Suite struct HTTPRemoteBodyTests {
  static func server(status: String = "200 OK", body: String) throws -> LoopbackServer {
    try LoopbackServer { _ in
      LoopbackServer.response(
        status: status, contentType: "application/json", body: Array(body.utf8))
    }
  }

  static func remote(_ server: LoopbackServer) -> HTTPRemote {
    HTTPRemote(url: server.url, token: "t", deadline: LogStore.systemMilliseconds() + 20_000)
  }

  @Test func aCountIsReadFromTheSharedBody() throws {
    let server = try Self.server(
      body: BatchCountBody(device: "d", batches: 4, highestSeq: 9).encoded.result)
    defer { server.stop() }
    #expect(try Self.remote(server).batchCount(device: "d") == 4)
  }

  @Test(arguments: [#"{"device":"d","batches":-3}"#, #"{"device":"d"}"#, "[]"])
  func aCountThatIsNotAWholeNumberIsRefused(body: String) throws {
    let server = try Self.server(body: body)
    defer { server.stop() }
    #expect {
      _ = try Self.remote(server).batchCount(device: "d")
    } throws: { error in
      "\(error)".contains("count of batches cannot be read")
    }
  }

  @Test func aManifestIsReadFromTheSharedBody() throws {
    let body = ManifestBody(remoteID: "r-9", format: 1, minimumVersion: "0.3.0", encrypted: true)
    let server = try Self.server(body: body.encoded.result)
    defer { server.stop() }
    let manifest = try Self.remote(server).manifest()
    #expect(manifest.remoteID == "r-9" && manifest.encrypted && manifest.minimumVersion == "0.3.0")
  }

  @Test func aSnapshotDescriptionNamingAPathOutsideIsRefused() throws {
    let server = try Self.server(body: #"{"name":"../../etc/passwd","cursor":"3"}"#)
    defer { server.stop() }
    var skipped: [String] = []
    #expect {
      _ = try Self.remote(server).snapshot(beyond: "", excluding: "me", skipped: &skipped)
    } throws: { error in
      "\(error)".contains("snapshot description cannot be read")
    }
  }

  @Test func theServersErrorMessageIsWhatTheUserSees() throws {
    let body = ErrorBody(code: "not_found", message: "No such device here").encoded.result
    let server = try Self.server(status: "404 Not Found", body: body)
    defer { server.stop() }
    #expect {
      _ = try Self.remote(server).batchCount(device: "d")
    } throws: { error in
      "\(error)".contains("answered 404") && "\(error)".contains("No such device here")
    }
  }
}
