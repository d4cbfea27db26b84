import Foundation
import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// A server that echoes the credentials back, whole or in part, in an error body, an echoed
/// `Authorization` header or a redirect's `Location`: no piece of 8 characters of the token or
/// password (or of their base64 forms) reaches stderr, `remote list --format json` or `status`,
/// over the plain socket client and over libcurl.
@Suite struct SecretRedactionTests {
  let folder = TemporaryDirectory(prefix: "lifelog-secrets")
  static let token = "llt_Zq8xVb3KpT7mWn2RcY6hJd4FsG9aLe5Ku1Po0Ix"

  /// The first piece of 8 characters of `secret`, in any form it travels in, found in `text`.
  static func leak(of secret: String, user: String? = nil, in text: String) -> String? {
    let unreserved = CharacterSet(charactersIn: "-._~").union(
      CharacterSet(charactersIn: "a"..."z")
    ).union(CharacterSet(charactersIn: "A"..."Z")).union(CharacterSet(charactersIn: "0"..."9"))
    var forms = [
      secret, Data(secret.utf8).base64EncodedString(),
      secret.addingPercentEncoding(withAllowedCharacters: unreserved) ?? secret,
    ]
    if let user {
      // The leading digits that encode only `user:` say nothing of the password.
      let basic = Data((user + ":" + secret).utf8).base64EncodedString()
      forms.append(String(basic.dropFirst((user.utf8.count + 1) * 8 / 6 - 7)))
    }
    for form in forms {
      let characters = Array(form)
      guard characters.count >= 8 else { continue }
      for start in 0...(characters.count - 8) {
        let piece = String(characters[start..<start + 8])
        if text.contains(piece) { return piece }
      }
    }
    return nil
  }

  /// Everything a user sees after a failed sync: its stderr, the remote's record, the status.
  static func expectNoLeak(
    of secret: String, user: String? = nil, _ machine: SyncMachine, environment: [String: String],
    sync: CommandResult, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    #expect([69, 77].contains(sync.exitCode), "\(name): \(sync)", sourceLocation: sourceLocation)
    let shown = [
      sync.stderr,
      try LifelogProcess.run(["remote", "list", "--format", "json"], environment: environment)
        .stdout,
      try LifelogProcess.run(["remote", "list"], environment: environment).stdout,
      try LifelogProcess.run(["status"], environment: environment).stdout,
      try LifelogProcess.run(["status", "--format", "json"], environment: environment).stdout,
    ]
    for text in shown {
      let leak = leak(of: secret, user: user, in: text)
      #expect(leak == nil, "\(name): '\(leak ?? "")' in \(text)", sourceLocation: sourceLocation)
    }
  }

  static func answer(_ status: String, headers: String = "", body: [UInt8] = []) -> [UInt8] {
    Array("HTTP/1.1 \(status)\r\n\(headers)Content-Length: \(body.count)\r\n\r\n".utf8) + body
  }

  static let padding = Array(String(repeating: "x", count: 100).utf8)

  @Test func anHTTPServerEchoingTheTokenLeaksNoPieceOfIt() throws {
    let server = try HostileHTTPServer()
    defer { server.stop() }
    let tokenPath = folder.file("token")
    try Data((Self.token + "\n").utf8).write(to: URL(fileURLWithPath: tokenPath))
    let laptop = SyncMachine("laptop", in: folder)
    try laptop.expectSuccess("remote", "add", "home", server.url, "--token-file", tokenPath)
    let token = Array(Self.token.utf8)
    let cases: [(String, String, [UInt8])] = [
      (
        "401 body, the token past the cut", "GET /v1/manifest",
        Self.answer(
          "401 Unauthorized",
          body: Array(String(repeating: "x", count: 180).utf8) + Array("token ".utf8) + token)
      ),
      (
        "401 JSON message", "GET /v1/manifest",
        Self.answer(
          "401 Unauthorized",
          body: Array(#"{"error":{"code":"unauthorized","message":"bad "#.utf8) + token
            + Array(#""}}"#.utf8))
      ),
      (
        "500 echoing the Authorization header", "GET /v1/changes",
        Self.answer(
          "500 Internal Server Error",
          body: Self.padding + Array("Authorization: Bearer ".utf8) + token)
      ),
      (
        "302 to a URL holding the token", "GET /v1/changes",
        Self.answer(
          "302 Found", headers: "Location: https://laptop:\(Self.token)@evil.example/steal\r\n")
      ),
    ]
    let curl = ["LIFELOG_CA_FILE": "/etc/ssl/certs/ca-certificates.crt"]
    for (name, request, bytes) in cases {
      server.answer(request, with: bytes)
      for extra in [[:], curl] {
        let environment = laptop.environment.merging(extra) { $1 }
        let sync = try LifelogProcess.run(["sync", "--timeout", "5"], environment: environment)
        try Self.expectNoLeak(
          of: Self.token, laptop, environment: environment, sync: sync,
          "\(name)\(extra.isEmpty ? "" : " (libcurl)")")
      }
    }
  }

  /// WebDAV, behind a proxy that answers every request itself once the remote is added.
  ///
  /// An error body with the password past the 120 bytes shown, the echoed basic `Authorization`
  /// header, the password with a non-ASCII byte after each character, a redirect to
  /// `https://alice:PASSWORD@…`. The password holds a non-ASCII letter, which the printable
  /// filter drops.
  @Test(arguments: DAVServer.Kind.allCases.filter(DAVServer.isAvailable).prefix(1))
  func aWebDAVServerEchoingThePasswordLeaksNoPieceOfIt(_ kind: DAVServer.Kind) throws {
    let server = try DAVServer(kind, password: "correct hörse battery staple")
    try server.makeFolder("alice")
    let proxy = try InterceptingProxy(targetPort: server.port)
    defer { proxy.stop() }
    let passwordPath = folder.file("password")
    try (server.password + "\n").write(toFile: passwordPath, atomically: true, encoding: .utf8)
    let laptop = SyncMachine("laptop", in: folder)
    try laptop.expectSuccess(
      "remote", "add", "cloud", "dav://127.0.0.1:\(proxy.port)/alice/lifelog", "--user",
      server.user, "--password-file", passwordPath, "--no-encrypt")
    let password = Array(server.password.utf8)
    let basic = Data((server.user + ":" + server.password).utf8).base64EncodedString()
    let cases: [(String, [UInt8])] = [
      (
        "500 body, the password past the cut",
        Self.answer("500 Internal Server Error", body: Self.padding + password)
      ),
      (
        "500 echoing the Authorization header",
        Self.answer(
          "500 Internal Server Error",
          body: Array(Self.padding.prefix(80)) + Array("Authorization: Basic \(basic)".utf8))
      ),
      (
        "500 body with a non-ASCII byte after each character",
        Self.answer("500 Internal Server Error", body: password.flatMap { [$0, 0xC3] })
      ),
      (
        "302 to a URL holding the password",
        Self.answer(
          "302 Found",
          headers: "Location: https://alice:correct%20h%C3%B6rse%20battery%20staple"
            + "@evil.example/\r\n")
      ),
    ]
    for (name, bytes) in cases {
      proxy.mode = .answer(bytes)
      let sync = try LifelogProcess.run(
        ["sync", "--timeout", "5"], environment: laptop.environment)
      try Self.expectNoLeak(
        of: server.password, user: server.user, laptop, environment: laptop.environment,
        sync: sync, name)
    }
    _ = server
  }
}
