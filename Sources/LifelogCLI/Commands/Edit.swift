import LifelogCore

extension LifelogCommand {
  /// `lifelog edit`: changes fields of one entry.
  struct Edit: Command {
    static let configuration = CommandConfiguration(
      commandName: "edit",
      abstract: "Change an entry.",
      discussion:
        "Fields not named stay as they are. --duration none and --qty none clear a field; --note '' clears the note.",
      arguments: [Show.id],
      options: [
        of, activity, fields.note, fields.at, fields.duration, fields.quantity, fields.tag,
        noTags, TextOrJSON.option.spec,
      ],
      examples: [
        "lifelog edit 1a2b --note \"oatmeal, coffee, banana\"",
        "lifelog edit 1a2b3c4d --at 'yesterday 8am' --duration 20m",
        "lifelog edit last --of breakfast --note porridge",
      ])

    static let of = OptionSpec(
      ["--of"], value: "name", help: "With last or -N: count only this activity's entries.")
    static let activity = OptionSpec(
      ["--activity"], value: "name", help: "Move the entry to another activity.")
    static let fields = EntryFieldOptions.changing
    static let noTags = OptionSpec(["--no-tags"], help: "Remove all tags.")

    let reference: EntryReference
    let ofActivity: String?
    let activityName: String?
    let fields: EntryFieldValues
    /// `--at` as typed: a bare time of day is read on the entry's own day once it is known.
    let atText: String?
    let json: Bool

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      let positionals = try arguments.checkedPositionals(for: Self.configuration)
      reference = try EntryReference(parsing: positionals.required(Show.id))
      ofActivity = arguments.value(Self.of)
      activityName = arguments.value(Self.activity)
      json = try arguments.choice(TextOrJSON.option) == .json
      var fields = try EntryFieldValues(
        arguments, options: Self.fields, note: arguments.value(Self.fields.note),
        parser: context.timeParser, allowsClearing: true)
      if arguments.flag(Self.noTags) {
        guard fields.tags == nil else {
          throw UsageError("Give either --tag or --no-tags, not both")
        }
        fields.tags = []
      }
      self.fields = fields
      atText = arguments.value(Self.fields.at)
      if activityName == nil, fields.time == nil, fields.duration == nil, fields.note == nil,
        fields.quantity == nil, fields.tags == nil
      {
        throw UsageError(
          "Nothing to change; give at least one of --activity, --note, --at, --duration, --qty, --tag, --no-tags"
        )
      }
    }

    func run(in context: Context) throws {
      let store = try context.store
      let presenter = EntryPresenter(zone: context.zone)
      let entry = try store.recordingUndoStep({ "edit \(presenter.summary($0))" }) {
        let of = try ofActivity.map { try store.requireActivity(named: $0).id }
        let fullID = try store.resolve(reference, activityID: of)
        var changes = EntryChanges()
        if let activityName {
          let activity = try store.requireActivity(named: activityName)
          if activity.archived {
            throw InputError(
              "Activity '\(activity.name)' is archived; run 'lifelog activity unarchive \(activity.name)' first"
            )
          }
          changes.activityID = activity.id
        }
        if let atText, let current = try store.entry(id: fullID) {
          changes.time = try context.timeParser.parseTime(
            atText, bareTimeOn: current.time.local.date)
        }
        changes.duration = fields.duration
        changes.note = fields.note
        changes.quantity = fields.quantity
        changes.tags = fields.tags
        return try store.update(id: fullID, with: changes)
      }
      if atText != nil { context.noteIfInFuture(entry, presenter: presenter) }
      context.output.write(
        json ? presenter.json(entry) + "\n" : "Updated \(presenter.summary(entry))\n")
    }
  }
}
