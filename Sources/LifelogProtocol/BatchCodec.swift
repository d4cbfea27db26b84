import LifelogCore

/// Reads and writes batches and snapshots: JSON Lines, a header first, one line per row, and a
/// trailer with the SHA-256 of everything before it (docs/sync-protocol.md).
///
/// The trailer makes a truncated or damaged file fail to decode as a whole, so it is skipped and
/// fetched again later, never half-applied.
public enum BatchCodec {
  /// The format version written; a reader refuses anything newer.
  public static let format = 1

  /// What each field holds, per entity, in field order.
  static let fieldTypes: [SyncedEntity: [FieldType]] = [
    .entry: [
      .text, .time, .optionalInteger, .optionalText, .optionalReal, .tags, .optionalText, .flag,
    ],
    .activity: [.text, .text, .optionalText, .optionalText, .flag, .flag],
    .setting: [.text],
  ]

  enum FieldType { case text, optionalText, optionalInteger, optionalReal, flag, time, tags }

  public static func encode(_ batch: Batch) -> [UInt8] {
    var header = JSONObjectWriter()
    header.add("lifelog", batch.kind.rawValue)
    header.add("format", format)
    header.add("device", batch.device)
    header.add("seq", batch.seq)
    header.addRaw("created", String(batch.created))
    if batch.kind == .snapshot { header.addRaw("covers", batch.covers.json) }
    var bytes = Array((header.result + "\n").utf8)
    bytes.reserveCapacity(batch.changes.count * 320)
    for change in batch.changes {
      bytes.append(contentsOf: line(for: change).utf8)
      bytes.append(0x0A)
    }
    var trailer = JSONObjectWriter()
    trailer.add("end", true)
    trailer.add("changes", batch.changes.count)
    trailer.add("sha256", SHA256.hexDigest(bytes))
    bytes.append(contentsOf: (trailer.result + "\n").utf8)
    return bytes
  }

  /// One row as a JSON line: `{"entity":…,"id":…,"fields":{"note":["oatmeal","<stamp>"],…}}`.
  static func line(for change: RowChange) -> String {
    var fields = JSONObjectWriter()
    for (index, name) in change.entity.fields.enumerated() {
      fields.addRaw(
        name, "[" + json(change.values[index]) + "," + JSONText.quoted(change.stamps[index]) + "]")
    }
    var object = JSONObjectWriter()
    object.add("entity", change.entity.rawValue)
    object.add("id", change.id)
    object.addRaw("fields", fields.result)
    return object.result
  }

  static func json(_ value: FieldValue) -> String {
    switch value {
    case .null: "null"
    case .text(let text): JSONText.quoted(text)
    case .integer(let number): String(number)
    case .real(let number): JSONText.number(number)
    case .flag(let flag): flag ? "true" : "false"
    case .time(let time): JSONText.quoted(time.iso8601)
    case .tags(let tags): "[" + tags.map(JSONText.quoted).joined(separator: ",") + "]"
    }
  }

  /// Decodes and verifies a batch or snapshot.
  ///
  /// - Throws: ``BatchError`` when the file is truncated, fails its checksum, is of a newer format,
  ///   or holds a malformed row.
  public static func decode(_ bytes: [UInt8]) throws(BatchError) -> Batch {
    let (header, rows, count) = try frame(bytes)
    var batch = header
    batch.changes.reserveCapacity(count)
    for line in bytes[rows].split(separator: 0x0A) {
      batch.changes.append(try change(parse(line, what: "row")))
    }
    return batch
  }

  /// Verifies a batch or snapshot as a whole, without decoding its rows.
  ///
  /// It must end with a complete trailer line whose SHA-256 matches everything before it, its
  /// header must read (kind, format, device, seq, created, covers), and the trailer must count
  /// its row lines. Returns the header (no changes) and the row count.
  ///
  /// What a store that keeps the bytes and never merges them needs (`lifelog serve`): the rows
  /// are read, each one checked, by every client that pulls them (``decode(_:)``), as they are of
  /// a sealed batch, which no server can open. Every file that ``decode(_:)`` accepts passes; one
  /// that it refuses for a malformed row (under a checksum its writer computed) passes too.
  ///
  /// - Parameter hexDigest: the SHA-256 of the bytes it is given, as 64 lower-case hex digits:
  ///   ``SHA256/hexDigest(_:)`` unless the caller has a faster one (the server's, from OpenSSL).
  /// - Throws: ``BatchError``, the same one ``decode(_:)`` throws, for every other refusal.
  public static func verify(
    _ bytes: [UInt8], hexDigest: (ArraySlice<UInt8>) -> String = portableHexDigest
  ) throws(BatchError) -> (header: Batch, rows: Int) {
    let (header, _, count) = try frame(bytes, hexDigest: hexDigest)
    return (header, count)
  }

  /// ``SHA256/hexDigest(_:)`` of a slice: the checksum ``decode(_:)`` and ``verify(_:hexDigest:)``
  /// compute unless told otherwise.
  public static func portableHexDigest(_ bytes: ArraySlice<UInt8>) -> String {
    SHA256.hexDigest(Array(bytes))
  }

  /// The header of a verified file, where its row lines lie (not yet parsed), and how many there
  /// are.
  private static func frame(
    _ bytes: [UInt8], hexDigest: (ArraySlice<UInt8>) -> String = portableHexDigest
  ) throws(BatchError) -> (header: Batch, rows: Range<Int>, count: Int) {
    guard bytes.last == 0x0A else {
      throw .damaged("truncated: it does not end with a complete line")
    }
    let body = bytes.dropLast()
    guard let trailerStart = body.lastIndex(of: 0x0A).map({ $0 + 1 }) else {
      throw .damaged("truncated: no trailer line")
    }
    let trailer = try parse(bytes[trailerStart..<body.endIndex], what: "trailer")
    guard trailer["end"]?.bool == true, let digest = trailer["sha256"]?.string,
      let count = trailer["changes"]?.integer
    else { throw .damaged("truncated: no trailer line") }
    guard hexDigest(bytes[..<trailerStart]) == digest else {
      throw .damaged("its checksum does not match its contents")
    }
    let (first, rows) = lines(bytes, before: trailerStart)
    guard let first else { throw .damaged("no header line") }
    let batch = try header(parse(bytes[first], what: "header"))
    guard rows == count else {
      throw .damaged("the trailer counts \(count) rows but there are \(rows)")
    }
    return (batch, first.upperBound..<trailerStart, rows)
  }

  /// The first non-empty line of `bytes[..<end]` (the header) and how many non-empty lines follow
  /// it: the lines `split(separator: 0x0A)` gives, counted without making them.
  private static func lines(_ bytes: [UInt8], before end: Int) -> (first: Range<Int>?, rows: Int) {
    bytes.withUnsafeBufferPointer { buffer in
      var first: Range<Int>?
      var rows = 0
      var start = 0
      for index in 0..<min(end, buffer.count) where buffer[index] == 0x0A {
        if index > start {
          if first == nil { first = start..<index } else { rows += 1 }
        }
        start = index + 1
      }
      if end > start {
        if first == nil { first = start..<end } else { rows += 1 }
      }
      return (first, rows)
    }
  }

  /// Reads only the header line of a batch or snapshot (kind, device, seq, created, covers), without
  /// verifying the rest: enough to tell whether the whole file is worth decoding.
  public static func header(of bytes: [UInt8]) throws(BatchError) -> Batch {
    guard let end = bytes.firstIndex(of: 0x0A) else { throw .damaged("truncated: no header line") }
    return try header(parse(bytes[..<end], what: "header"))
  }

  private static func parse(_ line: ArraySlice<UInt8>, what: String) throws(BatchError) -> JSONValue
  {
    do {
      return try JSONValue.parse(line)
    } catch {
      throw .damaged("its \(what) is not valid JSON (\(error.message))")
    }
  }

  private static func header(_ json: JSONValue) throws(BatchError) -> Batch {
    guard let kindText = json["lifelog"]?.string, let kind = Batch.Kind(rawValue: kindText) else {
      throw .damaged("it is not a lifelog batch")
    }
    guard let version = json["format"]?.integer else { throw .damaged("its header has no format") }
    guard version <= format else { throw .newerFormat(Int(version)) }
    guard let device = json["device"]?.string, let seq = json["seq"]?.integer,
      let created = json["created"]?.integer
    else { throw .damaged("its header lacks device, seq or created") }
    guard WireRange.vectorSeq.contains(seq) else {
      throw .damaged("its header's seq is not a whole number from \(WireRange.vectorSeq)")
    }
    guard DeviceID.isValid(device) else {
      throw .damaged("its header names a device id that is not one (\(DeviceID.rule))")
    }
    var covers = VersionVector()
    if kind == .snapshot {
      do { covers = try VersionVector(json: json["covers"]) } catch {
        throw .damaged("its header's covers: \(error.message)")
      }
      // A key that is not a device id would end up in every later cursor (a server's token joins
      // devices with '_'), which the server then refuses: the whole snapshot is refused instead.
      guard covers.seqs.keys.allSatisfy(DeviceID.isValid) else {
        throw .damaged("its header's covers name a device id that is not one (\(DeviceID.rule))")
      }
    }
    return Batch(
      kind: kind, device: device, seq: Int(seq), created: created, covers: covers, changes: [])
  }

  private static func change(_ json: JSONValue) throws(BatchError) -> RowChange {
    guard let entityText = json["entity"]?.string, let entity = SyncedEntity(rawValue: entityText),
      let id = json["id"]?.string, !id.isEmpty, let fields = json["fields"],
      let types = fieldTypes[entity]
    else { throw .damaged("a row lacks its entity, id or fields") }
    var values: [FieldValue] = []
    var stamps = FieldStamps(count: entity.fields.count)
    for (index, name) in entity.fields.enumerated() {
      guard case .array(let pair)? = fields[name], pair.count == 2, let stamp = pair[1].string,
        stamp.isEmpty || Stamp.isValid(stamp), let value = value(pair[0], as: types[index])
      else { throw .damaged("row \(id) has a missing or malformed '\(name)'") }
      values.append(value)
      stamps[index] = stamp
    }
    return SyncedValues.checked(RowChange(entity: entity, id: id, values: values, stamps: stamps))
  }

  private static func value(_ json: JSONValue, as type: FieldType) -> FieldValue? {
    switch (type, json) {
    case (.optionalText, .null), (.optionalInteger, .null), (.optionalReal, .null): return .null
    case (.text, .string(let text)), (.optionalText, .string(let text)): return .text(text)
    // A number that is not a whole one within ±9e15 is out of range, like one beyond the
    // field's own range (``SyncedValues``): absent, not a damaged file. Any other type is damage.
    case (.optionalInteger, .number): return json.integer.map(FieldValue.integer) ?? .null
    case (.optionalReal, .number(let number)): return .real(number)
    case (.flag, .bool(let flag)): return .flag(flag)
    case (.time, .string(let text)): return (try? ISO8601Time.parse(text)).map(FieldValue.time)
    case (.tags, .array(let items)):
      let tags = items.compactMap(\.string)
      return tags.count == items.count ? .tags(tags) : nil
    default: return nil
    }
  }
}

/// Why a batch or snapshot could not be read.
public enum BatchError: Error, Equatable, CustomStringConvertible {
  /// Truncated, corrupt or malformed; read again next time in case it was still being copied.
  case damaged(String)
  /// Written by a newer lifelog in a format this one cannot read.
  case newerFormat(Int)

  public var description: String {
    switch self {
    case .damaged(let reason): reason
    case .newerFormat(let version):
      "it is in format \(version), newer than this lifelog reads; upgrade lifelog"
    }
  }
}
