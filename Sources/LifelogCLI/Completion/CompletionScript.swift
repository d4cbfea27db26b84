/// The completion scripts of `lifelog completion`.
///
/// Each is a thin shim: it hands the words typed so far to `lifelog __complete` and offers what
/// comes back (``Completer`` decides everything), so a script installed once stays right as
/// commands, options and the log change. `:files` back means "complete file names".
enum CompletionScript {
  enum Shell: String, CaseIterable, Sendable {
    case bash, zsh, fish
  }

  static func text(for shell: Shell) -> String {
    switch shell {
    case .bash: bash
    case .zsh: zsh
    case .fish: fish
    }
  }

  static let bash = #"""
    # bash completion for lifelog (from `lifelog completion bash`)
    _lifelog() {
      local current=${COMP_WORDS[COMP_CWORD]} program=${COMP_WORDS[0]} candidate
      [[ $program == "~/"* ]] && program=$HOME/${program#"~/"}
      local -a candidates
      mapfile -t candidates < <("$program" __complete -- "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
      COMPREPLY=()
      if [[ ${candidates[0]-} == ":files" ]]; then
        compopt -o filenames 2>/dev/null
        mapfile -t COMPREPLY < <(compgen -f -- "$current")
        return 0
      fi
      for candidate in "${candidates[@]}"; do
        COMPREPLY+=("$(printf '%q' "$candidate")")
      done
      return 0
    }
    complete -F _lifelog lifelog

    """#

  static let zsh = #"""
    #compdef lifelog
    # zsh completion for lifelog (from `lifelog completion zsh`)
    _lifelog() {
      local -a candidates
      candidates=("${(@f)$(${words[1]} __complete -- "${(@)words[2,CURRENT]}" 2>/dev/null)}")
      if [[ ${candidates[1]} == ":files" ]]; then
        _files
        return
      fi
      candidates=(${candidates:#})
      (( ${#candidates} )) && compadd -a candidates
    }
    if [[ ${funcstack[1]} == _lifelog ]]; then
      _lifelog "$@"
    else
      compdef _lifelog lifelog
    fi

    """#

  static let fish = #"""
    # fish completion for lifelog (from `lifelog completion fish`)
    function __lifelog_complete
        set -l words (commandline -opc)
        set -l program $words[1]
        set -e words[1]
        set -l current (commandline -ct)
        set -l candidates (command $program __complete -- $words "$current" 2>/dev/null)
        if test "$candidates[1]" = ":files"
            __fish_complete_path $current
            return
        end
        printf '%s\n' $candidates
    end
    complete -c lifelog -f -a '(__lifelog_complete)'

    """#
}
