import LifelogCore
import LifelogSync

extension LifelogCommand {
  /// `lifelog remote`: the places this log syncs with. Alone, it lists them.
  struct RemoteGroup: Command {
    static let configuration = CommandConfiguration(
      commandName: "remote",
      abstract: "Add, list and remove sync remotes.",
      discussion: "'lifelog remote' alone lists the remotes.",
      options: RemoteList.configuration.options,
      subcommands: [RemoteAdd.self, RemoteList.self, RemoteRemove.self])

    let list: RemoteList

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      list = try RemoteList(parsing: arguments, in: context)
    }

    func run(in context: Context) throws { try list.run(in: context) }
  }

  struct RemoteAdd: Command {
    static let configuration = CommandConfiguration(
      commandName: "add",
      abstract: "Create or join a folder remote, or join a lifelog server.",
      discussion: """
        A folder remote is a plain directory (a USB stick, NFS, a Dropbox or Syncthing folder). A missing
        or empty folder becomes a new remote; a folder that already holds one is joined. A server
        remote is an http:// or https:// address of 'lifelog serve', with the token its operator gave
        you (--token-file, or LIFELOG_TOKEN); the token is kept in your log and never printed.
        """,
      arguments: [
        ArgumentSpec("name", "A short name for the remote, e.g. 'usb' or 'home'."),
        ArgumentSpec("url", "A folder path, file:///path, or http(s)://host:port."),
      ],
      options: [
        OptionSpec(["--token-file"], value: "file", help: "A file holding the server's token (or LIFELOG_TOKEN).")
      ],
      examples: [
        "lifelog remote add usb /media/usb/lifelog",
        "lifelog remote add home https://sync.example.org:8787 --token-file ~/lifelog-token",
      ])

    let name: String
    let url: String
    let token: String?

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      let positionals = try arguments.checkedPositionals(for: Self.configuration)
      name = positionals["name"]?.first ?? ""
      url = positionals["url"]?.first ?? ""
      guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
        throw InputError("Remote name '\(name)' must be a word of letters, digits, '-' or '_'")
      }
      token = try RemoteAdd.token(file: arguments.value("--token-file"), environment: context.environment, url: url)
    }

    /// The server token: from `--token-file`, else `LIFELOG_TOKEN`; required for a server remote.
    static func token(file: String?, environment: [String: String], url: String) throws -> String? {
      guard HTTPRemote.handles(url) else {
        if file != nil { throw UsageError("--token-file is for server (http/https) remotes only") }
        return nil
      }
      var token = environment["LIFELOG_TOKEN"]
      if let file {
        guard let bytes = try? LocalFile.read(file) else {
          throw InputError("Cannot read the token file '\(file)'; check the path and its permissions")
        }
        token = String(decoding: bytes, as: UTF8.self)
      }
      guard let token = token?.trimmingCharacters(), !token.isEmpty else {
        throw InputError(
          "A server remote needs its token: pass --token-file FILE or set LIFELOG_TOKEN "
            + "(the server's operator makes one with 'lifelog serve user add NAME')")
      }
      guard token.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
        throw InputError("The token holds spaces or other characters a token never has; check the file")
      }
      return token
    }

    func run(in context: Context) throws {
      let store = SyncStore(log: try context.store)
      if try store.remote(named: name) != nil {
        throw InputError("A remote named '\(name)' already exists; remove it first or pick another name")
      }
      let remote = try RemoteLocation.make(url, token: token, timeoutSeconds: 10, environment: context.environment)
      let manifest: RemoteManifest
      var created = false
      if let folder = remote as? FileRemote {
        (manifest, created) = try folder.createOrJoin(minimumVersion: LifelogVersion.minimumRemoteWriter)
      } else {
        manifest = try remote.manifest()  // checks the address and the token before keeping either
      }
      try store.addRemote(name: name, url: remote.location, remoteID: manifest.remoteID, token: token)
      let verb = created ? "Created a new remote" : "Joined the remote"
      context.output.write("\(verb) '\(name)' at \(remote.location); run 'lifelog sync' to sync with it\n")
    }
  }

  struct RemoteList: Command {
    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract: "List the remotes and how their last sync went.",
      options: [OptionSpec.format(["table", "json"])],
      examples: ["lifelog remote list"])

    let json: Bool

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      _ = try arguments.checkedPositionals(for: Self.configuration)
      json = try TextOrJSON.parse(arguments.value("--format").map { $0 == "table" ? "text" : $0 })
    }

    func run(in context: Context) throws {
      let remotes = try SyncStore(log: try context.store).remotes()
      if json {
        context.output.write(RemoteStatusText.json(remotes, context: context) + "\n")
        return
      }
      guard !remotes.isEmpty else {
        context.output.write("No remotes; add one with 'lifelog remote add NAME FOLDER'.\n")
        return
      }
      var table = Table([.init(title: "NAME"), .init(title: "URL", truncatable: true), .init(title: "LAST SYNC"), .init(title: "OUTCOME")])
      for remote in remotes {
        table.append([
          remote.name, remote.url, RemoteStatusText.time(remote.lastSyncAt, context: context),
          remote.lastOutcome ?? "never synced",
        ])
      }
      context.output.write(table.render(width: context.terminalWidth, bold: context.usesColor))
    }
  }

  struct RemoteRemove: Command {
    static let configuration = CommandConfiguration(
      commandName: "remove",
      abstract: "Forget a remote (its folder and its data are left as they are).",
      arguments: [ArgumentSpec("name", "The remote to forget.", completes: .remoteName)],
      examples: ["lifelog remote remove usb"])

    let name: String

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      name = try arguments.checkedPositionals(for: Self.configuration)["name"]?.first ?? ""
    }

    func run(in context: Context) throws {
      try SyncStore(log: try context.store).removeRemote(named: name)
      context.output.write("Removed remote '\(name)'; nothing on the remote itself was touched\n")
    }
  }
}

/// Turns a remote's address into the remote that serves it.
enum RemoteLocation {
  /// - Parameter timeoutSeconds: how long every request to a server, retries included, may take.
  static func make(_ url: String, token: String?, timeoutSeconds: Int, environment: [String: String] = [:]) throws
    -> any Remote
  {
    if HTTPRemote.handles(url) {
      return HTTPRemote(
        url: url, token: token, caFile: environment["LIFELOG_CA_FILE"],
        deadline: LogStore.systemMilliseconds() + Int64(timeoutSeconds) * 1000)
    }
    if url.contains("://"), !url.hasPrefix("file://") {
      throw InputError("Cannot use '\(url)' as a remote; give a folder path, file:///path or http(s)://host:port")
    }
    return try FileRemote(url: url)
  }
}

extension String {
  /// The text without leading and trailing whitespace and newlines.
  func trimmingCharacters() -> String {
    guard let start = firstIndex(where: { !$0.isWhitespace }), let end = lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return String(self[start...end])
  }
}
