/// The guard against CSV (formula) injection, as OWASP's "CSV Injection" page advises: a text
/// field that a spreadsheet would read as a formula (it begins with `=`, `+`, `-`, `@`, a tab, a
/// carriage return or a line feed) is written quoted, with a `'` in front, which spreadsheets take
/// as "this is text".
///
/// The rule is one to one, so `import` gives back exactly what `export` had: a value is guarded
/// when it is any number of `'` followed by one of those characters (so `'=x` is written `''=x`),
/// and a field read back loses one `'` when it is one or more `'` followed by one of them. A field
/// no guard made never has that shape unless someone typed it, and then a spreadsheet would show
/// it without its first `'` too.
public enum FormulaGuard {
  /// The bytes that make a spreadsheet read a field as a formula when they come first.
  static func startsFormula(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D,
      0x0A:
      return true
    default: return false
    }
  }

  /// Whether `text` needs the guard: `'`s (none or more), then a byte that starts a formula.
  public static func isGuarded(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = text.firstIndex(where: { $0 != UInt8(ascii: "'") }) else { return false }
    return startsFormula(text[first])
  }

  /// `field` as it was before the guard: one leading `'` fewer when it is one or more `'`
  /// followed by a byte that starts a formula; else as it is.
  public static func unguarded(_ field: String) -> String {
    guard field.utf8.first == UInt8(ascii: "'") else { return field }
    var field = field
    let guarded = field.withUTF8 { isGuarded($0) }
    return guarded ? String(field.unicodeScalars.dropFirst()) : field
  }
}
