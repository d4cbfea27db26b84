import LifelogCore

/// One report format: the words `--format` takes for it, what it refuses, which entry fields it
/// reads, and how it writes the report.
///
/// A new format is one type conforming to this protocol and one entry in ``ReportFormat/all``;
/// the `--format` help, its completion and the unknown-format error are derived from that list.
protocol ReportRenderer: Sendable {
  /// The word `--format` takes, as help and completion list it.
  var name: String { get }
  /// Other words `--format` takes for the same format (`markdown` for `md`).
  var aliases: [String] { get }
  /// Refuses a request this format cannot write (a PDF to a terminal), before anything is read.
  func check(_ request: ReportRequest) throws(UsageError)
  /// The entry fields the output shows for a report of `kind`.
  func fields(for kind: ReportKind) -> ReportLog.Fields
  /// Writes the report: to standard output or the `--output` file.
  func write(_ job: ReportJob) throws
}

extension ReportRenderer {
  var aliases: [String] { [] }
  func check(_ request: ReportRequest) throws(UsageError) {}
}
