import CLifelogWebAssets
import LifelogProtocol

/// The web app `lifelog serve` serves at `/` (docs/web.md): the files of `Web/`, built into the
/// binary (``files``, embedded from Web/ by the compiler: `CLifelogWebAssets`), so the server is
/// still one file.
///
/// Every answer carries a policy that lets the page run only its own scripts (no inline script,
/// nothing from elsewhere), never be framed, never send a `Referer` (the pairing link's fragment
/// and a share link's key must not leave the page) and never have its types sniffed.
public enum WebApp {
  /// The headers of every file of the app.
  static let securityHeaders: [(name: String, value: String)] = [
    (
      "Content-Security-Policy",
      "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; object-src 'none'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    ("Referrer-Policy", "no-referrer"),
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    // The service worker keeps the app for offline use; the network copy is always checked first.
    ("Cache-Control", "no-cache"),
  ]

  /// The file a path names, as a key of ``files``, or nil when it is none of the app's.
  ///
  /// `/` is the app's page; `/s/{id}` the viewer of a shared report (its key stays in the
  /// fragment, which no request carries).
  static func servedPath(_ path: String) -> String? {
    if path == "/" { return "/index.html" }
    if path.hasPrefix("/s/"), APIPath.isName(path.dropFirst(3)) { return "/share.html" }
    if path == sodiumPath, !sodiumModule.isEmpty { return path }
    return files[path] == nil ? nil : path
  }

  /// The answer for a file ``servedPath(_:)`` gave.
  static func response(for path: String) -> HTTPResponse {
    if path == sodiumPath {
      return HTTPResponse(
        status: 200, headers: [(APIHeader.contentType, "application/wasm")] + securityHeaders,
        body: sodiumModule)
    }
    guard let file = files[path] else {
      return .error(.notFound("No such path '\(path)'"))
    }
    let body = file.bytes
    var headers = [(name: String, value: String)]()
    headers.append((APIHeader.contentType, file.type))
    // The viewer shows a report whose HTML carries its own style, in a sandboxed frame that
    // runs no script; its page allows inline style, never script.
    headers.append(
      contentsOf: path == "/share.html"
        ? securityHeaders.map {
          $0.name == "Content-Security-Policy"
            ? ($0.name, $0.value + "; style-src 'self' 'unsafe-inline'; img-src 'self' data:") : $0
        } : securityHeaders)
    if path == "/sw.js" { headers.append(("Service-Worker-Allowed", "/")) }
    return HTTPResponse(status: 200, headers: headers, body: body)
  }
}

extension WebApp {
  /// Where the libsodium WebAssembly module is served.
  static let sodiumPath = "/sodium.wasm"

  /// The module's bytes (``CLifelogWebAssets``), empty when lifelog was built without it.
  static let sodiumModule: [UInt8] = {
    var length = 0
    guard let bytes = lifelog_sodium_wasm(&length), length > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: bytes, count: length))
  }()
}

extension WebApp {
  /// The app's files by path, as `lifelog_web_files` lists them (scripts/web-embed.sh).
  static let files: [String: WebFile] = {
    var count = 0
    guard let list = lifelog_web_files(&count) else { return [:] }
    var files: [String: WebFile] = [:]
    for file in UnsafeBufferPointer(start: list, count: count) {
      files[String(cString: file.path)] = WebFile(
        type: String(cString: file.type),
        bytes: Array(UnsafeBufferPointer(start: file.bytes, count: file.length)))
    }
    return files
  }()
}

/// One file of the app: its `Content-Type` and its bytes.
struct WebFile {
  let type: String
  let bytes: [UInt8]
}
