/** The fish completion script: source it, or save it as ~/.config/fish/completions/svc-proxy.fish. */
import { quoteFish } from '../tools/render.js';

const WALK = String.raw`
function __svc_proxy_complete
    set -l tokens (commandline -opc)
    set -l cmd $tokens[1]
    set -e tokens[1]
    set -l cur (commandline -ct)
    set -l at ''
    set -l expect ''
    set -l argi 0
    for w in $tokens
        if test -n "$expect"
            set expect ''
            continue
        end
        # what follows -- is the tool's own (run): file names
        if test "$w" = '--'
            __fish_complete_path "$cur"
            return
        end
        if string match -q -- '-*' $w
            string match -q -- '*=*' $w; or set expect (__svc_proxy_data "v$at $w")
            continue
        end
        if test $argi -eq 0; and contains -- $w (string split ' ' -- (__svc_proxy_data "s$at"))
            set at "$at $w"
            continue
        end
        set argi (math $argi + 1)
    end
    set -l spec
    if test -n "$expect"
        set spec $expect
    else if string match -q -- '-*' "$cur"
        set spec (__svc_proxy_data "o$at")
    else
        set spec (__svc_proxy_data "s$at")
        if test -z "$spec"; or test $argi -gt 0
            set -l r (__svc_proxy_data "r$at")
            if test -n "$r"; and test $argi -gt $r
                set argi $r
            end
            set spec (__svc_proxy_data "a$at $argi")
        end
    end
    set -l kinds
    for t in (string split ' ' -- "$spec")
        switch $t
            case '-' ''
            case ':files'
                __fish_complete_path "$cur"
            case '@*'
                set -a kinds (string sub -s 2 -- $t)
            case '*'
                echo $t
        end
    end
    # names from config.json: one quick process that never starts the daemon
    if set -q kinds[1]
        $cmd __complete $kinds 2>/dev/null
    end
end
complete -c svc-proxy -f -a '(__svc_proxy_complete)'
`;

export function fishScript(data: ReadonlyMap<string, string>): string {
  const cases = [...data].flatMap(([key, value]) => [`        case ${quoteFish(key)}`, `            printf '%s' ${quoteFish(value)}`]);
  const dataFunction = ['function __svc_proxy_data', '    switch $argv[1]', ...cases, '    end', 'end'].join('\n');
  return `# svc-proxy completion for fish (see svc-proxy completion --help)\n${dataFunction}\n${WALK.trimStart()}`;
}
