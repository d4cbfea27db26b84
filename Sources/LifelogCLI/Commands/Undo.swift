import LifelogCore

extension LifelogCommand {
  /// `lifelog undo`: reverts this machine's last changes, one step per call.
  struct Undo: Command {
    static let defaultListed = 10
    /// How many restored entries an undo shows as they now are.
    static let shownRestored = 3

    static let configuration = CommandConfiguration(
      commandName: "undo",
      abstract: "Revert the last change made on this machine.",
      discussion: """
        Reverts an add, edit, delete, restore, import, or an activity or setting change, one step
        per call. Undoing is itself a change: it syncs like any other. It never reverts what
        arrived from another machine: a step whose fields were changed since (by a sync or a
        later change) is refused, and nothing is written. The last \(LogStore.keptUndoSteps) steps are kept.
        """,
      options: [steps, list],
      examples: ["lifelog undo", "lifelog undo --list", "lifelog undo --steps 3"])
    static let steps = OptionSpec(
      ["--steps"], value: "n", help: "Revert the last n steps, newest first.", default: "1")
    static let list = OptionSpec(
      ["--list"], help: "Show what undo would revert, newest first, instead.")

    let steps: Int?
    let list: Bool

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      _ = try arguments.checkedPositionals(for: Self.configuration)
      list = arguments.flag(Self.list)
      if let text = arguments.value(Self.steps) {
        guard text.count <= 3, let value = Int(text), (1...LogStore.keptUndoSteps).contains(value)
        else {
          throw InputError(
            "--steps must be a whole number from 1 to \(LogStore.keptUndoSteps), not '\(text)'")
        }
        steps = value
      } else {
        steps = nil
      }
    }

    func run(in context: Context) throws {
      let store = try context.store
      if list {
        let found = try store.undoSteps(limit: steps ?? Self.defaultListed)
        guard !found.isEmpty else {
          context.output.write("Nothing to undo.\n")
          return
        }
        var table = Table([
          .init(title: "WHEN"), .init(title: "ROWS", rightAligned: true),
          .init(title: "CHANGE", truncatable: true),
        ])
        let presenter = EntryPresenter(zone: context.zone)
        for step in found {
          table.append([
            presenter.when(context.zone.loggedTime(at: step.atMilliseconds / 1000)),
            String(step.rowCount),
            step.description,
          ])
        }
        context.output.write(table.render(width: context.terminalWidth, bold: context.usesColor))
        return
      }
      for index in 0..<(steps ?? 1) {
        guard let step = try store.undoLastStep() else {
          context.output.write(index == 0 ? "Nothing to undo.\n" : "Nothing more to undo.\n")
          return
        }
        // Kept from before ids were shown escaped: a step may hold a synced id's control bytes.
        context.output.write("Undid: \(TerminalText.visible(step.description))\n")
        let presenter = EntryPresenter(zone: context.zone)
        for id in step.restoredEntryIDs.prefix(Self.shownRestored) {
          guard let entry = try store.entry(id: id) else { continue }
          context.output.write(
            "Now: \(presenter.summary(entry))\(entry.deleted ? " (deleted)" : "")\n")
        }
        let more = step.restoredEntryIDs.count - Self.shownRestored
        if more > 0 { context.output.write("Now: ... and \(more) more entries restored\n") }
      }
    }
  }
}
