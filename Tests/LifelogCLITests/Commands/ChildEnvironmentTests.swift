import Testing

@testable import LifelogCLI

/// The rule for what a child process inherits: no `LIFELOG_*` but `LIFELOG_DB`, no secret names.
@Suite struct ChildEnvironmentTests {
  @Test func secretsAreDroppedAndWhatLifelogAddsIsKept() {
    let inherited = [
      "PATH": "/usr/bin", "HOME": "/home/ada", "LIFELOG_DB": "/home/ada/l.db",
      "LIFELOG_PASSPHRASE": "p", "LIFELOG_DAV_PASSWORD": "d", "lifelog_token": "t",
      "GITHUB_TOKEN": "g", "AWS_SECRET_ACCESS_KEY": "a", "Mail_Password": "m", "SECRET": "s",
      "KEYBOARD": "us", "TOKENIZER": "x", "MONKEY": "banana",
    ]
    let child = ChildEnvironment(inheriting: inherited, adding: ["LIFELOG_MESSAGE": "due"])
    #expect(
      child.variables == [
        "PATH": "/usr/bin", "HOME": "/home/ada", "LIFELOG_DB": "/home/ada/l.db",
        "KEYBOARD": "us", "TOKENIZER": "x", "MONKEY": "banana", "LIFELOG_MESSAGE": "due",
      ])
  }
}
