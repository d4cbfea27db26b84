import LifelogCore
import LifelogProtocol
import LifelogSync

extension LifelogCommand {
  /// `lifelog share`: the meal report, sealed under a fresh key, kept by the server for a while,
  /// and a link for a doctor that opens it in a browser (docs/web.md, "For your doctor").
  struct Share: Command {
    static let configuration = CommandConfiguration(
      commandName: "share",
      abstract: "Share the meal report with a link that expires; list and revoke links.",
      discussion: """
        Writes the meal report ('lifelog report meals --format html') for the days asked, seals it
        under a new random key, stores only the ciphertext on your lifelog server (REMOTE, the only
        server remote by default) and prints a link <server>/s/<id>#<key> and its QR code. The key
        is after '#', which browsers never send: the server cannot read the report. After
        --expires (14 days by default, at most 90), or 'lifelog share revoke ID', the server
        deletes it and the link says so. With --passcode-file, the server also asks for that
        passcode; after 5 wrong tries only the right one opens the link.
        """,
      arguments: [
        ArgumentSpec("remote", "The server remote (default: the only one).", .optional)
      ],
      options: [
        OptionSpec(["--from"], value: "day", help: "First day of the report."),
        OptionSpec(["--to"], value: "day", help: "Last day of the report.", default: "today"),
        OptionSpec(["--days"], value: "n", help: "The last n days up to today.", default: "14"),
        OptionSpec(
          ["--expires"], value: "days", help: "How long the link works (at most 90d).",
          default: "14d"),
        OptionSpec(
          ["--passcode-file"], value: "file", help: "A file holding a passcode to ask for."),
        OptionSpec(
          ["--timeout"], value: "seconds", help: "Give up after this long (exit 69).",
          default: "30"),
        OptionSpec.format(["text", "json"]),
      ],
      examples: [
        "lifelog share", "lifelog share --days 30 --expires 7d",
        "lifelog share --from 2026-11-01 --to 2026-11-30 --passcode-file code.txt",
        "lifelog share list", "lifelog share revoke 0b189125-e4da-4c30-98fc-151bce80c2a1",
      ],
      subcommands: [ShareList.self, ShareRevoke.self])

    let remoteName: String?
    let from: CivilDate
    let to: CivilDate
    let expiresDays: Int
    let passcode: String?
    let timeout: Int
    let json: Bool

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      remoteName = try arguments.checkedPositionals(for: Self.configuration)["remote"]?.first
      let parser = context.timeParser
      to = try parser.parseDay(arguments.value("--to") ?? "today")
      if let text = arguments.value("--from") {
        if arguments.value("--days") != nil { throw UsageError("Give --from or --days, not both") }
        from = try parser.parseDay(text)
      } else {
        let days = try Serve.number(arguments, "--days", default: 14, range: 1...3660)
        from = to.adding(days: 1 - days)
      }
      guard from <= to else { throw InputError("--from (\(from)) is after --to (\(to))") }
      let expires = arguments.value("--expires") ?? "14d"
      guard expires.hasSuffix("d"), let days = Int(expires.dropLast()), (1...90).contains(days)
      else { throw InputError("--expires must be 1d to 90d, not '\(expires)'") }
      expiresDays = days
      if let file = arguments.value("--passcode-file") {
        guard let bytes = try? LocalFile.read(file) else {
          throw InputError("Cannot read the passcode file '\(file)'; check the path")
        }
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters()
        guard (4...256).contains(text.utf8.count) else {
          throw InputError("The passcode in '\(file)' must be 4 to 256 bytes")
        }
        passcode = text
      } else {
        passcode = nil
      }
      timeout = try TimeoutOption.seconds(arguments.valueOrDefault("--timeout"))
      json = try arguments.choice("--format") == "json"
    }

    func run(in context: Context) throws {
      let record = try Pair.serverRemote(named: remoteName, in: SyncStore(log: try context.store))
      let report = try Share.mealReport(from: from, to: to, context: context)
      let id = UUIDText.random()
      let sealed = try SealedReport(report: report, id: id)
      let expires = LogStore.systemMilliseconds() + Int64(expiresDays) * 86_400_000
      try Share.remote(record, context: context, timeout: timeout).putShare(
        id: id, bytes: sealed.bytes, from: "\(from)", to: "\(to)", expires: expires,
        passcode: passcode)
      var base = record.url
      while base.hasSuffix("/") { base.removeLast() }
      let link = base + "/s/" + id + "#" + UUIDText.hex(sealed.key)
      let expiresText = Share.time(expires)
      if json {
        var object = JSONObjectWriter()
        object.add("url", link)
        object.add("id", id)
        object.add("expires", expiresText)
        context.output.write(object.result + "\n")
        return
      }
      context.output.write(
        "The meal report for \(from) to \(to), until \(expiresText):\n\n\(link)\n\n")
      context.output.write(try QRCodeText.lines(for: link).joined(separator: "\n") + "\n\n")
      context.output.write("'lifelog share revoke \(id)' ends it now.\n")
    }

    /// The HTML of `lifelog report meals --format html --from … --to …`, written in memory.
    static func mealReport(from: CivilDate, to: CivilDate, context: Context) throws -> [UInt8] {
      let captured = CapturedOutput()
      let report = Context(
        environment: context.environment, output: captured, errors: context.errors,
        outputIsTerminal: false, now: context.now, zone: context.zone, zoneName: context.zoneName)
      report.databasePathOverride = try context.databasePath
      defer { report.closeStore() }
      let arguments = try ParsedArguments(
        ["--format", "html", "--from", "\(from)", "--to", "\(to)"],
        configuration: ReportMeals.configuration)
      try ReportMeals(parsing: arguments, in: report).run(in: report)
      return Array(captured.text.utf8)
    }

    static func remote(_ record: RemoteRecord, context: Context, timeout: Int) -> HTTPRemote {
      HTTPRemote(
        url: record.url, token: record.token, caFile: context.environment["LIFELOG_CA_FILE"],
        deadline: LogStore.systemMilliseconds() + Int64(timeout) * 1000)
    }

    /// A time in Unix ms as UTC ISO 8601, as `pair` and `share` print them.
    static func time(_ ms: Int64) -> String {
      TextBytes.string { $0.iso8601UTC(seconds: ms / 1000, milliseconds: Int(ms % 1000)) }
    }
  }

  struct ShareList: Command {
    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract: "List shared reports: range, expiry, state and how often they were opened.",
      arguments: [ArgumentSpec("remote", "The server remote (default: the only one).", .optional)],
      options: [OptionSpec.format(["text", "json"])])

    let remoteName: String?
    let json: Bool

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      remoteName = try arguments.checkedPositionals(for: Self.configuration)["remote"]?.first
      json = try arguments.choice("--format") == "json"
    }

    func run(in context: Context) throws {
      let record = try Pair.serverRemote(named: remoteName, in: SyncStore(log: try context.store))
      let shares = try Share.remote(record, context: context, timeout: 30).sharedReports()
      if json {
        let items = shares.map { share in
          var object = JSONObjectWriter()
          object.add("id", share.id)
          object.add("from", share.from)
          object.add("to", share.to)
          object.add("expires", Share.time(share.expires))
          object.add("state", share.state)
          object.add("opened", share.opened)
          object.add("lastOpened", share.lastOpened.map(Share.time))
          object.add("passcode", share.hasPasscode)
          return object.result
        }
        context.output.write("[" + items.joined(separator: ",") + "]\n")
        return
      }
      guard !shares.isEmpty else {
        context.output.write("No shared reports; make one with 'lifelog share'.\n")
        return
      }
      for share in shares {
        let opened =
          share.opened == 0
          ? "never opened"
          : "opened \(share.opened)× (last \(share.lastOpened.map(Share.time) ?? "?"))"
        // The server's words: control characters shown, never acting on the terminal.
        let line =
          "\(share.id)  \(share.from) to \(share.to)  \(share.state) until "
          + "\(Share.time(share.expires))  \(opened)\(share.hasPasscode ? "  passcode" : "")"
        context.output.write(TerminalText.visible(line) + "\n")
      }
    }
  }

  struct ShareRevoke: Command {
    static let configuration = CommandConfiguration(
      commandName: "revoke",
      abstract: "End a shared report's link now; the server deletes the report.",
      arguments: [
        ArgumentSpec("id", "The share's id (see 'lifelog share list')."),
        ArgumentSpec("remote", "The server remote (default: the only one).", .optional),
      ])

    let id: String
    let remoteName: String?

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      let positionals = try arguments.checkedPositionals(for: Self.configuration)
      id = positionals["id"]?.first ?? ""
      remoteName = positionals["remote"]?.first
      guard APIPath.isName(id) else { throw InputError("'\(id)' is not a share id") }
    }

    func run(in context: Context) throws {
      let record = try Pair.serverRemote(named: remoteName, in: SyncStore(log: try context.store))
      guard try Share.remote(record, context: context, timeout: 30).revokeShare(id: id) else {
        throw InputError("No shared report has the id '\(id)'; see 'lifelog share list'")
      }
      context.output.write("Revoked \(id): the server deleted the report; its link says so\n")
    }
  }
}
