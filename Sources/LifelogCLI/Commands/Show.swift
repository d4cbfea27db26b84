import LifelogCore

extension LifelogCommand {
  /// `lifelog show`: one entry in full.
  struct Show: Command {
    static let configuration = CommandConfiguration(
      commandName: "show",
      abstract: "Show one entry in full, and where it was written.",
      discussion: "Every field, when it was created and last changed, and on which device.",
      arguments: [id],
      options: [SoftDelete.activityOption, TextOrJSON.option.spec],
      examples: [
        "lifelog show last", "lifelog show -2", "lifelog show last --activity breakfast",
        "lifelog show 1a2b",
      ])

    static let id = ArgumentSpec(
      "id", "The entry's id or a prefix of it (4+ hex digits), or last, -1, -2, ...")

    let reference: EntryReference
    let activityName: String?
    let json: Bool

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      reference = try EntryReference(
        parsing: arguments.checkedPositionals(for: Self.configuration).required(Self.id))
      activityName = arguments.value(SoftDelete.activityOption)
      json = try arguments.choice(TextOrJSON.option) == .json
    }

    func run(in context: Context) throws {
      let store = try context.store
      let activityID = try activityName.map { try store.requireActivity(named: $0).id }
      let id = try store.resolve(reference, activityID: activityID)
      guard let entry = try store.entry(id: id), let history = try store.entryHistory(id: id) else {
        throw InputError("No entry has id '\(id)'; run 'lifelog list' to see ids")
      }
      let presenter = EntryPresenter(zone: context.zone)
      let created = History(
        stamp: history.created, fields: [], history: history, zone: context.zone)
      let changed =
        history.changed == history.created
        ? nil
        : History(
          stamp: history.changed, fields: history.changedFields, history: history,
          zone: context.zone)
      let replaced = try store.replacedFields(ofRow: entry.id)
      let replacedText = ReplacedFieldText(zone: context.zone)
      if json {
        var object = JSONObjectWriter()
        object.addRaw("entry", presenter.json(entry))
        object.addRaw("created", created.json)
        object.addRaw("changed", changed?.json ?? "null")
        object.addRaw("replaced", "[" + replaced.map(Self.json).joined(separator: ",") + "]")
        context.output.write(object.result + "\n")
        return
      }
      var table = Table([.init(title: "FIELD"), .init(title: "VALUE", truncatable: false)])
      let rows: [(String, String)] = [
        ("id", entry.id),
        ("activity", "\(entry.activityName) (\(entry.kind.rawValue))"),
        ("at", "\(presenter.when(entry.time)) (\(entry.time.iso8601))"),
        ("duration", entry.duration.map(DurationText.format) ?? ""),
        ("quantity", presenter.quantity(entry)),
        ("note", entry.note ?? ""),
        ("tags", entry.tags.map { "#\($0)" }.joinedText(separator: " ")),
        ("source", entry.source ?? ""),
        ("deleted", entry.deleted ? "yes" : "no"),
        ("created", created.text(presenter)),
        (
          "changed",
          changed.map { $0.text(presenter) + " (\($0.fields.joined(separator: ", ")))" } ?? "never"
        ),
      ]
      for (field, value) in rows { table.append([field, value]) }
      for field in replaced {
        // The value that lost a sync, in full, so it can be put back.
        table.append([
          "replaced",
          TerminalText.visible(
            "\(field.field) '\(field.localValue)' (here, \(replacedText.when(field.localStamp))) "
              + "by \(replacedText.value(field.remoteValue)) "
              + "(\(replacedText.machine(field.remoteDevice)), \(replacedText.when(field.remoteStamp)))"
          ),
        ])
      }
      context.output.write(table.render(width: nil, bold: context.usesColor))
    }

    /// One replaced value as JSON: the field, both values, the other machine, both times.
    static func json(_ field: ReplacedField) -> String {
      var object = JSONObjectWriter()
      object.add("field", field.field)
      object.add("localValue", field.localValue)
      object.add("localStamp", field.localStamp)
      object.add("remoteValue", field.remoteValue)
      object.add("remoteStamp", field.remoteStamp)
      object.add("remoteDevice", field.remoteDevice)
      return object.result
    }

    /// When and on which device a stamp was written.
    struct History {
      let stamp: String
      let fields: [String]
      let history: EntryHistory
      let zone: any TimeZoneRules

      var time: LoggedTime? { Stamp.milliseconds(stamp).map { zone.loggedTime(at: $0 / 1000) } }
      var device: String { String(stamp.suffix(12)) }
      var isHere: Bool { device == Stamp.devicePart(history.deviceID) }

      func text(_ presenter: EntryPresenter) -> String {
        let when = time.map(presenter.when) ?? "before sync existed"
        return "\(when) on " + (isHere ? "this device (\(history.deviceName))" : "device \(device)")
      }

      var json: String {
        var object = JSONObjectWriter()
        object.add("at", time?.iso8601)
        object.add("device", device)
        object.add("thisDevice", isHere)
        if !fields.isEmpty { object.add("fields", fields) }
        return object.result
      }
    }
  }
}
