/// A compiled gettext catalog (a `.mo` file, as `msgfmt` writes it), read into a table.
///
/// The format (GNU gettext manual, "The Format of GNU MO Files"): a magic number that also gives
/// the byte order, the number of strings, and two tables of (length, offset) pairs, originals
/// and translations. A message with a context is stored as `context` U+0004 `msgid`; a plural
/// message as `msgid` NUL `msgid_plural`, its translations NUL-separated, one per form. The
/// empty msgid's translation is the header, whose `Plural-Forms` gives ``plural``.
///
/// Every offset and length is checked against the data: a damaged file is an error, never a trap.
public struct MessageCatalog: Sendable {
  /// The translations by original (the singular msgid, after its context), each with its forms.
  private let messages: [String: [String]]
  /// How the catalog picks a plural form.
  public let plural: PluralRule

  /// A catalog that translates nothing: English.
  public static let identity = MessageCatalog(messages: [:], plural: .english)

  private init(messages: [String: [String]], plural: PluralRule) {
    self.messages = messages
    self.plural = plural
  }

  /// Reads a `.mo` file's bytes.
  ///
  /// - Throws: ``InputError`` when they are not a catalog or point outside themselves.
  public init(mo bytes: [UInt8]) throws(InputError) {
    guard bytes.count >= 28, bytes.count <= 1 << 24 else {
      throw InputError("A message catalog must be 28 bytes to 16 MiB")
    }
    let littleEndian: Bool
    switch (bytes[0], bytes[1], bytes[2], bytes[3]) {
    case (0xDE, 0x12, 0x04, 0x95): littleEndian = true
    case (0x95, 0x04, 0x12, 0xDE): littleEndian = false
    default: throw InputError("Not a message catalog (.mo): its magic number is wrong")
    }
    func word(_ at: Int) throws(InputError) -> Int {
      guard at >= 0, at + 4 <= bytes.count else {
        throw InputError("The message catalog is cut short")
      }
      let b = bytes[at..<at + 4].map { UInt32($0) }
      let value =
        littleEndian
        ? b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24 : b[3] | b[2] << 8 | b[1] << 16 | b[0] << 24
      return Int(value)
    }
    // Every string read is copied: a catalog whose entries all point at the same few megabytes
    // would copy them once per entry. Real catalogs hold each string once, so what is read is
    // at most the catalog's size.
    var budget = bytes.count
    func string(table: Int, entry: Int) throws(InputError) -> [UInt8] {
      let length = try word(table + entry * 8)
      let offset = try word(table + entry * 8 + 4)
      guard offset <= bytes.count, length <= bytes.count - offset else {
        throw InputError("The message catalog points outside itself")
      }
      guard length <= budget else {
        throw InputError("The message catalog's strings overlap: they add up to more than the file")
      }
      budget -= length
      return Array(bytes[offset..<offset + length])
    }
    guard try word(4) >> 16 <= 1 else {
      throw InputError("The message catalog has a format revision lifelog cannot read")
    }
    let count = try word(8)
    let originals = try word(12)
    let translations = try word(16)
    guard count <= bytes.count / 8 else { throw InputError("The message catalog is cut short") }
    var messages: [String: [String]] = [:]
    var header = ""
    for entry in 0..<count {
      let original = try string(table: originals, entry: entry)
      let translated = try string(table: translations, entry: entry)
      let key =
        original.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
        .first ?? []
      // At most as many forms as a plural rule may have: a string of a million NULs is not a
      // million forms.
      let forms = translated.split(
        separator: 0, maxSplits: PluralRule.maximumForms, omittingEmptySubsequences: false
      ).prefix(PluralRule.maximumForms).map { String(decoding: $0, as: UTF8.self) }
      if key.isEmpty {
        header = forms.first ?? ""
      } else {
        messages[String(decoding: key, as: UTF8.self)] = forms
      }
    }
    var plural = PluralRule.english
    for line in header.split(separator: "\n") where line.hasPrefix("Plural-Forms:") {
      plural = try PluralRule(header: String(line.dropFirst("Plural-Forms:".count)))
    }
    self.init(messages: messages, plural: plural)
  }

  /// The translation of `message` (in `context`, when given), or `message` itself.
  public func text(_ message: String, context: String? = nil) -> String {
    guard !messages.isEmpty else { return message }
    let key = context.map { $0 + "\u{4}" + message } ?? message
    guard let form = messages[key]?.first, !form.isEmpty else { return message }
    return form
  }

  /// The form of a plural message for `count`: `singular` or `plural` when untranslated.
  public func plural(_ singular: String, _ plural: String, count: Int) -> String {
    let forms = messages[singular] ?? []
    let form = self.plural.form(for: count)
    guard form < forms.count, !forms[form].isEmpty else { return count == 1 ? singular : plural }
    return forms[form]
  }

  /// How many messages the catalog translates (the header not counted).
  public var count: Int { messages.count }
}
