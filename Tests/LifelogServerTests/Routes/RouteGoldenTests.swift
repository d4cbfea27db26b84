import LifelogCore
import LifelogProtocol
import LifelogTestSupport
import Testing

@testable import LifelogServer

/// A fixed sequence of requests — pushes, pulls, pages, snapshots, key envelopes and errors — whose
/// answers (status, every header a route sets, the body's bytes and their SHA-256) are recorded in
/// a golden file: a change to how the server reads or serves batches must leave every answer
/// byte-identical, or say so by re-recording it (`RECORD_SNAPSHOTS=1`).
///
/// Recorded per store: PostgreSQL takes a cursor for a push whose name is taken, SQLite does not,
/// so the cursors in later answers differ (docs/http-api.md, "PostgreSQL").
@Suite struct RouteGoldenTests {
  @Test func answersAreByteIdenticalToTheRecordedOnes() throws {
    let script = try RouteScript()
    script.run()
    let store = PostgresCluster.selected ? "postgres" : "sqlite"
    assertSnapshot(script.transcript, named: "route-answers-\(store).txt")
  }
}

/// The requests of ``RouteGoldenTests`` and the transcript of their answers.
final class RouteScript {
  let harness: RouteHarness
  let alice: String
  let bob: String
  private(set) var transcript = ""
  private var number = 0

  init() throws {
    harness = try RouteHarness()
    alice = try harness.addUser("alice")
    bob = try harness.addUser("bob")
  }

  func run() {
    runInfoAndAuth()
    runPushes()
    runRefusedPushes()
    runPages()
    runSnapshots()
    runCompaction()
    runEncrypted()
  }

  // MARK: - Phases

  private func runInfoAndAuth() {
    send("GET", "/v1/info", as: .nobody)
    send("GET", "/v1/manifest")
    send("GET", "/v1/changes", as: .nobody)
    send("GET", "/v1/changes", as: .token("llt_nobody"))
    send("POST", "/v1/changes")
    send("GET", "/v2/changes")
  }

  private func runPushes() {
    let first = SampleBatches.batch(device: "dev-a", seq: 1)
    send("PUT", "/v1/batches/dev-a/1", body: first)
    send("PUT", "/v1/batches/dev-a/1", body: first)
    send(
      "PUT", "/v1/batches/dev-a/1", body: SampleBatches.batch(device: "dev-a", seq: 1, note: "x"))
    send("PUT", "/v1/batches/dev-a/2", body: SampleBatches.batch(device: "dev-a", seq: 2, rows: 1))
    send("PUT", "/v1/batches/dev-a/3", body: RouteScript.entryBatch(device: "dev-a", seq: 3))
    send("PUT", "/v1/batches/dev-b/1", body: RouteScript.entryBatch(device: "dev-b", seq: 1))
    send("PUT", "/v1/batches/dev-b/2", body: SampleBatches.batch(device: "dev-b", seq: 2))
    send("GET", "/v1/batches/dev-a")
    send("GET", "/v1/batches/dev-c")
  }

  private func runRefusedPushes() {
    var damaged = SampleBatches.batch(device: "dev-a", seq: 4)
    damaged[damaged.count / 2] ^= 0x01
    send("PUT", "/v1/batches/dev-a/4", body: damaged)
    send(
      "PUT", "/v1/batches/dev-a/4",
      body: Array(SampleBatches.batch(device: "dev-a", seq: 4).dropLast(9)))
    send("PUT", "/v1/batches/dev-a/4", body: [])
    send("PUT", "/v1/batches/dev-a/4", body: Array("junk\n".utf8))
    send("PUT", "/v1/batches/dev-a/5", body: SampleBatches.batch(device: "dev-a", seq: 4))
    send("PUT", "/v1/batches/dev-a/4", body: SampleBatches.batch(device: "dev-c", seq: 4))
    send(
      "PUT", "/v1/batches/dev-a/4",
      body: SampleBatches.snapshot(device: "dev-a", covers: ["dev-a": 1]))
    send(
      "PUT", "/v1/batches/dev-a/4",
      body: RouteScript.framed(header: Self.header(seq: 4), rows: 2, count: 3))
    send(
      "PUT", "/v1/batches/dev-a/4",
      body: RouteScript.framed(header: Self.header(seq: 4, format: 9), rows: 1, count: 1))
    send(
      "PUT", "/v1/batches/dev-a/4",
      body: RouteScript.framed(header: "{\"lifelog\":\"batch\"}", rows: 1, count: 1))
    send(
      "PUT", "/v1/batches/dev-a/4", body: RouteScript.framed(header: "not json", rows: 1, count: 1))
    send(
      "PUT", "/v1/batches/dev-a/4",
      body: RouteScript.framed(
        header: Self.header(seq: 4), rows: 1, count: 1, trailer: "{\"end\":true}"))
    send("PUT", "/v1/batches/dev-a/04", body: SampleBatches.batch(device: "dev-a", seq: 4))
    send("PUT", "/v1/batches/dev_a/4", body: SampleBatches.batch(device: "dev-a", seq: 4))
  }

  private func runPages() {
    send("GET", "/v1/changes")
    send("GET", "/v1/changes?exclude=dev-a")
    send("GET", "/v1/changes?limit=1")
    send("GET", "/v1/changes?after=2&limit=2")
    send("GET", "/v1/changes?rows=2")
    send("GET", "/v1/changes?after=999")
    send("GET", "/v1/changes?limit=0")
    send("GET", "/v1/changes?after=x")
    send("GET", "/v1/changes?exclude=a_b")
  }

  private func runSnapshots() {
    let snapshot = SampleBatches.snapshot(device: "dev-a", covers: ["dev-a": 2, "dev-b": 1])
    send("GET", "/v1/snapshots/latest")
    send("PUT", "/v1/snapshots/100-dev-a", body: snapshot)
    send("PUT", "/v1/snapshots/100-dev-a", body: snapshot)
    send(
      "PUT", "/v1/snapshots/100-dev-a", body: SampleBatches.snapshot(device: "dev-a", covers: [:]))
    send("PUT", "/v1/snapshots/101-dev-a", body: SampleBatches.batch(device: "dev-a", seq: 9))
    send("GET", "/v1/snapshots/latest")
    send("GET", "/v1/snapshots/latest?meta=1")
    send("GET", "/v1/snapshots/latest?exclude=dev-a")
    send("HEAD", "/v1/snapshots/100-dev-a?meta=1")
    send("GET", "/v1/snapshots/nope")
    send("GET", "/v1/snapshots/latest?meta=2")
  }

  private func runCompaction() {
    send("DELETE", "/v1/batches/dev-a?through=3")
    send("DELETE", "/v1/batches/dev-a?through=2")
    send("DELETE", "/v1/batches/dev-a")
    send("GET", "/v1/batches/dev-a")
    send("GET", "/v1/changes")
    send("GET", "/v1/changes?after=0_dev-a_2")
    send("PUT", "/v1/batches/dev-a/1", body: SampleBatches.batch(device: "dev-a", seq: 1))
    send("PUT", "/v1/batches/dev-a/2", body: SampleBatches.batch(device: "dev-a", seq: 2))
  }

  private func runEncrypted() {
    send("GET", "/v1/keys", as: .bob)
    send("PUT", "/v1/keys/1", as: .bob, body: Array("{\"envelope\":1}".utf8))
    send("PUT", "/v1/keys/1", as: .bob, body: Array("{\"envelope\":1}".utf8))
    send("PUT", "/v1/keys/3", as: .bob, body: Array("{\"envelope\":3}".utf8))
    send("GET", "/v1/keys", as: .bob)
    send("GET", "/v1/manifest", as: .bob)
    send("PUT", "/v1/batches/dev-s/1", as: .bob, body: SampleBatches.batch(device: "dev-s", seq: 1))
    let sealed = RouteScript.sealed(device: "dev-s", seq: 1)
    send("PUT", "/v1/batches/dev-s/1", as: .bob, body: sealed)
    send("PUT", "/v1/batches/dev-s/1", as: .bob, body: sealed)
    send("PUT", "/v1/batches/dev-s/2", as: .bob, body: RouteScript.sealed(device: "dev-s", seq: 1))
    send(
      "PUT", "/v1/batches/dev-s/2", as: .bob,
      body: Array(RouteScript.sealed(device: "dev-s", seq: 2).dropLast(3)))
    send("PUT", "/v1/batches/dev-s/2", as: .bob, body: RouteScript.sealed(device: "dev-s", seq: 2))
    send("GET", "/v1/changes?exclude=dev-t", as: .bob)
    send("PUT", "/v1/batches/dev-s/1", as: .alice, body: sealed)
    send("GET", "/v1/changes?after=5", as: .alice)
  }

  // MARK: - Requests and the transcript

  /// Who sends a request.
  enum Sender {
    case alice, bob, nobody
    case token(String)
  }

  /// Sends a request (as alice unless `sender` says otherwise) and writes its answer down.
  private func send(
    _ method: String, _ target: String, as sender: Sender = .alice, body: [UInt8] = []
  ) {
    number += 1
    let (token, who): (String?, String) =
      switch sender {
      case .alice: (alice, "alice")
      case .bob: (bob, "bob")
      case .nobody: (nil, "no token")
      case .token(let token): (token, "token " + token)
      }
    let answer = harness.send(method, target, token: token, body: body)
    transcript += "### \(number) \(method) \(target) (\(who), body \(body.count) bytes)\n"
    transcript += "\(answer.status)\n"
    for (name, value) in answer.response.headers { transcript += "\(name): \(value)\n" }
    // The SHA-256 of the bytes pins them, also where the text below cannot (not UTF-8); of a
    // masked answer, of the masked text.
    let masked = RouteScript.masked(answer.text)
    let digest =
      masked == answer.text
      ? SHA256.hexDigest(answer.body) : "(masked) " + SHA256.hexDigest(Array(masked.utf8))
    transcript += "body \(answer.body.count) bytes, sha256 \(digest)\n"
    transcript += masked + (masked.hasSuffix("\n") ? "" : "\n")
    transcript += "\n"
  }

  /// The answer text with what differs from run to run or release to release left out: a
  /// manifest's random remote id, the server's version.
  static func masked(_ text: String) -> String {
    var text = text
    for key in ["remoteId", "version"] {
      guard let start = text.firstRange(of: "\"\(key)\":\"") else { continue }
      guard let end = text[start.upperBound...].firstIndex(of: "\"") else { continue }
      text.replaceSubrange(start.upperBound..<end, with: "<\(key)>")
    }
    return text
  }

  // MARK: - Bodies

  /// A batch of entry rows (times, durations, notes, tags), as `lifelog sync` pushes them.
  static func entryBatch(device: String, seq: Int) -> [UInt8] {
    let start: Int64 = 1_780_000_000_000
    let changes = (0..<4).map { index -> RowChange in
      let milliseconds = start + Int64(index) * 60_000
      let stamp = Stamp.make(milliseconds: milliseconds, counter: index, device: device)
      let values: [FieldValue] = [
        .text(ActivityName.derivedID(for: "snack")),
        .time(LoggedTime(instant: milliseconds / 1000, offsetMinutes: index * 30)),
        index % 2 == 0 ? .integer(600) : .null,
        .text("entry \(index) of \(device)"),
        index == 3 ? .real(2.5) : .null, .tags(index % 2 == 0 ? ["golden"] : []), .null,
        .flag(index == 1),
      ]
      return RowChange(
        entity: .entry, id: "entry-\(seq)-\(index)", values: values,
        stamps: FieldStamps(count: values.count, stamp: stamp))
    }
    return BatchCodec.encode(
      Batch(device: device, seq: seq, created: start + Int64(seq), changes: changes))
  }

  /// A plain batch header line of `dev-a` (without its newline).
  static func header(seq: Int, format: Int = 1) -> String {
    "{\"lifelog\":\"batch\",\"format\":\(format),\"device\":\"dev-a\",\"seq\":\(seq),\"created\":1}"
  }

  /// `header`, `rows` setting rows and a trailer that counts `count` and holds the right SHA-256
  /// (or `trailer` instead).
  static func framed(header: String, rows: Int, count: Int, trailer: String? = nil) -> [UInt8] {
    var bytes = Array((header + "\n").utf8)
    for index in 0..<rows {
      bytes += Array(
        ("{\"entity\":\"setting\",\"id\":\"s\(index)\",\"fields\":{\"value\":[\"v\",\"\"]}}\n").utf8
      )
    }
    let line =
      trailer
      ?? "{\"end\":true,\"changes\":\(count),\"sha256\":\"\(SHA256.hexDigest(bytes))\"}"
    return bytes + Array((line + "\n").utf8)
  }

  /// A sealed batch as the server sees one: its plaintext header, stand-in ciphertext (the server
  /// never opens it), and the trailer with the nonce.
  static func sealed(device: String, seq: Int) -> [UInt8] {
    let header = SealedHeader.line(
      for: Batch(device: device, seq: seq, created: 1_780_000_000_000, changes: []),
      name: .batch(device: device, seq: seq), changes: 7)
    let nonce = (0..<24).map { UInt8(truncatingIfNeeded: $0 * 7 + seq) }
    return header + nonce + Array("ciphertext of \(device) \(seq)".utf8) + [0x0A]
      + SealedHeader.trailer(nonce: nonce)
  }
}
