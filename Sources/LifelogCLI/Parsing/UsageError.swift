/// A command line that does not fit the command: an unknown option, a missing value, a missing or
/// extra argument.
///
/// Shown with the command's usage line; exit 64.
struct UsageError: Error, Equatable {
  let message: String
  init(_ message: String) { self.message = message }
}
