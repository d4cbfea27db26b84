/// What one run of `lifelog` produced.
public struct CommandResult: Sendable, CustomStringConvertible {
  public let exitCode: Int32
  public let stdout: String
  public let stderr: String

  public init(exitCode: Int32, stdout: String, stderr: String) {
    self.exitCode = exitCode
    self.stdout = stdout
    self.stderr = stderr
  }

  public var description: String {
    "exit \(exitCode)\n--- stdout ---\n\(stdout)--- stderr ---\n\(stderr)"
  }
}
