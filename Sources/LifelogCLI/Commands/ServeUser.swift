import LifelogCore
import LifelogServer

extension LifelogCommand {
  /// `lifelog serve user`: who may use the server.
  ///
  /// Alone, it lists the users.
  struct ServeUserGroup: DelegatingCommand {
    static let configuration = CommandConfiguration(
      commandName: "user",
      abstract: "Add, list and remove the server's users, and give them new tokens.",
      discussion:
        "'lifelog serve user' alone lists the users. A running server sees changes at once.",
      options: [dataOption, storeOption],
      subcommands: [
        ServeUserAdd.self, ServeUserList.self, ServeUserRemove.self, ServeUserToken.self,
      ],
      usesDatabase: false)

    static let dataOption = OptionSpec(
      ["--data"], value: "dir", help: "The server's data folder.",
      default: "$XDG_DATA_HOME/lifelog/server")

    static let storeOption = OptionSpec(
      ["--store"], value: "url",
      help: "A PostgreSQL store instead: postgres://USER@HOST:PORT/DB (or LIFELOG_SERVE_STORE).")

    let work: ServeUserList

    /// `--store URL` (else `LIFELOG_SERVE_STORE`, unless `--data` is given): PostgreSQL;
    /// otherwise the SQLite store in ``dataFolder(_:context:)``.
    static func location(
      _ arguments: ParsedArguments, context: Context
    ) throws -> ServerStoreLocation {
      let data = arguments.value(dataOption)
      if let url = arguments.value(storeOption) {
        guard data == nil else {
          throw UsageError("Give '--data DIR' (SQLite) or '--store URL' (PostgreSQL), not both")
        }
        return try ServerStoreLocation(storeURL: url)
      }
      if data == nil, let url = context.environment["LIFELOG_SERVE_STORE"], !url.isEmpty {
        return try ServerStoreLocation(storeURL: url)
      }
      return .folder(try dataFolder(arguments, context: context))
    }

    /// `--data`, else `$XDG_DATA_HOME/lifelog/server`, else `~/.local/share/lifelog/server`.
    static func dataFolder(_ arguments: ParsedArguments, context: Context) throws -> String {
      if let folder = arguments.value(dataOption), !folder.isEmpty { return folder }
      if let data = context.environment["XDG_DATA_HOME"], data.hasPrefix("/") {
        return data + "/lifelog/server"
      }
      guard let home = context.environment["HOME"], !home.isEmpty else {
        throw ConfigurationError("Cannot find the server's data: HOME is not set; pass --data DIR")
      }
      return home + "/.local/share/lifelog/server"
    }

  }

  struct ServeUserAdd: ServerUserCommand {
    static let configuration = CommandConfiguration(
      commandName: "add",
      abstract: "Add a user and print their token (shown only this once).",
      discussion: """
        The token alone goes to standard output, so a script can capture it; the server keeps
        only its SHA-256.
        """,
      arguments: [name],
      options: [ServeUserGroup.dataOption, ServeUserGroup.storeOption],
      examples: ["lifelog serve user add alice > alice.token"],
      usesDatabase: false)
    static let name = ArgumentSpec("name", "The user's name: letters, digits, '.', '_' or '-'.")

    let user: ServerUserTarget

    func run(in context: Context) throws {
      let name = user.name
      let token = try user.store.open().addUser(named: name)
      context.output.write(token + "\n")
      context.errors.write(
        "Added user '\(name)'. Their token is shown only this once; give it to them for "
          + "'lifelog remote add NAME URL --token-file FILE'\n")
    }
  }

  struct ServeUserList: Command {
    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract: "List the users and what they store.",
      options: [ServeUserGroup.dataOption, ServeUserGroup.storeOption],
      examples: ["lifelog serve user list"],
      usesDatabase: false)

    let store: ServerStoreLocation

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      _ = try arguments.checkedPositionals(for: Self.configuration)
      store = try ServeUserGroup.location(arguments, context: context)
    }

    func run(in context: Context) throws {
      let users = try store.open().users()
      guard !users.isEmpty else {
        context.output.write("No users; add one with 'lifelog serve user add NAME'.\n")
        return
      }
      var table = Table([
        .init(title: "USER"), .init(title: "BATCHES"), .init(title: "SNAPSHOTS"),
        .init(title: "BYTES"),
      ])
      for user in users {
        table.append([user.name, String(user.batches), String(user.snapshots), String(user.bytes)])
      }
      context.output.write(table.render(width: context.terminalWidth, bold: context.usesColor))
    }
  }

  struct ServeUserRemove: ServerUserCommand {
    static let configuration = CommandConfiguration(
      commandName: "remove",
      abstract: "Remove a user and delete everything they stored.",
      arguments: [name],
      options: [ServeUserGroup.dataOption, ServeUserGroup.storeOption],
      examples: ["lifelog serve user remove alice"],
      usesDatabase: false)
    static let name = ArgumentSpec("name", "The user to remove.")

    let user: ServerUserTarget

    func run(in context: Context) throws {
      let (batches, snapshots) = try user.store.open().removeUser(name: user.name)
      context.output.write(
        "Removed user '\(user.name)' with \(batches) batch(es) and \(snapshots) snapshot(s)\n")
    }
  }

  struct ServeUserToken: ServerUserCommand {
    static let configuration = CommandConfiguration(
      commandName: "token",
      abstract: "Give a user a new token; the old one stops working at once.",
      arguments: [name],
      options: [ServeUserGroup.dataOption, ServeUserGroup.storeOption],
      examples: ["lifelog serve user token alice > alice.token"],
      usesDatabase: false)
    static let name = ArgumentSpec("name", "The user.")

    let user: ServerUserTarget

    func run(in context: Context) throws {
      let token = try user.store.open().replaceToken(ofUser: user.name)
      context.output.write(token + "\n")
      context.errors.write(
        "New token for '\(user.name)', shown only this once; the old one no longer works\n")
    }
  }
}

/// `serve user add`, `remove` and `token`: each acts on one user, named on the command line.
protocol ServerUserCommand: Command {
  /// The user's name.
  static var name: ArgumentSpec { get }
  var user: ServerUserTarget { get }
  init(user: ServerUserTarget)
}

extension ServerUserCommand {
  init(parsing arguments: ParsedArguments, in context: Context) throws {
    self.init(
      user: try ServerUserTarget(arguments, name: Self.name, of: Self.self, context: context))
  }
}

/// The user a `serve user` subcommand acts on, checked, and the store that keeps them.
struct ServerUserTarget: Sendable {
  let name: String
  let store: ServerStoreLocation

  init<C: Command>(
    _ arguments: ParsedArguments, name argument: ArgumentSpec, of command: C.Type,
    context: Context
  ) throws {
    let name = try arguments.checkedPositionals(for: C.configuration).required(argument)
    guard ServerUser.isValidName(name) else {
      throw InputError("User name '\(name)' must be 1–64 letters, digits, '.', '_' or '-'")
    }
    self.name = name
    store = try LifelogCommand.ServeUserGroup.location(arguments, context: context)
  }
}
