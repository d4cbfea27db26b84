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
      arguments: [
        ArgumentSpec("activity", "What you did: breakfast, snack, walk, sleep, ..."),
        ArgumentSpec("note", "A note, e.g. what you ate.", .zeroOrMore),
      ],
      options: [
        OptionSpec(
          ["--at"], value: "time",
          help: "When: now, 08:15, 8am, 'yesterday 19:30', 'mon 12:00', -2h, ISO 8601.",
          default: "now"),
        OptionSpec(["--duration"], value: "duration", help: "How long: 45m, 1h30m, 90s, 1:30."),
        OptionSpec(["--qty"], value: "number", help: "How much, in the activity's unit."),
        OptionSpec(["--note"], value: "text", help: "The note, as 'edit' takes it (or as words)."),
        OptionSpec(["--tag"], value: "tag", help: "A tag (one word).", repeatable: true),
        OptionSpec(
          ["--kind"], value: "kind",
          help: "Create the activity if new: meal, exercise, sleep, medication, other."),
        OptionSpec.format(["text", "json"]),
      ],
      examples: [
        "lifelog add breakfast \"oatmeal, coffee\"",
        "lifelog add walk --at 'yesterday 18:00' --duration 45m --qty 4.2",
        "lifelog add tea --kind meal --at -30m green tea",
      ])

    let activityName: String
    /// The words after the activity, for the hint when they continue its name (`green tea`).
    let noteWords: [String]
    let fields: EntryFieldValues
    let kind: ActivityKind?
    let json: Bool

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      let positionals = try arguments.checkedPositionals(for: Self.configuration)
      activityName = positionals["activity"]?.first ?? ""
      json = try arguments.choice("--format") == "json"
      kind = try arguments.value("--kind").map(ActivityKind.init(parsing:))
      let words = positionals["note"] ?? []
      noteWords = words
      if !words.isEmpty, arguments.value("--note") != nil {
        throw UsageError("Give the note either as words or with --note, not both")
      }
      let note = words.isEmpty ? arguments.value("--note") : words.joinedText(separator: " ")
      fields = try EntryFieldValues(arguments, note: note, parser: context.timeParser)
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

/// The entry fields `add` and `edit` share, read and checked from the command line.
///
/// Each is nil when its option was not given; `edit` also accepts `none` to clear a field.
struct EntryFieldValues {
  var time: LoggedTime?
  var duration: Int??
  var note: String??
  var quantity: Double??
  var tags: [String]?

  init(
    _ arguments: ParsedArguments, note: String?, parser: TimeParser, allowsClearing: Bool = false
  )
    throws
  {
    if let at = arguments.value("--at") { time = try parser.parseTime(at) }
    if let text = arguments.value("--duration") {
      duration =
        allowsClearing && text.lowercased() == "none" ? .some(nil) : try DurationText.parse(text)
    }
    if let text = arguments.value("--qty") {
      quantity =
        allowsClearing && text.lowercased() == "none" ? .some(nil) : try EntryFields.quantity(text)
    }
    if let note {
      // Typed blanks are a slip (an unset shell variable), not a note; '' still clears one.
      guard note.isEmpty || note.contains(where: { !$0.isWhitespace }) else {
        throw InputError("Note is only spaces; write a note, or leave it out")
      }
      self.note = .some(try EntryFields.note(note))
    }
    let tagTexts = arguments.all("--tag")
    if !tagTexts.isEmpty {
      var tags: [String] = []
      for text in tagTexts where !tags.contains(try EntryFields.tag(text)) {
        tags.append(try EntryFields.tag(text))
      }
      self.tags = tags
    }
  }
}
