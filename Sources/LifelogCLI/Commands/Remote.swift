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
      abstract: "Create a remote in an empty folder, or join an existing one.",
      discussion: """
        A folder remote is a plain directory (a USB stick, NFS, a Dropbox or Syncthing folder). A missing
        or empty folder becomes a new remote; a folder that already holds one is joined.
        """,
      arguments: [
        ArgumentSpec("name", "A short name for the remote, e.g. 'usb' or 'home'."),
        ArgumentSpec("url", "A folder path or file:///path."),
      ],
      examples: [
        "lifelog remote add usb /media/usb/lifelog",
        "lifelog remote add dropbox ~/Dropbox/lifelog",
      ])

    let name: String
    let url: String

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      let positionals = try arguments.checkedPositionals(for: Self.configuration)
      name = positionals["name"]?.first ?? ""
      url = positionals["url"]?.first ?? ""
      guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
        throw InputError("Remote name '\(name)' must be a word of letters, digits, '-' or '_'")
      }
    }

    func run(in context: Context) throws {
      let store = SyncStore(log: try context.store)
      if try store.remote(named: name) != nil {
        throw InputError("A remote named '\(name)' already exists; remove it first or pick another name")
      }
      let remote = try RemoteLocation.make(url)
      let (manifest, created) = try remote.createOrJoin(minimumVersion: LifelogVersion.minimumRemoteWriter)
      try store.addRemote(name: name, url: remote.location, remoteID: manifest.remoteID)
      let verb = created ? "Created a new remote" : "Joined the remote"
      context.output.write("\(verb) '\(name)' at \(remote.location); run 'lifelog sync' to sync with it\n")
    }
  }

  struct RemoteList: Command {
    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract: "List the remotes and how their last sync went.",
      options: [OptionSpec(["--format"], value: "format", help: "Output: table or json.", default: "table")],
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
      arguments: [ArgumentSpec("name", "The remote to forget.")],
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
  static func make(_ url: String) throws -> FileRemote {
    if url.hasPrefix("http://") || url.hasPrefix("https://") {
      throw InputError("HTTP remotes are not supported yet; give a folder path or file:///path")
    }
    if url.contains("://"), !url.hasPrefix("file://") {
      throw InputError("Cannot use '\(url)' as a remote; give a folder path or file:///path")
    }
    return try FileRemote(url: url)
  }
}
