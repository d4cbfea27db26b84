import Foundation
@preconcurrency import Glibc
import LifelogCLITestSupport
import LifelogCore
import LifelogProtocol
import LifelogTestSupport
import Testing

extension DAVSyncTests {
  /// `davs://` goes through libcurl with the account's credentials: a certificate the system does
  /// not trust is refused as a TLS failure, a trusted one (`LIFELOG_CA_FILE`) syncs, and a wrong
  /// password over HTTPS is 77 too.
  @Test func davsWorksOverTLSWithTheServersCertificate() throws {
    guard DAVServer.isAvailable(.apache), TestCertificate.isAvailable else { return }
    let certificate = folder.file("cert.pem")
    let key = folder.file("key.pem")
    try TestCertificate.make(certificate: certificate, key: key)
    let server = try DAVServer(.apache, tls: (certificate, key))
    try server.makeFolder("alice")
    let url = server.baseURL + "/alice/lifelog"
    #expect(url.hasPrefix("davs://"))
    let laptop = SyncMachine("laptop", in: folder)
    let desktop = SyncMachine("desktop", in: folder)
    let entry = try laptop.add("breakfast", "toast", "--at", "2026-12-01 07:30")

    let untrusted = try add(laptop, server, url, "--no-encrypt")
    #expect(untrusted.exitCode == 69 && untrusted.stderr.contains("TLS"), "\(untrusted)")
    #expect(!untrusted.stderr.contains("dav:// sends"), "no plain-HTTP warning for davs://")

    let trusted = ["LIFELOG_CA_FILE": certificate]
    let wrong = try LifelogProcess.run(
      [
        "remote", "add", "cloud", url, "--user", server.user, "--password-file",
        try passwordFile(server, wrong: true), "--no-encrypt",
      ], environment: laptop.environment.merging(trusted) { $1 })
    #expect(wrong.exitCode == 77, "\(wrong)")
    for machine in [laptop, desktop] {
      for arguments in [
        [
          "remote", "add", "cloud", url, "--user", server.user, "--password-file",
          try passwordFile(server), "--no-encrypt",
        ], ["sync"],
      ] {
        let result = try LifelogProcess.run(
          arguments, environment: machine.environment.merging(trusted) { $1 })
        #expect(result.exitCode == 0, "\(machine.name): \(arguments)\n\(result)")
      }
    }
    #expect(try desktop.entries()[entry] != nil)
    _ = server
  }
}

extension DAVSyncTests {
  /// `lifelog check --remote` reads every batch and snapshot on a WebDAV remote: a healthy one
  /// passes; a batch damaged on the server is named (exit 65).
  @Test(arguments: kinds)
  func checkReadsEveryFileOnAWebDAVRemote(_ kind: DAVServer.Kind) throws {
    let (server, url) = try server(kind)
    let laptop = SyncMachine("laptop", in: folder)
    for minute in 0..<3 {
      _ = try laptop.add("walk", "--at", "2026-12-01 17:0\(minute)")
      if minute == 0 { #expect(try add(laptop, server, url, "--no-encrypt").exitCode == 0) }
      try laptop.expectSuccess("sync")
    }
    let healthy = try laptop.run("check", "--remote", "cloud")
    #expect(healthy.exitCode == 0, "\(healthy)")

    let batch = try #require(server.allFiles().first { $0.hasSuffix("0000000002.batch") })
    try Data("not a batch".utf8).write(to: URL(fileURLWithPath: server.files + "/" + batch))
    let damaged = try laptop.run("check", "--remote", "cloud")
    #expect(damaged.exitCode == 65, "\(damaged)")
    #expect(damaged.stdout.contains("0000000002.batch"), "\(damaged)")
    _ = server
  }
}

extension DAVSyncTests {
  /// The passphrase of an encrypted WebDAV remote is lost: another machine joins with the
  /// recovery key `remote add --encrypt` printed, with the account's user and password.
  @Test func anEncryptedWebDAVRemoteIsRecoveredWithItsRecoveryKey() throws {
    guard let kind = Self.kinds.first else { return }
    let (server, url) = try server(kind)
    let laptop = SyncMachine("laptop", in: folder)
    let entry = try laptop.add("breakfast", "secret porridge", "--at", "2026-12-01 07:30")
    let created = try add(laptop, server, url, "--encrypt", "--passphrase-file", passphraseFile())
    #expect(created.exitCode == 0, "\(created)")
    try laptop.expectSuccess("sync")
    let recoveryFile = folder.file("recovery")
    try EncryptedRemoteTests.recoveryKey(in: created.stdout).write(
      toFile: recoveryFile, atomically: true, encoding: .utf8)

    let desktop = SyncMachine("desktop", in: folder)
    let recovered = try exec(
      desktop,
      [
        "remote", "recover", "cloud", url, "--recovery-key-file", recoveryFile, "--user",
        server.user, "--password-file", try passwordFile(server),
      ])
    #expect(recovered.exitCode == 0, "\(recovered)")
    try desktop.expectSuccess("sync")
    #expect(try desktop.entries()[entry]?["note"] as? String == "secret porridge")
    _ = server
  }
}
