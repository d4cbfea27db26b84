import LifelogCore

/// How `lifelog recover` reports what it saved: a line per table, or one JSON object.
struct RecoveryText {
  let report: RecoveryReport
  /// Where the new log is.
  let log: String
  /// Where the damaged log is now.
  let damaged: String
  let json: Bool

  /// The report; `synced` holds the batches pulled and pushed by `--from-remote`.
  func text(synced: (pulled: Int, pushed: Int)?) -> String {
    json ? jsonText(synced: synced) + "\n" : plainText(synced: synced)
  }

  private func plainText(synced: (pulled: Int, pushed: Int)?) -> String {
    var text =
      "Recovered the log into '\(log)'; the damaged log is kept as '\(damaged)'"
      + (report.headerRebuilt ? " (its header was rebuilt to read it)" : "") + "\n"
    for table in report.tables {
      text += "  \(table.name): \(CheckReportText.grouped(table.saved)) saved"
      if table.unreadable {
        text += ", the table could not be read at all"
      } else if !table.complete {
        var lost: [String] = []
        if table.unreadableRows > 0 {
          lost.append("\(CheckReportText.grouped(table.unreadableRows)) unreadable")
        }
        for range in table.unreadableRanges {
          lost.append(
            range.upperBound == Int64.max
              ? "rows from rowid \(range.lowerBound) on unreadable"
              : "rowids \(range.lowerBound)–\(range.upperBound) unreadable")
        }
        text += ", " + lost.joined(separator: ", ")
      }
      text += "\n"
    }
    if let synced {
      text += "Synced: pulled \(synced.pulled) batches, pushed \(synced.pushed)\n"
    }
    text +=
      report.complete
      ? "Every row SQLite could find was saved.\n"
      : "Rows on damaged pages were lost; a remote that holds them brings them back: 'lifelog recover --from-remote NAME', or 'lifelog sync'.\n"
    return TerminalText.visible(text, keepingNewlines: true)
  }

  private func jsonText(synced: (pulled: Int, pushed: Int)?) -> String {
    let tables = report.tables.map { table -> String in
      var object = JSONObjectWriter()
      object.add("name", table.name)
      object.add("saved", table.saved)
      object.add("unreadableRows", table.unreadableRows)
      object.addRaw(
        "unreadableRanges",
        "["
          + table.unreadableRanges.map { "[\($0.lowerBound),\($0.upperBound)]" }.joined(
            separator: ",") + "]")
      object.add("tableUnreadable", table.unreadable)
      object.add("complete", table.complete)
      return object.result
    }
    var object = JSONObjectWriter()
    object.add("log", log)
    object.add("damaged", damaged)
    object.add("headerRebuilt", report.headerRebuilt)
    object.add("complete", report.complete)
    object.addRaw("tables", "[" + tables.joined(separator: ",") + "]")
    if let synced {
      var sync = JSONObjectWriter()
      sync.add("pulled", synced.pulled)
      sync.add("pushed", synced.pushed)
      object.addRaw("synced", sync.result)
    }
    return object.result
  }
}
