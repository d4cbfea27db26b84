import LifelogCore
import LifelogTestSupport
import Testing

@testable import LifelogServer

/// Shared reports: stored as opaque bytes until they expire or are revoked (then 410 and the bytes
/// deleted), handed to a viewer without a token, behind a passcode that locks after 5 wrong tries;
/// in process, on SQLite or PostgreSQL.
@Suite struct ShareRouteTests {
  let harness: RouteHarness
  let token: String
  let sealed = Array("nonce-and-ciphertext".utf8)

  init() throws {
    harness = try RouteHarness()
    token = try harness.addUser("alice")
  }

  func put(
    _ id: String, expiresIn: Int64 = 86_400_000, passcode: String? = nil,
    from: String = "2026-11-01", to: String = "2026-11-30"
  ) -> RouteAnswer {
    var headers = [
      ("Lifelog-Share-Expires", String(LogStore.systemMilliseconds() + expiresIn)),
      ("Lifelog-Share-From", from), ("Lifelog-Share-To", to),
    ]
    if let passcode { headers.append(("Lifelog-Share-Passcode", passcode)) }
    return harness.send(
      "PUT", "/v1/shares/\(id)", token: token, body: sealed,
      headers: headers.map { (name: $0.0, value: $0.1) })
  }

  func content(_ id: String, passcode: String? = nil) -> RouteAnswer {
    harness.send(
      "GET", "/v1/shares/\(id)/content",
      headers: passcode.map { [(name: "Lifelog-Share-Passcode", value: $0)] } ?? [])
  }

  @Test func aShareIsServedWithoutATokenCountedAndGoneOnceRevoked() throws {
    #expect(put("s-1").status == 201)
    #expect(put("s-1").isError(409, "conflict"))
    let opened = content("s-1")
    #expect(opened.status == 200)
    #expect(opened.body == sealed)
    #expect(content("s-1").status == 200)
    let list = harness.send("GET", "/v1/shares", token: token).json["shares"] as? [[String: Any]]
    let first = try #require(list?.first)
    #expect(first["id"] as? String == "s-1" && first["opened"] as? Int == 2)
    #expect(first["from"] as? String == "2026-11-01" && first["state"] as? String == "active")
    #expect(first["lastOpened"] is Int || first["lastOpened"] is Int64)

    #expect(harness.send("DELETE", "/v1/shares/s-1", token: token).status == 200)
    #expect(content("s-1").isError(410, "gone"))
    #expect(content("nothing").isError(404, "not_found"))
    #expect(harness.send("DELETE", "/v1/shares/nothing", token: token).isError(404, "not_found"))
    let after = harness.send("GET", "/v1/shares", token: token).json["shares"] as? [[String: Any]]
    #expect(after?.first?["state"] as? String == "revoked")
  }

  /// The bytes are whatever a token stored (HTML, a script): served on the server's origin to
  /// anyone, they are a download a browser never sniffs, renders or runs.
  @Test func aShareIsNeverServedAsAPageOfTheServer() {
    #expect(put("s-html").status == 201)
    let opened = content("s-html")
    #expect(opened.status == 200)
    #expect(opened.header("Content-Type") == "application/octet-stream")
    #expect(opened.header("X-Content-Type-Options") == "nosniff")
    #expect(opened.header("Content-Security-Policy") == "default-src 'none'; sandbox")
    #expect(opened.header("Content-Disposition") == "attachment")
  }

  @Test func anExpiredShareIsGoneAndItsBytesDeleted() throws {
    #expect(put("s-2", expiresIn: 60_000).status == 201)
    let later = LogStore.systemMilliseconds() + 120_000
    #expect(
      try harness.server.pool.withStore {
        try $0.openShare(id: "s-2", passcodeSHA256: nil, now: later)
      } == .gone)
    // Gone for good, even at a time before it expired: the bytes are deleted.
    #expect(content("s-2").isError(410, "gone"))
  }

  @Test func storingAShareDeletesTheCiphertextOfEveryExpiredOne() throws {
    let old = NewShare(
      user: 1, id: "old", from: "2026-01-01", to: "2026-01-02", created: 1, expires: 2,
      passcodeSHA256: nil, bytes: sealed)
    #expect(try harness.server.pool.withStore { try $0.putShare(old) })
    #expect(put("s-6").status == 201)
    // Asked for at a time before its expiry, it is still gone: its bytes went with the new share.
    #expect(
      try harness.server.pool.withStore { try $0.openShare(id: "old", passcodeSHA256: nil, now: 1) }
        == .gone)
  }

  @Test func aPasscodeIsCheckedAndFiveWrongTriesLock() {
    #expect(put("s-3", passcode: "1234").status == 201)
    let missing = content("s-3")
    #expect(missing.isError(401, "passcode_required"))
    #expect(missing.errorMessage?.contains("5 tries left") == true)
    #expect(content("s-3", passcode: "1234").status == 200)
    for left in [4, 3, 2, 1] {
      let wrong = content("s-3", passcode: "0000")
      #expect(wrong.isError(401, "passcode_required"))
      #expect(wrong.errorMessage?.contains("\(left) tries left") == true, "\(wrong.text)")
    }
    #expect(content("s-3", passcode: "0000").isError(403, "locked"))
    #expect(content("s-3", passcode: "1234").isError(403, "locked"))
  }

  @Test func malformedSharesAreRefused() {
    #expect(put("s-4", expiresIn: -1).isError(400, "bad_request"))
    #expect(put("s-4", expiresIn: 91 * 86_400_000).isError(400, "bad_request"))
    #expect(put("s-4", from: "2026-12-01", to: "2026-11-01").isError(400, "bad_request"))
    #expect(put("s-4", from: "yesterday").isError(400, "bad_request"))
    #expect(put("a_b").isError(400, "bad_request"))
    #expect(harness.send("PUT", "/v1/shares/s-5", body: sealed).isError(401, "unauthorized"))
    #expect(harness.send("GET", "/v1/shares").isError(401, "unauthorized"))
  }

  @Test func theViewerPageIsServedForAShareWithStyleButNoScript() throws {
    let page = harness.send("GET", "/s/0b189125-e4da-4c30-98fc-151bce80c2a1")
    #expect(page.status == 200)
    #expect(page.text.contains("/share.js"))
    let policy = try #require(page.header("Content-Security-Policy"))
    #expect(policy.contains("style-src 'self' 'unsafe-inline'"))
    #expect(policy.contains("script-src 'self' 'wasm-unsafe-eval'"))
    #expect(page.header("Referrer-Policy") == "no-referrer")
    #expect(harness.send("GET", "/s/a_b").isError(404, "not_found"))
  }
}
