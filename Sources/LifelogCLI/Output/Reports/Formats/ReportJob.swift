import LifelogCore

/// What a renderer writes from: the request, the entries of its range, the log and the context.
struct ReportJob {
  let request: ReportRequest
  let reader: ReportEntryReader
  let store: LogStore
  let context: Context

  var kind: ReportKind { request.kind }

  /// Writes text through a ``ReportSink`` (to standard output or the `--output` file), then
  /// says where a file went.
  func writeText(_ body: (ReportSink) throws -> Void) throws {
    let file = try request.outputPath.map { path in try OutputFile(replacing: path) }
    let sink = ReportSink(output: context.output, file: file)
    try body(sink)
    try sink.finish()
    guard let outputPath = request.outputPath else { return }
    sayWrote(kind, to: outputPath)
  }

  /// Writes text built from the whole report (``ReportContent``), handed to the sink in one
  /// piece or several by `render`.
  func writeWhole(
    _ render: (ReportContent, ReportStyle, (String) -> Void) -> Void
  ) throws {
    try writeText { sink in
      let request = ReportAggregator.Request(
        meals: kind != .activity, activities: kind != .meals ? try store.activities() : nil,
        grouping: self.request.grouping)
      let content = ReportContent(
        kind: kind, built: try ReportAggregator.build(request, from: reader, zone: context.zone))
      let style = ReportStyle(colour: self.request.outputPath == nil && context.usesColor)
      render(content, style) { sink.write($0) }
    }
  }

  /// Writes text a day at a time as the days close, in one read transaction.
  func writeStreamed(_ body: (ReportSink) throws -> Void) throws {
    try writeText { sink in try reader.reading { try body(sink) } }
  }

  /// Writes `bytes` to the `--output` file (atomically, readable only by its owner when new) and
  /// says so, naming the report of `kind`.
  func writeFile(_ bytes: [UInt8], kind: ReportKind) throws {
    guard let path = request.outputPath else { return }
    let file = try OutputFile(replacing: path)
    try file.write(bytes)
    try file.commit()
    sayWrote(kind, to: path)
  }

  /// "Wrote the meals report … to 'PATH'" on standard output.
  func sayWrote(_ kind: ReportKind, to path: String) {
    context.output.write(ReportRequest.wrote(kind, range: reader.range, path: path) + "\n")
  }
}
