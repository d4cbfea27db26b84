import LifelogCore
import LifelogSync

extension LifelogCommand {
  /// `lifelog remote`: the places this log syncs with.
  ///
  /// Alone, it lists them.
  struct RemoteGroup: DelegatingCommand {
    static let configuration = CommandConfiguration(
      commandName: "remote",
      abstract: "Add, list and remove sync remotes; change passphrases.",
      discussion: "'lifelog remote' alone lists the remotes.",
      options: RemoteList.configuration.options,
      subcommands: [
        RemoteAdd.self, RemoteList.self, RemoteRemove.self, RemotePasswd.self, RemoteRecover.self,
      ])

    let work: RemoteList
  }

  struct RemoteAdd: Command {
    static let configuration = CommandConfiguration(
      commandName: "add",
      abstract: "Create or join a folder or WebDAV remote, or join a lifelog server.",
      discussion: """
        A folder remote is a plain directory (a USB stick, NFS, a Dropbox or Syncthing folder). A missing
        or empty folder becomes a new remote; a folder that already holds one is joined. A server
        remote is an http:// or https:// address of 'lifelog serve', with the token its operator gave
        you (--token-file, or LIFELOG_TOKEN); the token is kept in your log and never printed.

        A WebDAV remote (Nextcloud, ownCloud, any WebDAV host) is a davs://host[:port]/path address
        (dav:// is plain HTTP, for a trusted LAN only) with --user and the password from
        --password-file or LIFELOG_DAV_PASSWORD (never on the command line); it is kept in your log
        like a token and never printed. A missing or empty folder there becomes a new remote.

        With --encrypt, a new remote holds only ciphertext (docs/security.md): a passphrase (from
        --passphrase-file, LIFELOG_PASSPHRASE or the terminal) protects its key, and a recovery key is
        printed once. Joining an encrypted remote asks for its passphrase once; this machine then keeps
        the remote's key, never the passphrase. On a terminal, creating a remote without --encrypt or
        --no-encrypt asks, defaulting to encrypt; without a terminal it encrypts only with --encrypt.
        """,
      arguments: [name, url],
      options: credentialOptions + [encrypt, noEncrypt, passphraseFile],
      examples: [
        "lifelog remote add usb /media/usb/lifelog",
        "lifelog remote add dropbox ~/Dropbox/lifelog --encrypt",
        "lifelog remote add home https://sync.example.org:8787 --token-file ~/lifelog-token",
        "lifelog remote add cloud davs://cloud.example.org/remote.php/dav/files/alice/lifelog --user alice --password-file ~/.dav-password --encrypt",
      ])

    static let name = ArgumentSpec("name", "A short name for the remote, e.g. 'usb' or 'home'.")
    static let url = ArgumentSpec(
      "url", "A folder path, file:///path, http(s)://host:port or davs://host/path.")
    static let encrypt = OptionSpec(
      ["--encrypt"], help: "Encrypt a new remote end to end (or join an encrypted one).")
    static let noEncrypt = OptionSpec(
      ["--no-encrypt"], help: "Create a new remote unencrypted, without asking.")
    static let passphraseFile = OptionSpec(
      ["--passphrase-file"], value: "file",
      help: "A file holding the passphrase (or LIFELOG_PASSPHRASE).")

    let name: String
    let url: String
    let token: String?
    /// `--encrypt` (true), `--no-encrypt` (false), or neither.
    let encrypt: Bool?
    let passphraseFile: String?

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      let positionals = try arguments.checkedPositionals(for: Self.configuration)
      name = try RemoteAdd.checkedName(positionals.required(Self.name))
      url = positionals.required(Self.url)
      token = try RemoteAdd.credentials(arguments, url: url, environment: context.environment)
      switch (arguments.flag(Self.encrypt), arguments.flag(Self.noEncrypt)) {
      case (true, true): throw UsageError("Give either --encrypt or --no-encrypt, not both")
      case (true, false): encrypt = true
      case (false, true): encrypt = false
      case (false, false): encrypt = nil
      }
      passphraseFile = arguments.value(Self.passphraseFile)
    }

    static func checkedName(_ name: String) throws -> String {
      guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
      else {
        throw InputError("Remote name '\(name)' must be a word of letters, digits, '-' or '_'")
      }
      return name
    }

    /// The options that give a remote's credentials (``credentials(_:url:environment:)``).
    static let credentialOptions = [tokenFile, user, passwordFile]
    static let tokenFile = OptionSpec(
      ["--token-file"], value: "file",
      help: "A file holding the server's token (or LIFELOG_TOKEN).")
    static let user = OptionSpec(["--user"], value: "name", help: "The WebDAV account's user name.")
    static let passwordFile = OptionSpec(
      ["--password-file"], value: "file",
      help: "A file holding the WebDAV password (or LIFELOG_DAV_PASSWORD).")

    /// What is kept to reach `url` (``RemoteCredentials``): a server's token, a WebDAV account,
    /// or nil for a folder; an option that does not belong to the remote's kind is a usage error.
    static func credentials(
      _ arguments: ParsedArguments, url: String, environment: [String: String]
    ) throws -> String? {
      let given = RemoteCredentials.Given(
        tokenFile: arguments.value(tokenFile), user: arguments.value(user),
        passwordFile: arguments.value(passwordFile), environment: environment)
      if let misplaced = RemoteCredentials.misplacedOption(given, url: url) {
        throw UsageError(misplaced)
      }
      return try RemoteCredentials.kept(given, url: url)
    }

    func run(in context: Context) throws {
      if DAVRemote.isPlain(url) {
        context.errors.write(
          "Warning: dav:// sends the password and, unless the remote is encrypted, your entries "
            + "unencrypted over the network; use it only on a network you trust, davs:// elsewhere\n"
        )
      }
      let store = SyncStore(log: try context.store)
      let passphrase = PassphraseSource(file: passphraseFile, context: context)
      let setup = RemoteSetup(store: store)
      try setup.checkFree(name)
      let added = try setup.add(
        name: name,
        remote: context.remote(url, token: token, deadline: Deadline(seconds: 10)),
        token: token,
        answers: RemoteSetup.Answers(
          encrypt: encrypt, wantsEncryption: { wantsEncryption(context) },
          passphrase: { try passphrase.read(creating: $0, remote: name) }))
      let verb =
        switch (added.outcome, added.encrypted) {
        case (.created, true): "Created a new encrypted remote"
        case (.created, false): "Created a new remote"
        case (.joined, true): "Joined the encrypted remote"
        case (.joined, false): "Joined the remote"
        }
      context.output.write(
        "\(verb) '\(name)' at \(added.location); run 'lifelog sync' to sync with it\n")
      if let recoveryKey = added.recoveryKey {
        context.output.write(RecoveryKeyNotice.text(recoveryKey, remote: name))
      }
    }

    /// Whether a new remote is to be encrypted when neither --encrypt nor --no-encrypt was given:
    /// asked on a terminal (default yes), else not.
    private func wantsEncryption(_ context: Context) -> Bool {
      guard let prompt = context.prompt else { return false }
      return prompt.confirm(
        "Encrypt '\(name)' end to end, so the remote never sees your entries?", defaultAnswer: true)
    }
  }

  struct RemoteList: Command {
    static let configuration = CommandConfiguration(
      commandName: "list",
      abstract: "List the remotes and how their last sync went.",
      options: [format.spec],
      examples: ["lifelog remote list"])
    static let format = ChoiceOption.format([OutputFormat.table, .json])

    let json: Bool

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      _ = try arguments.checkedPositionals(for: Self.configuration)
      json = try arguments.choice(Self.format) == .json
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
      var table = Table([
        .init(title: "NAME"), .init(title: "URL", truncatable: true), .init(title: "LAST SYNC"),
        .init(title: "OUTCOME"),
      ])
      for remote in remotes {
        table.append([
          remote.name + (remote.dataKey != nil ? " (encrypted)" : ""), remote.url,
          RemoteStatusText.time(remote.lastSyncAt, context: context),
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
      arguments: [name],
      examples: ["lifelog remote remove usb"])
    static let name = ArgumentSpec("name", "The remote to forget.", completes: .remoteName)

    let name: String

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      name = try arguments.checkedPositionals(for: Self.configuration).required(Self.name)
    }

    func run(in context: Context) throws {
      try SyncStore(log: try context.store).removeRemote(named: name)
      context.output.write("Removed remote '\(name)'; nothing on the remote itself was touched\n")
    }
  }
}

extension Context {
  /// The remote at `url` (``RemoteAddress``), trusting `LIFELOG_CA_FILE` for a private server.
  func remote(
    _ url: String, token: String?, deadline: Deadline, envelope: BatchEnvelope = .plain
  ) throws -> any Remote {
    try RemoteAddress.open(
      url, token: token, caFile: environment["LIFELOG_CA_FILE"], deadline: deadline,
      envelope: envelope)
  }
}
