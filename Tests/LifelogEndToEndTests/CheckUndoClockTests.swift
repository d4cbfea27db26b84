import LifelogCLITestSupport
import LifelogSQLite
import LifelogTestSupport
import Testing

/// `lifelog check` on the clocks undo steps keep: the clock a command starts from is the latest of
/// the device's and the steps', so a step's clock no stamp can hold is named like a device's.
@Suite struct CheckUndoClockTests {
  let folder = TemporaryDirectory(prefix: "lifelog-check-undo")

  @Test func aStepsClockThatNoStampCanHoldIsNamed() throws {
    let laptop = SyncMachine("laptop", in: folder)
    let soup = try laptop.add("lunch", "soup", "--at", "2026-12-01 12:10")
    try laptop.expectSuccess("edit", soup, "--note", "tomato soup")
    try laptop.expectSuccess("settings", "set", "mealGapHours", "3")
    let clean = try laptop.run("check")
    #expect(clean.exitCode == 0, "\(clean)")
    let steps = try Database(path: laptop.databasePath, mode: .readWrite)
    let kept: [Int64] = try steps.makeStatement(
      sql: "SELECT seq FROM local_undo_step WHERE clock_ms IS NOT NULL ORDER BY seq"
    ).map { $0[0] }
    let (edited, set) = try (#require(kept.dropLast().last), #require(kept.last))
    try steps.execute(
      sql: """
        UPDATE local_undo_step SET clock_ms = 281474976710656, clock_counter = 0 WHERE seq = \(edited);
        UPDATE local_undo_step SET clock_counter = NULL WHERE seq = \(set);
        """)
    let result = try laptop.run("check")
    #expect(result.exitCode == 65, "\(result)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.contains(
        "log: undo step \(edited): its clock (281474976710656 ms, counter 0) does not fit in a stamp"
      ),
      "\(result)")
    #expect(
      lines.contains("log: undo step \(set): its clock is missing its milliseconds or its counter"),
      "\(result)")
  }

  /// The step an `add` keeps in its entry (schema v8) is checked too, and one lifelog cannot read
  /// is named by its entry.
  @Test func aStepKeptInAnEntryIsCheckedToo() throws {
    let laptop = SyncMachine("laptop", in: folder)
    let soup = try laptop.add("lunch", "soup", "--at", "2026-12-01 12:10")
    let salad = try laptop.add("lunch", "salad", "--at", "2026-12-01 12:20")
    #expect(try laptop.run("check").exitCode == 0)
    let log = try Database(path: laptop.databasePath, mode: .readWrite)
    try log.execute(
      sql: """
        UPDATE entry SET add_step = json_set(add_step, '$[3]', 281474976710656, '$[4]', 0)
          WHERE hex(id) = upper(replace('\(soup)', '-', ''));
        UPDATE entry SET add_step = 'not a step' WHERE hex(id) = upper(replace('\(salad)', '-', ''));
        """)
    let result = try laptop.run("check")
    #expect(result.exitCode == 65, "\(result)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.contains(
        "log: undo step 1 (kept in entry \(soup)): its clock (281474976710656 ms, counter 0) does not fit in a stamp"
      ), "\(result)")
    #expect(
      lines.contains(
        "log: entry \(salad): the undo step kept in it is not one lifelog reads, so it is not offered by undo"
      ), "\(result)")
  }

  /// The newest entry's clock is read by every command even once its step has moved to the table
  /// (the mark past it): a clock no stamp can hold there is named before an `add` stamps with it.
  @Test func theNewestEntrysClockIsCheckedWhereverTheMarkIs() throws {
    let laptop = SyncMachine("laptop", in: folder)
    let soup = try laptop.add("lunch", "soup", "--at", "2026-12-01 12:10")
    try laptop.expectSuccess("edit", soup, "--note", "tomato soup")
    #expect(try laptop.run("check").exitCode == 0)
    let log = try Database(path: laptop.databasePath, mode: .readWrite)
    try log.execute(
      sql: """
        UPDATE entry SET add_step = json_array(1, 1, 'add', 281474976710656, 0, '')
          WHERE hex(id) = upper(replace('\(soup)', '-', ''));
        """)
    let result = try laptop.run("check")
    #expect(result.exitCode == 65, "\(result)")
    #expect(
      result.stdout.split(separator: "\n").map(String.init).contains(
        "log: undo step 1 (kept in entry \(soup)): its clock (281474976710656 ms, counter 0) does not fit in a stamp"
      ), "\(result)")
  }

  /// A step numbered outside the numbers lifelog gives (written by hand), as a row and kept in an
  /// entry, is named; `recover` numbers the steps again in their order, and undo then reverts
  /// the newest first.
  @Test func aStepNumberedOutsideTheRangeLifelogGivesIsNamed() throws {
    let laptop = SyncMachine("laptop", in: folder)
    let soup = try laptop.add("lunch", "soup", "--at", "2026-12-01 12:10")
    try laptop.expectSuccess("edit", soup, "--note", "tomato soup")
    let salad = try laptop.add("lunch", "salad", "--at", "2026-12-01 12:20")
    #expect(try laptop.run("check").exitCode == 0)
    let log = try Database(path: laptop.databasePath, mode: .readWrite)
    try log.execute(
      sql: """
        UPDATE local_undo_step SET seq = -3 WHERE seq = 1;
        UPDATE entry SET add_step = json_set(add_step, '$[0]', 9223372036854775807)
          WHERE hex(id) = upper(replace('\(salad)', '-', ''));
        """)
    let result = try laptop.run("check")
    #expect(result.exitCode == 65, "\(result)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let what =
      "its number is outside 1 to 9007199254740992, where lifelog numbers steps, so undo could "
      + "revert an older step first; the next command that records or undoes a step numbers them again"
    #expect(lines.contains("log: undo step -3: \(what)"), "\(result)")
    #expect(
      lines.contains("log: undo step 9223372036854775807 (kept in entry \(salad)): \(what)"),
      "\(result)")
    try laptop.expectSuccess("recover")
    let recovered = try laptop.run("check")
    #expect(recovered.exitCode == 0, "\(recovered)")
    let undone = try laptop.run("undo")
    #expect(undone.exitCode == 0 && undone.stdout.contains("salad"), "\(undone)")
    let next = try laptop.run("undo")
    #expect(next.exitCode == 0 && next.stdout.contains("tomato soup"), "\(next)")
  }

  /// A step numbered exactly the largest number lifelog gives (written by hand): the next `add`
  /// numbers the steps again before it writes its step as a row, so `check` finds nothing, and
  /// `undo` reverts that add.
  @Test func anAddAfterAStepNumberedTheLargestNumberLeavesCheckClean() throws {
    let laptop = SyncMachine("laptop", in: folder)
    let soup = try laptop.add("lunch", "soup", "--at", "2026-12-01 12:10")
    let log = try Database(path: laptop.databasePath, mode: .readWrite)
    try log.execute(
      sql: "UPDATE entry SET add_step = json_set(add_step, '$[0]', 9007199254740992)")
    #expect(try laptop.run("check").exitCode == 0)
    let salad = try laptop.add("lunch", "salad", "--at", "2026-12-01 12:20")
    let checked = try laptop.run("check")
    #expect(checked.exitCode == 0, "\(checked)")
    let undone = try laptop.run("undo")
    #expect(undone.exitCode == 0 && undone.stdout.contains("salad"), "\(undone)")
    let listed = try laptop.run("list", "--format", "json").stdout
    #expect(listed.contains(soup) && !listed.contains(salad), "\(listed)")
    #expect(try laptop.run("check").exitCode == 0)
  }
}
