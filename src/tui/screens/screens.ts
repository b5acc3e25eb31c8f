/** The five screens, in tab order, and the keys each one answers (shown by `?`). */

// `short`: the title where the whole one leaves no room (a narrow terminal's tab bar)
export const SCREENS = [
  { id: 'log', key: '1', title: 'Log', short: 'Log' },
  { id: 'keys', key: '2', title: 'Keys', short: 'Keys' },
  { id: 'groups', key: '3', title: 'Groups', short: 'Grps' },
  { id: 'providers', key: '4', title: 'Providers', short: 'Prov' },
  { id: 'stats', key: '5', title: 'Stats', short: 'Stat' },
] as const;

export type ScreenId = (typeof SCREENS)[number]['id'];

export const GLOBAL_KEYS: ReadonlyArray<readonly [string, string]> = [
  ['1-5, Tab, Shift-Tab', 'switch screen'],
  ['↑ ↓ PgUp PgDn Home End', 'move'],
  ['r', 'refresh from the daemon'],
  ['?', 'this help (↑↓ scrolls it)'],
  ['q, Ctrl-C', 'quit'],
];

export const SCREEN_KEYS: Record<ScreenId, ReadonlyArray<readonly [string, string]>> = {
  log: [
    ['Enter', 'details of a request: every field, each attempt'],
    ['/', 'filter by text (Enter keeps it, Esc clears it)'],
    ['s', 'status filter: all, ok, 4xx, 5xx, error'],
    ['k', 'key filter: cycle through service keys'],
    ['Space, p', 'pause / resume the live view'],
    ['Esc', 'clear filters, back to the live top'],
    ['S/F column', 'S streamed, F<n> fell back (n attempts), ERR no answer'],
  ],
  keys: [
    ['n', 'new key (shown once: copy it then; c there copies it whole)'],
    ['d', 'revoke the selected key (asks first)'],
  ],
  groups: [
    ['a', 'add a group'],
    ['n', 'add a model name to the selected group'],
    ['e, Enter', 'edit the targets of the selected name'],
    ['[ ] Shift-↑ Shift-↓', 'move the selected target up / down'],
    ['d', 'remove the selected group, name or target (asks)'],
  ],
  providers: [
    ['c', 'connect: API key into the OS keychain (hidden input)'],
    ['d', 'disconnect a provider, remove an endpoint (asks)'],
    ['u', 'set or reset a built-in provider\'s base URL'],
    ['h', 'headers for a provider behind a gateway: the key\'s header, fixed headers'],
    ['e', 'add a custom endpoint (OpenAI or Anthropic format, with its headers)'],
    ['l', 'add a local model server'],
  ],
  stats: [
    ['b', 'rows by provider, model or service key'],
    ['t', 'window: last hour, 24 hours, 7 days, everything retained'],
    ['↑ ↓', 'select a row: every figure of it below the table'],
  ],
};
