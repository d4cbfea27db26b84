import LifelogCore

/// A remote that `lifelog remote add` makes itself in an empty place: a folder, a WebDAV
/// collection (a server account is made by `lifelog serve user add`).
protocol CreatableRemote: Remote {
  /// The manifest there, or nil when the place is missing or empty.
  func existingManifest() throws(SyncError) -> RemoteManifest?
  /// Makes a new remote there; with `keys`, an encrypted one.
  func create(
    remoteID: String, minimumVersion: String, keys: RemoteKeys?
  ) throws(SyncError) -> RemoteManifest
}

extension FileRemote: CreatableRemote {}
extension DAVRemote: CreatableRemote {}

/// Adds a remote to a log (`lifelog remote add` and `remote recover`): creates a new remote in a
/// missing or empty folder or joins what is there, and decides whether it is encrypted.
///
/// The policy lives here, not in the command line, so it is tested against real folders and a
/// real server: the caller only answers the two questions setup may ask (``Answers``) and prints
/// the ``Added`` it gets back. Every refusal is thrown before the remote or the log is written, so
/// a refused setup changes neither (docs/security.md).
public struct RemoteSetup {
  /// What setup may need from the person adding the remote.
  public struct Answers {
    /// `--encrypt` (true), `--no-encrypt` (false), or neither (nil).
    public var encrypt: Bool?
    /// Whether a new remote is to be encrypted when neither was given: asked on a terminal.
    public var wantsEncryption: () throws -> Bool
    /// The passphrase; `creating` is true for a new key envelope (asked twice, at least 8
    /// characters), false to unlock the remote's.
    public var passphrase: (_ creating: Bool) throws -> [UInt8]

    public init(
      encrypt: Bool?, wantsEncryption: @escaping () throws -> Bool,
      passphrase: @escaping (_ creating: Bool) throws -> [UInt8]
    ) {
      self.encrypt = encrypt
      self.wantsEncryption = wantsEncryption
      self.passphrase = passphrase
    }
  }

  /// What setup did.
  public struct Added: Equatable, Sendable {
    public enum Outcome: Equatable, Sendable { case created, joined }
    public var outcome: Outcome
    /// Whether the log keeps a data key for the remote (it holds only ciphertext).
    public var encrypted: Bool
    /// The remote's address as it was kept.
    public var location: String
    /// The recovery key of a key envelope setup made, to be shown once; nil otherwise.
    public var recoveryKey: [UInt8]?
  }

  public let store: SyncStore

  public init(store: SyncStore) { self.store = store }

  /// Creates or joins `remote` and keeps it in the log as `name`.
  ///
  /// A server account that holds nothing yet is "created" by its first machine: it may become
  /// encrypted then, never later.
  ///
  /// - Throws: ``InputError`` when the name is taken; ``SyncError/encryptionMismatch(_:reason:)``
  ///   when the remote's encryption contradicts `--encrypt`/`--no-encrypt` or its manifest
  ///   contradicts its keys; ``SyncError/wrongKey(_:what:)`` for a wrong passphrase.
  public func add(
    name: String, remote: any Remote, token: String?, answers: Answers
  ) throws -> Added {
    try checkFree(name)
    var added = Added(outcome: .joined, encrypted: false, location: remote.location)
    let manifest: RemoteManifest
    var dataKey: [UInt8]?
    if let folder = remote as? any CreatableRemote, try folder.existingManifest() == nil {
      let remoteID = UUIDText.random()
      var keys: RemoteKeys?
      if try wants(answers) {
        let made = try RemoteKeys.create(remoteID: remoteID, passphrase: answers.passphrase(true))
        (keys, dataKey, added.recoveryKey) = (made.keys, made.dataKey, made.recoveryKey)
      }
      manifest = try folder.create(
        remoteID: remoteID, minimumVersion: LifelogVersion.minimumWriter(encrypted: keys != nil),
        keys: keys)
      added.outcome = .created
    } else {
      manifest = try remote.manifest()  // checks the address and the token before keeping either
      if !manifest.encrypted, try remote.keys() != nil {
        // A manifest stripped of its "encrypted" mark must not make this machine push in clear.
        throw SyncError.encryptionMismatch(
          remote.location,
          reason:
            "says it is not encrypted but holds a key envelope: it may have been tampered with. "
            + "Nothing was written; check the remote before joining it")
      }
      if manifest.encrypted {
        if answers.encrypt == false {
          throw SyncError.encryptionMismatch(
            remote.location, reason: "is encrypted; join it without --no-encrypt")
        }
        dataKey = try RemoteSetup.unlock(remote, manifest: manifest, what: "passphrase") {
          try $0.dataKey(passphrase: answers.passphrase(false))
        }
      } else if remote is HTTPRemote, try RemoteSetup.isEmpty(remote), try wants(answers) {
        let made = try RemoteKeys.create(
          remoteID: manifest.remoteID, passphrase: answers.passphrase(true))
        try remote.putKeys(made.keys)
        (dataKey, added.recoveryKey) = (made.dataKey, made.recoveryKey)
        added.outcome = .created
      } else if answers.encrypt == true {
        throw SyncError.encryptionMismatch(
          remote.location,
          reason:
            "already holds unencrypted data, so it cannot be joined with --encrypt; "
            + "join it without --encrypt, or encrypt a new remote")
      }
    }
    try store.addRemote(
      name: name, url: remote.location, remoteID: manifest.remoteID, token: token,
      dataKey: dataKey)
    added.encrypted = dataKey != nil
    return added
  }

  /// Joins the encrypted `remote` with its recovery key (the passphrase is lost) and keeps it in
  /// the log as `name`.
  ///
  /// - Throws: as ``add(name:remote:token:answers:)``; an unencrypted remote is refused.
  public func recover(
    name: String, remote: any Remote, token: String?, recoveryKey: [UInt8]
  ) throws -> Added {
    try checkFree(name)
    let manifest = try remote.manifest()
    guard manifest.encrypted, try remote.keys() != nil else {
      throw SyncError.encryptionMismatch(
        remote.location, reason: "is not encrypted; join it with 'lifelog remote add'")
    }
    let dataKey = try RemoteSetup.unlock(remote, manifest: manifest, what: "recovery key") {
      try $0.dataKey(recoveryKey: recoveryKey)
    }
    try store.addRemote(
      name: name, url: remote.location, remoteID: manifest.remoteID, token: token,
      dataKey: dataKey)
    return Added(outcome: .joined, encrypted: true, location: remote.location)
  }

  /// - Throws: ``InputError`` when the log already has a remote named `name`: before the remote
  ///   is touched (``SyncStore/addRemote(name:url:remoteID:token:dataKey:)`` checks again).
  public func checkFree(_ name: String) throws {
    if try store.remote(named: name) != nil {
      throw InputError(
        "A remote named '\(name)' already exists; remove it first or pick another name")
    }
  }

  /// Whether a new remote is to be encrypted: as told, else as answered.
  private func wants(_ answers: Answers) throws -> Bool {
    try answers.encrypt ?? answers.wantsEncryption()
  }

  /// The data key of an encrypted remote, unwrapped by `open` from the remote's own key envelope:
  /// before anything else is read or written, so a wrong passphrase changes nothing.
  static func unlock(
    _ remote: any Remote, manifest: RemoteManifest, what: String,
    with open: (RemoteKeys) throws -> [UInt8]?
  ) throws -> [UInt8] {
    guard let keys = try remote.keys(), keys.remoteID == manifest.remoteID else {
      throw SyncError.remoteUnavailable(
        remote.location, reason: "it is encrypted but holds no key envelope of its own")
    }
    try Sodium.load()
    guard let dataKey = try open(keys) else {
      throw SyncError.wrongKey(remote.location, what: what)
    }
    return dataKey
  }

  /// Whether a server account holds no batch and no snapshot yet.
  static func isEmpty(_ remote: any Remote) throws -> Bool {
    let nobody = UUIDText.random()
    let page = try remote.pull(after: "", excluding: nobody, rowLimit: 1)
    var skipped = page.skipped
    return try page.batches.isEmpty
      && remote.snapshot(beyond: "", excluding: nobody, skipped: &skipped) == nil
      && skipped.isEmpty
  }
}
