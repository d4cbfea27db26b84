import LifelogCore
import LifelogProtocol

/// Valid batches and snapshots in the sync format, for tests of remotes and of the server.
public enum SampleBatches {
  /// The bytes of batch `seq` of `device`, holding `rows` settings rows (`note` tells batches with
  /// the same name apart).
  public static func batch(device: String, seq: Int, rows: Int = 3, note: String = "") -> [UInt8] {
    BatchCodec.encode(
      Batch(
        device: device, seq: seq, created: 1_780_000_000_000 + Int64(seq),
        changes: changes(device, seq, rows, note)))
  }

  /// The bytes of a snapshot by `device` that covers `covers`.
  public static func snapshot(device: String, covers: [String: Int], rows: Int = 3) -> [UInt8] {
    BatchCodec.encode(
      Batch(
        kind: .snapshot, device: device, seq: 0, created: 1_780_000_000_000,
        covers: VersionVector(covers),
        changes: changes(device, 0, rows, "snapshot")))
  }

  private static func changes(
    _ device: String, _ seq: Int, _ rows: Int, _ note: String
  ) -> [RowChange] {
    (0..<rows).map { index in
      let stamp = Stamp.make(
        milliseconds: 1_780_000_000_000 + Int64(seq), counter: index, device: device)
      return RowChange(
        entity: .setting, id: "sample-\(seq)-\(index)",
        values: [.text("value \(seq).\(index)\(note)")],
        stamps: FieldStamps(count: 1, stamp: stamp))
    }
  }
}
