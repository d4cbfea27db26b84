import LifelogSQLite
import Testing

@testable import LifelogCore

/// ``EntryStepText`` reads only the form SQLite's `json_array` writes, and reads it as SQLite's
/// JSON functions do; every other text is left to them.
@Suite struct EntryStepTextTests {
  private func parsed(_ text: String) -> EntryStepText? {
    Array(text.utf8).withUnsafeBufferPointer { EntryStepText($0) }
  }

  /// What SQLite's JSON functions read from `text`: seq, clock milliseconds and counter.
  private func sqlite(_ text: String) throws -> (Int64?, Int64?, Int64?) {
    let database = try Database(path: ":memory:")
    return try database.cachedStatement(
      sql: """
        SELECT CASE WHEN json_valid(?1) AND json_type(?1, '$[0]') = 'integer'
            THEN json_extract(?1, '$[0]') END,
          CASE WHEN json_valid(?1) THEN json_extract(?1, '$[3]') END,
          CASE WHEN json_valid(?1) THEN json_extract(?1, '$[4]') END
        """
    ).first([text]) { ($0[0] as Int64?, $0[1] as Int64?, $0[2] as Int64?) } ?? (nil, nil, nil)
  }

  @Test(arguments: [
    #"[6,1796554807899,"add 626aa93f lunch \"salad\"",1796554807898,0,"01a24b02da5a"]"#,
    #"[1,2,"",null,null,""]"#,
    #"[-9223372036854775808,0,"a\\b\/c\u00e9\n\t",9223372036854775807,3,"x"]"#,
    #"[0,-5,"żółw 🐢",-0,12,"s"]"#,
  ])
  func theFormLifelogWritesIsReadAsSQLiteReadsIt(text: String) throws {
    let step = try #require(parsed(text))
    let expected = try sqlite(text)
    #expect(step.seq == expected.0)
    #expect(step.clock?.milliseconds == expected.1)
    #expect(step.clock.map { Int64($0.counter) } == expected.2)
  }

  @Test(arguments: [
    "", "[", "null", "not json", #"[1, 2,"a",null,null,"b"]"#, #"[1.0,2,"a",null,null,"b"]"#,
    #"[1e3,2,"a",null,null,"b"]"#, #"[01,2,"a",null,null,"b"]"#,
    #"[9223372036854775808,2,"a",null,null,"b"]"#, #"[1,2,"a",3,null,"b"]"#,
    #"[1,2,"a",null,3,"b"]"#, #"[1,2,"a\q",null,null,"b"]"#, #"[1,2,"a\u12",null,null,"b"]"#,
    "[1,2,\"a\u{1}\",null,null,\"b\"]", #"[1,2,"a",null,null,"b"] "#, #"[1,2,"a",null,null,"b",7]"#,
    #"["1",2,"a",null,null,"b"]"#, #"[1,2,"a",null,null,"b"#,
  ])
  func anythingElseIsLeftToSQLite(text: String) {
    #expect(parsed(text) == nil)
  }
}
