import LifelogCore
import LifelogTestSupport
import Testing

/// The HTML report read as markup: well formed, self-contained, with its charts.
@Suite struct ReportHTMLTests {
  let fixture: ReportFixture
  let october = ["--from", "2026-10-19", "--to", "2026-10-27"]

  init() throws { fixture = try ReportFixture() }

  private func html(_ arguments: [String]) -> String {
    let result = fixture.cli.run(arguments + ["--format", "html"])
    #expect(result.exitCode == 0, "\(result)")
    #expect(result.stderr.isEmpty, "\(result)")
    return result.stdout
  }

  @Test(arguments: [["report", "meals"], ["report", "activity"], ["report"]])
  func isWellFormedAndSelfContained(command: [String]) throws {
    let page = html(command + (command.count > 1 ? october : []))
    #expect(page.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
    try MarkupChecker.check(page)
    #expect(!page.contains("http://"))
    #expect(!page.contains("https://"))
    #expect(!page.lowercased().contains("<script"))
    #expect(!page.lowercased().contains("<link"))
    #expect(!page.contains(" src=\""))
    #expect(page.contains("@page { size: A4"))
    #expect(page.contains("<title>"))
    #expect(page.contains("Ada"))
  }

  @Test func mealTimelineHasAMarkPerMealAndABandPerFlaggedGap() throws {
    let page = html(["report", "meals"] + october)
    let json = fixture.output(
      "report", "meals", "--from", "2026-10-19", "--to", "2026-10-27", "--format", "json")
    // The JSON lists every meal with its `at`, and every flagged gap as {"minutes":…}.
    let meals = json.count(of: "\"at\":")
    let flagged = json.count(of: "{\"minutes\":")
    #expect(meals == 37)
    #expect(flagged == 10)
    let timelines = try MarkupChecker.elements(named: "svg", withClass: "timeline", in: page)
    #expect(timelines.count == 1)  // one for the whole range, not one per week
    let svg = timelines.joined()
    #expect(svg.count(of: "<circle class=\"meal") == meals)
    #expect(svg.count(of: "<circle class=\"meal away\"") == json.count(of: "\"away\":true"))
    #expect(svg.count(of: "<rect class=\"gap ") == flagged)
    #expect(svg.count(of: "no meals</text>") == 1)  // Wed 10-21
    // A row per day.
    #expect(svg.count(of: "<text class=\"day\"") == 9)
    // The days' tables by week; printed, nothing pushes the timeline off the summary's page.
    #expect(page.count(of: "<section class=\"week\">") == 2)
    #expect(!page.contains("break-before: page"))
  }

  @Test func totalsChartHasABarPerTarget() throws {
    let page = html(["report", "activity"] + october)
    let charts = try MarkupChecker.elements(named: "svg", withClass: "totals", in: page)
    #expect(charts.count == 1)
    let chart = charts.joined()
    // walk, run and vitamin d have targets.
    #expect(chart.count(of: "<line class=\"target\"") == 3)
    #expect(chart.count(of: "<rect class=\"bar") == 3)
    #expect(chart.contains("% of "))
  }

  @Test func theBareReportHasBothCharts() throws {
    let page = html(["report"])
    #expect(try MarkupChecker.elements(named: "svg", withClass: "timeline", in: page).count == 1)
    #expect(try MarkupChecker.elements(named: "svg", withClass: "totals", in: page).count == 1)
  }

  @Test func markupInTheNameAndNotesStaysText() throws {
    _ = fixture.output("settings", "set", "name", "<script>alert('Ada & Bob')</script>")
    _ = fixture.output(
      "add", "snack", "<img src=x onerror=alert(1)> & \"tea\"", "--at", "2026-10-26 16:45")
    let page = html(["report", "meals"] + october)
    try MarkupChecker.check(page)
    #expect(!page.lowercased().contains("<script"))
    #expect(!page.contains("<img"))
    #expect(page.contains("&lt;script&gt;alert(&#39;Ada &amp; Bob&#39;)&lt;/script&gt;"))
    #expect(page.contains("&lt;img src=x onerror=alert(1)&gt; &amp; &quot;tea&quot;"))
  }

  @Test func userTextIsEscaped() throws {
    let page = html(["report", "meals"] + october)
    // The 01:30 snack's note: crackers, "couldn't sleep".
    #expect(page.contains("crackers, &quot;couldn&#39;t sleep&quot;"))
    #expect(!page.contains("\"couldn't sleep\""))
  }
}

/// A tiny checker for XHTML-compatible markup: every tag closed in order (void elements written
/// `<br/>`), attributes quoted, no stray `<` or `&` in text.
enum MarkupChecker {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// Throws at the first tag that does not balance.
  static func check(_ text: String) throws {
    _ = try walk(text) { _, _, _ in }
  }

  /// The source text of every `<name class="…">` element whose class list holds `className`.
  static func elements(
    named name: String, withClass className: String, in text: String
  ) throws
    -> [String]
  {
    let bytes = Array(text.utf8)
    var found: [String] = []
    try walk(text) { tag, start, end in
      guard tag.name == name, tag.classes.contains(className) else { return }
      found.append(String(decoding: bytes[start..<end], as: UTF8.self))
    }
    return found
  }

  struct Tag {
    let name: String
    let classes: [String]
  }

  /// Walks the markup, calling `visit` with each closed element and its byte range.
  @discardableResult
  private static func walk(_ text: String, visit: (Tag, Int, Int) throws -> Void) throws -> Int {
    let bytes = Array(text.utf8)
    var stack: [(tag: Tag, start: Int)] = []
    var index = 0
    var inStyle = false
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "&") {
        let rest = String(decoding: bytes[index..<min(index + 8, bytes.count)], as: UTF8.self)
        guard
          ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"].contains(where: rest.hasPrefix) || inStyle
        else { throw Failure(description: "bare & at byte \(index): \(rest)") }
        index += 1
        continue
      }
      guard byte == UInt8(ascii: "<") else {
        if byte == UInt8(ascii: ">") && !inStyle {
          throw Failure(description: "bare > at byte \(index)")
        }
        index += 1
        continue
      }
      guard let close = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else {
        throw Failure(description: "unclosed tag at byte \(index)")
      }
      let inside = String(decoding: bytes[(index + 1)..<close], as: UTF8.self)
      let start = index
      index = close + 1
      if inside.hasPrefix("!DOCTYPE") || inside.hasPrefix("!--") { continue }
      if inside.hasPrefix("/") {
        let name = String(inside.dropFirst())
        guard let open = stack.popLast() else {
          throw Failure(description: "</\(name)> with nothing open")
        }
        guard open.tag.name == name else {
          throw Failure(description: "</\(name)> closes <\(open.tag.name)> at byte \(start)")
        }
        if name == "style" { inStyle = false }
        try visit(open.tag, open.start, index)
        continue
      }
      let tag = try parse(inside, at: start)
      if inside.hasSuffix("/") {
        try visit(tag, start, index)
      } else {
        guard !["meta", "br", "img", "link", "hr", "input"].contains(tag.name) else {
          throw Failure(description: "void <\(tag.name)> not closed with />")
        }
        stack.append((tag, start))
        if tag.name == "style" { inStyle = true }
      }
    }
    guard stack.isEmpty else {
      throw Failure(description: "unclosed: " + stack.map(\.tag.name).joined(separator: ", "))
    }
    return bytes.count
  }

  /// The name and classes of a start tag, with every attribute checked to be quoted.
  private static func parse(_ inside: String, at offset: Int) throws -> Tag {
    var body = Substring(inside)
    if body.hasSuffix("/") { body = body.dropLast() }
    let name = String(body.prefix { $0.isLetter || $0.isNumber })
    guard !name.isEmpty else { throw Failure(description: "bad tag at byte \(offset)") }
    var rest = body.dropFirst(name.count)
    var classes: [String] = []
    while true {
      rest = rest.drop { $0 == " " || $0 == "\n" }
      guard !rest.isEmpty else { break }
      let attribute = rest.prefix { $0 != "=" && $0 != " " }
      rest = rest.dropFirst(attribute.count)
      guard rest.hasPrefix("=\"") else {
        throw Failure(description: "attribute \(attribute) not quoted in <\(name)> at \(offset)")
      }
      rest = rest.dropFirst(2)
      let value = rest.prefix { $0 != "\"" }
      rest = rest.dropFirst(value.count + 1)
      if attribute == "class" { classes = value.split(separator: " ").map(String.init) }
    }
    return Tag(name: name, classes: classes)
  }
}

extension String {
  /// How many times `needle` occurs, not overlapping.
  fileprivate func count(of needle: String) -> Int {
    var count = 0
    var rest = self[...]
    while let range = rest.firstRange(of: needle) {
      count += 1
      rest = rest[range.upperBound...]
    }
    return count
  }
}
