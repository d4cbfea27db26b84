import LifelogCore

extension LifelogCommand {
  /// `lifelog add`: logs one entry.
  struct Add: Command {
    static let configuration = CommandConfiguration(
      commandName: "add",
      abstract: "Add an entry to the log.",
      discussion: """
        The activity must exist (see 'lifelog activity list') unless --kind is given, which creates
        it. Words after the activity form the note, so quotes are needed only for shell characters.
        """,
      arguments: [activity, note],
      options: [
        fields.at, fields.duration, fields.quantity, fields.note, fields.tag, kind,
        TextOrJSON.option.spec,
      ],
      examples: [
        "lifelog add breakfast \"oatmeal, coffee\"",
        "lifelog add walk --at 'yesterday 18:00' --duration 45m --qty 4.2",
        "lifelog add tea --kind meal --at -30m green tea",
      ])

    static let activity = ArgumentSpec(
      "activity", "What you did: breakfast, snack, walk, sleep, ...")
    static let note = ArgumentSpec("note", "A note, e.g. what you ate.", .zeroOrMore)
    static let fields = EntryFieldOptions.adding
    static let kind = OptionSpec(
      ["--kind"], value: "kind",
      help: "Create the activity if new: meal, exercise, sleep, medication, other.")

    let activityName: String
    /// The words after the activity, for the hint when they continue its name (`green tea`).
    let noteWords: [String]
    let fields: EntryFieldValues
    let kind: ActivityKind?
    let json: Bool

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      let positionals = try arguments.checkedPositionals(for: Self.configuration)
      activityName = positionals.required(Self.activity)
      json = try arguments.choice(TextOrJSON.option) == .json
      kind = try arguments.value(Self.kind).map(ActivityKind.init(parsing:))
      let words = positionals[Self.note]
      noteWords = words
      let noteOption = arguments.value(Self.fields.note)
      if !words.isEmpty, noteOption != nil {
        throw UsageError("Give the note either as words or with --note, not both")
      }
      let note = words.isEmpty ? noteOption : words.joinedText(separator: " ")
      fields = try EntryFieldValues(
        arguments, options: Self.fields, note: note, parser: context.timeParser)
    }

    func run(in context: Context) throws {
      let store = try context.store
      let presenter = EntryPresenter(zone: context.zone)
      let (entry, created) = try store.recordingUndoStep({ "add \(presenter.summary($0.0))" }) {
        () throws -> (Entry, Activity?) in
        let (activity, created) = try resolveActivity(in: store)
        let entry = try store.add(
          NewEntry(
            activityID: activity.id, time: fields.time ?? context.timeParser.parseTime("now"),
            duration: fields.duration ?? nil, note: fields.note ?? nil,
            quantity: fields.quantity ?? nil,
            tags: fields.tags ?? []))
        return (entry, created)
      }
      context.noteIfInFuture(entry, presenter: presenter)
      if json {
        context.output.write(presenter.json(entry) + "\n")
        return
      }
      if let created {
        context.output.write("Created activity '\(created.name)' (\(created.kind.rawValue))\n")
      }
      context.output.write("Added \(presenter.summary(entry))\n")
    }

    /// Refuses `lifelog add green tea` when `green` is unknown but `green tea` (or a longer
    /// name) is an activity, naming the quoted form to type.
    private func suggestQuotedName(in store: LogStore) throws {
      for count in stride(from: noteWords.count, through: 1, by: -1) {
        let name = ([activityName] + noteWords.prefix(count)).joined(separator: " ")
        guard let activity = try store.activity(named: name) else { continue }
        let rest = noteWords.dropFirst(count).map(ShellQuote.word).joined(separator: " ")
        throw InputError(
          "Unknown activity '\(activityName)'; for '\(activity.name)', quote it: lifelog add "
            + ShellQuote.word(activity.name) + (rest.isEmpty ? "" : " " + rest))
      }
    }

    /// The activity to log to; creates it when `--kind` was given and it does not exist yet.
    private func resolveActivity(in store: LogStore) throws -> (Activity, created: Activity?) {
      if let existing = try store.activity(named: activityName) {
        if existing.archived {
          throw InputError(
            "Activity '\(existing.name)' is archived; run 'lifelog activity unarchive \(existing.name)' to use it again"
          )
        }
        if let kind, kind != existing.kind {
          throw InputError(
            "Activity '\(existing.name)' already exists as \(existing.kind.rawValue); drop --kind to log to it"
          )
        }
        return (existing, nil)
      }
      guard let kind else {
        try suggestQuotedName(in: store)
        return (try store.requireActivity(named: activityName, creatingHint: true), nil)
      }
      let activity = try store.addActivity(named: activityName, kind: kind)
      return (activity, activity)
    }
  }
}

extension Context {
  /// Notes on standard error that an entry just written lies in the future (beyond five minutes of
  /// clock skew): a typo such as `--at 21:00` for `12:00` otherwise goes unseen.
  func noteIfInFuture(_ entry: Entry, presenter: EntryPresenter) {
    guard entry.time.instant > now + 300 else { return }
    errors.write(
      "Note: \(presenter.when(entry.time)) is in the future; 'lifelog edit' can fix it\n")
  }
}
