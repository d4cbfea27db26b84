import LifelogCore

extension LifelogCommand {
  /// `lifelog delete`: marks entries deleted (they can be restored).
  struct Delete: SoftDeleteCommand {
    static let configuration = CommandConfiguration(
      commandName: "delete",
      abstract: "Delete entries (they can be restored).",
      arguments: [ids],
      options: [SoftDelete.activityOption],
      examples: ["lifelog delete 1a2b", "lifelog delete 1a2b3c4d 5e6f7a8b", "lifelog delete last"])
    static let ids = ArgumentSpec(
      "id", "Entry ids or prefixes (4+ hex digits), or last, -1, -2, ...", .oneOrMore)

    static let deletes = true

    let work: SoftDelete
  }

  /// `lifelog restore`: brings deleted entries back.
  struct Restore: SoftDeleteCommand {
    static let configuration = CommandConfiguration(
      commandName: "restore",
      abstract: "Restore deleted entries.",
      arguments: [ids],
      options: [SoftDelete.activityOption],
      examples: ["lifelog list --deleted", "lifelog restore 1a2b", "lifelog restore last"])
    static let ids = ArgumentSpec(
      "id", "Entry ids, or unambiguous prefixes (see 'lifelog list --deleted').", .oneOrMore,
      completes: .entryID(deleted: true))

    static let deletes = false

    let work: SoftDelete
  }
}

/// `delete` and `restore`: the same change of the deleted mark, one way or the other.
protocol SoftDeleteCommand: DelegatingCommand where Work == SoftDelete {
  /// Whether the command deletes (else it restores).
  static var deletes: Bool { get }
  /// The entries to change.
  static var ids: ArgumentSpec { get }
}

extension SoftDeleteCommand {
  static func work(parsing arguments: ParsedArguments, in context: Context) throws -> SoftDelete {
    try SoftDelete(deleted: deletes, ids: ids, parsing: arguments, configuration: configuration)
  }
}

/// What `delete` and `restore` share: resolve every id first (one bad id writes nothing), then
/// flip the `deleted` field of all of them in one transaction.
struct SoftDelete: CommandWork {
  let deleted: Bool
  let references: [EntryReference]
  /// With `last`/`-N`: count only this activity's entries.
  let activityName: String?

  static let activityOption = OptionSpec(
    ["--activity"], value: "name", help: "With last or -N: count only this activity's entries.")

  init(
    deleted: Bool, ids: ArgumentSpec, parsing arguments: ParsedArguments,
    configuration: CommandConfiguration
  ) throws {
    self.deleted = deleted
    references = try arguments.checkedPositionals(for: configuration)[ids].map(
      EntryReference.init)
    activityName = arguments.value(Self.activityOption)
  }

  func run(in context: Context) throws {
    let store = try context.store
    let verb = deleted ? "delete" : "restore"
    let presenter = EntryPresenter(zone: context.zone)
    let results = try store.recordingUndoStep({ results in
      "\(verb) "
        + results.map { presenter.summary($0.entry, markingDeleted: false) }.joined(separator: ", ")
    }) {
      let activityID = try activityName.map { try store.requireActivity(named: $0).id }
      var fullIDs: [String] = []
      // `last` counts among live entries for delete and among deleted ones for restore.
      for reference in references {
        let fullID = try store.resolve(reference, activityID: activityID, deleted: !deleted)
        if !fullIDs.contains(fullID) { fullIDs.append(fullID) }
      }
      return try store.setDeleted(deleted, ids: fullIDs)
    }
    for (entry, changed) in results {
      let verb =
        deleted
        ? (changed ? "Deleted" : "Already deleted:") : (changed ? "Restored" : "Not deleted:")
      context.output.write("\(verb) \(presenter.summary(entry, markingDeleted: false))\n")
    }
  }
}
