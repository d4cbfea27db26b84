import Foundation
import LifelogCore
import LifelogSQLite
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

  func content(
    _ id: String, passcode: String? = nil, from client: [UInt8] = [], at nanoseconds: UInt64 = 0
  ) -> RouteAnswer {
    harness.send(
      "GET", "/v1/shares/\(id)/content",
      headers: passcode.map { [(name: "Lifelog-Share-Passcode", value: $0)] } ?? [],
      at: nanoseconds, client: client)
  }

  /// A client address as the listener counts it.
  static func address(_ last: UInt8) -> [UInt8] {
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 192, 0, 2, last]
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
    #expect(try harness.server.pool.withStore { try $0.putShare(old) } == .stored)
    #expect(put("s-6").status == 201)
    // Asked for at a time before its expiry, it is still gone: its bytes went with the new share.
    #expect(
      try harness.server.pool.withStore { try $0.openShare(id: "old", passcodeSHA256: nil, now: 1) }
        == .gone)
  }

  @Test func aPasscodeIsCheckedAndFiveWrongTriesLockAgainstWrongOnesOnly() {
    #expect(put("s-3", passcode: "1234").status == 201)
    let missing = content("s-3")
    #expect(missing.isError(401, "passcode_required"))
    #expect(missing.errorMessage?.contains("5 tries left") == true)
    #expect(content("s-3", passcode: "1234").status == 200)
    // Wrong tries from several addresses (one address is slowed after 5: see below).
    for (left, client) in zip([4, 3, 2, 1], [1, 2, 3, 4] as [UInt8]) {
      let wrong = content("s-3", passcode: "0000", from: Self.address(client))
      #expect(wrong.isError(401, "passcode_required"))
      #expect(wrong.errorMessage?.contains("\(left) tries left") == true, "\(wrong.text)")
    }
    #expect(content("s-3", passcode: "0000", from: Self.address(5)).isError(403, "locked"))
    #expect(content("s-3", passcode: "0000", from: Self.address(6)).isError(403, "locked"))
    // Whoever locked it did not lock the doctor out: the right passcode still opens it.
    #expect(content("s-3", passcode: "1234", from: Self.address(7)).status == 200)
    let asked = content("s-3", from: Self.address(7))
    #expect(asked.isError(401, "passcode_required"))
    #expect(asked.errorMessage?.contains("only the right one opens it") == true, "\(asked.text)")
  }

  /// The store keeps a salted, slow hash of a passcode, never its fast SHA-256.
  @Test func aPasscodeIsStoredSlowAndSalted() throws {
    #expect(put("s-11", passcode: "1234").status == 201)
    let stored = try #require(
      try harness.server.pool.withStore { try $0.sharePasscode(id: "s-11") })
    #expect(stored.hasPrefix("pbkdf2-sha256$"))
    #expect(!stored.contains(SharePasscode.legacyDigest(id: "s-11", passcode: "1234")))
    #expect(content("s-11", passcode: "1234").status == 200)
  }

  /// A passcode an older server kept as a bare SHA-256 is wrapped in the slow hash when a server
  /// opens the store, and its passcode still opens the share.
  @Test func anOlderServersPasscodeIsWrappedWhenTheStoreOpens() throws {
    let legacy = SharePasscode.legacyDigest(id: "s-12", passcode: "4711")
    let share = NewShare(
      user: 1, id: "s-12", from: "2026-11-01", to: "2026-11-30",
      created: LogStore.systemMilliseconds(), expires: LogStore.systemMilliseconds() + 86_400_000,
      passcodeSHA256: legacy, bytes: sealed)
    #expect(try harness.server.pool.withStore { try $0.putShare(share) } == .stored)
    #expect(content("s-12", passcode: "4711").status == 200)
    try harness.server.wrapLegacySharePasscodes()
    let stored = try #require(
      try harness.server.pool.withStore { try $0.sharePasscode(id: "s-12") })
    #expect(stored.hasPrefix("pbkdf2-sha256$") && !stored.contains(legacy))
    #expect(content("s-12", passcode: "4711").status == 200)
    #expect(
      content("s-12", passcode: "4712", from: Self.address(30)).isError(401, "passcode_required"))
  }

  /// Wrong passcodes are slowed per client address (an IPv6 client by its /64): 5 at once, then
  /// one a minute, answered 429 with Retry-After before the passcode is even looked at.
  @Test func wrongPasscodesAreSlowedPerAddress() throws {
    #expect(put("s-7", passcode: "1234").status == 201)
    let guesser = Self.address(9)
    for guess in 0..<5 {
      #expect(content("s-7", passcode: "000\(guess)", from: guesser).status != 200)
    }
    let slowed = content("s-7", passcode: "1234", from: guesser)
    #expect(slowed.isError(429, "rate_limited"))
    let wait = try #require(slowed.header("Retry-After").flatMap { Int($0) })
    #expect(wait >= 1 && wait <= 60)
    #expect(content("s-7", passcode: "1234", from: Self.address(10)).status == 200)
    // A minute later the guesser has one more try.
    #expect(content("s-7", passcode: "1234", from: guesser, at: 61_000_000_000).status == 200)
  }

  /// A passcode is checked once at a time per address, admitted before its slow hash: while one
  /// is checked, another from the same address is answered 429 at once, not hashed.
  @Test func onePasscodeCheckAtATimePerAddress() throws {
    #expect(put("s-14", passcode: "1234").status == 201)
    let busy = Self.address(40)
    #expect(harness.server.passcodeChecks.enter(busy))
    let refused = content("s-14", passcode: "1234", from: busy)
    #expect(refused.isError(429, "rate_limited"))
    #expect(refused.header("Retry-After") == "1")
    #expect(content("s-14", passcode: "1234", from: Self.address(41)).status == 200)
    harness.server.passcodeChecks.leave(busy)
    #expect(content("s-14", passcode: "1234", from: busy).status == 200)
  }

  /// Wrong passcodes sent at once from one address are hashed no more often than the limit lets
  /// them be sent one after another: 5, the others answered 429.
  @Test func wrongPasscodesSentAtOnceAreHashedAtMostFiveTimes() throws {
    #expect(put("s-15", passcode: "1234").status == 201)
    let guesser = Self.address(42)
    let statuses = Statuses()
    let threads = 12
    let start = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for guess in 0..<threads {
      done.enter()
      Thread.detachNewThread { [harness] in
        start.wait()
        let answer = harness.send(
          "GET", "/v1/shares/s-15/content",
          headers: [(name: "Lifelog-Share-Passcode", value: "w\(guess)")], client: guesser)
        statuses.append(answer.status)
        done.leave()
      }
    }
    for _ in 0..<threads { start.signal() }
    done.wait()
    let hashed = statuses.all.filter { $0 != 429 }
    #expect(hashed.count <= 5, "\(statuses.all.sorted())")
    #expect(statuses.all.count == threads)
  }

  /// An unknown share id or pairing code, what a guesser sends without a token, costs a read of
  /// the store, not a write transaction: answered while another connection holds the write lock.
  @Test(.enabled(if: !PostgresCluster.selected))
  func anUnknownIdOrCodeIsAnsweredWithoutAWrite() throws {
    let writer = try Database(path: harness.folder.path + "/server.db", mode: .readWrite)
    try writer.execute(sql: "BEGIN IMMEDIATE")
    defer { try? writer.execute(sql: "ROLLBACK") }
    #expect(content("nothing", from: Self.address(43)).isError(404, "not_found"))
    #expect(content("nothing", passcode: "1", from: Self.address(44)).isError(404, "not_found"))
    let redeem = harness.send(
      "POST", "/v1/pairings/redeem", body: Array(#"{"code":"llp_unknown"}"#.utf8),
      client: Self.address(45))
    #expect(redeem.isError(404, "not_found"))
  }

  /// Only the account's own token manages shares: a paired phone's token gets 403.
  @Test func aDeviceTokenCannotManageShares() throws {
    let phone = try harness.pairDevice(token: token, name: "phone")
    #expect(put("s-8").status == 201)
    let headers = [
      (name: "Lifelog-Share-Expires", value: String(LogStore.systemMilliseconds() + 86_400_000)),
      (name: "Lifelog-Share-From", value: "2026-11-01"),
      (name: "Lifelog-Share-To", value: "2026-11-30"),
    ]
    #expect(
      harness.send("PUT", "/v1/shares/s-9", token: phone, body: sealed, headers: headers)
        .isError(403, "forbidden"))
    #expect(harness.send("GET", "/v1/shares", token: phone).isError(403, "forbidden"))
    #expect(harness.send("DELETE", "/v1/shares/s-8", token: phone).isError(403, "forbidden"))
    #expect(content("s-8").status == 200)
  }

  /// An account holds at most 100 shares with a report at once; a revoked or expired one frees
  /// its place.
  @Test func anAccountsSharesAreCapped() {
    for number in 0..<100 { #expect(put("cap-\(number)").status == 201) }
    #expect(put("cap-100").isError(409, "too_many_shares"))
    #expect(harness.send("DELETE", "/v1/shares/cap-0", token: token).status == 200)
    #expect(put("cap-100").status == 201)
  }

  /// Behind a proxy every client has the proxy's address: with `--max-connections-per-address 0`
  /// the limits per address are off too.
  @Test func noLimitsPerAddressWhenConnectionsPerAddressAreUnlimited() throws {
    let proxied = try RouteHarness(connectionsPerAddress: 0)
    let owner = try proxied.addUser("bob")
    let headers = [
      (name: "Lifelog-Share-Expires", value: String(LogStore.systemMilliseconds() + 86_400_000)),
      (name: "Lifelog-Share-From", value: "2026-11-01"),
      (name: "Lifelog-Share-To", value: "2026-11-30"),
      (name: "Lifelog-Share-Passcode", value: "1234"),
    ]
    #expect(
      proxied.send("PUT", "/v1/shares/s-13", token: owner, body: sealed, headers: headers).status
        == 201)
    let wrong = [(name: "Lifelog-Share-Passcode", value: "0000")]
    for _ in 0..<30 {
      #expect(proxied.send("GET", "/v1/shares/s-13/content", headers: wrong).status != 429)
    }
  }

  /// The token-free routes that reach the store are limited per client address: 20 at once,
  /// then one a second, answered 429 with Retry-After.
  @Test func tokenFreeRoutesAreLimitedPerAddress() throws {
    #expect(put("s-10").status == 201)
    let flooder = Self.address(20)
    for _ in 0..<20 { #expect(content("s-10", from: flooder).status == 200) }
    let limited = content("s-10", from: flooder)
    #expect(limited.isError(429, "rate_limited"))
    #expect(limited.header("Retry-After") == "1")
    let redeem = harness.send(
      "POST", "/v1/pairings/redeem", body: Array(#"{"code":"nothing"}"#.utf8), client: flooder)
    #expect(redeem.isError(429, "rate_limited"))
    #expect(content("s-10", from: Self.address(21)).status == 200)
    #expect(content("s-10", from: flooder, at: 1_000_000_000).status == 200)
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

/// Statuses collected from several threads.
final class Statuses: @unchecked Sendable {
  private let lock = NSLock()
  private var statuses: [Int] = []

  func append(_ status: Int) { lock.withLock { statuses.append(status) } }
  var all: [Int] { lock.withLock { statuses } }
}
