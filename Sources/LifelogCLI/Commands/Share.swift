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
      arguments: [Pair.remote],
      options: [
        from, to, days, expires, passcodeFile, TimeoutOption.server.spec, TextOrJSON.option.spec,
      ],
      examples: [
        "lifelog share", "lifelog share --days 30 --expires 7d",
        "lifelog share --from 2026-11-01 --to 2026-11-30 --passcode-file code.txt",
        "lifelog share list", "lifelog share revoke 0b189125-e4da-4c30-98fc-151bce80c2a1",
      ],
      subcommands: [ShareList.self, ShareRevoke.self])

    static let from = OptionSpec(["--from"], value: "day", help: "First day of the report.")
    static let to = OptionSpec(
      ["--to"], value: "day", help: "Last day of the report.", default: "today")
    static let days = OptionSpec(
      ["--days"], value: "n", help: "The last n days up to today.", default: "14")
    static let expires = OptionSpec(
      ["--expires"], value: "days", help: "How long the link works (at most 90d).", default: "14d")
    static let passcodeFile = OptionSpec(
      ["--passcode-file"], value: "file", help: "A file holding a passcode to ask for.")

    let remoteName: String?
    let from: CivilDate
    let to: CivilDate
    let expiresDays: Int
    let passcode: String?
    let timeout: Int
    let json: Bool

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      remoteName = try arguments.checkedPositionals(for: Self.configuration).value(Pair.remote)
      let parser = context.timeParser
      to = try parser.parseDay(arguments.valueOrDefault(Self.to) ?? "")
      if let text = arguments.value(Self.from) {
        if arguments.value(Self.days) != nil { throw UsageError("Give --from or --days, not both") }
        from = try parser.parseDay(text)
      } else {
        let days = try Serve.number(arguments, Self.days, default: 14, range: 1...3660)
        from = to.adding(days: 1 - days)
      }
      guard from <= to else { throw InputError("--from (\(from)) is after --to (\(to))") }
      let expires = arguments.valueOrDefault(Self.expires) ?? ""
      guard expires.hasSuffix("d"), let days = Int(expires.dropLast()), (1...90).contains(days)
      else { throw InputError("--expires must be 1d to 90d, not '\(expires)'") }
      expiresDays = days
      if let file = arguments.value(Self.passcodeFile) {
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
      timeout = try TimeoutOption.server.seconds(in: arguments)
      json = try arguments.choice(TextOrJSON.option) == .json
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
      arguments: [Pair.remote],
      options: [TextOrJSON.option.spec])

    let remoteName: String?
    let json: Bool

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      remoteName = try arguments.checkedPositionals(for: Self.configuration).value(Pair.remote)
      json = try arguments.choice(TextOrJSON.option) == .json
    }

    func run(in context: Context) throws {
      let record = try Pair.serverRemote(named: remoteName, in: SyncStore(log: try context.store))
      let shares = try Share.remote(record, context: context, timeout: 30).sharedReports()
      ServerListing(json: json, none: "No shared reports; make one with 'lifelog share'.").write(
        shares, to: context.output,
        object: { share, object in
          object.add("id", share.id)
          object.add("from", share.from)
          object.add("to", share.to)
          object.add("expires", Share.time(share.expires))
          object.add("state", share.state)
          object.add("opened", share.opened)
          object.add("lastOpened", share.lastOpened.map(Share.time))
          object.add("passcode", share.hasPasscode)
        },
        line: { share in
          let opened =
            share.opened == 0
            ? "never opened"
            : "opened \(share.opened)× (last \(share.lastOpened.map(Share.time) ?? "?"))"
          return "\(share.id)  \(share.from) to \(share.to)  \(share.state) until "
            + "\(Share.time(share.expires))  \(opened)\(share.hasPasscode ? "  passcode" : "")"
        })
    }
  }

  struct ShareRevoke: Command {
    static let configuration = CommandConfiguration(
      commandName: "revoke",
      abstract: "End a shared report's link now; the server deletes the report.",
      arguments: [id, Pair.remote])
    static let id = ArgumentSpec("id", "The share's id (see 'lifelog share list').")

    let id: String
    let remoteName: String?

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      let positionals = try arguments.checkedPositionals(for: Self.configuration)
      id = positionals.required(Self.id)
      remoteName = positionals.value(Pair.remote)
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
