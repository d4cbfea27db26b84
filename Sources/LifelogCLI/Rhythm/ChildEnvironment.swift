/// The environment a program lifelog starts (`systemctl`, `notify-send`, a `remind --exec`
/// command) is given: the caller's, without its secrets.
///
/// The rule: every variable whose name starts with `LIFELOG_` is dropped (they hold the sync
/// passphrase, the WebDAV password and the server token, and a child needs none of them) except
/// `LIFELOG_DB`, a path, which a command that runs `lifelog` again needs to find the log; and so
/// is every variable whose name, in any case, is `PASSWORD`, `TOKEN`, `PASSPHRASE`, `SECRET` or
/// `KEY`, or ends in `_PASSWORD`, `_TOKEN`, `_PASSPHRASE`, `_SECRET` or `_KEY` (another tool's
/// secrets are no business of a notification either). What lifelog itself hands the child
/// (`LIFELOG_MESSAGE`) is added after the scrubbing, through `adding`.
struct ChildEnvironment {
  /// The one `LIFELOG_` variable kept: where the log is, not a secret.
  static let keptLifelogVariables: Set = ["LIFELOG_DB"]
  /// The secret-looking name endings (upper case) that are dropped.
  static let secretSuffixes = ["PASSWORD", "TOKEN", "PASSPHRASE", "SECRET", "KEY"]

  /// The variables the child gets.
  let variables: [String: String]

  /// `inherited` without its secrets, then `adding` (which may name `LIFELOG_` variables).
  init(inheriting inherited: [String: String], adding: [String: String] = [:]) {
    variables = inherited.filter { !Self.isSecret($0.key) }.merging(adding) { $1 }
  }

  /// Whether a variable of this name is kept from child processes.
  static func isSecret(_ name: String) -> Bool {
    let name = name.uppercased()
    return (name.hasPrefix("LIFELOG_") && !keptLifelogVariables.contains(name))
      || secretSuffixes.contains { name == $0 || name.hasSuffix("_" + $0) }
  }
}
