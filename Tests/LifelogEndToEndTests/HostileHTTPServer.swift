import Foundation
import LifelogTestSupport
import Synchronization

/// A tiny HTTP server on 127.0.0.1 that answers like `lifelog serve` for an account holding
/// nothing, until it is told to answer one kind of request with crafted bytes.
///
/// The crafted bytes are what a broken or hostile server (or a proxy in between) could send: a
/// negative `Content-Length`, chunk sizes that overflow, an endless header line. One connection
/// per request, as the client makes them; each is answered, then closed.
final class HostileHTTPServer: @unchecked Sendable {
  /// The remote id of the manifest it serves.
  static let remoteID = "0a3f6c1e-2b4d-4e8f-9a1b-3c5d7e9f0a2b"

  /// Requests whose `METHOD path` starts with `prefix` get `bytes` instead of the honest answer.
  private final class Crafted: Sendable {
    let value = Mutex<(prefix: String?, bytes: [UInt8])>((nil, []))
  }
  private let crafted: Crafted
  private let server: LoopbackServer

  var port: Int { server.port }
  var url: String { server.url }

  init() throws {
    let crafted = Crafted()
    self.crafted = crafted
    server = try LoopbackServer { request in
      let bytes = crafted.value.withLock { state -> [UInt8]? in
        guard let prefix = state.prefix, request.line.hasPrefix(prefix) else { return nil }
        return state.bytes
      }
      // No bytes at all: a server that accepts and never answers.
      return bytes ?? HostileHTTPServer.honest(request.line)
    }
  }

  deinit { stop() }

  /// From now on, requests starting with `prefix` (`"GET /v1/changes"`) are answered `bytes`
  /// (none: the connection is held open, silent, until the client gives up).
  func answer(_ prefix: String, with bytes: [UInt8]) {
    crafted.value.withLock {
      $0.prefix = prefix
      $0.bytes = bytes
    }
  }

  /// `METHOD path` of every request so far.
  var requests: [String] { server.requests }

  func stop() { server.stop() }

  /// What `lifelog serve` answers for an account holding nothing.
  static func honest(_ request: String) -> [UInt8] {
    func json(_ status: String, _ body: String) -> [UInt8] {
      Array(
        "HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count + 1)\r\n\r\n\(body)\n"
          .utf8)
    }
    let notFound = json(
      "404 Not Found", #"{"error":{"code":"not_found","message":"nothing here"}}"#)
    switch request {
    case "GET /v1/manifest":
      return json(
        "200 OK", #"{"remoteId":"\#(remoteID)","format":1,"minVersion":"0.2.0","encrypted":false}"#)
    case _ where request.hasPrefix("GET /v1/changes"):
      return json("200 OK", #"{"cursor":"","more":false,"needsSnapshot":false,"batches":[]}"#)
    case _ where request.hasPrefix("PUT /v1/batches/"):
      return json("201 Created", #"{"stored":true}"#)
    case _ where request.hasPrefix("GET /v1/batches/"):
      return json("200 OK", #"{"batches":0}"#)
    default:
      return notFound
    }
  }
}
