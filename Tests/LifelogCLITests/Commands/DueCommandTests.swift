import LifelogCLITestSupport
import LifelogTestSupport
import Testing

/// `lifelog due`: text, JSON with exactly the keys, and the one-token `--short`.
@Suite struct DueCommandTests {
  let fixture = CLIFixture(now: "2026-12-02T14:30:00+01:00")

  func at(_ now: String) -> InProcessCLI {
    var cli = fixture.cli
    cli.now = InProcessCLI.instant(now)
    return cli
  }

  @Test func withNoMealsItSaysSoAndTheShortFormIsADash() {
    #expect(
      fixture.run("due").stdout == "No meals logged yet; log one with 'lifelog add breakfast'\n")
    #expect(fixture.run("due", "--short").stdout == "-\n")
    #expect(
      fixture.run("due", "--format", "json").stdout
        == "{\"lastMeal\":null,\"sinceMinutes\":null,\"dueAt\":null,\"overdueMinutes\":0,\"mealGapHours\":3}\n"
    )
  }

  @Test func theLastMealTheTimeSinceAndWhenTheNextIsDue() throws {
    fixture.run("add", "breakfast", "oatmeal", "--at", "07:30")
    let lunch = try fixture.addReturningID("lunch", "lentil soup", "--at", "12:00")
    fixture.run("add", "walk", "--at", "13:00")  // not a meal
    fixture.run("add", "snack", "later", "--at", "18:00")  // logged ahead: not the last meal yet
    #expect(
      fixture.run("due").stdout == """
        Last meal: lunch Wed 2026-12-02 12:00 "lentil soup" (2h30m ago)
        Next meal due: Wed 2026-12-02 15:00 (in 30m)

        """)
    #expect(fixture.run("due", "--short").stdout == "30m\n")
    #expect(
      fixture.run("due", "--format", "json").stdout
        == "{\"lastMeal\":{\"id\":\"\(lunch)\",\"at\":\"2026-12-02T12:00:00+01:00\",\"activity\":\"lunch\","
        + "\"note\":\"lentil soup\"},\"sinceMinutes\":150,\"dueAt\":\"2026-12-02T15:00:00+01:00\","
        + "\"overdueMinutes\":0,\"mealGapHours\":3}\n")
    #expect(at("2026-12-02T13:20:00+01:00").run(["due", "--short"]).stdout == "1h40m\n")
    #expect(at("2026-12-02T14:59:30+01:00").run(["due", "--short"]).stdout == "due\n")
    #expect(at("2026-12-02T15:25:00+01:00").run(["due", "--short"]).stdout == "+25m\n")
    #expect(at("2026-12-02T15:25:00+01:00").run(["due"]).stdout.hasSuffix("(overdue by 25m)\n"))
  }

  @Test func beforeTheDaysFirstMealItSaysWhenTheFirstIsDue() {
    fixture.run("add", "dinner", "--at", "yesterday 19:00")
    fixture.run("settings", "set", "mealGapHours", "2.5")
    let morning = at("2026-12-02T05:00:00+01:00")
    #expect(
      morning.run(["due"]).stdout == """
        Last meal: dinner Tue 2026-12-01 19:00 (10h ago)
        No meal yet today (days start at 04:00); the first is due by Wed 2026-12-02 06:30 (in 1h30m)

        """)
    #expect(morning.run(["due", "--format", "json"]).stdout.hasSuffix("\"mealGapHours\":2.5}\n"))
  }

  @Test func shortAndJSONTogetherAreAUsageError() {
    expectFailure(fixture, ["due", "--short", "--format", "json"], code: 64, saying: "not both")
  }
}
