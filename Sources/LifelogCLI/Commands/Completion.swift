extension LifelogCommand {
  /// `lifelog completion bash|zsh|fish`: prints a completion script.
  struct Completion: Command {
    static let configuration = CommandConfiguration(
      commandName: "completion",
      abstract: "Print a shell completion script for bash, zsh or fish.",
      discussion: """
        The script asks lifelog itself what to offer (commands, options, their values, activity
        names and recent entry ids from the log), so it never goes stale. 'make install' installs
        all three; to try one: source <(lifelog completion bash).
        """,
      arguments: [shell],
      examples: [
        "lifelog completion bash > ~/.local/share/bash-completion/completions/lifelog",
        "lifelog completion zsh > ~/.zfunc/_lifelog",
        "lifelog completion fish > ~/.config/fish/completions/lifelog.fish",
      ],
      usesDatabase: false)

    static let shell = ArgumentSpec(
      "shell", "bash, zsh or fish.",
      completes: .choices(CompletionScript.Shell.allCases.map(\.rawValue)))

    let shell: CompletionScript.Shell

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      let name = try arguments.checkedPositionals(for: Self.configuration).required(Self.shell)
      guard let shell = CompletionScript.Shell(rawValue: name) else {
        throw UsageError("Unknown shell '\(name)'; use bash, zsh or fish")
      }
      self.shell = shell
    }

    func run(in context: Context) throws {
      context.output.write(CompletionScript.text(for: shell))
    }
  }

  /// `lifelog __complete -- <word> ...`: what Tab may offer for the last word.
  ///
  /// Prints the candidates one per line, or the single line `:files` for file names. What the
  /// completion scripts call; it never fails.
  struct CompleteWords: Command {
    static let configuration = CommandConfiguration(
      commandName: "__complete",
      abstract: "Print what Tab may offer for the last word (for the completion scripts).",
      arguments: [word],
      hidden: true)
    static let word = ArgumentSpec(
      "word", "The words after 'lifelog', the last one being typed.", .zeroOrMore)

    let words: [String]

    init(parsing arguments: ParsedArguments, in context: Context) throws {
      // Words come as the shell saw them, quotes and all.
      let raw = (try? arguments.checkedPositionals(for: Self.configuration)[Self.word]) ?? []
      words = raw.map { ShellWords.splitLeniently($0).joined(separator: " ") }
    }

    func run(in context: Context) throws {
      let completer = Completer(context: context)
      switch completer.candidates(after: Array(words.dropLast()), current: words.last ?? "") {
      case .files: context.output.write(":files\n")
      case .words(let words): for word in words { context.output.write(word + "\n") }
      }
    }
  }
}
