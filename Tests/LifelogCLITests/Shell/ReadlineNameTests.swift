import CLifelogReadline
@preconcurrency import Glibc
import Testing

/// readline keeps the `rl_readline_name` pointer for the life of the process, so the name must
/// not point into a string its caller frees.
@Suite struct ReadlineNameTests {
  @Test func theNameReadlineHoldsOutlivesTheStringItWasGiven() throws {
    var error = [CChar](repeating: 0, count: 512)
    try #require(
      lr_load(&error, error.count) == 0, "libreadline8 is needed (make deps installs it)")
    let name = try #require(strdup("lifelog-name-test"))
    lr_configure(name, nil)
    memset(name, 0x58, strlen(name))  // as freed memory may be reused
    free(name)
    let held = try #require(lr_readline_name())
    #expect(String(cString: held) == "lifelog-name-test")
    lr_configure("lifelog", nil)
  }
}
