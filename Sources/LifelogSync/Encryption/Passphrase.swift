import LifelogCore

/// The rules a passphrase keeps (docs/security.md), whoever asks for it: how a passphrase file
/// is read, and how long a new one must be.
///
/// A passphrase only unwraps the data key of a remote's key envelope (``RemoteKeys``), so it is
/// never stored; the command line only gathers it (a file, the environment, a terminal).
public enum Passphrase {
  /// The fewest bytes a new passphrase may have: a few words, not a PIN.
  public static let minimumBytes = 8

  /// A passphrase file's bytes without the trailing line breaks an editor or `echo` leaves.
  public static func fromFile(_ bytes: [UInt8]) -> [UInt8] {
    var passphrase = bytes
    while passphrase.last == 0x0A || passphrase.last == 0x0D { passphrase.removeLast() }
    return passphrase
  }

  /// Checks a passphrase: never empty, and a new one at least ``minimumBytes`` long.
  ///
  /// A new one (`creating`) wraps a key from now on; one that unlocks an existing envelope is
  /// taken as it is.
  ///
  /// - Throws: ``InputError`` saying what to choose instead.
  public static func check(_ passphrase: [UInt8], creating: Bool) throws(InputError) {
    guard !passphrase.isEmpty else { throw InputError("The passphrase is empty; give one") }
    if creating, passphrase.count < minimumBytes {
      throw InputError(
        "The passphrase is shorter than \(minimumBytes) characters; choose a longer one (a few words)"
      )
    }
  }
}

extension RemoteSetup {
  /// Wraps the data key of the encrypted remote `name` under a new passphrase (`remote passwd`):
  /// no batch is rewritten, machines that joined keep syncing, the recovery key stays valid.
  ///
  /// Every check runs before the passphrase is asked for and before anything is written: the
  /// remote must be kept encrypted with a data key of the right size, hold a key envelope, and
  /// that envelope must open with the kept key (else this log would lock the others out).
  ///
  /// - Parameters:
  ///   - open: the remote at a kept record's address (the caller knows the CA file and timeout).
  ///   - passphrase: the new passphrase, asked only once the checks pass; checked with
  ///     ``Passphrase/check(_:creating:)``.
  /// - Returns: the key envelope now stored.
  /// - Throws: ``InputError`` for an unknown name or a short passphrase,
  ///   ``SyncError/encryptionMismatch(_:reason:)`` for a remote that is not encrypted as kept.
  public func changePassphrase(
    of name: String, open: (RemoteRecord) throws -> any Remote,
    passphrase: () throws -> [UInt8]
  ) throws -> RemoteKeys {
    guard let record = try store.remote(named: name) else {
      throw InputError("No remote is named '\(name)'; see 'lifelog remote list'")
    }
    guard let dataKey = record.dataKey else {
      throw SyncError.encryptionMismatch(
        record.url, reason: "is not encrypted, so it has no passphrase")
    }
    try Sodium.checkDataKey(dataKey, remote: record.url)
    let remote = try open(record)
    guard let keys = try remote.keys() else {
      throw SyncError.encryptionMismatch(
        record.url, reason: "holds no key envelope, though this log joined it encrypted")
    }
    guard try keys.opens(with: dataKey) else {
      throw SyncError.encryptionMismatch(
        record.url, reason: "holds keys that the key this log keeps does not open")
    }
    let newPassphrase = try passphrase()
    try Passphrase.check(newPassphrase, creating: true)
    let next = try keys.rewrapped(dataKey: dataKey, passphrase: newPassphrase)
    try remote.putKeys(next)
    return next
  }
}
