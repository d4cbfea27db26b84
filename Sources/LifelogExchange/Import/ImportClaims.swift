import LifelogCore

/// The entry ids the rows of one import have taken, so that two rows of one file never become one
/// entry (the second overwriting the first, and counted as "updated").
///
/// An entry the import added is known by its rowid (above the highest before the import began),
/// so only the ids rows matched to entries already in the log are kept here: 16 bytes each, and
/// none at all in a first import. Rows without an id that are equal in every field get an
/// ordinal (``ValidImportRow/derivedID(ordinal:)``); the next one to try is kept per content, for
/// contents met more than once only, so a file of a million equal rows costs no quadratic search.
final class ImportClaims {
  private var matched: Set<UUIDKey> = []
  private var nextOrdinal: [UUIDKey: Int] = [:]

  /// Whether an earlier row of the file matched `id` to an entry the log already had.
  func isMatched(_ id: String) -> Bool { matched.contains(UUIDKey(id)) }

  /// Notes that a row matched `id` to an entry the log already had.
  func match(_ id: String) { matched.insert(UUIDKey(id)) }

  /// The first ordinal worth trying for a row whose content-derived id is `base`.
  func firstOrdinal(for base: String) -> Int {
    nextOrdinal.isEmpty ? 1 : nextOrdinal[UUIDKey(base)] ?? 1
  }

  /// Notes that a row with content-derived id `base` took `ordinal` (recorded past the first).
  func took(_ ordinal: Int, for base: String) {
    if ordinal > 1 { nextOrdinal[UUIDKey(base)] = ordinal + 1 }
  }
}
