import LifelogCore

/// Which column of a sheet holds which field of an entry: `--map at=Data+Godzina
/// --map activity=Posiłek --map note="Co zjadłem"`.
///
/// A column is named by its header (any case) or by its letter (`B`); `+` joins a date column
/// and a time column into one `at`.
public struct SheetMapping: Sendable, Equatable {
  /// The entry fields a column can fill.
  public enum Field: String, CaseIterable, Sendable {
    case at, activity, kind, duration, note, quantity, unit, tags

    public static let list = allCases.map(\.rawValue).joined(separator: ", ")
  }

  /// A field and the columns (as written) it comes from.
  public private(set) var columns: [Field: [String]] = [:]
  /// The order the fields were given in, for ``text``.
  public private(set) var order: [Field] = []

  public init() {}

  /// Reads the `--map` values.
  public init(parsing values: [String]) throws(InputError) {
    for value in values { try add(value) }
  }

  /// Adds one `field=Column` or `at=Date+Time`.
  public mutating func add(_ value: String) throws(InputError) {
    guard let equals = value.firstIndex(of: "=") else {
      throw InputError(
        "Cannot read mapping '\(value)'; write it as field=Column, as in 'at=Data+Godzina' or "
          + "'note=C'")
    }
    let name = value[..<equals].trimmingSpaces().lowercased()
    guard let field = Field(rawValue: name) else {
      throw InputError("Unknown field '\(name)' in --map; the fields are \(Field.list)")
    }
    let names = value[value.index(after: equals)...].split(
      separator: "+", omittingEmptySubsequences: false
    ).map { $0.trimmingSpaces() }
    guard !names.contains(where: \.isEmpty), names.count <= (field == .at ? 2 : 1) else {
      throw InputError(
        "Mapping '\(value)' names \(field == .at ? "one column, or a date and a time column joined by '+'" : "one column")"
      )
    }
    guard columns[field] == nil else { throw InputError("'\(name)' is mapped twice; keep one") }
    columns[field] = names
    order.append(field)
  }

  public mutating func set(_ field: Field, _ names: [String]) {
    if columns[field] == nil { order.append(field) }
    columns[field] = names
  }

  public var isEmpty: Bool { columns.isEmpty }

  /// The mapping as `--map` options, ready to paste (`--map note="Co zjadłem"`).
  public var text: String {
    order.map { field in
      let value = columns[field, default: []].joined(separator: "+")
      let quoted = value.contains(where: { " \"'$`\\;&|<>()*?!#".contains($0) })
      return "--map \(field.rawValue)=" + (quoted ? Self.shellQuoted(value) : value)
    }.joined(separator: " ")
  }

  /// Double quotes unless the text holds what they would not protect.
  private static func shellQuoted(_ text: String) -> String {
    text.contains(where: { "\"$`\\".contains($0) })
      ? "'" + text.replacing("'", with: "'\\''") + "'" : "\"\(text)\""
  }

  /// The column indexes of each field in a sheet with `header`.
  ///
  /// - Throws: ``InputError`` naming a column the header does not have.
  public func resolved(header: [String]) throws(InputError) -> [Field: [Int]] {
    let keys = header.map { $0.trimmingSpaces().lowercased() }
    var result: [Field: [Int]] = [:]
    for (field, names) in columns {
      result[field] = try names.map { name throws(InputError) in
        if let index = keys.firstIndex(of: name.lowercased()) { return index }
        if let index = ColumnLetters.index(name), index < max(header.count, 1) { return index }
        let shown = SheetNameList.joined(header.indices) {
          ColumnLetters.name($0) + " " + SheetNameList.quoted(header[$0])
        }
        throw InputError(
          "The sheet has no column \(SheetNameList.quoted(name)) (for \(field.rawValue)); its "
            + "columns are \(shown)")
      }
    }
    return result
  }
}
