import LifelogCore

extension LifelogCommand {
  /// `lifelog again`: logs an earlier entry once more.
  struct Again: Command {
    static let configuration = CommandConfiguration(
      commandName: "again",
      abstract: "Log an earlier entry again, now or at --at.",
      discussion: """
        With an activity name it repeats that activity's most recent entry; with an id, last or -N,
        that entry; with nothing, the most recent entry of all.
        """,
      arguments: [what],
      options: [at, TextOrJSON.option.spec],
      examples: ["lifelog again breakfast", "lifelog again last --at 8am", "lifelog again 1a2b"])

    static let what = ArgumentSpec(
      "what", "An activity, an entry id or prefix, or last, -1, -2, ...", .optional,
      completes: .activityName)
    static let at = OptionSpec(
      ["--at"], value: "time", help: "When: as for 'lifelog add'.", default: "now")

    let what: String?
    let time: LoggedTime?
    let json: Bool

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      what = try arguments.checkedPositionals(for: Self.configuration).value(Self.what)
      time = try arguments.value(Self.at).map(context.timeParser.parseTime)
      json = try arguments.choice(TextOrJSON.option) == .json
    }

    func run(in context: Context) throws {
      let store = try context.store
      let presenter = EntryPresenter(zone: context.zone)
      let entry = try store.recordingUndoStep({ "again \(presenter.summary($0))" }) {
        () throws -> Entry in
        guard let original = try store.entry(id: try originalID(in: store)) else {
          throw InputError("No entry to repeat; run 'lifelog list' to see the log")
        }
        if let activity = try store.activity(named: original.activityName), activity.archived {
          throw InputError(
            "Activity '\(activity.name)' is archived; run 'lifelog activity unarchive \(activity.name)' to use it again"
          )
        }
        return try store.add(
          NewEntry(
            activityID: original.activityID, time: time ?? context.zone.loggedTime(at: context.now),
            duration: original.duration, note: original.note, quantity: original.quantity,
            tags: original.tags))
      }
      context.output.write(
        json ? presenter.json(entry) + "\n" : "Added \(presenter.summary(entry))\n")
    }

    /// The entry to repeat: `last`/`-N`, an activity's latest, or an id prefix, in that order.
    private func originalID(in store: LogStore) throws -> String {
      guard let what else { return try store.resolve(.recent(1)) }
      let reference = try EntryReference(parsing: what)
      if case .recent = reference { return try store.resolve(reference) }
      if let activity = try store.activity(named: what) {
        guard let id = try store.recentEntryID(back: 1, activityID: activity.id, deleted: false)
        else {
          throw InputError(
            "There is no \(activity.name) entry to repeat yet; log one with 'lifelog add \(activity.name)'"
          )
        }
        return id
      }
      guard what.count >= LogStore.minimumPrefixLength,
        what.allSatisfy({ $0.isHexDigit || $0 == "-" })
      else {
        // The unknown-activity message, with suggestions.
        _ = try store.requireActivity(named: what)
        return ""
      }
      return try store.resolve(reference)
    }
  }
}
