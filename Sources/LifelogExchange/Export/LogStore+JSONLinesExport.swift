import LifelogCore

extension Entry {
  /// The entry as one JSON object, as `list --format json` shows it and `export --format jsonl`
  /// writes it a line each: id, activity, kind, at, then the optional fields, tags, source and
  /// whether it is deleted (a key per field, so `import` reads it back by name).
  public var jsonObject: String {
    var object = JSONObjectWriter()
    object.add("id", id)
    object.add("activity", activityName)
    object.add("kind", kind.rawValue)
    object.add("at", time.iso8601)
    object.add("duration", duration)
    object.add("note", note)
    object.add("quantity", quantity)
    object.add("unit", unit)
    object.add("tags", tags)
    object.add("source", source)
    object.add("deleted", deleted)
    return object.result
  }
}

extension LogStore {
  /// Writes the live entries a query selects (its range only; no limit) as JSON Lines, oldest
  /// first: one ``Entry/jsonObject`` per line, each ended by a line feed.
  ///
  /// `flush` receives the buffer whenever it holds at least `flushSize` bytes (always whole
  /// lines, so whole UTF-8 characters) and once at the end.
  ///
  /// - Returns: the number of entries written.
  @discardableResult
  public func exportJSONLines(
    from: Int64? = nil, to: Int64? = nil, flushSize: Int = 1 << 20, flush: ([UInt8]) throws -> Void
  ) throws -> Int {
    var buffer: [UInt8] = []
    buffer.reserveCapacity(flushSize)
    var count = 0
    try forEachEntry(EntryQuery(from: from, to: to)) { entry in
      buffer.append(contentsOf: entry.jsonObject.utf8)
      buffer.append(0x0A)
      count += 1
      if buffer.count >= flushSize {
        try flush(buffer)
        buffer.removeAll(keepingCapacity: true)
      }
    }
    try flush(buffer)
    return count
  }
}
