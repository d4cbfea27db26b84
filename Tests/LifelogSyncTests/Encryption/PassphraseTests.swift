import Foundation
import LifelogCore
import LifelogSync
import LifelogTestSupport
import Synchronization
import Testing

/// ``Passphrase`` (its rules) and ``RemoteSetup/changePassphrase(of:open:passphrase:)`` (`remote
/// passwd`) against real folders: every refusal comes before the passphrase is asked and leaves
/// the remote's key envelope as it was.
@Suite struct PassphraseTests {
  let folder = TemporaryDirectory(prefix: "lifelog-passphrase")
  static let first = Array("correct horse battery".utf8)
  static let second = Array("staple tunnel lantern".utf8)

  func setup(_ machine: String) throws -> RemoteSetup {
    RemoteSetup(store: SyncStore(log: try LogStore(path: folder.file("\(machine)/log.db"))))
  }

  func open(_ record: RemoteRecord) throws -> any Remote {
    try RemoteAddress.open(record.url, token: record.token, deadline: Deadline(seconds: 30))
  }

  func answers(encrypt: Bool, passphrase: [UInt8]) -> RemoteSetup.Answers {
    RemoteSetup.Answers(
      encrypt: encrypt, wantsEncryption: { encrypt }, passphrase: { _ in passphrase })
  }

  /// A laptop that made the remote `usb`, encrypted under ``first`` unless `encrypt` is false.
  func laptop(encrypt: Bool = true) throws -> RemoteSetup {
    let laptop = try setup("laptop")
    _ = try laptop.add(
      name: "usb",
      remote: RemoteAddress.open(folder.file("usb"), token: nil, deadline: .init(seconds: 30)),
      token: nil, answers: answers(encrypt: encrypt, passphrase: Self.first))
    return laptop
  }

  /// Whether a new machine joins `usb` with `passphrase`.
  func joins(with passphrase: [UInt8], as machine: String) throws -> Bool {
    do {
      _ = try setup(machine).add(
        name: "usb",
        remote: RemoteAddress.open(folder.file("usb"), token: nil, deadline: .init(seconds: 30)),
        token: nil, answers: answers(encrypt: true, passphrase: passphrase))
      return true
    } catch is SyncError {
      return false
    }
  }

  @Test func aPassphraseFileLosesItsTrailingLineBreaksOnly() {
    #expect(Passphrase.fromFile(Array("a b\r\n\n".utf8)) == Array("a b".utf8))
    #expect(Passphrase.fromFile(Array("a\nb".utf8)) == Array("a\nb".utf8))
  }

  @Test func aNewPassphraseNeedsEightBytesAnUnlockingOneOnlySomething() throws {
    #expect(throws: InputError.self) { try Passphrase.check([], creating: false) }
    #expect(throws: InputError.self) { try Passphrase.check([], creating: true) }
    #expect(throws: InputError.self) { try Passphrase.check(Array("seven77".utf8), creating: true) }
    try Passphrase.check(Array("seven77".utf8), creating: false)
    try Passphrase.check(Array("eight888".utf8), creating: true)
  }

  @Test func theNewPassphraseJoinsAndTheOldOneNoLonger() throws {
    let laptop = try laptop()
    let record = try #require(try laptop.store.remote(named: "usb"))
    let before = try #require(try open(record).keys())
    let next = try laptop.changePassphrase(of: "usb", open: open, passphrase: { Self.second })
    #expect(next.version == before.version + 1)
    #expect(try joins(with: Self.second, as: "desktop"))
    #expect(try !joins(with: Self.first, as: "phone"))
  }

  @Test func aShortNewPassphraseIsRefusedAndTheEnvelopeIsUnchanged() throws {
    let laptop = try laptop()
    #expect(throws: InputError.self) {
      try laptop.changePassphrase(of: "usb", open: open, passphrase: { Array("short".utf8) })
    }
    #expect(try joins(with: Self.first, as: "desktop"))
  }

  @Test func aPlainOrUnknownRemoteIsRefusedBeforeThePassphraseIsAsked() throws {
    let laptop = try laptop(encrypt: false)
    let asked = Mutex(0)
    let passphrase: () throws -> [UInt8] = {
      asked.withLock { $0 += 1 }
      return Self.second
    }
    #expect {
      try laptop.changePassphrase(of: "usb", open: open, passphrase: passphrase)
    } throws: { error in
      guard case .encryptionMismatch(_, let reason) = error as? SyncError else { return false }
      return reason.contains("not encrypted")
    }
    #expect(throws: InputError.self) {
      try laptop.changePassphrase(of: "nas", open: open, passphrase: passphrase)
    }
    #expect(asked.withLock { $0 } == 0)
  }
}
