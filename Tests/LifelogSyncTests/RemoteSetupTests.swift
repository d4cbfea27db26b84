import Foundation
import LifelogCore
import LifelogSync
import LifelogTestSupport
import Synchronization
import Testing

/// `RemoteSetup` against real folders and a real `lifelog serve`: what `remote add` and `remote
/// recover` decide (create or join, encrypted or not) and what each refusal leaves (nothing).
@Suite struct RemoteSetupTests {
  let folder = TemporaryDirectory(prefix: "lifelog-remote-setup")
  static let passphrase = Array("correct horse battery".utf8)

  /// The questions setup asks, answered as given, and which were asked.
  final class Person: Sendable {
    let asked = Mutex<[String]>([])
    let encrypt: Bool?
    let wants: Bool
    let passphrase: [UInt8]

    init(
      encrypt: Bool? = nil, wants: Bool = false, passphrase: [UInt8] = RemoteSetupTests.passphrase
    ) {
      (self.encrypt, self.wants, self.passphrase) = (encrypt, wants, passphrase)
    }

    var answers: RemoteSetup.Answers {
      RemoteSetup.Answers(
        encrypt: encrypt,
        wantsEncryption: {
          self.asked.withLock { $0.append("encrypt?") }
          return self.wants
        },
        passphrase: { creating in
          self.asked.withLock { $0.append(creating ? "new passphrase" : "passphrase") }
          return self.passphrase
        })
    }
  }

  func setup(_ machine: String) throws -> RemoteSetup {
    RemoteSetup(store: SyncStore(log: try LogStore(path: folder.file("\(machine)/log.db"))))
  }

  func remote(_ url: String, token: String? = nil) throws -> any Remote {
    try RemoteAddress.open(url, token: token, deadline: Deadline(seconds: 30))
  }

  // MARK: - Folders

  @Test func aMissingFolderBecomesAPlainRemoteWithoutAQuestionWhenToldNotToEncrypt() throws {
    let laptop = try setup("laptop")
    let person = Person(encrypt: false)
    let added = try laptop.add(
      name: "usb", remote: remote(folder.file("usb")), token: nil, answers: person.answers)
    #expect(added.outcome == .created && !added.encrypted && added.recoveryKey == nil)
    #expect(person.asked.withLock { $0 }.isEmpty)
    let record = try #require(try laptop.store.remote(named: "usb"))
    #expect(record.dataKey == nil && record.url == added.location)
    #expect(FileManager.default.fileExists(atPath: folder.file("usb/lifelog-remote.json")))
  }

  @Test func aNewFolderIsEncryptedWhenThePersonSaysSoAndASecondMachineJoinsItEncrypted() throws {
    let person = Person(wants: true)
    let laptop = try setup("laptop")
    let created = try laptop.add(
      name: "usb", remote: remote(folder.file("usb")), token: nil, answers: person.answers)
    #expect(created.outcome == .created && created.encrypted)
    #expect(created.recoveryKey?.count == 32)
    #expect(person.asked.withLock { $0 } == ["encrypt?", "new passphrase"])

    let joiner = Person()
    let desktop = try setup("desktop")
    let joined = try desktop.add(
      name: "usb", remote: remote(folder.file("usb")), token: nil, answers: joiner.answers)
    #expect(joined.outcome == .joined && joined.encrypted && joined.location == created.location)
    #expect(joiner.asked.withLock { $0 } == ["passphrase"], "never asked whether to encrypt")
    #expect(
      try desktop.store.remote(named: "usb")?.dataKey == laptop.store.remote(named: "usb")?.dataKey)
  }

  @Test func aWrongPassphraseOrNoEncryptForAnEncryptedRemoteKeepsNothing() throws {
    _ = try setup("laptop").add(
      name: "usb", remote: remote(folder.file("usb")), token: nil,
      answers: Person(encrypt: true).answers)
    let desktop = try setup("desktop")
    #expect(throws: SyncError.self) {
      try desktop.add(
        name: "usb", remote: remote(folder.file("usb")), token: nil,
        answers: Person(passphrase: Array("not the passphrase".utf8)).answers)
    }
    let refused = Person(encrypt: false)
    #expect {
      try desktop.add(
        name: "usb", remote: remote(folder.file("usb")), token: nil, answers: refused.answers)
    } throws: { error in
      guard case .encryptionMismatch(_, let reason) = error as? SyncError else { return false }
      return reason.contains("--no-encrypt")
    }
    #expect(refused.asked.withLock { $0 }.isEmpty, "refused before the passphrase is asked")
    #expect(try desktop.store.remotes().isEmpty)
  }

  @Test func aPlainRemoteIsNotJoinedWithEncrypt() throws {
    _ = try setup("laptop").add(
      name: "usb", remote: remote(folder.file("usb")), token: nil,
      answers: Person(encrypt: false).answers)
    let desktop = try setup("desktop")
    #expect {
      try desktop.add(
        name: "usb", remote: remote(folder.file("usb")), token: nil,
        answers: Person(encrypt: true).answers)
    } throws: { error in
      guard case .encryptionMismatch(_, let reason) = error as? SyncError else { return false }
      return reason.contains("unencrypted data")
    }
    #expect(try desktop.store.remotes().isEmpty)
  }

  @Test func aManifestStrippedOfItsEncryptedMarkIsRefusedAsTampered() throws {
    _ = try setup("laptop").add(
      name: "usb", remote: remote(folder.file("usb")), token: nil,
      answers: Person(encrypt: true).answers)
    let path = folder.file("usb/lifelog-remote.json")
    let manifest = try String(contentsOfFile: path, encoding: .utf8)
    let stripped = manifest.replacingOccurrences(
      of: #","encryption":"[^"]*""#, with: "", options: .regularExpression)
    #expect(stripped != manifest, "the test removed the mark: \(manifest)")
    try stripped.write(toFile: path, atomically: true, encoding: .utf8)
    let desktop = try setup("desktop")
    #expect {
      try desktop.add(
        name: "usb", remote: remote(folder.file("usb")), token: nil, answers: Person().answers)
    } throws: { error in
      guard case .encryptionMismatch(_, let reason) = error as? SyncError else { return false }
      return reason.contains("tampered")
    }
    #expect(try desktop.store.remotes().isEmpty)
  }

  @Test func aNameInUseIsRefusedBeforeTheRemoteIsTouched() throws {
    let laptop = try setup("laptop")
    _ = try laptop.add(
      name: "usb", remote: remote(folder.file("usb")), token: nil,
      answers: Person(encrypt: false).answers)
    #expect(throws: InputError.self) {
      try laptop.add(
        name: "usb", remote: remote(folder.file("other")), token: nil,
        answers: Person(encrypt: false).answers)
    }
    #expect(!FileManager.default.fileExists(atPath: folder.file("other")))
  }

  @Test func theRecoveryKeyJoinsAnEncryptedRemoteAndIsRefusedForAPlainOne() throws {
    let created = try setup("laptop").add(
      name: "usb", remote: remote(folder.file("usb")), token: nil,
      answers: Person(encrypt: true).answers)
    let desktop = try setup("desktop")
    let recovered = try desktop.recover(
      name: "usb", remote: remote(folder.file("usb")), token: nil,
      recoveryKey: try #require(created.recoveryKey))
    #expect(recovered.outcome == .joined && recovered.encrypted)
    #expect(throws: SyncError.self) {
      try desktop.recover(
        name: "other", remote: remote(folder.file("usb")), token: nil,
        recoveryKey: [UInt8](repeating: 7, count: 32))
    }
    _ = try setup("third").add(
      name: "plain", remote: remote(folder.file("plain")), token: nil,
      answers: Person(encrypt: false).answers)
    #expect(throws: SyncError.self) {
      try desktop.recover(
        name: "plain", remote: remote(folder.file("plain")), token: nil,
        recoveryKey: try #require(created.recoveryKey))
    }
    #expect(try desktop.store.remotes().map(\.name) == ["usb"])
  }

  // MARK: - A server

  @Test func anEmptyServerAccountIsEncryptedByItsFirstMachineOnly() throws {
    let server = try ServerProcess(dataFolder: folder.file("server"))
    defer { _ = server.terminate() }
    let token = try server.addUser("alice")
    let person = Person(wants: true)
    let laptop = try setup("laptop")
    let first = try laptop.add(
      name: "home", remote: remote(server.baseURL, token: token), token: token,
      answers: person.answers)
    #expect(first.outcome == .created && first.encrypted && first.recoveryKey != nil)
    #expect(person.asked.withLock { $0 } == ["encrypt?", "new passphrase"])
    #expect(try laptop.store.remote(named: "home")?.token == token)

    let desktop = try setup("desktop")
    let second = try desktop.add(
      name: "home", remote: remote(server.baseURL, token: token), token: token,
      answers: Person().answers)
    #expect(second.outcome == .joined && second.encrypted)
  }

  @Test func aServerAccountHoldingDataIsJoinedPlainWithoutAskingToEncrypt() throws {
    let server = try ServerProcess(dataFolder: folder.file("server"))
    defer { _ = server.terminate() }
    let token = try server.addUser("alice")
    let laptop = try setup("laptop")
    _ = try laptop.add(
      name: "home", remote: remote(server.baseURL, token: token), token: token,
      answers: Person(encrypt: false).answers)
    _ = try laptop.store.log.set(.mealGapHours, to: "2.5")
    let record = try #require(try laptop.store.remote(named: "home"))
    let report = try SyncEngine(store: laptop.store).sync(
      record, with: remote(server.baseURL, token: token))
    #expect(report.pushed == 1)

    let person = Person(wants: true)
    let desktop = try setup("desktop")
    let joined = try desktop.add(
      name: "home", remote: remote(server.baseURL, token: token), token: token,
      answers: person.answers)
    #expect(joined.outcome == .joined && !joined.encrypted)
    #expect(person.asked.withLock { $0 }.isEmpty)
  }
}
