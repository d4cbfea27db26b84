import LifelogCore

/// How `sync`, `status` and `show` describe a local value a later change from another machine
/// replaced (``ReplacedField``): which entry and field, both values, which machine, and when.
struct ReplacedFieldText {
  let zone: any TimeZoneRules

  /// `entry 4ce53f2d note: 'soup' (here, Tue 2026-12-01 12:40) replaced by 'soup, bread'
  /// (device 1a2b3c4d, Tue 2026-12-01 12:45)`.
  func line(_ field: ReplacedField) -> String {
    let row = field.entity == .entry ? "entry \(field.id.prefix(8))" : "\(field.entity) \(field.id)"
    return TerminalText.visible(
      "\(row) \(field.field): \(value(field.localValue)) (here, \(when(field.localStamp))) "
        + "replaced by \(value(field.remoteValue)) (\(machine(field.remoteDevice)), "
        + "\(when(field.remoteStamp)))")
  }

  /// The block `sync` and `status` print: a heading (after `lead`, if any), one line per field,
  /// and how to put one back.
  func block(_ fields: [ReplacedField], lead: String? = nil) -> String {
    guard !fields.isEmpty else { return "" }
    let count = fields.count == 1 ? "1 value" : "\(fields.count) values"
    var text = lead.map { "\($0): replaced" } ?? "Replaced"
    text += " \(count) edited here with a later change from another machine:\n"
    text += fields.map { "  " + line($0) + "\n" }.joined()
    if let entry = fields.first(where: { $0.entity == .entry }) {
      text +=
        "  'lifelog show \(entry.id.prefix(8))' shows what was replaced; 'lifelog edit' puts it back\n"
    }
    return text
  }

  /// A value in quotes, long ones cut (the whole value stays in `show --format json`).
  func value(_ text: String) -> String {
    if text.isEmpty { return "(none)" }
    let limit = 60
    return "'" + (text.count > limit ? text.prefix(limit - 3) + "..." : text) + "'"
  }

  func when(_ stamp: String) -> String {
    guard let ms = Stamp.milliseconds(stamp) else { return "before sync existed" }
    return when(milliseconds: ms)
  }

  func when(milliseconds: Int64) -> String {
    EntryPresenter(zone: zone).when(zone.loggedTime(at: milliseconds / 1000))
  }

  func machine(_ device: String) -> String { "device \(device.prefix(12))" }
}
