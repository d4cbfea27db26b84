import Glibc
import LifelogCore
import Testing

@testable import LifelogCLI

/// A command reads the variables it needs one name at a time; each reads what the dictionary of
/// the whole environment holds for that name, and the dictionary is still there for commands that
/// pass every variable on.
@Suite(.serialized) struct ProcessEnvironmentTests {
  @Test func eachNameReadsWhatTheWholeEnvironmentHolds() {
    setenv("LIFELOG_ENV_TEST", "a=b=c", 1)
    setenv("LIFELOG_ENV_TEST_EMPTY", "", 1)
    defer {
      unsetenv("LIFELOG_ENV_TEST")
      unsetenv("LIFELOG_ENV_TEST_EMPTY")
    }
    let whole = ProcessEnvironment.read()
    for name in whole.keys {
      #expect(ProcessEnvironment.value(named: name) == whole[name], "\(name)")
    }
    #expect(ProcessEnvironment.value(named: "LIFELOG_ENV_TEST") == "a=b=c")
    #expect(ProcessEnvironment.value(named: "LIFELOG_ENV_TEST_EMPTY") == "")
    let absent = [
      "LIFELOG_ENV_TES", "LIFELOG_ENV_TEST_", "LIFELOG_ENV_TEST=a", "", "=", "\u{17C}",
    ]
    for missing in absent {
      #expect(ProcessEnvironment.value(named: missing) == whole[missing], "\(missing)")
    }
  }

  @Test func aContextMadeWithVariablesReadsThoseAlone() {
    let context = Context(
      environment: ["LIFELOG_DB": "/tmp/given.db", "NO_COLOR": "1"], output: CapturedOutput(),
      errors: CapturedOutput(), outputIsTerminal: true, now: 0,
      zone: SystemTimeZone(identifier: "UTC"), zoneName: "UTC")
    #expect(context.variable("LIFELOG_DB") == "/tmp/given.db")
    #expect(context.variable("PATH") == nil)
    #expect(context.environment == ["LIFELOG_DB": "/tmp/given.db", "NO_COLOR": "1"])
    #expect(!context.usesColor)
    #expect(context.forShellLine().variable("LIFELOG_DB") == "/tmp/given.db")
  }
}
