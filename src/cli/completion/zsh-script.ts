/**
 * The zsh completion script: sourced (it registers itself with compdef), or saved as `_svc_proxy`
 * in a directory of $fpath (then autoloaded; its first run defines the functions and completes).
 * `at`, not `path`, holds the command words: zsh ties `path` to $PATH.
 */
import { shDataFunction } from './sh-data.js';

const WALK = String.raw`
_svc_proxy() {
  local cur="${'$'}{words[CURRENT]}" at="" expect="" spec="" w r t files=""
  local -i argi=0 i
  local -a kinds values
  for ((i = 2; i < CURRENT; i++)); do
    w="${'$'}{words[i]}"
    if [[ -n "$expect" ]]; then expect=""; continue; fi
    # what follows -- is the tool's own (run): file names
    if [[ "$w" == "--" ]]; then _files; return; fi
    if [[ "$w" == -* ]]; then
      [[ "$w" == *=* ]] || expect="$(__svc_proxy_data "v$at $w")"
      continue
    fi
    if [[ $argi -eq 0 && " $(__svc_proxy_data "s$at") " == *" $w "* ]]; then at="$at $w"; continue; fi
    argi=$((argi + 1))
  done
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
  fi
  for t in ${'$'}{=spec}; do
    case "$t" in
      -) ;;
      :files) files=1 ;;
      @*) kinds+=("${'$'}{t#@}") ;;
      *) values+=("$t") ;;
    esac
  done
  # names from config.json: one quick process that never starts the daemon
  if (( ${'$'}{#kinds} )); then values+=(${'$'}{(f)"$("${'$'}{words[1]}" __complete "${'$'}{kinds[@]}" 2>/dev/null)"}); fi
  # 0 only when something was offered, as zsh's completers expect
  local -i ret=1
  compadd -- "${'$'}{values[@]}" && ret=0
  if [[ -n "$files" ]]; then _files && ret=0; fi
  return ret
}

if [[ "${'$'}{funcstack[1]}" == "_svc_proxy" ]]; then
  _svc_proxy "$@"
else
  compdef _svc_proxy svc-proxy
fi
`;

export function zshScript(data: ReadonlyMap<string, string>): string {
  return `#compdef svc-proxy\n# svc-proxy completion for zsh (see svc-proxy completion --help)\n${shDataFunction(data)}\n${WALK.trimStart()}`;
}
