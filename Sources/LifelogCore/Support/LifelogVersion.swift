/// This lifelog's version: printed by `--version` and written into remotes it creates.
public enum LifelogVersion {
  public static let current = "0.4.0"
  /// The lowest version that may write to a remote this version creates: batches in format 1.
  public static let minimumRemoteWriter = "0.2.0"
  /// The lowest version that may write to an encrypted remote: 0.2.0 reads no key envelope and
  /// would push plain batches, which the remote's other machines refuse, so it must be told to
  /// upgrade instead (docs/design.md §4.1, "names the lowest lifelog version that may write to
  /// it").
  public static let minimumEncryptedRemoteWriter = "0.3.0"

  /// The `minVersion` a remote's manifest names.
  public static func minimumWriter(encrypted: Bool) -> String {
    encrypted ? minimumEncryptedRemoteWriter : minimumRemoteWriter
  }
}
