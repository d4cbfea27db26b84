extension String {
  /// The text without leading and trailing whitespace and line breaks of any kind (Unicode's
  /// `isWhitespace`, so `"\r\n"` and a no-break space too): how a secret read from a file is
  /// taken, whatever editor wrote it.
  public func trimmingCharacters() -> String {
    guard let start = firstIndex(where: { !$0.isWhitespace }),
      let end = lastIndex(where: { !$0.isWhitespace })
    else { return "" }
    return String(self[start...end])
  }
}
