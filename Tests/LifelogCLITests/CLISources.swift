import Foundation

/// The CLI's own sources, read as text by the tests that check a registry against them.
enum CLISources {
  /// Sources/LifelogCLI, from Tests/LifelogCLITests/ beside this file.
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources/LifelogCLI")

  /// The types declared `struct NAME: PROTOCOL` (or `final class`, `enum`) anywhere under
  /// Sources/LifelogCLI, sorted: what a registry of that protocol's conformers must list.
  static func types(conformingTo protocolName: String) throws -> [String] {
    let declaration = try Regex(
      #"(?m)^\s*(?:struct|final class|enum)\s+(\w+)\s*:\s*"# + protocolName + #"\b"#)
    var names: [String] = []
    let files = FileManager.default.enumerator(atPath: folder.path)
    while let path = files?.nextObject() as? String {
      guard path.hasSuffix(".swift") else { continue }
      let text = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
      for match in text.matches(of: declaration) {
        if let name = match.output[1].substring { names.append(String(name)) }
      }
    }
    return names.sorted()
  }
}
