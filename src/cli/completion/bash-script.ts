/**
 * The bash completion script. It splits COMP_LINE itself rather than use COMP_WORDS, which bash
 * breaks at `:` and `=` (a URL value would count as three arguments). It is registered without
 * `-o default`, so a word with nothing to offer (a URL, a name) gets nothing rather than the file
 * names bash would fall back to; the words that take files (`:files`) get them.
 */
import { shDataFunction } from './sh-data.js';
import { SH_SPEC, shWordStep } from './sh-walk.js';

const WALK = String.raw`
_svc_proxy() {
  local line="${'$'}{COMP_LINE:0:COMP_POINT}" cur="" at="" expect="" spec="" w r t kinds="" values="" files=""
  local -a words
  local i argi=0
  COMPREPLY=()
  read -ra words <<< "$line"
  if [[ ${'$'}{#words[@]} -gt 1 && "$line" != *[[:space:]] ]]; then
    cur="${'$'}{words[${'$'}{#words[@]}-1]}"
    unset 'words[${'$'}{#words[@]}-1]'
  fi
  for ((i = 1; i < ${'$'}{#words[@]}; i++)); do
${shWordStep('__svc_proxy_files "$cur"; return 0')}
  done
${SH_SPEC}
  for t in $spec; do
    case "$t" in
      -) ;;
      :files) files=1 ;;
      @*) kinds="$kinds ${'$'}{t#@}" ;;
      *) values="$values $t" ;;
    esac
  done
  # names from config.json: one quick process that never starts the daemon
  [[ -n "$kinds" ]] && values="$values $("${'$'}{words[0]}" __complete $kinds 2>/dev/null)"
  COMPREPLY=($(compgen -W "$values" -- "$cur"))
  if [[ -n "$files" ]]; then __svc_proxy_files "$cur"; fi
  return 0
}
# file names starting with $1, added to COMPREPLY
__svc_proxy_files() {
  local IFS=$'\n'
  COMPREPLY+=($(compgen -f -- "$1"))
  # readline then quotes them and marks directories (bash 4+; bash 3.2 lists them as they are)
  compopt -o filenames 2>/dev/null
  return 0
}
complete -F _svc_proxy svc-proxy
`;

export function bashScript(data: ReadonlyMap<string, string>): string {
  return `# svc-proxy completion for bash: source it (see svc-proxy completion --help)\n${shDataFunction(data)}\n${WALK.trimStart()}`;
}
