import LifelogCore

/// Turns a remote's address into the remote that serves it: the one place that knows which
/// addresses are folders and which are servers.
public enum RemoteAddress {
  /// The end of a request without a deadline: far off, yet far from overflowing when the
  /// transport adds the time left to the clock.
  static let unbounded = Int64.max / 4

  /// - Parameters:
  ///   - url: a folder path, `file:///path`, `http(s)://host:port` (a `lifelog serve` server) or
  ///     `dav(s)://host/path` (a WebDAV folder).
  ///   - token: what ``RemoteCredentials/kept(_:url:)`` gave: the server's bearer token, a
  ///     WebDAV account's kept form (``RemoteCredentials/Account``), nil for a folder.
  ///   - caFile: certificates to trust for a private server (`LIFELOG_CA_FILE`).
  ///   - deadline: the end of every request to a server, retries included; a folder remote is
  ///     bounded by the engine's checks of the same deadline between its reads.
  ///   - envelope: how the remote's batches are stored (``RemoteRecord/envelope``).
  /// - Throws: ``InputError`` for an address that is neither (exit 65), ``SyncError`` for a
  ///   folder address that cannot be used.
  public static func open(
    _ url: String, token: String?, caFile: String? = nil, deadline: Deadline,
    envelope: BatchEnvelope = .plain
  ) throws -> any Remote {
    let remote: any Remote
    if DAVRemote.handles(url) {
      guard let account = token.flatMap(RemoteCredentials.Account.init(kept:)) else {
        throw InputError("The WebDAV remote '\(url)' has no user name and password kept")
      }
      remote = try DAVRemote(
        url: url, user: account.user, password: account.password, caFile: caFile,
        deadline: deadline.end ?? unbounded)
    } else if HTTPRemote.handles(url) {
      remote = HTTPRemote(
        url: url, token: token, caFile: caFile, deadline: deadline.end ?? unbounded)
    } else if url.contains("://"), !url.hasPrefix("file://") {
      throw InputError(
        "Cannot use '\(url)' as a remote; give a folder path, file:///path, http(s)://host:port "
          + "or dav(s)://host/path")
    } else {
      remote = try FileRemote(url: url)
    }
    remote.envelope = envelope
    return remote
  }
}
