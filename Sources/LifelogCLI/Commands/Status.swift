import LifelogCore
import LifelogSync

extension LifelogCommand {
  /// `lifelog status`: this device, what waits to be sent, and how each remote last went.
  struct Status: Command {
    static let configuration = CommandConfiguration(
      commandName: "status",
      abstract: "Show this device, pending changes and the state of each remote.",
      options: [OptionSpec.format(["text", "json"])],
      examples: ["lifelog status", "lifelog status --format json"])

    let json: Bool

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      _ = try arguments.checkedPositionals(for: Self.configuration)
      json = try TextOrJSON.parse(arguments.value("--format"))
    }

    func run(in context: Context) throws {
      let store = SyncStore(log: try context.store)
      let remotes = try store.remotes()
      let pending = try store.pendingCount()
      let lastSeq = try store.lastSeq()
      if json {
        var object = JSONObjectWriter()
        object.add("device", try store.deviceID)
        object.add("deviceName", try store.deviceName())
        object.add("pendingRows", pending)
        object.addRaw("remotes", RemoteStatusText.json(remotes, context: context, lastSeq: lastSeq))
        context.output.write(object.result + "\n")
        return
      }
      var text = "Device \(try store.deviceID) (\(try store.deviceName()))\n"
      text += "Pending: \(pending) changed row\(pending == 1 ? "" : "s") not yet in a batch\n"
      if remotes.isEmpty { text += "No remotes; add one with 'lifelog remote add NAME FOLDER'\n" }
      for remote in remotes {
        text += "\nRemote '\(remote.name)': \(remote.url)\(remote.dataKey != nil ? " (encrypted)" : "")\n"
        text += "  Last sync: \(RemoteStatusText.time(remote.lastSyncAt, context: context))"
        text += remote.lastOutcome.map { " (\(TerminalText.visible($0)))" } ?? ""
        text += "\n  Unsent batches: \(max(0, lastSeq - remote.pushedSeq))\n"
        if remote.skipped.isEmpty {
          text += "  Skipped in the last sync: none\n"
        } else {
          text += "  Skipped in the last sync:\n" + remote.skipped.map { "    \(TerminalText.visible($0))\n" }.joined()
        }
        if remote.clockSkewMilliseconds > SyncEngine.skewWarningMilliseconds {
          text += "  Warning: a change from this remote was stamped \(remote.clockSkewMilliseconds / 60_000) "
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
      object.add("lastSyncAt", remote.lastSyncAt.map { context.zone.loggedTime(at: $0 / 1000).iso8601 })
      object.add("lastOutcome", remote.lastOutcome)
      object.add("skipped", remote.skipped)
      if let lastSeq { object.add("unsentBatches", max(0, lastSeq - remote.pushedSeq)) }
      object.add("clockSkewMinutes", Int(remote.clockSkewMilliseconds / 60_000))
      return object.result
    }
    return "[" + objects.joined(separator: ",") + "]"
  }
}
