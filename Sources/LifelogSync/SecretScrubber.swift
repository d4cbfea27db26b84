/// Keeps a remote's secret (a bearer token, a WebDAV password) out of what lifelog prints and
/// stores: a server's error words, a redirect's `Location`, the outcome kept in `last_outcome`.
///
/// A server may echo the request back, whole or in part, to anyone's terminal, a cron mail or a
/// log. So any piece of 8 or more bytes of a secret counts as the secret, in each form it travels
/// in: as typed, percent-encoded as in a URL's `user:password@`, and in base64, alone and as
/// basic authentication's `user:password`. A secret shorter than 8 bytes counts only as a word of
/// its own, so a short one ("t") is not found in every word that holds its letters.
///
/// Text is checked whole, before it is cut to a length or filtered to printable bytes, and what
/// is shown is checked again (dropping bytes can join two halves). One scrubber serves every path
/// a server's words take: the HTTP remote and WebDAV, over libcurl or the plain socket client.
public struct SecretScrubber: Sendable {
  /// The shortest piece of a secret that counts as the secret.
  public static let pieceLength = 8
  /// What stands in for words that quote the credentials.
  public static let withheld = "(its words are left out: they quote the credentials)"

  /// A scrubber with no secret: it finds nothing.
  public static let none = SecretScrubber(secrets: [])

  /// Every 8-byte piece of every form of every long secret, as a big-endian integer.
  private let pieces: Set<UInt64>
  /// The forms of the secrets shorter than ``pieceLength``.
  private let shortForms: [[UInt8]]

  /// - Parameters:
  ///   - secrets: the token or password (empty ones are ignored).
  ///   - user: the user name of basic authentication, whose header encodes `user:password`.
  public init(secrets: [String], user: String? = nil) {
    // Each form with how many of its leading bytes tell nothing of the secret.
    var forms: [(bytes: [UInt8], public: Int)] = []
    for secret in secrets where !secret.isEmpty {
      let bytes = Array(secret.utf8)
      forms.append((bytes, 0))
      forms.append((SecretScrubber.percentEncoded(bytes), 0))
      forms.append((Array(Base64.encode(bytes).utf8), 0))
      if let user {
        // The leading base64 digits that encode only `user:` are no piece of the password.
        let prefix = user.utf8.count + 1
        forms.append((Array(Base64.encode(Array((user + ":" + secret).utf8)).utf8), prefix * 8 / 6))
      }
    }
    var pieces: Set<UInt64> = []
    var shortForms: [[UInt8]] = []
    let length = SecretScrubber.pieceLength
    for (form, known) in forms {
      guard form.count >= length else {
        if !shortForms.contains(form) { shortForms.append(form) }
        continue
      }
      for start in 0...(form.count - length) where start + length > known {
        pieces.insert(SecretScrubber.piece(form, at: start))
      }
    }
    self.pieces = pieces
    self.shortForms = shortForms
  }

  /// Whether `bytes` hold a piece of a secret.
  public func reveals(_ bytes: [UInt8]) -> Bool { !spans(bytes, first: true).isEmpty }

  /// Whether `text` holds a piece of a secret.
  public func reveals(_ text: String) -> Bool { reveals(Array(text.utf8)) }

  /// `text` with every stretch that is part of a secret replaced by `[withheld]`.
  public func scrubbed(_ text: String) -> String {
    let bytes = Array(text.utf8)
    let found = spans(bytes, first: false)
    guard !found.isEmpty else { return text }
    var covered = [Bool](repeating: false, count: bytes.count)
    for span in found { for index in span { covered[index] = true } }
    var out: [UInt8] = []
    var index = 0
    while index < bytes.count {
      if covered[index] {
        out += Array("[withheld]".utf8)
        while index < bytes.count, covered[index] { index += 1 }
      } else {
        out.append(bytes[index])
        index += 1
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// A server's words as a message may show them: the printable ASCII of `raw`, at most `limit`
  /// bytes of it; nil when `raw` as a whole, or what would be shown, holds a piece of a secret.
  public func shown(
    _ raw: [UInt8], limit: Int, printable: ClosedRange<UInt8> = 0x20...0x7E
  ) -> String? {
    guard !reveals(raw) else { return nil }
    let shown = Array(raw.filter { printable.contains($0) }.prefix(max(0, limit)))
    return reveals(shown) ? nil : String(decoding: shown, as: UTF8.self)
  }

  // MARK: - Matching

  /// The byte ranges of `bytes` that are pieces of a secret (only the first when `first`).
  private func spans(_ bytes: [UInt8], first: Bool) -> [Range<Int>] {
    var found: [Range<Int>] = []
    let length = SecretScrubber.pieceLength
    if !pieces.isEmpty, bytes.count >= length {
      var window: UInt64 = 0
      for index in bytes.indices {
        window = window << 8 | UInt64(bytes[index])
        guard index >= length - 1, pieces.contains(window) else { continue }
        found.append((index + 1 - length)..<(index + 1))
        if first { return found }
      }
    }
    for form in shortForms where bytes.count >= form.count {
      for start in 0...(bytes.count - form.count)
      where bytes[start..<start + form.count].elementsEqual(form) {
        let end = start + form.count
        let before = start == 0 || !SecretScrubber.isWordByte(bytes[start - 1])
        let after = end == bytes.count || !SecretScrubber.isWordByte(bytes[end])
        guard before && after else { continue }
        found.append(start..<end)
        if first { return found }
      }
    }
    return found
  }

  private static func piece(_ bytes: [UInt8], at start: Int) -> UInt64 {
    var value: UInt64 = 0
    for byte in bytes[start..<start + pieceLength] { value = value << 8 | UInt64(byte) }
    return value
  }

  private static func isWordByte(_ byte: UInt8) -> Bool {
    (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
      || (byte >= 0x61 && byte <= 0x7A) || byte >= 0x80
  }

  /// `bytes` as a URL's user information writes them: unreserved characters as they are, every
  /// other byte as `%XX`.
  private static func percentEncoded(_ bytes: [UInt8]) -> [UInt8] {
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    for byte in bytes {
      switch byte {
      case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"):
        out.append(byte)
      default: out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
      }
    }
    return out
  }
}
