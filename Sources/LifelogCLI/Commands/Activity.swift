import LifelogCore

extension LifelogCommand {
  /// `lifelog activity`: the things entries are logged against.
  ///
  /// Alone, it lists them.
  struct ActivityGroup: DelegatingCommand {
    static let configuration = CommandConfiguration(
      commandName: "activity",
      abstract: "Add, list, rename, merge and archive activities.",
      discussion: "'lifelog activity' alone lists the activities.",
      options: ActivityList.configuration.options,
      subcommands: [
        ActivityAdd.self, ActivityList.self, ActivityEdit.self, ActivityRename.self,
        ActivityMerge.self, ActivityArchive.self,
        ActivityUnarchive.self,
      ])

    let work: ActivityList
  }

  struct ActivityAdd: Command {
    static let configuration = CommandConfiguration(
      commandName: "add",
      abstract: "Create an activity.",
      arguments: [name],
      options: [kind, unit, target],
      examples: [
        "lifelog activity add tea --kind meal",
        "lifelog activity add swim --kind exercise --unit km --target '2 km/week'",
      ])

    static let name = ArgumentSpec(
      "name", "The name, as it should be shown (matched case-insensitively).")
    static let kind = OptionSpec(
      ["--kind"], value: "kind",
      help: "meal, exercise, sleep, medication or other (asked at a terminal, else required).")
    static let unit = OptionSpec(
      ["--unit"], value: "unit", help: "The unit quantities are in: km, kcal, glasses, ...")
    static let target = OptionSpec(
      ["--target"], value: "target", help: "A goal: '150 min/week', '3 times/day', '10 km/week'.")

    let name: String
    let kind: ActivityKind?
    let unit: String?
    let target: Target?

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      if arguments.positionals.count > 1 {
        let words = arguments.positionals.joined(separator: " ")
        throw UsageError(
          "A name of several words needs quotes: lifelog activity add \(ShellQuote.word(words))")
      }
      name = try arguments.checkedPositionals(for: Self.configuration).required(Self.name)
      kind = try arguments.value(Self.kind).map(ActivityKind.init(parsing:))
      // Checked before the kind is asked for, so a bad value is refused before any question.
      unit = try arguments.value(Self.unit).map(ActivityUnit.validated)
      target = try arguments.value(Self.target).map(Target.init(parsing:))
    }

    func run(in context: Context) throws {
      let kind = try self.kind ?? Self.askKind(of: name, in: context)
      let activity = try context.recordingStep("activity add \(name)") {
        try $0.addActivity(named: name, kind: kind, unit: unit, target: target)
      }
      context.output.write("Created activity '\(activity.name)' (\(activity.kind.rawValue))\n")
    }

    /// The kind of a new activity given without `--kind`: asked at a terminal, meal first (most
    /// new activities are meals); refused in a script, where a guessed kind would file every
    /// entry of it wrongly without a word (an `other` lunch is no meal to `due` or the report).
    static func askKind(of name: String, in context: Context) throws -> ActivityKind {
      let kinds = ActivityKind.allCases.map(\.rawValue)
      if let existing = try context.store.activity(named: name) {
        throw InputError("Activity '\(existing.name)' already exists; pick another name")
      }
      guard let prompt = context.prompt else {
        throw UsageError(
          "Missing --kind for the new activity '\(name)'; add --kind meal (or "
            + kinds.dropFirst().joined(separator: ", ") + ")")
      }
      guard let answer = prompt.choose("Kind of '\(name)'", from: kinds) else {
        throw UsageError("No kind given for '\(name)'; add --kind meal (or another kind)")
      }
      return try ActivityKind(parsing: answer)
    }
  }

  struct ActivityList: Command {
    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract: "List the activities, with how often each was logged.",
      options: [format.spec],
      examples: ["lifelog activity list", "lifelog activity list --format json"])
    static let format = ChoiceOption.format(OutputFormat.allCases)

    let format: OutputFormat

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      _ = try arguments.checkedPositionals(for: Self.configuration)
      format = try arguments.choice(Self.format) ?? .table
    }

    func run(in context: Context) throws {
      let store = try context.store
      try Settings.warnAboutIgnoredValues(in: store, context: context)
      let activities = try store.activities()
      let usage = try store.activityUsage()
      let presenter = EntryPresenter(zone: context.zone)
      let rows = activities.map { activity -> [String] in
        let (count, last) = usage[activity.id] ?? (0, nil)
        let lastText = last.map { presenter.when(context.zone.loggedTime(at: $0)) } ?? ""
        return [
          activity.name, activity.kind.rawValue, activity.unit ?? "",
          activity.target?.description ?? "",
          String(count), lastText, activity.archived ? "archived" : "",
        ]
      }
      switch format {
      case .table:
        var table = Table([
          .init(title: "NAME"), .init(title: "KIND"), .init(title: "UNIT"), .init(title: "TARGET"),
          .init(title: "ENTRIES", rightAligned: true), .init(title: "LAST"), .init(title: "STATUS"),
        ])
        rows.forEach { table.append($0) }
        context.output.write(table.render(width: context.terminalWidth, bold: context.usesColor))
      case .csv:
        context.output.write(
          CSVText.row(["name", "kind", "unit", "target", "entries", "last", "archived"]))
        for (activity, row) in zip(activities, rows) {
          context.output.write(
            CSVText.row(
              Array(row.prefix(5)) + [
                usage[activity.id]?.lastAt.map {
                  context.zone.loggedTime(at: $0).iso8601
                } ?? "", activity.archived ? "true" : "false",
              ], texts: [0, 2]))
        }
      case .json:
        let objects = activities.map { activity -> String in
          var object = JSONObjectWriter()
          object.addActivity(activity)
          object.add("archived", activity.archived)
          object.add("entries", usage[activity.id]?.count ?? 0)
          object.add(
            "lastAt", usage[activity.id]?.lastAt.map { context.zone.loggedTime(at: $0).iso8601 })
          return object.result
        }
        context.output.write(
          "[\n" + objects.joined(separator: ",\n") + (objects.isEmpty ? "]\n" : "\n]\n"))
      }
    }
  }

  struct ActivityEdit: Command {
    static let configuration = CommandConfiguration(
      commandName: "edit",
      abstract: "Change an activity's kind, unit or target.",
      arguments: [name],
      options: [kind, unit, target],
      examples: [
        "lifelog activity edit walk --target '150 min/week'",
        "lifelog activity edit walk --unit km",
      ])

    static let name = ArgumentSpec("name", "The activity to change.", completes: .activityName)
    static let kind = OptionSpec(
      ["--kind"], value: "kind", help: "meal, exercise, sleep, medication or other.")
    static let unit = OptionSpec(
      ["--unit"], value: "unit", help: "The unit quantities are in (or none).")
    static let target = OptionSpec(
      ["--target"], value: "target", help: "A goal such as '150 min/week' (or none).")

    let name: String
    let kind: ActivityKind?
    let unit: String??
    let target: Target??

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      if arguments.positionals.count > 1 {
        let words = arguments.positionals.joined(separator: " ")
        throw UsageError(
          "A name of several words needs quotes: lifelog activity add \(ShellQuote.word(words))")
      }
      name = try arguments.checkedPositionals(for: Self.configuration).required(Self.name)
      kind = try arguments.value(Self.kind).map(ActivityKind.init(parsing:))
      unit = arguments.value(Self.unit).map { $0.lowercased() == "none" ? nil : $0 }
      target = try arguments.value(Self.target).map { text throws -> Target? in
        text.lowercased() == "none" ? nil : try Target(parsing: text)
      }
      if kind == nil, unit == nil, target == nil {
        throw UsageError("Nothing to change; give at least one of --kind, --unit, --target")
      }
    }

    func run(in context: Context) throws {
      let activity = try context.recordingStep("activity edit \(name)") {
        try $0.updateActivity(named: name, kind: kind, unit: unit, target: target)
      }
      let details = [
        activity.kind.rawValue, activity.unit.map { "unit \($0)" },
        activity.target.map { "target \($0)" },
      ]
      context.output.write(
        "Updated activity '\(activity.name)' (\(details.compactMap { $0 }.joined(separator: ", ")))\n"
      )
    }
  }

  struct ActivityRename: Command {
    static let configuration = CommandConfiguration(
      commandName: "rename",
      abstract: "Rename an activity; its entries follow it.",
      arguments: [old, new],
      examples: ["lifelog activity rename workout gym"])
    static let old = ArgumentSpec("old", "The current name.", completes: .activityName)
    static let new = ArgumentSpec("new", "The new name.")

    let oldName: String
    let newName: String

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      let positionals = try arguments.checkedPositionals(for: Self.configuration)
      oldName = positionals.required(Self.old)
      newName = positionals.required(Self.new)
    }

    func run(in context: Context) throws {
      let activity = try context.recordingStep("activity rename \(oldName) \(newName)") {
        try $0.renameActivity(oldName, to: newName)
      }
      context.output.write("Renamed activity '\(oldName)' to '\(activity.name)'\n")
    }
  }

  struct ActivityMerge: Command {
    static let configuration = CommandConfiguration(
      commandName: "merge",
      abstract: "Move every entry of one activity to another, then archive the first.",
      discussion: """
        The entries move as edits do, so they sync; the emptied activity is archived, not deleted.
        'lifelog undo' moves them back.
        """,
      arguments: [from, into],
      examples: ["lifelog activity merge brekfast breakfast"])
    static let from = ArgumentSpec(
      "from", "The activity to empty and archive.", completes: .activityName)
    static let into = ArgumentSpec(
      "into", "The activity its entries join.", completes: .activityName)

    let fromName: String
    let intoName: String

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      let positionals = try arguments.checkedPositionals(for: Self.configuration)
      fromName = positionals.required(Self.from)
      intoName = positionals.required(Self.into)
    }

    func run(in context: Context) throws {
      let merged = try context.recordingStep("activity merge \(fromName) \(intoName)") {
        try $0.mergeActivity(fromName, into: intoName)
      }
      let entries = merged.moved == 1 ? "1 entry" : "\(merged.moved) entries"
      context.output.write(
        "Moved \(entries) from '\(merged.from.name)' to '\(merged.into.name)' "
          + "(\(merged.into.kind.rawValue)); archived '\(merged.from.name)'\n")
    }
  }

  struct ActivityArchive: ArchiveMarkCommand {
    static let configuration = CommandConfiguration(
      commandName: "archive",
      abstract: "Archive an activity: its entries stay, new ones are refused.",
      arguments: [name],
      examples: ["lifelog activity archive run"])
    static let name = ArgumentSpec(
      "name", "The activity to archive.", completes: .activityName)

    static let archives = true

    let work: ArchiveMark
  }

  struct ActivityUnarchive: ArchiveMarkCommand {
    static let configuration = CommandConfiguration(
      commandName: "unarchive",
      abstract: "Bring an archived activity back into use.",
      arguments: [name],
      examples: ["lifelog activity unarchive run"])
    static let name = ArgumentSpec(
      "name", "The activity to unarchive.", completes: .activityName)

    static let archives = false

    let work: ArchiveMark
  }
}

/// `activity archive` and `activity unarchive`: one change of the archived mark, one way or the
/// other.
protocol ArchiveMarkCommand: DelegatingCommand where Work == ArchiveMark {
  /// Whether the command archives (else it unarchives).
  static var archives: Bool { get }
  /// The activity to change.
  static var name: ArgumentSpec { get }
}

extension ArchiveMarkCommand {
  static func work(parsing arguments: ParsedArguments, in context: Context) throws -> ArchiveMark {
    try ArchiveMark(
      archived: archives, name: name, parsing: arguments, configuration: configuration)
  }
}

/// What `activity archive` and `activity unarchive` share: set one activity's archived mark, one
/// way or the other, as an undoable step.
struct ArchiveMark: CommandWork {
  let archived: Bool
  let activityName: String

  init(
    archived: Bool, name: ArgumentSpec, parsing arguments: ParsedArguments,
    configuration: CommandConfiguration
  ) throws {
    self.archived = archived
    activityName = try arguments.checkedPositionals(for: configuration).required(name)
  }

  func run(in context: Context) throws {
    let verb = archived ? "archive" : "unarchive"
    let activity = try context.recordingStep("activity \(verb) \(activityName)") {
      try $0.updateActivity(named: activityName, archived: archived)
    }
    context.output.write(
      "\(archived ? "Archived" : "Unarchived") activity '\(activity.name)'\n")
  }
}
