/**
 * The part of the bash and zsh scripts that reads the words typed so far: alike in both shells
 * (and in bash 3.2), so written once. Each script puts the words in `words`, the word being
 * completed in `cur`, and declares `at`, `expect`, `spec`, `argi`, `w` and `r`.
 */

/**
 * One typed word: a value an option takes is skipped, an option may expect a value, a subcommand
 * extends the command path `at`, anything else counts as an argument. `onDoubleDash` runs at `--`:
 * what follows is the tool's own (run), so file names.
 */
export function shWordStep(onDoubleDash: string): string {
  return String.raw`
    w="${'$'}{words[i]}"
    if [[ -n "$expect" ]]; then expect=""; continue; fi
    # what follows -- is the tool's own (run): file names
    if [[ "$w" == "--" ]]; then ${onDoubleDash}; fi
    if [[ "$w" == -* ]]; then
      [[ "$w" == *=* ]] || expect="$(__svc_proxy_data "v$at $w")"
      continue
    fi
    if [[ $argi -eq 0 && " $(__svc_proxy_data "s$at") " == *" $w "* ]]; then at="$at $w"; continue; fi
    argi=$((argi + 1))`.slice(1);
}

/** What the word being completed may be: the value an option expects, an option, a subcommand or the next argument. */
export const SH_SPEC = String.raw`
  if [[ -n "$expect" ]]; then
    spec="$expect"
  elif [[ "$cur" == -* ]]; then
    spec="$(__svc_proxy_data "o$at")"
  else
    spec="$(__svc_proxy_data "s$at")"
    if [[ -z "$spec" || $argi -gt 0 ]]; then
      r="$(__svc_proxy_data "r$at")"
      if [[ -n "$r" && $argi -gt $r ]]; then argi=$r; fi
      spec="$(__svc_proxy_data "a$at $argi")"
    fi
  fi`.slice(1);
