import LifelogCore

extension LifelogCommand {
  /// `lifelog delete`: marks entries deleted (they can be restored).
  struct Delete: Command {
    static let configuration = CommandConfiguration(
      commandName: "delete",
      abstract: "Delete entries (they can be restored).",
      arguments: [ArgumentSpec("id", "Entry ids, or unambiguous prefixes of at least 4 hex digits.", .oneOrMore)],
      examples: ["lifelog delete 1a2b", "lifelog delete 1a2b3c4d 5e6f7a8b"])

    let ids: [String]

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      ids = try arguments.checkedPositionals(for: Self.configuration)["id"] ?? []
    }

    func run(in context: Context) throws {
      try SoftDelete(deleted: true, ids: ids).run(in: context)
    }
  }

  /// `lifelog restore`: brings deleted entries back.
  struct Restore: Command {
    static let configuration = CommandConfiguration(
      commandName: "restore",
      abstract: "Restore deleted entries.",
      arguments: [ArgumentSpec(
          "id", "Entry ids, or unambiguous prefixes (see 'lifelog list --deleted').", .oneOrMore,
          completes: .entryID(deleted: true))],
      examples: ["lifelog list --deleted", "lifelog restore 1a2b"])

    let ids: [String]

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      ids = try arguments.checkedPositionals(for: Self.configuration)["id"] ?? []
    }

    func run(in context: Context) throws {
      try SoftDelete(deleted: false, ids: ids).run(in: context)
    }
  }
}

/// What `delete` and `restore` share: resolve every id first (one bad id writes nothing), then
/// flip the `deleted` field of all of them in one transaction.
struct SoftDelete {
  let deleted: Bool
  let ids: [String]

  func run(in context: Context) throws {
    let store = try context.store
    let results = try store.inTransaction {
      var fullIDs: [String] = []
      for id in ids {
        let fullID = try store.resolveEntryID(id)
        if !fullIDs.contains(fullID) { fullIDs.append(fullID) }
      }
      return try store.setDeleted(deleted, ids: fullIDs)
    }
    let presenter = EntryPresenter(zone: context.zone)
    for (entry, changed) in results {
      let verb = deleted ? (changed ? "Deleted" : "Already deleted:") : (changed ? "Restored" : "Not deleted:")
      context.output.write("\(verb) \(presenter.summary(entry, markingDeleted: false))\n")
    }
  }
}
