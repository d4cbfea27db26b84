@preconcurrency import Glibc
import LifelogCore

/// One folder of a folder remote, held open, whose files are read and written without following
/// links (docs/sync-protocol.md §4).
///
/// A remote folder is shared with other machines and file-syncing tools, so anything in it may be
/// hostile: a batch that is a symbolic link to `/dev/zero`, a FIFO named like a batch, a
/// `devices/<own id>` that links to a folder elsewhere. Every name is opened relative to its
/// folder's descriptor (`openat`) with `O_NOFOLLOW`, so a link is refused wherever it is below
/// the root, and no path is looked up twice. A file must be a regular file (checked with `fstat`
/// on what was opened, which was opened `O_NONBLOCK` so a FIFO cannot block) and is read up to a
/// size cap. Only the root itself may be a link: the user chose that path.
///
/// Files are written `0600` and folders `0700` whatever the umask: the remote holds the whole log.
final class RemoteFolder {
  let descriptor: Int32
  /// The folder's path, for messages.
  let path: String

  private init(descriptor: Int32, path: String) {
    self.descriptor = descriptor
    self.path = path
  }

  deinit { close(descriptor) }

  /// The remote's root folder, or nil when it does not exist.
  static func root(_ path: String) throws(RemoteFileError) -> RemoteFolder? {
    let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT { return nil }
      if errno == ENOTDIR { throw RemoteFileError(.notAFolder, path) }
      throw RemoteFileError.system(path, "cannot open")
    }
    return RemoteFolder(descriptor: descriptor, path: path)
  }

  private func child(_ name: String) -> String { path + "/" + name }

  /// The folder `name` in this one, or nil when there is none; a link or a file there is refused.
  func folder(_ name: String) throws(RemoteFileError) -> RemoteFolder? {
    let opened = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard opened >= 0 else {
      if errno == ENOENT { return nil }
      throw classify(name, "cannot open")
    }
    return RemoteFolder(descriptor: opened, path: child(name))
  }

  /// The folder `name` in this one, created (`0700`) when missing.
  func makeFolder(_ name: String) throws(RemoteFileError) -> RemoteFolder {
    if mkdirat(descriptor, name, 0o700) == 0 {
      let folder = try folder(name)
      guard let folder else { throw RemoteFileError.system(child(name), "cannot create folder") }
      fchmod(folder.descriptor, 0o700)
      fsync(descriptor)  // the new entry in this folder, not every file system (sync(2))
      return folder
    }
    guard errno == EEXIST else { throw RemoteFileError.system(child(name), "cannot create folder") }
    guard let folder = try folder(name) else {
      throw RemoteFileError.system(child(name), "cannot create folder")
    }
    return folder
  }

  /// What `name` is, without following a link; nil when it does not exist.
  func kind(of name: String) -> mode_t? {
    var info = stat()
    guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
    return info.st_mode & S_IFMT
  }

  /// Why opening `name` failed: a link, not a folder, or errno's reason.
  private func classify(_ name: String, _ what: String) -> RemoteFileError {
    let error = RemoteFileError.system(child(name), what)
    switch kind(of: name) {
    case S_IFLNK?: return RemoteFileError(.link, child(name))
    case S_IFDIR?, nil: return error
    default: return RemoteFileError(.notAFolder, child(name))
    }
  }

  // MARK: - Reading

  /// The whole file `name`, or nil when it does not exist; at most `limit` bytes.
  func read(_ name: String, limit: Int) throws(RemoteFileError) -> [UInt8]? {
    try read(name, limit: limit, stoppingAfterNewline: false)
  }

  /// The first line of file `name`, newline included (all of it when it has none), or nil when it
  /// does not exist: a batch's header, without reading the rows after it.
  func readFirstLine(_ name: String, limit: Int) throws(RemoteFileError) -> [UInt8]? {
    try read(name, limit: limit, stoppingAfterNewline: true)
  }

  private func read(
    _ name: String, limit: Int, stoppingAfterNewline: Bool
  ) throws(RemoteFileError) -> [UInt8]? {
    let opened = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard opened >= 0 else {
      if errno == ENOENT { return nil }
      if errno == ELOOP { throw RemoteFileError(.link, child(name)) }
      throw RemoteFileError.system(child(name), "cannot read")
    }
    defer { close(opened) }
    var info = stat()
    guard fstat(opened, &info) == 0 else {
      throw RemoteFileError.system(child(name), "cannot read")
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw RemoteFileError(info.st_mode & S_IFMT == S_IFDIR ? .folder : .notRegular, child(name))
    }
    guard stoppingAfterNewline || info.st_size <= limit else {
      throw RemoteFileError(.tooLarge(limit), child(name))
    }
    return try FileSystem.readAll(
      opened, path: child(name), limit: limit, stoppingAfterNewline: stoppingAfterNewline,
      expected: stoppingAfterNewline ? 0 : Int(clamping: info.st_size))
  }

  /// The most names read from one folder of a remote.
  ///
  /// A real remote holds far fewer: one folder
  /// per device, snapshots a few per device, and at most about 500 batches per device before
  /// compaction. A hostile folder of millions of files would otherwise cost memory and time
  /// without bound (docs/sync-protocol.md §4).
  static let nameLimit = 100_000

  /// The names in this folder, but `.` and `..`; throws once there are more than `limit`.
  func list(limit: Int = RemoteFolder.nameLimit) throws(RemoteFileError) -> [String] {
    // A descriptor of its own: readdir moves the offset, which a dup would share.
    let opened = openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard opened >= 0, let directory = fdopendir(opened) else {
      if opened >= 0 { close(opened) }
      throw RemoteFileError.system(path, "cannot list")
    }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafePointer(to: entry.pointee.d_name) {
        $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
      }
      if name != ".", name != ".." {
        guard names.count < limit else { throw RemoteFileError(.tooManyNames(limit), path) }
        names.append(name)
      }
    }
    return names
  }

  // MARK: - Writing

  /// Writes file `name` so readers see either nothing or all of it: a temporary name in the same
  /// folder, flushed to disk, then renamed into place (replacing a link there, never its target).
  func writeAtomically(_ name: String, _ bytes: [UInt8]) throws(RemoteFileError) {
    let temporary = ".tmp-" + UUIDHex.random() + ".part"
    try writeNew(temporary, bytes)
    guard renameat(descriptor, temporary, descriptor, name) == 0 else {
      let error = RemoteFileError.system(child(name), "cannot rename into place")
      unlinkat(descriptor, temporary, 0)
      throw error
    }
    sync()
  }

  /// Writes file `name` only when it does not exist yet, even against another machine writing the
  /// same name at once: written whole under a temporary name, then hard-linked into place.
  ///
  /// - Returns: false when the name was taken.
  func writeExclusively(_ name: String, _ bytes: [UInt8]) throws(RemoteFileError) -> Bool {
    let temporary = ".tmp-" + UUIDHex.random() + ".link"
    try writeNew(temporary, bytes)
    defer { unlinkat(descriptor, temporary, 0) }
    if linkat(descriptor, temporary, descriptor, name, 0) == 0 {
      sync()
      return true
    }
    if errno == EEXIST { return false }
    throw RemoteFileError.system(child(name), "cannot link into place")
  }

  /// A new file, `0600`, written and flushed.
  private func writeNew(_ name: String, _ bytes: [UInt8]) throws(RemoteFileError) {
    let opened = openat(
      descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard opened >= 0 else { throw RemoteFileError.system(child(name), "cannot create") }
    fchmod(opened, 0o600)  // the umask may have taken more bits than asked; never fewer than this
    guard DescriptorWrite.all(bytes, to: opened) else {
      let error = RemoteFileError.system(child(name), "cannot write")
      close(opened)
      unlinkat(descriptor, name, 0)
      throw error
    }
    let flushed = fsync(opened) == 0
    guard close(opened) == 0, flushed else {
      let error = RemoteFileError.system(child(name), "cannot flush")
      unlinkat(descriptor, name, 0)
      throw error
    }
  }

  /// Removes file `name` of this folder (a link there is removed, not its target).
  func remove(_ name: String) {
    unlinkat(descriptor, name, 0)
  }

  /// Flushes the folder's entries (a rename or a new file) to disk.
  func sync() {
    fsync(descriptor)
  }
}

/// Why a file or folder of a remote could not be used.
struct RemoteFileError: Error, CustomStringConvertible {
  enum Kind: Equatable {
    /// A symbolic link where a file or folder was expected: never followed.
    case link
    /// A folder where a file was expected.
    case folder
    /// A FIFO, socket or device where a file was expected.
    case notRegular
    /// Something else where a folder was expected.
    case notAFolder
    /// Larger than the cap (bytes).
    case tooLarge(Int)
    /// A folder holding more names than the cap.
    case tooManyNames(Int)
    /// `what` failed, for errno's `reason`.
    case system(what: String, reason: String)
  }

  let kind: Kind
  let path: String

  init(_ kind: Kind, _ path: String) {
    self.kind = kind
    self.path = path
  }

  /// `what` failed on `path`, with errno's reason.
  static func system(_ path: String, _ what: String) -> RemoteFileError {
    RemoteFileError(.system(what: what, reason: String(cString: strerror(errno))), path)
  }

  var description: String {
    switch kind {
    case .link: "'\(path)' is a symbolic link; lifelog never follows links inside a remote"
    case .folder: "'\(path)' is a folder, not a file"
    case .notRegular: "'\(path)' is not a regular file (a FIFO, socket or device)"
    case .notAFolder: "'\(path)' is not a folder"
    case .tooLarge(let limit):
      "'\(path)' is larger than the \(limit) bytes lifelog reads from such a file"
    case .tooManyNames(let limit):
      "'\(path)' holds more than \(limit) names, more than lifelog lists in a remote folder"
    case .system(let what, let reason): "\(what) '\(path)' (\(reason))"
    }
  }
}
