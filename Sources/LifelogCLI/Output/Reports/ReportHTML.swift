import LifelogCore

/// Reports as one self-contained HTML file, to print or hand to a doctor: inline CSS, inline SVG
/// charts drawn here, no JavaScript and nothing loaded from anywhere.
///
/// The markup is XHTML-compatible (void elements closed with `/>`, every other tag closed), so a
/// simple tag-balance check can read it. Printed on A4, the meal diary's summary and its one
/// timeline for the whole range share the first page; the days' tables follow.
struct ReportHTML {
  let content: ReportContent

  var settings: ReportSettings { content.settings }
  let plain = ReportStyle(colour: false)

  func render() -> String {
    var text = ""
    render { text += $0 }
    return text
  }

  /// The same, handed to `write` a piece (about 64 KiB) at a time, so a long diary (or the
  /// compact report's timeline, a mark per meal) is never held whole.
  func render(_ write: (String) -> Void) {
    var html = ReportBytes()
    html.reserve(1 << 17)
    let title: String
    switch content.kind {
    case .meals: title = Translation.current("Meals")
    case .activity: title = Translation.current("Activities")
    case .both: title = Translation.current("Report")
    }
    head(title, into: &html)
    let flush = { (html: inout ReportBytes) in
      guard html.count >= 1 << 16 else { return }
      write(html.string)
      html.removeAll()
    }
    if let meals = content.meals {
      switch content.kind {
      case .meals: mealDiary(meals, into: &html, flush: flush)
      case .both: mealsCompact(meals, into: &html, flush: flush)
      case .activity: break
      }
    }
    if let activity = content.activity {
      activitySection(activity, compact: content.kind == .both, into: &html, flush: flush)
    }
    html +=
      "<footer>"
      + Translation.current("Made by lifelog. Times are on the clock where each entry was logged.")
      + "</footer>\n"
    html += "</main>\n</body>\n</html>\n"
    write(html.string)
  }

  // MARK: - Head

  func head(_ title: String, into html: inout ReportBytes) {
    let range = ReportText.range(content.range)
    let name = settings.name.isEmpty ? "" : " — " + Self.escape(settings.name)
    html +=
      "<!DOCTYPE html>\n<html lang=\"\(Translation.current.language.rawValue)\">\n<head>\n<meta charset=\"utf-8\"/>\n"
    html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
    html += "<title>\(title), \(Self.escape(range))\(name)</title>\n"
    html += "<style>\n\(Self.css)</style>\n</head>\n<body>\n<main>\n<header>\n"
    html += "<h1>\(title) <span class=\"range\">\(Self.escape(range))</span></h1>\n"
    if !settings.name.isEmpty {
      html += "<p class=\"person\">\(Self.escape(settings.name))</p>\n"
    }
    let tr = Translation.current
    let time = ReportText.clock(minuteAfterMidnight: settings.dayStartsAtMinutes)
    let lead =
      content.kind == .activity
      ? tr.format(
        "Days start at {time}. Times are shown on the clock where each entry was logged.",
        ["time": time])
      : tr.format(
        "Days start at {time}; gaps between meals {rule} are flagged (▲ too long, ▼ too short, doubled when an hour or more outside). Times are shown on the clock where each entry was logged.",
        ["time": time, "rule": ReportText.gapRule(settings)])
    html += "<p class=\"lead\">\(Self.escape(lead))</p>\n"
    offsets(into: &html)
    html += "</header>\n"
  }

  /// The UTC offsets the entries were logged at, when there is more than one or any was away.
  func offsets(into html: inout ReportBytes) {
    let list = content.offsets
    guard list.count > 1 || list.contains(where: { $0.awayEntries > 0 }) else { return }
    let tr = Translation.current
    html += "<div class=\"offsets\"><strong>\(Self.escape(tr("Time zones.")))</strong> "
    html += Self.escape(tr("Entries were logged at")) + " "
    html += list.map { offset in
      var text = "<b>\(ReportText.offset(offset.offsetMinutes))</b> ("
      text += tr.plural("%d entry", "%d entries", count: offset.entries)
      if offset.awayEntries > 0 {
        text += ", " + tr("away from home") + ", "
        text +=
          offset.firstDay == offset.lastDay
          ? ReportText.day(offset.firstDay)
          : tr.format(
            "{first} to {last}",
            ["first": ReportText.day(offset.firstDay), "last": ReportText.day(offset.lastDay)])
      }
      return text + ")"
    }.joined(separator: ", ")
    html += ". "
    html += tr.format(
      "Times logged away from home are marked {tag} in tables and drawn as open circles.",
      ["tag": "<span class=\"away-tag\">UTC±hh:mm</span>"])
    html += "</div>\n"
  }

  // MARK: - Tables

  /// A table; the first row is the header (title-cased).
  ///
  /// - Parameter flush: called after each row, to hand on what is gathered (a table of a row per
  ///   day of the whole calendar is never held).
  func table<Rows: Collection>(
    _ rows: Rows, numeric: Set<Int>, highlighted: Set<Int> = [], into html: inout ReportBytes,
    flush: (inout ReportBytes) -> Void = { _ in }
  ) where Rows.Element == [String] {
    guard let header = rows.first else { return }
    html += "<table>\n<thead><tr>"
    for (column, title) in header.enumerated() {
      html += numeric.contains(column) ? "<th class=\"n\">" : "<th>"
      html += "\(Self.escape(Self.title(title)))</th>"
    }
    html += "</tr></thead>\n<tbody>\n"
    for (index, row) in rows.enumerated().dropFirst() {
      html += highlighted.contains(index) ? "<tr class=\"flagged\">" : "<tr>"
      for (column, cell) in row.enumerated() {
        html += numeric.contains(column) ? "<td class=\"n\">" : "<td>"
        html += "\(Self.escape(cell))</td>"
      }
      html += "</tr>\n"
      flush(&html)
    }
    html += "</tbody>\n</table>\n"
  }

  /// `LONGEST GAP` as `Longest gap`.
  static func title(_ text: String) -> String {
    guard let first = text.first else { return text }
    return first.uppercased() + text.dropFirst().lowercased()
  }

  /// Appends `text` escaped as ``escape(_:)`` does.
  static func appendEscaped(_ text: String, to html: inout ReportBytes) {
    let text = TerminalText.visible(text, keepingNewlines: true)
    guard text.utf8.contains(where: { $0 == 38 || $0 == 60 || $0 == 62 || $0 == 34 || $0 == 39 })
    else { return html.append(text) }
    html.append(escape(text))
  }

  /// Text with `&`, `<`, `>`, `"` and `'` written as character references, and control
  /// characters (not allowed in HTML; they may have come by sync) as visible escapes.
  static func escape(_ text: String) -> String {
    let text = TerminalText.visible(text, keepingNewlines: true)
    guard text.utf8.contains(where: { $0 == 38 || $0 == 60 || $0 == 62 || $0 == 34 || $0 == 39 })
    else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count + 16)
    for character in text.unicodeScalars {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      default: result.unicodeScalars.append(character)
      }
    }
    return result
  }
}

extension ReportBytes {
  static func += (bytes: inout ReportBytes, text: String) { bytes.append(text) }
}
