enum AppleHealthRecords {
  static func open(
    _ input: ChunkedReader, path: String?, context: ForeignImportContext
  ) throws -> any ForeignRecords {
    throw InputError("apple-health is not built yet")
  }
}
