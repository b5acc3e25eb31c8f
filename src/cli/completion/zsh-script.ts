/**
 * The zsh completion script: sourced (it registers itself with compdef), or saved as `_svc_proxy`
 * in a directory of $fpath (then autoloaded; its first run defines the functions and completes).
 * `at`, not `path`, holds the command words: zsh ties `path` to $PATH.
 */
import { shDataFunction } from './sh-data.js';
import { SH_SPEC, shWordStep } from './sh-walk.js';

const WALK = String.raw`
_svc_proxy() {
  local cur="${'$'}{words[CURRENT]}" at="" expect="" spec="" w r t files=""
  local -i argi=0 i
  local -a kinds values
  for ((i = 2; i < CURRENT; i++)); do
${shWordStep('_files; return')}
  done
${SH_SPEC}
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
