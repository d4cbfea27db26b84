import LifelogCore
import LifelogProtocol

/// One version of an encrypted remote's key envelope (docs/sync-protocol.md): the remote's data key
/// wrapped twice, under a key derived from the passphrase with Argon2id and under the recovery
/// key, and a key check.
///
/// The remote stores these bytes and never reads them. Changing the passphrase writes the next
/// version with the same data key wrapped anew; no batch is rewritten.
public struct RemoteKeys: Equatable, Sendable {
  /// 1 for the first envelope, one more for each passphrase change; the highest is current.
  public var version: Int
  public var remoteID: String
  public var limits: Argon2Limits
  public var salt: [UInt8]
  /// The data key sealed under the passphrase's key (nonce first).
  public var byPassphrase: [UInt8]
  /// The data key sealed under the recovery key (nonce first).
  public var byRecoveryKey: [UInt8]
  /// The remote id sealed under the data key: a key that opens it is this remote's.
  public var check: [UInt8]

  /// A new data key and recovery key for a new encrypted remote.
  ///
  /// - Returns: the first envelope, the data key (kept on this machine) and the recovery key (shown
  ///   to the person once).
  public static func create(
    remoteID: String, passphrase: [UInt8], limits: Argon2Limits = .interactive
  ) throws(SyncError) -> (keys: RemoteKeys, dataKey: [UInt8], recoveryKey: [UInt8]) {
    try Sodium.load()
    let dataKey = Sodium.random(Sodium.keyBytes)
    let recoveryKey = Sodium.random(Sodium.keyBytes)
    var keys = RemoteKeys(
      version: 1, remoteID: remoteID, limits: limits, salt: [], byPassphrase: [],
      byRecoveryKey: Sodium.seal(
        dataKey, associated: RemoteKeys.associated(remoteID, "recovery"),
        nonce: Sodium.random(Sodium.nonceBytes),
        key: recoveryKey),
      check: Sodium.seal(
        Array(remoteID.utf8), associated: RemoteKeys.associated(remoteID, "check"),
        nonce: Sodium.random(Sodium.nonceBytes), key: dataKey))
    try keys.wrap(dataKey, passphrase: passphrase)
    return (keys, dataKey, recoveryKey)
  }

  /// The next version: the same data key under a new passphrase (and a new salt).
  public func rewrapped(dataKey: [UInt8], passphrase: [UInt8]) throws(SyncError) -> RemoteKeys {
    try Sodium.checkDataKey(dataKey, remote: remoteID)
    try Sodium.load()
    var next = self
    next.version += 1
    next.limits = .interactive
    try next.wrap(dataKey, passphrase: passphrase)
    return next
  }

  private mutating func wrap(_ dataKey: [UInt8], passphrase: [UInt8]) throws(SyncError) {
    salt = Sodium.random(Sodium.saltBytes)
    var wrappingKey = try Sodium.argon2id(passphrase, salt: salt, limits: limits)
    defer { Sodium.wipe(&wrappingKey) }
    byPassphrase = Sodium.seal(
      dataKey, associated: RemoteKeys.associated(remoteID, "passphrase"),
      nonce: Sodium.random(Sodium.nonceBytes),
      key: wrappingKey)
  }

  /// The data key, from the passphrase; nil when the passphrase is not this envelope's.
  public func dataKey(passphrase: [UInt8]) throws(SyncError) -> [UInt8]? {
    try Sodium.load()
    var wrappingKey = try Sodium.argon2id(passphrase, salt: salt, limits: limits)
    defer { Sodium.wipe(&wrappingKey) }
    return Sodium.open(
      byPassphrase[...], associated: RemoteKeys.associated(remoteID, "passphrase"), key: wrappingKey
    )
    .flatMap(checked)
  }

  /// The data key, from the recovery key; nil when it is not this remote's.
  public func dataKey(recoveryKey: [UInt8]) throws(SyncError) -> [UInt8]? {
    try Sodium.load()
    return Sodium.open(
      byRecoveryKey[...], associated: RemoteKeys.associated(remoteID, "recovery"), key: recoveryKey
    )
    .flatMap(checked)
  }

  /// Whether `dataKey` is this remote's (it opens the key check).
  public func opens(with dataKey: [UInt8]) throws(SyncError) -> Bool {
    try Sodium.load()
    return checked(dataKey) != nil
  }

  private func checked(_ dataKey: [UInt8]) -> [UInt8]? {
    Sodium.open(check[...], associated: RemoteKeys.associated(remoteID, "check"), key: dataKey)
      == Array(remoteID.utf8)
      ? dataKey : nil
  }

  /// What each wrapping is bound to: this remote and its purpose, so none can stand in for another.
  private static func associated(_ remoteID: String, _ purpose: String) -> [UInt8] {
    Array("lifelog-keys\n\(remoteID)\n\(purpose)".utf8)
  }

  // MARK: - Bytes

  /// The envelope as JSON (docs/sync-protocol.md).
  public var bytes: [UInt8] {
    var passphrase = JSONObjectWriter()
    passphrase.add("kdf", "argon2id13")
    passphrase.add("opslimit", Int(limits.opslimit))
    passphrase.add("memlimit", limits.memlimit)
    passphrase.add("salt", Hex.encode(salt))
    passphrase.add("sealed", Hex.encode(byPassphrase))
    var object = JSONObjectWriter()
    object.add("lifelog", "keys")
    object.add("format", 1)
    object.add("version", version)
    object.add("remoteId", remoteID)
    object.add("cipher", "xchacha20poly1305-ietf")
    object.addRaw("passphrase", passphrase.result)
    object.add("recovery", Hex.encode(byRecoveryKey))
    object.add("check", Hex.encode(check))
    return Array((object.result + "\n").utf8)
  }

  /// Reads an envelope; throws ``BatchError/damaged(_:)`` for anything else.
  public init(bytes: [UInt8]) throws(BatchError) {
    guard let json = try? JSONValue.parse(bytes), json["lifelog"]?.string == "keys" else {
      throw .damaged("it is not a lifelog key envelope")
    }
    guard let format = json["format"]?.integer, format <= 1 else {
      throw .newerFormat(Int(json["format"]?.integer ?? 0))
    }
    guard let version = json["version"]?.integer, WireRange.keyVersion.contains(version),
      let remoteID = json["remoteId"]?.string,
      json["cipher"]?.string == "xchacha20poly1305-ietf", let passphrase = json["passphrase"],
      passphrase["kdf"]?.string == "argon2id13", let ops = passphrase["opslimit"]?.integer,
      (1...Argon2Limits.maximumOpslimit).contains(ops),
      let mem = passphrase["memlimit"]?.integer, (1...Argon2Limits.maximumMemlimit).contains(mem),
      let salt = passphrase["salt"]?.string.flatMap(Hex.decode),
      salt.count == Sodium.saltBytes, let sealed = passphrase["sealed"]?.string.flatMap(Hex.decode),
      let recovery = json["recovery"]?.string.flatMap(Hex.decode),
      let check = json["check"]?.string.flatMap(Hex.decode)
    else { throw .damaged("the key envelope lacks a field or holds a malformed one") }
    // Each wrapped data key is a nonce, the 32-byte key and a tag; the check holds the remote id.
    let wrappedKey = Sodium.nonceBytes + Sodium.keyBytes + Sodium.tagBytes
    guard sealed.count == wrappedKey, recovery.count == wrappedKey,
      check.count == Sodium.nonceBytes + remoteID.utf8.count + Sodium.tagBytes
    else {
      throw .damaged(
        "the key envelope's wrapped keys are not \(wrappedKey) bytes long (or its check does not fit its remote id)"
      )
    }
    self.init(
      version: Int(version), remoteID: remoteID,
      limits: Argon2Limits(opslimit: UInt64(ops), memlimit: Int(mem)),
      salt: salt, byPassphrase: sealed, byRecoveryKey: recovery, check: check)
  }

  init(
    version: Int, remoteID: String, limits: Argon2Limits, salt: [UInt8], byPassphrase: [UInt8],
    byRecoveryKey: [UInt8], check: [UInt8]
  ) {
    self.version = version
    self.remoteID = remoteID
    self.limits = limits
    self.salt = salt
    self.byPassphrase = byPassphrase
    self.byRecoveryKey = byRecoveryKey
    self.check = check
  }
}

/// The recovery key as people see it: 64 hex digits in groups of eight.
public enum RecoveryKeyText {
  public static func format(_ key: [UInt8]) -> String {
    let hex = Array(Hex.encode(key))
    return stride(from: 0, to: hex.count, by: 8).map { String(hex[$0..<min($0 + 8, hex.count)]) }
      .joined(separator: "-")
  }

  /// The key in `text`, or nil when it is not 32 bytes of hex (groups and spaces allowed).
  public static func parse(_ text: String) -> [UInt8]? {
    guard let bytes = Hex.decode(text), bytes.count == Sodium.keyBytes else { return nil }
    return bytes
  }
}
