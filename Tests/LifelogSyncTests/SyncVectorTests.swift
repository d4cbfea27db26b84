import Foundation
import LifelogCore
import LifelogProtocol
import Testing

@testable import LifelogSync

/// The batch codec, the merge rule, the clock and activity ids against the JSON vectors in
/// Tests/Fixtures/sync-vectors/, which the web app's core reads too (`node --test Web/test/`):
/// the two implementations cannot drift apart unnoticed.
@Suite struct SyncVectorTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/sync-vectors")

  static func vectors(_ name: String, key: String = "vectors") throws -> [[String: Any]] {
    let data = try Data(contentsOf: folder.appendingPathComponent(name))
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    return object?[key] as? [[String: Any]] ?? []
  }

  @Test func batchesDecodeAsTheVectorsSay() throws {
    let all = try Self.vectors("codec.json")
    #expect(all.count > 10)
    for vector in all {
      let name = vector["name"] as? String ?? ""
      let bytes = Array((vector["text"] as? String ?? "").utf8)
      guard vector["valid"] as? Bool == true else {
        #expect(throws: BatchError.self, "\(name)") { try BatchCodec.decode(bytes) }
        continue
      }
      let batch = try BatchCodec.decode(bytes)
      let expected = vector["expected"] as? [String: Any] ?? [:]
      #expect(batch.kind.rawValue == expected["kind"] as? String, "\(name)")
      #expect(batch.device == expected["device"] as? String)
      #expect(batch.seq == expected["seq"] as? Int)
      #expect(batch.created == (expected["created"] as? NSNumber)?.int64Value)
      #expect(batch.covers.seqs == expected["covers"] as? [String: Int] ?? [:])
      let changes = expected["changes"] as? [[String: Any]] ?? []
      #expect(batch.changes.count == changes.count, "\(name)")
      for (change, want) in zip(batch.changes, changes) {
        #expect(change.entity.rawValue == want["entity"] as? String)
        #expect(change.id == want["id"] as? String)
        #expect(change.stamps.stamps == want["stamps"] as? [String])
        #expect(change.values.map(Self.json) == (want["values"] as? [Any] ?? []).map(Self.json))
      }
    }
  }

  @Test func rowsMergePerFieldByTheLargerStamp() throws {
    for vector in try Self.vectors("merge.json") {
      let incoming = Self.row(vector["incoming"])
      let merged = RowCodec.merge(incoming!, into: Self.row(vector["existing"]))
      let expected = Self.row(vector["expected"])
      #expect(merged?.values == expected?.values, "\(vector["name"] ?? "")")
      #expect(merged?.stamps == expected?.stamps, "\(vector["name"] ?? "")")
    }
  }

  @Test func theClockTicksAndObservesUnderTheClockRule() throws {
    for vector in try Self.vectors("clock.json") {
      let start = vector["clock"] as? [String: Any] ?? [:]
      var clock = HybridClock(
        milliseconds: (start["ms"] as? NSNumber)?.int64Value ?? 0,
        counter: start["counter"] as? Int ?? 0)
      let wall = (vector["wall"] as? NSNumber)?.int64Value ?? 0
      if vector["op"] as? String == "tick" {
        _ = clock.tick(wall: wall)
      } else {
        clock.observe(vector["stamp"] as? String ?? "", wall: wall)
      }
      let expected = vector["expected"] as? [String: Any] ?? [:]
      #expect(
        clock.milliseconds == (expected["ms"] as? NSNumber)?.int64Value, "\(vector["name"] ?? "")")
      #expect(clock.counter == expected["counter"] as? Int, "\(vector["name"] ?? "")")
    }
    for vector in try Self.vectors("clock.json", key: "stamps") {
      let stamp = Stamp.make(
        milliseconds: (vector["ms"] as? NSNumber)?.int64Value ?? 0,
        counter: vector["counter"] as? Int ?? 0, device: vector["device"] as? String ?? "")
      #expect(stamp == vector["stamp"] as? String)
    }
  }

  @Test func activityIDsAreDerivedFromNames() throws {
    for vector in try Self.vectors("activity.json") {
      let id = ActivityName.derivedID(
        for: vector["name"] as? String ?? "", attempt: vector["attempt"] as? Int ?? 0)
      #expect(id == vector["id"] as? String, "\(vector["name"] ?? "")")
    }
  }

  /// A merge vector's `{values, stamps}` as a row (the values as text: merging never reads them).
  static func row(_ object: Any?) -> RowChange? {
    guard let object = object as? [String: Any], let stamps = object["stamps"] as? [String],
      let values = object["values"] as? [Any]
    else { return nil }
    var fieldStamps = FieldStamps(count: stamps.count)
    for (index, stamp) in stamps.enumerated() { fieldStamps[index] = stamp }
    return RowChange(
      entity: .setting, id: "vector", values: values.map { .text(json($0)) }, stamps: fieldStamps)
  }

  /// A value in one spelling for both sides: a decoded field, or a value of the JSON file.
  static func json(_ value: Any) -> String {
    switch value {
    case let value as FieldValue:
      switch value {
      case .null: return "null"
      case .text(let text): return "\"\(text)\""
      case .integer(let number): return String(number)
      case .real(let number): return JSONText.number(number)
      case .flag(let flag): return flag ? "true" : "false"
      case .time(let time): return "\"\(time.iso8601)\""
      case .tags(let tags): return "[" + tags.map { "\"\($0)\"" }.joined(separator: ",") + "]"
      }
    case is NSNull: return "null"
    case let text as String: return "\"\(text)\""
    // Before numbers: the vectors' values hold no number 0 or 1 that a flag could be taken for.
    case let flag as Bool: return flag ? "true" : "false"
    case let number as NSNumber: return JSONText.number(number.doubleValue)
    case let list as [Any]: return "[" + list.map(json).joined(separator: ",") + "]"
    default: return "?"
    }
  }
}

/// Sealed files of an encrypted remote (Tests/Fixtures/sync-vectors/sealed.json: sealed by the CLI
/// and by the web core): each opens with libsodium here too, and sealing its plain bytes again
/// gives the same bytes, as `node --test Web/test/` checks in WebAssembly.
@Suite struct SealedVectorTests {
  @Test func sealedFilesOpenAndSealAgainToTheSameBytes() throws {
    try Sodium.load()
    let data = try Data(
      contentsOf: SyncVectorTests.folder.appendingPathComponent("sealed.json"))
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let remoteID = try #require(object["remoteId"] as? String)
    let key = try #require(Hex.decode(object["key"] as? String ?? ""))
    let envelope = BatchEnvelope.sealed(remoteID: remoteID, dataKey: key)
    let files = object["files"] as? [[String: Any]] ?? []
    #expect(files.count == 3)
    for file in files {
      let sealed = try #require(Data(base64Encoded: file["sealed"] as? String ?? "")).map { $0 }
      let name = file["name"] as? [String: Any] ?? [:]
      let fileName: BatchEnvelope.Name =
        if let snapshot = name["snapshot"] as? String {
          .snapshot(snapshot)
        } else {
          .batch(device: name["device"] as? String ?? "", seq: name["seq"] as? Int ?? 0)
        }
      _ = try envelope.open(sealed, name: fileName)
      let header = try SealedHeader(sealed)
      let associated = Array("lifelog-sealed\n\(remoteID)\n".utf8) + sealed[..<header.length]
      let plain = try #require(
        Sodium.open(sealed[header.sealed], associated: associated, key: key))
      #expect(try envelope.seal(plain, name: fileName) == sealed, "\(fileName)")
    }
  }
}
