import Foundation
import LifelogCLITestSupport
import LifelogCore
import LifelogSync
import LifelogTestSupport
import Testing

/// `lifelog share`: the meal report sealed under a key that only the link holds, stored on a real
/// `lifelog serve` as ciphertext, listed, revoked (410 after).
@Suite struct ShareCommandTests {
  let folder = TemporaryDirectory(prefix: "lifelog-share-e2e")

  @Test func aShareHoldsTheMealReportOnlyTheLinkOpensAndEndsWhenRevoked() throws {
    let server = try ServerProcess(dataFolder: folder.file("data"))
    let tokenPath = folder.file("alice.token")
    try Data((try server.addUser("alice") + "\n").utf8).write(to: URL(fileURLWithPath: tokenPath))
    let laptop = SyncMachine("laptop", in: folder)
    try laptop.expectSuccess(
      "remote", "add", "home", server.baseURL, "--token-file", tokenPath, "--no-encrypt")
    try laptop.add("breakfast", "private porridge", "--at", "2026-11-02 08:00")
    try laptop.add("lunch", "private soup", "--at", "2026-11-02 13:00")

    let shared = try laptop.expectSuccess(
      "share", "--from", "2026-11-01", "--to", "2026-11-07", "--expires", "7d", "--format", "json")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(shared.stdout.utf8)) as? [String: Any])
    #expect(Set(object.keys) == ["url", "id", "expires"])
    let url = try #require(object["url"] as? String)
    let id = try #require(object["id"] as? String)
    #expect(url.hasPrefix(server.baseURL + "/s/" + id + "#"))
    let keyText = Array(String(url.split(separator: "#")[1]).utf8)
    #expect(keyText.count == 64)
    let key = stride(from: 0, to: keyText.count, by: 2).compactMap {
      UInt8(String(decoding: keyText[$0..<$0 + 2], as: UTF8.self), radix: 16)
    }

    // The server holds ciphertext; the key from the link opens the very report the CLI writes.
    let viewer = HTTPTestClient(baseURL: server.baseURL)
    let content = try viewer.get("/v1/shares/\(id)/content")
    #expect(content.status == 200)
    #expect(!content.text.contains("private porridge"))
    let report = try #require(try SealedReport.open(content.body, id: id, key: key))
    let expected = try laptop.expectSuccess(
      "report", "meals", "--format", "html", "--from", "2026-11-01", "--to", "2026-11-07")
    #expect(String(decoding: report, as: UTF8.self) == expected.stdout)
    #expect(expected.stdout.contains("private porridge"))
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.file("data")) {
      let bytes = try Data(contentsOf: URL(fileURLWithPath: folder.file("data") + "/" + name))
      #expect(bytes.range(of: Data("private porridge".utf8)) == nil, "plaintext in \(name)")
    }

    let list = try laptop.expectSuccess("share", "list")
    #expect(list.stdout.hasPrefix("\(id)  2026-11-01 to 2026-11-07  active until "), "\(list)")
    #expect(list.stdout.contains("opened 1×"), "\(list)")
    try laptop.expectSuccess("share", "revoke", id)
    #expect(try viewer.get("/v1/shares/\(id)/content").status == 410)
    #expect(try laptop.run("share", "revoke", id).exitCode == 0, "revoking twice is harmless")
    #expect(try laptop.run("share", "revoke", "no-such-share").exitCode == 65)
    let listed = try laptop.expectSuccess("share", "list", "--format", "json")
    #expect(listed.stdout.contains("\"state\":\"revoked\""), "\(listed)")

    #expect(try laptop.run("share", "--expires", "91d").exitCode == 65)
    #expect(try laptop.run("share", "--from", "2026-11-01", "--days", "3").exitCode == 64)
  }
}
