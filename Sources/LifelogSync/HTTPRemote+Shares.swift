import LifelogCore
import LifelogProtocol

/// A report sealed for sharing: a fresh random key that only the link carries, and the bytes the
/// server keeps (docs/web.md, "For your doctor").
public struct SealedReport: Sendable {
  public var key: [UInt8]
  public var bytes: [UInt8]

  /// Seals `report` for the share `id`: the 24-byte random nonce, then the XChaCha20-Poly1305
  /// (IETF) ciphertext and tag, with `lifelog-share\n<id>` as associated data, so the bytes open
  /// only as that share.
  public init(report: [UInt8], id: String) throws(SyncError) {
    try Sodium.load()
    key = Sodium.random(Sodium.keyBytes)
    let nonce = Sodium.random(Sodium.nonceBytes)
    bytes = Sodium.seal(
      report, associated: Array("lifelog-share\n\(id)".utf8), nonce: nonce, key: key)
  }

  /// The report inside `bytes`, or nil when it does not open.
  ///
  /// - Throws: ``SyncError`` when libsodium cannot be loaded.
  public static func open(_ bytes: [UInt8], id: String, key: [UInt8]) throws(SyncError) -> [UInt8]?
  {
    try Sodium.load()
    return Sodium.open(bytes[...], associated: Array("lifelog-share\n\(id)".utf8), key: key)
  }
}

/// Shared reports on `lifelog serve` (docs/http-api.md, "Shares").
extension HTTPRemote {
  public func putShare(
    id: String, bytes: [UInt8], from: String, to: String, expires: Int64, passcode: String?
  ) throws(SyncError) {
    var headers = [
      (APIHeader.shareExpires, String(expires)), (APIHeader.shareFrom, from),
      (APIHeader.shareTo, to),
    ]
    if let passcode { headers.append((APIHeader.sharePasscode, passcode)) }
    let response = try transport.send(
      "PUT", APIPath.share(id), body: bytes, contentType: ContentType.keyEnvelope,
      headers: headers)
    guard response.status == 201 else { throw refused(response, doing: "keep the report") }
  }

  /// The account's shared reports (``ShareListBody``), newest first.
  public func sharedReports() throws(SyncError) -> [ShareSummary] {
    try fetch(APIPath.shares, doing: "list its shares", ShareListBody.init(parsing:)).shares
  }

  /// Revokes a share; false when the server knows none of that id.
  public func revokeShare(id: String) throws(SyncError) -> Bool {
    try delete(APIPath.share(id), doing: "revoke '\(id)'")
  }
}
