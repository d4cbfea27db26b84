import LifelogCore
import LifelogSync

extension LifelogCommand {
  /// `lifelog status`: this device, what waits to be sent, and how each remote last went.
  struct Status: Command {
    static let configuration = CommandConfiguration(
      commandName: "status",
      abstract: "Show this device, pending changes and the state of each remote.",
      options: [TextOrJSON.option.spec],
      examples: ["lifelog status", "lifelog status --format json"])

    let json: Bool

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      _ = try arguments.checkedPositionals(for: Self.configuration)
      json = try arguments.choice(TextOrJSON.option) == .json
    }

    func run(in context: Context) throws {
      let store = SyncStore(log: try context.store)
      let remotes = try store.remotes()
      let pending = try store.pendingCount()
      let lastSeq = try store.lastSeq()
      // The hybrid clock runs ahead of the wall clock only by what it saw (at most an hour now); a
      // clock that ran years ahead once and was corrected keeps stamping ahead (it is persisted),
      // and other machines hold those changes back until then.
      let clockAhead = try store.log.clock().milliseconds - LogStore.systemMilliseconds()
      let clockWarning = clockAhead > Stamp.aheadLimit
      if json {
        var object = JSONObjectWriter()
        object.add("device", try store.deviceID)
        object.add("deviceName", try store.deviceName())
        object.add("pendingRows", pending)
        object.add("clockAheadMinutes", clockWarning ? Int(clockAhead / 60_000) : 0)
        object.addRaw("remotes", RemoteStatusText.json(remotes, context: context, lastSeq: lastSeq))
        context.output.write(object.result + "\n")
        return
      }
      var text = "Device \(try store.deviceID) (\(try store.deviceName()))\n"
      text += "Pending: \(pending) change\(pending == 1 ? "" : "s") not yet synced\n"
      if clockWarning {
        text +=
          "Warning: this machine's clock is \(HeldBatch.duration(clockAhead)) ahead of the wall clock; "
          + "other machines hold back its changes until then (check its clock and time zone)\n"
      }
      if remotes.isEmpty { text += "No remotes; add one with 'lifelog remote add NAME FOLDER'\n" }
      let replaced = try store.log.lastReplacedFields()
      let replacedText = ReplacedFieldText(zone: context.zone)
      text += replacedText.block(
        replaced,
        lead: replaced.first.map {
          "The last sync conflict (\(replacedText.when(milliseconds: $0.runMilliseconds)))"
        })
      for remote in remotes {
        text +=
          "\nRemote '\(remote.name)': \(remote.url)\(remote.dataKey != nil ? " (encrypted)" : "")\n"
        text += "  Last sync: \(RemoteStatusText.time(remote.lastSyncAt, context: context))"
        text += remote.lastOutcome.map { " (\(TerminalText.visible($0)))" } ?? ""
        text += "\n  Unsent batches: \(max(0, lastSeq - remote.pushedSeq))\n"
        if remote.skipped.isEmpty {
          text += "  Skipped in the last sync: none\n"
        } else {
          text +=
            "  Skipped in the last sync:\n"
            + remote.skipped.map { "    \(TerminalText.visible($0))\n" }.joined()
        }
        if !remote.held.isEmpty {
          text += "  Held back, not merged yet (later batches of the same device wait behind):\n"
          text += remote.held.map {
            "    " + TerminalText.visible("\($0.name): \($0.why);") + "\n      "
              + TerminalText.visible($0.advice) + "\n"
          }.joined()
        }
        if remote.clockSkewMilliseconds > SyncEngine.skewWarningMilliseconds {
          text +=
            "  Warning: a change from this remote was stamped \(remote.clockSkewMilliseconds / 60_000) "
            + "minutes ahead of this machine's clock; check the clocks of your machines\n"
        }
      }
      context.output.write(text)
    }
  }
}

/// How remotes are described by `remote list` and `status`.
enum RemoteStatusText {
  static func time(_ milliseconds: Int64?, context: Context) -> String {
    guard let milliseconds else { return "never" }
    return EntryPresenter(zone: context.zone).when(context.zone.loggedTime(at: milliseconds / 1000))
  }

  static func json(_ remotes: [RemoteRecord], context: Context, lastSeq: Int? = nil) -> String {
    let objects = remotes.map { remote -> String in
      var object = JSONObjectWriter()
      object.add("name", remote.name)
      object.add("url", remote.url)
      object.add("encrypted", remote.dataKey != nil)
      object.add(
        "lastSyncAt", remote.lastSyncAt.map { context.zone.loggedTime(at: $0 / 1000).iso8601 })
      object.add("lastOutcome", remote.lastOutcome)
      object.add("skipped", remote.skipped)
      object.addRaw("held", "[" + remote.held.map(heldJSON).joined(separator: ",") + "]")
      if let lastSeq { object.add("unsentBatches", max(0, lastSeq - remote.pushedSeq)) }
      object.add("clockSkewMinutes", Int(remote.clockSkewMilliseconds / 60_000))
      return object.result
    }
    return "[" + objects.joined(separator: ",") + "]"
  }

  /// One held batch as a JSON object, for `status --format json`.
  ///
  /// ```
  /// {"device":…,"seq":…,"snapshot":…,"reason":"missing"|"unreadable"|"ahead",
  ///  "detail":…,"aheadMinutes":…}
  /// ```
  static func heldJSON(_ held: HeldBatch) -> String {
    var object = JSONObjectWriter()
    object.add("device", held.device)
    object.add("seq", held.seq)
    object.add("snapshot", held.snapshot)
    switch held.reason {
    case .missing: object.add("reason", "missing")
    case .unreadable(let error):
      object.add("reason", "unreadable")
      object.add("detail", error)
    case .ahead(let milliseconds):
      object.add("reason", "ahead")
      object.add("aheadMinutes", Int(milliseconds / 60_000))
    }
    object.add("advice", held.advice)
    return object.result
  }
}
