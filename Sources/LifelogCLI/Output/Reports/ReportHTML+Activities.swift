import LifelogCore

/// The activity section: its tables and the totals chart against the targets.
extension ReportHTML {
  ///
  /// - Parameter flush: hands on what is gathered, between the rows of the period and night
  ///   tables.
  func activitySection(
    _ report: ActivityReport, compact: Bool, into html: inout ReportBytes,
    flush: (inout ReportBytes) -> Void
  ) {
    let renderer = ActivityReportText(report: report, style: plain)
    let tr = Translation.current
    html += "<section class=\"activities\">\n<h2>"
    html += compact ? tr("Activities") : tr("Totals against targets")
    html += "</h2>\n"
    if report.activities.isEmpty {
      html += "<p class=\"none\">\(tr("No activities logged in this range."))</p>\n"
    } else {
      totalsChart(report, into: &html)
      if compact {
        table(renderer.totalRows(), numeric: [1, 2, 3, 4, 5], into: &html)
      } else {
        let heading = renderer.heading().split(separator: "\n")
        if heading.count > 1 {
          html += "<p class=\"lead\">\(Self.escape(String(heading[1])))</p>\n"
        }
        table(renderer.periodRows(), numeric: [2, 3, 4, 5, 6], into: &html, flush: flush)
      }
      let targets = renderer.targets()
      if !targets.isEmpty { html += "<p class=\"small\">\(Self.escape(targets))</p>\n" }
    }
    html += "<h3>\(tr("Sleep"))</h3>\n"
    if !renderer.hasSleep {
      html += "<p class=\"none\">\(tr("None logged."))</p>\n"
    } else if compact {
      var line = renderer.sleepLine()
      let prefix = tr("Sleep") + ": "
      if line.hasPrefix(prefix) { line = String(line.dropFirst(prefix.count)) }
      html += "<p>\(Self.escape(line.prefix(1).uppercased() + line.dropFirst()))</p>\n"
    } else {
      html += "<p class=\"small\">\(tr("A night belongs to the day it begins in."))</p>\n"
      table(renderer.sleepRows(), numeric: [], into: &html, flush: flush)
      html += "<p>\(Self.escape(renderer.averageLine(report.sleep)))</p>\n"
    }
    html += "</section>\n"
  }

  /// A horizontal bar per activity with a target: what was reached over the range, the target
  /// marked at 100%.
  func totalsChart(_ report: ActivityReport, into html: inout ReportBytes) {
    let targeted = report.activities.filter { $0.total.percentReached != nil }
    let width = 852
    let barLeft = 150
    let barWidth = 520
    let rowHeight = 34
    let height = 16 + max(targeted.count, 1) * rowHeight + 18
    let largest = targeted.compactMap(\.total.percentReached).max() ?? 100
    let scale = min(max(largest, 100) * 1.05, 200)
    let scaled = { (percent: Double) -> Int in
      barLeft
        + ReportText.wholeNumber((min(percent, scale) / scale * Double(barWidth)).rounded(.down))
    }
    html += "<figure class=\"chart\">\n<svg class=\"totals\" "
    html += "viewBox=\"0 0 \(width) \(height)\" width=\"100%\" role=\"img\" "
    let tr = Translation.current
    html += "aria-label=\"\(Self.escape(tr("Activity totals against targets")))\">\n"
    if targeted.isEmpty {
      html += "<text class=\"nomeals\" x=\"\(barLeft)\" y=\"36\">"
      html += "\(tr("No activity has a target."))</text>\n"
    }
    for (row, totals) in targeted.enumerated() {
      guard let percent = totals.total.percentReached, let target = totals.total.targetAmount,
        let goal = totals.activity.target
      else { continue }
      let y = 16 + row * rowHeight
      let reached = percent >= 100
      html += "<text class=\"day\" x=\"\(barLeft - 12)\" y=\"\(y + 17)\">"
      html += "\(Self.escape(totals.activity.name))</text>\n"
      html +=
        "<rect class=\"track\" x=\"\(barLeft)\" y=\"\(y + 4)\" width=\"\(barWidth)\" height=\"18\" rx=\"3\"/>\n"
      html += "<rect class=\"\(reached ? "bar met" : "bar")\" x=\"\(barLeft)\" y=\"\(y + 4)\" "
      html += "width=\"\(max(scaled(percent) - barLeft, 1))\" height=\"18\" rx=\"3\"/>\n"
      let mark = scaled(100)
      html +=
        "<line class=\"target\" x1=\"\(mark)\" y1=\"\(y)\" x2=\"\(mark)\" y2=\"\(y + 26)\"/>\n"
      html += "<text class=\"value\" x=\"\(barLeft + barWidth + 10)\" y=\"\(y + 17)\">"
      html += Self.escape(
        tr.format(
          "{percent} of {target}",
          [
            "percent": ReportText.percent(percent),
            "target": ReportText.targetAmount(target, of: goal),
          ]))
      html += "</text>\n"
    }
    if !targeted.isEmpty {
      let mark = scaled(100)
      html += "<text class=\"hour\" x=\"\(mark)\" y=\"\(height - 4)\">\(tr("target"))</text>\n"
    }
    html += "</svg>\n<figcaption class=\"legend\"><span><svg class=\"key\" viewBox=\"0 0 22 12\" "
    html +=
      "width=\"22\" height=\"12\"><rect class=\"key-bar\" x=\"1\" y=\"1\" width=\"20\" height=\"10\" "
    html +=
      "rx=\"2\"/></svg> \(tr("reached"))</span><span><svg class=\"key\" viewBox=\"0 0 22 12\" width=\"22\" "
    html +=
      "height=\"12\"><rect class=\"key-met\" x=\"1\" y=\"1\" width=\"20\" height=\"10\" rx=\"2\"/>"
    html +=
      "</svg> \(tr("target met"))</span><span><svg class=\"key\" viewBox=\"0 0 6 14\" width=\"6\" "
    html += "height=\"14\"><line class=\"key-target\" x1=\"3\" y1=\"0\" x2=\"3\" y2=\"14\"/></svg> "
    html += "\(tr("target over the range"))</span></figcaption>\n</figure>\n"
  }
}
