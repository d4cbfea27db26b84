extension LifelogCommand.Serve {
  /// The warning `lifelog serve` prints when it serves the web app over plain HTTP to other
  /// machines: browsers run service workers and WebCrypto only over HTTPS or on localhost, and a
  /// pairing link or token sent in the clear can be read on the way (docs/deploy.md).
  ///
  /// Nil on a loopback address (`127.0.0.0/8`, `::1`, `localhost`) or with TLS.
  static func plainHTTPWarning(host: String, scheme: String) -> String? {
    guard scheme == "http" else { return nil }
    let loopback = host == "localhost" || host == "::1" || host.hasPrefix("127.")
    if loopback { return nil }
    return "lifelog serve: warning: serving the web app and tokens over plain http on \(host); "
      + "phones need HTTPS for the app to work offline and to encrypt, and anyone on the way can "
      + "read a pairing link: use --tls-cert and --tls-key, or a reverse proxy (docs/deploy.md)"
  }
}
