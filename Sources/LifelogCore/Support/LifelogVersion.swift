/// This lifelog's version: printed by `--version` and written into remotes it creates.
public enum LifelogVersion {
  public static let current = "0.2.0"
  /// The lowest version that may write to a remote this version creates: batches in format 1.
  public static let minimumRemoteWriter = "0.2.0"
}
