/// The environment lifelog runs in is wrong (HOME unset, a malformed override); exit 78.
struct ConfigurationError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
