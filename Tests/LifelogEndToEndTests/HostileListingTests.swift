import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// A server whose listings of shares and devices carry terminal escapes: `lifelog share list` and
/// `lifelog pair --list` show them as visible escapes, never send them to the terminal.
@Suite struct HostileListingTests {
  let folder = TemporaryDirectory(prefix: "lifelog-hostile-listing")

  /// An answer of `status` with a JSON body.
  static func json(_ body: String) -> [UInt8] {
    Array(
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        .utf8)
  }

  @Test func listingsFromTheServerCannotDriveTheTerminal() throws {
    let server = try HostileHTTPServer()
    defer { server.stop() }
    let tokenPath = folder.file("token")
    try Data("t0ken\n".utf8).write(to: URL(fileURLWithPath: tokenPath))
    let laptop = SyncMachine("laptop", in: folder)
    try laptop.expectSuccess("remote", "add", "home", server.url, "--token-file", tokenPath)
    let escape = #"\u001b]0;pwned\u0007\u001b[2J"#

    server.answer(
      "GET /v1/shares",
      with: Self.json(
        #"{"shares":[{"id":"a\#(escape)","from":"2026-11-01","to":"2026-11-07\#(escape)","created":1,"expires":2,"opened":0,"lastOpened":null,"state":"active\#(escape)","passcode":false}]}"#
      ))
    let shares = try laptop.expectSuccess("share", "list")
    #expect(!shares.stdout.contains("\u{1B}") && !shares.stdout.contains("\u{07}"), "\(shares)")
    #expect(shares.stdout.contains(#"a\x1b]0;pwned\x07\x1b[2J"#), "\(shares)")

    server.answer(
      "GET /v1/devices",
      with: Self.json(#"{"devices":[{"name":"phone\#(escape)","created":1,"lastUsed":null}]}"#))
    let devices = try laptop.expectSuccess("pair", "--list")
    #expect(!devices.stdout.contains("\u{1B}") && !devices.stdout.contains("\u{07}"), "\(devices)")
    #expect(devices.stdout.hasPrefix(#"phone\x1b]0;pwned\x07\x1b[2J  paired "#), "\(devices)")
  }
}
