import LifelogCore

/// What a remote's address needs to be reached, and how it is kept in the log: the one place that
/// knows which credentials each remote kind takes (``Kind``) and how a WebDAV account is written
/// into the single secret a ``RemoteRecord`` keeps (``Account``).
///
/// The command line only gathers what the person gave (``Given``) and prints the refusals.
public enum RemoteCredentials {
  /// What a remote kind is reached with.
  public enum Kind: Equatable, Sendable {
    /// A folder: nothing.
    case none
    /// A `lifelog serve` server (`http(s)://`): a bearer token.
    case token
    /// A WebDAV host (`dav(s)://`): a user name and a password.
    case account

    /// The kind of the remote at `url`.
    public init(url: String) {
      if DAVRemote.handles(url) {
        self = .account
      } else if HTTPRemote.handles(url) {
        self = .token
      } else {
        self = .none
      }
    }
  }

  /// The credential options and environment a person gave for one remote.
  public struct Given: Sendable {
    /// `--token-file`: a file holding a server's token.
    public var tokenFile: String?
    /// `--user`: a WebDAV account's user name.
    public var user: String?
    /// `--password-file`: a file holding a WebDAV account's password.
    public var passwordFile: String?
    /// `LIFELOG_TOKEN` and `LIFELOG_DAV_PASSWORD` are read from here.
    public var environment: [String: String]

    public init(
      tokenFile: String? = nil, user: String? = nil, passwordFile: String? = nil,
      environment: [String: String] = [:]
    ) {
      self.tokenFile = tokenFile
      self.user = user
      self.passwordFile = passwordFile
      self.environment = environment
    }
  }

  /// A WebDAV account as the log keeps it: `user:password` (a user name holds no `:`).
  public struct Account: Equatable, Sendable {
    public var user: String
    public var password: String

    public init(user: String, password: String) {
      self.user = user
      self.password = password
    }

    /// Reads the kept form; nil when it has no `:`.
    public init?(kept: String) {
      guard let colon = kept.firstIndex(of: ":") else { return nil }
      user = String(kept[..<colon])
      password = String(kept[kept.index(after: colon)...])
    }

    /// `user:password`, the form kept in the log as a server's token is.
    public var kept: String { user + ":" + password }
  }

  /// The longest user name and password file read, in bytes.
  static let maximumUserBytes = 256
  static let maximumPasswordFileBytes = 4096

  /// Why an option given for a remote does not belong to its kind, or nil when every given
  /// option does; the caller refuses the command line with it (a usage error).
  public static func misplacedOption(_ given: Given, url: String) -> String? {
    switch Kind(url: url) {
    case .account:
      if given.tokenFile != nil {
        return "--token-file is for server (http/https) remotes; give --user and --password-file"
      }
    case .token, .none:
      if given.user != nil || given.passwordFile != nil {
        return "--user and --password-file are for WebDAV (davs://) remotes only"
      }
      if Kind(url: url) == .none, given.tokenFile != nil {
        return "--token-file is for server (http/https) remotes only"
      }
    }
    return nil
  }

  /// What is kept to reach `url`: a server's token, a WebDAV account's kept form, or nil.
  ///
  /// Nil is for a folder. Options that do not belong to the kind are ignored here (see
  /// ``misplacedOption(_:url:)``).
  ///
  /// - Throws: ``InputError`` for a credential that is missing, unreadable or malformed.
  public static func kept(_ given: Given, url: String) throws(InputError) -> String? {
    switch Kind(url: url) {
    case .none: nil
    case .token: try token(given)
    case .account: try account(given).kept
    }
  }

  /// The server token: from `--token-file`, else `LIFELOG_TOKEN`.
  static func token(_ given: Given) throws(InputError) -> String {
    var token = given.environment["LIFELOG_TOKEN"]
    if let file = given.tokenFile {
      guard let bytes = try? LocalFile.read(file) else {
        throw InputError(
          "Cannot read the token file '\(file)'; check the path and its permissions")
      }
      token = String(decoding: bytes, as: UTF8.self)
    }
    guard let token = token?.trimmingCharacters(), !token.isEmpty else {
      throw InputError(
        "A server remote needs its token: pass --token-file FILE or set LIFELOG_TOKEN "
          + "(the server's operator makes one with 'lifelog serve user add NAME')")
    }
    guard token.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
      throw InputError(
        "The token holds spaces or other characters a token never has; check the file")
    }
    return token
  }

  /// A WebDAV account: the user from `--user`, the password from `--password-file`, else
  /// `LIFELOG_DAV_PASSWORD`.
  static func account(_ given: Given) throws(InputError) -> Account {
    guard let user = given.user, !user.isEmpty, user.utf8.count <= maximumUserBytes,
      user.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F && $0 != ":" })
    else {
      throw InputError(
        "A WebDAV remote needs --user NAME: the account's user name (no ':' or control characters)"
      )
    }
    var password = given.environment["LIFELOG_DAV_PASSWORD"]
    if let file = given.passwordFile {
      guard let bytes = try? LocalFile.read(file, limit: maximumPasswordFileBytes) else {
        throw InputError(
          "Cannot read the password file '\(file)'; check the path, its permissions and that it is small"
        )
      }
      // One trailing line break, as an editor or `echo` leaves it, is not part of the password.
      // Checked on scalars: "\r\n" is one Character, which `hasSuffix("\n")` does not match.
      var scalars = String(decoding: bytes, as: UTF8.self).unicodeScalars
      if scalars.last == "\n" { scalars.removeLast() }
      if scalars.last == "\r" { scalars.removeLast() }
      password = String(scalars)
    }
    guard let password, !password.isEmpty else {
      throw InputError(
        "A WebDAV remote needs its password: pass --password-file FILE or set LIFELOG_DAV_PASSWORD "
          + "(for a Nextcloud, make an app password under Settings, Security)")
    }
    guard password.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
      throw InputError(
        "The WebDAV password holds line breaks or control characters; check the file")
    }
    return Account(user: user, password: password)
  }
}
