import LifelogCore

/// How `pair --list` and `share list` print what the server keeps: with `--format json` one JSON
/// array; else a sentence when there is nothing, or a line per item.
///
/// A line holds the server's words, so its control characters are shown, never acted on by the
/// terminal.
struct ServerListing {
  let json: Bool
  /// What to say when there is nothing, with what to run to make one.
  let none: String

  func write<Item>(
    _ items: [Item], to output: any TextOutput,
    object: (Item, inout JSONObjectWriter) -> Void, line: (Item) -> String
  ) {
    if json {
      let objects = items.map { item in
        var writer = JSONObjectWriter()
        object(item, &writer)
        return writer.result
      }
      output.write("[" + objects.joined(separator: ",") + "]\n")
      return
    }
    guard !items.isEmpty else {
      output.write(none + "\n")
      return
    }
    for item in items { output.write(TerminalText.visible(line(item)) + "\n") }
  }
}
