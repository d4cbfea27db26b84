import LifelogCore

/// The meal sheet at the top of the HTML meal report, as on the PDF's first page: the period and
/// days logged, the gaps against the target in four figures, when meals happen, the longest
/// fasts and the notes' frequent words per time of day. The weeks follow it.
extension ReportHTML {
  func sheetSection(_ text: MealSheetText, into html: inout ReportBytes) {
    html += "<section class=\"sheet\">\n<h2>\(Self.escape(text.title))</h2>\n"
    html += "<p class=\"period\">\(Self.escape(text.period))</p>\n"
    html += "<p class=\"lead\">\(Self.escape(text.logged))</p>\n"
    html += "<h3>\(Self.escape(text.gapsHeading))</h3>\n<div class=\"figures\">\n"
    for figure in text.figures {
      html += "<div class=\"figure\"><span class=\"label\">\(Self.escape(figure.label))</span>"
      html += "<b>\(Self.escape(figure.value))</b>"
      html += "<span class=\"label\">\(Self.escape(figure.detail))</span></div>\n"
    }
    html += "</div>\n"
    profile(text, into: &html)
    html += "<h3>\(Self.escape(text.fastsHeading))</h3>\n"
    if text.sheet.longestFasts.isEmpty {
      html += "<p class=\"none\">\(Self.escape(text.noFasts))</p>\n"
    } else {
      html += "<table class=\"facts\">\n<tbody>\n"
      for fast in text.sheet.longestFasts {
        html += "<tr><th scope=\"row\">\(ReportText.minutes(fast.minutes))</th>"
        html += "<td>\(Self.escape(text.span(fast)))</td></tr>\n"
      }
      html += "</tbody>\n</table>\n"
    }
    html += "<h3>\(Self.escape(text.wordsHeading))</h3>\n<table class=\"facts\">\n<tbody>\n"
    for (label, words) in text.words {
      html +=
        "<tr><th scope=\"row\">\(Self.escape(label))</th><td>\(Self.escape(words))</td></tr>\n"
    }
    html += "</tbody>\n</table>\n</section>\n"
  }

  /// When meals happen: a bar per hour of the report day, the share of logged days with a meal
  /// in it.
  private func profile(_ text: MealSheetText, into html: inout ReportBytes) {
    html += "<h3>\(Self.escape(text.profileHeading))</h3>\n<figure class=\"chart\">\n"
    let column = 30
    let height = 100
    html +=
      "<svg class=\"profile\" viewBox=\"-15 0 \(24 * column + 30) \(height + 18)\" width=\"100%\" "
    html += "role=\"img\" aria-label=\"\(Self.escape(text.profileHeading))\">\n"
    for (hour, share) in text.sheet.hourShares.enumerated() {
      let x = hour * column
      if share > 0 {
        let bar = max(ReportText.wholeNumber(Double(height) * min(share, 1)), 1)
        html += "<rect class=\"bar\" x=\"\(x + 3)\" y=\"\(height - bar)\" "
        html += "width=\"\(column - 6)\" height=\"\(bar)\"><title>"
        html += "\(ReportText.percent(share * 100))</title></rect>\n"
      }
      if hour % 2 == 0 {
        html += "<text class=\"hour-of-day\" x=\"\(x)\" y=\"\(height + 14)\">"
        html += "\(ReportText.clock(minuteOfDay: hour * 60, settings))</text>\n"
      }
    }
    html += "<line class=\"tick major\" x1=\"0\" y1=\"\(height)\" x2=\"\(24 * column)\" "
    html += "y2=\"\(height)\"/>\n</svg>\n"
    html += "<figcaption class=\"legend\"><span>\(Self.escape(text.profileNote))</span>"
    html += "</figcaption>\n</figure>\n"
  }
}
