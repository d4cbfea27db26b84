import LifelogCore
import LifelogSync

/// Where a passphrase comes from (docs/security.md): `--passphrase-file`, else
/// `LIFELOG_PASSPHRASE`, else a prompt without echo on the terminal.
///
/// Never stored: only the data key it unwraps is kept.
struct PassphraseSource {
  let file: String?
  let environment: [String: String]
  let prompt: TerminalPrompt?

  init(file: String?, context: Context) {
    self.file = file
    environment = context.environment
    prompt = context.prompt
  }

  /// The passphrase; `creating` asks twice on a terminal (``Passphrase`` has the rules).
  func read(creating: Bool, remote: String) throws -> [UInt8] {
    var passphrase: [UInt8]
    if let file {
      guard let bytes = try? LocalFile.read(file) else {
        throw InputError(
          "Cannot read the passphrase file '\(file)'; check the path and its permissions")
      }
      passphrase = Passphrase.fromFile(bytes)
    } else if let text = environment["LIFELOG_PASSPHRASE"], !text.isEmpty {
      passphrase = Array(text.utf8)
    } else if let prompt {
      guard
        let first = prompt.secret(
          creating ? "New passphrase for '\(remote)': " : "Passphrase for '\(remote)': ")
      else { throw InputError("No passphrase was given") }
      if creating {
        guard prompt.secret("The same passphrase again: ") == first else {
          throw InputError("The two passphrases differ; nothing was changed, try again")
        }
      }
      passphrase = first
    } else {
      throw ConfigurationError(
        "The encrypted remote '\(remote)' needs a passphrase and there is no terminal to ask on; "
          + "pass --passphrase-file FILE or set LIFELOG_PASSPHRASE")
    }
    try Passphrase.check(passphrase, creating: creating)
    return passphrase
  }
}

/// What `remote add` and `remote recover` print once about a new encrypted remote.
enum RecoveryKeyNotice {
  static func text(_ recoveryKey: [UInt8], remote: String) -> String {
    """
    Recovery key for '\(remote)' (shown this once; keep it somewhere safe, apart from the passphrase):

        \(RecoveryKeyText.format(recoveryKey))

    With it, 'lifelog remote recover' joins the remote when the passphrase is lost. Losing both
    loses what is on the remote.

    """
  }
}

extension LifelogCommand {
  struct RemotePasswd: Command {
    static let configuration = CommandConfiguration(
      commandName: "passwd",
      abstract: "Change the passphrase of an encrypted remote.",
      discussion: """
        Wraps the remote's data key under a new passphrase; no batch is rewritten, and machines that
        have joined keep syncing. The new passphrase comes from --passphrase-file, LIFELOG_PASSPHRASE or
        the terminal (asked twice). The recovery key stays valid.
        """,
      arguments: [name],
      options: [passphraseFile],
      examples: ["lifelog remote passwd usb"])
    static let name = ArgumentSpec("name", "The encrypted remote.")
    static let passphraseFile = OptionSpec(
      ["--passphrase-file"], value: "file", help: "A file holding the new passphrase.")

    let name: String
    let passphraseFile: String?

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      name = try arguments.checkedPositionals(for: Self.configuration).required(Self.name)
      passphraseFile = arguments.value(Self.passphraseFile)
    }

    func run(in context: Context) throws {
      let source = PassphraseSource(file: passphraseFile, context: context)
      let next = try RemoteSetup(store: SyncStore(log: try context.store)).changePassphrase(
        of: name,
        open: { try context.remote($0.url, token: $0.token, deadline: Deadline(seconds: 30)) },
        passphrase: { try source.read(creating: true, remote: name) })
      context.output.write(
        "Changed the passphrase of '\(name)' (key version \(next.version)); machines that joined keep syncing, "
          + "new ones join with the new passphrase; the recovery key is unchanged\n")
    }
  }

  struct RemoteRecover: Command {
    static let configuration = CommandConfiguration(
      commandName: "recover",
      abstract: "Join an encrypted remote with its recovery key.",
      discussion: """
        For when the passphrase is lost: joins the remote as 'remote add' does, unlocking it with the
        recovery key that 'remote add --encrypt' printed. Then 'lifelog remote passwd' sets a new passphrase.
        """,
      arguments: [name, RemoteAdd.url],
      options: [recoveryKeyFile] + RemoteAdd.credentialOptions,
      examples: ["lifelog remote recover usb /media/usb/lifelog --recovery-key-file ~/recovery.txt"]
    )
    static let name = ArgumentSpec("name", "A short name for the remote.")
    static let recoveryKeyFile = OptionSpec(
      ["--recovery-key-file"], value: "file", help: "A file holding the recovery key.")

    let name: String
    let url: String
    let token: String?
    let recoveryKey: [UInt8]

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      let positionals = try arguments.checkedPositionals(for: Self.configuration)
      name = try RemoteAdd.checkedName(positionals.required(Self.name))
      url = positionals.required(RemoteAdd.url)
      token = try RemoteAdd.credentials(arguments, url: url, environment: context.environment)
      guard let file = arguments.value(Self.recoveryKeyFile) else {
        throw UsageError("Give the recovery key with '--recovery-key-file FILE'")
      }
      guard let bytes = try? LocalFile.read(file) else {
        throw InputError(
          "Cannot read the recovery key file '\(file)'; check the path and its permissions")
      }
      guard let key = RecoveryKeyText.parse(String(decoding: bytes, as: UTF8.self)) else {
        throw InputError("'\(file)' does not hold a recovery key (64 hex digits, in groups or not)")
      }
      recoveryKey = key
    }

    func run(in context: Context) throws {
      let setup = RemoteSetup(store: SyncStore(log: try context.store))
      try setup.checkFree(name)
      let added = try setup.recover(
        name: name, remote: context.remote(url, token: token, deadline: Deadline(seconds: 30)),
        token: token, recoveryKey: recoveryKey)
      context.output.write(
        "Joined the encrypted remote '\(name)' at \(added.location) with the recovery key; set a new passphrase "
          + "with 'lifelog remote passwd \(name)' and run 'lifelog sync'\n")
    }
  }
}
