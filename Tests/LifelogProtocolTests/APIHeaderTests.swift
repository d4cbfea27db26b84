import LifelogProtocol
import Testing

/// ``APIHeader`` and ``APIQuery``: the header and query argument names, spelled as docs/http-api.md
/// lists them, so a rename cannot change the wire by accident.
@Suite struct APIHeaderTests {
  @Test func everyHeaderIsSpelledAsTheAPIDocumentsIt() {
    #expect(APIHeader.authorization == "Authorization")
    #expect(APIHeader.bearer == "Bearer")
    #expect(APIHeader.contentType == "Content-Type")
    #expect(APIHeader.retryAfter == "Retry-After")
    #expect(APIHeader.cursor == "Lifelog-Cursor")
    #expect(APIHeader.snapshotName == "Lifelog-Snapshot-Name")
    #expect(APIHeader.snapshotDevice == "Lifelog-Snapshot-Device")
    #expect(APIHeader.snapshotCreated == "Lifelog-Snapshot-Created")
    #expect(APIHeader.snapshotCovers == "Lifelog-Snapshot-Covers")
    #expect(APIHeader.snapshotSHA256 == "Lifelog-Snapshot-SHA256")
    #expect(APIHeader.keyVersion == "Lifelog-Key-Version")
  }

  @Test func everyQueryArgumentIsSpelledAsTheAPIDocumentsIt() {
    #expect(APIQuery.after == "after")
    #expect(APIQuery.exclude == "exclude")
    #expect(APIQuery.rows == "rows")
    #expect(APIQuery.limit == "limit")
    #expect(APIQuery.meta == "meta")
    #expect(APIQuery.through == "through")
  }
}
