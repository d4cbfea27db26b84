import Foundation

/// Runs a program other than lifelog (openssl, htpasswd, chown) for a test, with its output
/// discarded.
public enum ToolProcess {
  /// - Returns: its exit status.
  public static func run(_ path: String, _ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// Runs it and returns its exit status and what it wrote, standard error after standard output
  /// (poppler's pdftotext and pdffonts, scripts/catalogs.sh: small outputs).
  public static func output(
    _ path: String, _ arguments: [String]
  ) throws -> (
    status: Int32, text: String
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}

/// A self-signed certificate for 127.0.0.1, made with openssl, for the tests of HTTPS.
public enum TestCertificate {
  /// Whether openssl is installed; the tests that need it return early without it.
  public static var isAvailable: Bool {
    FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")
  }

  /// Writes a certificate valid for two days for IP 127.0.0.1 to `certificate`, and its key to
  /// `key` (both PEM).
  public static func make(certificate: String, key: String) throws {
    let status = try ToolProcess.run(
      "/usr/bin/openssl",
      [
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
        "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", certificate,
      ])
    guard status == 0 else {
      throw ServerProcessError(message: "openssl could not make a certificate (exit \(status))")
    }
  }
}
