/**
 * Upstreams: built-in providers, custom endpoints and local servers — connected or not, where the
 * credential lives, base URL, model count, last error. Connect (hidden input, straight to the
 * daemon and from there to the OS keychain), disconnect, set a base URL, add an endpoint or a
 * local server: the same admin calls as `svc-proxy provider|endpoint|local …`.
 */
import { Box, Text } from 'ink';
import { useKeys } from '../hooks/use-keys.js';
import { useMemo, useRef } from 'react';
import { useLatestState } from '../hooks/use-latest-state.js';
import { useDialogMode } from '../hooks/use-dialog-mode.js';
import { nothingRemoved } from '../../cli/disconnect-wording.js';
import { nothingRemovedFlash } from '../providers/nothing-removed-flash.js';
import { withNotices } from '../providers/notice-flash.js';
import { connectOutcome } from '../../cli/connect-outcome.js';
import type { ConnectResult } from '../../secrets/operations.js';
import { Confirm } from '../components/Confirm.js';
import { Message, type Flash } from '../components/Message.js';
import { messageUnderList } from '../message-under-list.js';
import { ScreenHeading } from '../components/ScreenHeading.js';
import { Table } from '../components/Table.js';
import { textWidth } from '../../util/text-width.js';
import { TextField } from '../components/TextField.js';
import { fieldUnderList, TABLE_ABOVE } from '../field-line.js';
import { Wizard, type WizardField } from '../components/Wizard.js';
import { ago } from '../format.js';
import { moveIndex } from '../hooks/cursor.js';
import type { LogFeed } from '../hooks/use-log-feed.js';
import { useResource } from '../hooks/use-resource.js';
import { useAction } from '../hooks/use-action.js';
import type { TuiBackend } from '../backend.js';
import { lastErrors } from '../log/last-errors.js';
import { authHeaderInputProblem, headerListText, parseHeaderList } from '../providers/header-input.js';
import { baseUrlText, credentialBrief, credentialProblemText, credentialText, headerSettingsText, headersText, isConnected, kindText, lastErrorText, modelsText, upstreamRows, type UpstreamRow, type Upstreams } from '../providers/rows.js';
import { removalQuestion, type GroupsCheck } from '../providers/removal-question.js';
import { refusedAnswer } from '../providers/refused-answer.js';
import { insecureQuestion, noKeychain, NOTHING_STORED_YET } from '../providers/insecure-storage.js';
import { useTheme } from '../theme.js';
import { printable } from '../../util/printable.js';
import { listFailureText } from '../../providers/model-list-failure.js';
import { displayUrl } from '../../util/display-url.js';
import { groupUsesText, usesIn, type GroupUse } from '../../config/group-uses.js';
import { useBackend } from '../hooks/use-link.js';
import { useCaptureHold } from '../hooks/use-capture.js';
import { wizardRoom, wizardWanted } from '../wizard-rows.js';
import { wrapLines } from '../wrap-lines.js';

const PROVIDERS_HINTS = ['c connect', 'd disconnect/remove', 'u base URL', 'h headers', 'e add endpoint', 'l add local'];

/** The selected row spelled out under the table: name, base URL, credential and models, last error. */
const DETAIL_LINES = 4;

type Mode =
  | { kind: 'list' }
  | { kind: 'connecting'; name: string }
  /** No keychain for `name`'s key: store it in the 0600 file? (the answer goes to `pendingStore`) */
  | { kind: 'insecure'; name: string }
  // a refused URL opens the field again with it as typed and the daemon's reason
  | { kind: 'base-url'; name: string; current: string; typed?: string; problem?: string }
  | ({ kind: 'headers'; name: string; authHeader: string; headers: string; stored: Readonly<Record<string, string>> } & Refused)
  /** `groups`: the model groups still routing to it; no yes is taken while they are being checked. */
  | { kind: 'removing'; row: UpstreamRow; groups: GroupsCheck }
  | ({ kind: 'adding-endpoint' } & Refused)
  | ({ kind: 'adding-local' } & Refused);

/** A wizard the daemon refused opens again with what was typed, the reason, at the answer refused. */
interface Refused {
  answers?: Record<string, string>;
  problem?: string;
  startAt?: string;
}

/** What a refused wizard opens again with: `answers` as typed, at the answer the error names, if any. */
function refusal(answers: Record<string, string>, fields: readonly WizardField[], problem: string, err: unknown): Refused {
  return { answers, problem, startAt: refusedAnswer(err, fields.map((f) => f.key)) };
}

function connectedFlash(r: ConnectResult): Flash {
  const outcome = connectOutcome(r);
  const note = outcome.note !== undefined ? ` Note: ${outcome.note}` : '';
  return withNotices({ kind: r.unusableEnv !== undefined ? 'info' : 'ok', text: `${outcome.text}${note}` }, r.modeNotices);
}

export function ProvidersScreen({ width, height, feed }: { width: number; height: number; feed: LogFeed }) {
  const theme = useTheme();
  const backend = useBackend();
  const upstreams = useResource<Upstreams>(
    async (b) => {
      const [providers, endpoints, locals] = await Promise.all([b.management.listProviders(), b.management.listEndpoints(), b.management.listLocals()]);
      return { providers, endpoints, locals };
    },
    { pollMs: 10_000 },
  );
  // The catalog may take a few seconds (each upstream's /models); it never holds up the list.
  const models = useResource((b) => b.modelCounts(), { pollMs: 60_000 });
  const [cursor, setCursor, getCursor] = useLatestState(0);
  const { flash, setFlash, run } = useAction(() => {
    upstreams.reload();
    models.reload();
  });
  const [mode, setMode, getMode] = useDialogMode<Mode>({ kind: 'list' }, () => setFlash(undefined));
  // What to do with each answer to the insecure-storage question; they hold the credential typed
  // in, and are let go as soon as it is answered.
  const pendingStore = useRef<{ yes(): void; no(): void } | null>(null);
  const askInsecure = (name: string, answers: { yes(): void; no(): void }) => {
    pendingStore.current = answers;
    setMode({ kind: 'insecure', name });
  };
  const answerInsecure = (yes: boolean) => {
    const answers = pendingStore.current;
    pendingStore.current = null;
    setMode({ kind: 'list' });
    if (yes) answers?.yes();
    else answers?.no();
  };

  const counts = models.data?.counts;
  const failedLists = models.data?.failed;
  const rows = useMemo(() => (upstreams.data ? upstreamRows(upstreams.data, counts) : []), [upstreams.data, counts]);
  const errors = useMemo(() => lastErrors(feed.buffer.entries()), [feed.version]);
  const clamp = (i: number) => Math.min(i, Math.max(0, rows.length - 1));
  const at = clamp(cursor);
  const row = rows[at];

  const act = (what: (b: TuiBackend) => Promise<Flash>, refused?: (reason: string, err: unknown) => void) => {
    setMode({ kind: 'list' });
    run(what, undefined, refused);
  };

  // the answer (the no-keychain question above all) is this screen's: screen keys and q wait for it
  // (the admin client's request gives up after 30 s of silence, letting them go with its error)
  const holdKeys = useCaptureHold();
  const connect = (name: string, secret: string, insecureStorage: boolean) => {
    setMode({ kind: 'list' });
    if (!secret.trim()) return setFlash({ kind: 'info', text: 'No key given; nothing stored.' });
    run(async (b) => {
      const release = holdKeys();
      try {
        return connectedFlash(await b.management.connectProvider(name, secret.trim(), { insecureStorage }));
      } catch (err) {
        if (!(noKeychain(err) && !insecureStorage)) throw err;
        askInsecure(name, { yes: () => connect(name, secret, true), no: () => setFlash({ kind: 'info', text: 'Nothing stored.' }) });
        return { kind: 'info', text: NOTHING_STORED_YET };
      } finally {
        release();
      }
    });
  };

  // A refusal opens the wizard again with the answers as typed; no keychain for its key asks, as connect does.
  const addEndpoint = (v: Record<string, string>, insecureStorage: boolean) =>
    act(
      async (b) => {
        const headers = parseHeaderList(v.headers ?? '', v.authHeader || undefined);
        if ('problem' in headers) return { kind: 'error', text: headers.problem };
        try {
          const e = await b.management.addEndpoint({
            slug: v.slug,
            url: v.url,
            format: v.format,
            credential: v.credential?.trim() || undefined,
            insecureStorage,
            authHeader: v.authHeader || undefined,
            headers: headers.headers,
          });
          return withNotices({ kind: 'ok', text: `Endpoint ${e.slug} added: use models as ${e.slug}/<model>.` }, e.modeNotices);
        } catch (err) {
          if (!(noKeychain(err) && !insecureStorage)) throw err;
          askInsecure(v.slug ?? '', {
            yes: () => addEndpoint(v, true),
            // not added: its key asked again (Esc leaves), every other answer kept
            no: () => setMode({ kind: 'adding-endpoint', answers: v, startAt: 'credential', problem: `Nothing stored. Leave the key empty to add ${v.slug ?? 'the endpoint'} without one.` }),
          });
          return { kind: 'info', text: NOTHING_STORED_YET };
        }
      },
      (problem, err) => setMode({ kind: 'adding-endpoint', ...refusal(v, ENDPOINT_FIELDS, problem, err) }),
    );

  // Loaded when asked (not polled) so the question names the groups as they are now; the question
  // is up meanwhile (refusing y), and asks without a list if they cannot be loaded.
  const askWithGroupUses = (row: UpstreamRow) => {
    const settle = (groups: GroupsCheck) => {
      const m = getMode();
      if (m.kind === 'removing' && m.row.kind === row.kind && m.row.name === row.name) setMode({ ...m, groups });
    };
    setMode({ kind: 'removing', row, groups: backend ? 'checking' : 'unknown' });
    backend?.groups.list().then(
      (groups) => settle(usesIn(groups, row.name)),
      () => settle('unknown'),
    );
  };

  const question = mode.kind === 'removing' ? removalQuestion(mode.row, mode.groups, width) : undefined;
  const wizard = mode.kind === 'adding-endpoint' ? ENDPOINT_FIELDS.length : mode.kind === 'adding-local' ? LOCAL_FIELDS.length : mode.kind === 'headers' ? headerFields(mode).length : 0;
  // a wizard keeps the title, the table's header and a row over it while it can
  const typing = mode.kind === 'connecting' || mode.kind === 'base-url';
  // a refusal's reason takes rows of its own, so the hint (with Esc) stays while the table keeps a row
  const reasonRows = mode.kind === 'base-url' && mode.problem ? wrapLines(mode.problem, width, 2).length : 0;
  // where the table leaves a field too few rows it gives them up, then the heading does (fieldUnderList)
  const room = typing && !wizard && !question ? fieldUnderList(height, reasonRows) : undefined;
  const message = messageUnderList({ flash, loadError: upstreams.error, width, height, above: TABLE_ABOVE, listed: mode.kind === 'list' });
  const footer = wizard
    ? wizardRoom(wizardWanted(wizard), height, 3)
    : question
      ? Math.max(message.reserved, question.lines)
      : room
        ? room.list
          ? Math.max(message.reserved, room.rows)
          : room.rows
        : message.rows;
  const heading = room?.heading !== false && message.heading;
  // the selected row's lines give way first in a short terminal: the title, table header and a row
  // stay. Why its credential is unusable ends with the fix, so it gets the two lines it stands in
  // for and those a message takes, … only past the rows there are.
  const detailRoom = height - 3 - footer;
  const problem = row ? credentialProblemText(row) : undefined;
  const problemLines = problem === undefined ? [] : wrapLines(`credential ${problem}`, width - 2, Math.max(1, Math.min(2 + message.reserved, detailRoom - 2)));
  const detailLines = Math.max(0, Math.min(problem === undefined ? DETAIL_LINES : 2 + problemLines.length, detailRoom));
  // none at all while a wizard has the rows of a short terminal
  const tableRows = Math.max(wizard || room?.list === false ? 0 : 1, height - (heading ? 1 : 0) - 1 - detailLines - footer);

  useKeys(
    (input, key) => {
      if (getMode().kind !== 'list') return;
      const at = clamp(getCursor());
      const row = rows[at];
      if (input === 'e') return setMode({ kind: 'adding-endpoint' });
      if (input === 'l') return setMode({ kind: 'adding-local' });
      if (input === 'r') {
        upstreams.reload();
        models.reload();
        return;
      }
      if (!row) return;
      if (input === 'c') {
        if (row.kind === 'provider') return setMode({ kind: 'connecting', name: row.name });
        return setFlash({
          kind: 'info',
          text: row.kind === 'endpoint' ? 'An endpoint gets its credential when it is added: remove it (d) and add it again (e) to change it.' : 'Local servers need no credential.',
        });
      }
      if (input === 'u') {
        if (row.kind === 'provider') return setMode({ kind: 'base-url', name: row.name, current: row.info.baseUrl });
        return setFlash({ kind: 'info', text: 'Only built-in providers have a base URL to override; endpoints and local servers are re-added with a new URL.' });
      }
      if (input === 'h') {
        if (row.kind === 'provider') return setMode({ kind: 'headers', name: row.name, authHeader: row.info.authHeader ?? '', headers: headerListText(row.info.headers), stored: row.info.headers ?? {} });
        return setFlash({ kind: 'info', text: row.kind === 'endpoint' ? 'An endpoint gets its headers when it is added: remove it (d) and add it again (e) to change them.' : 'Local servers take no header settings.' });
      }
      if (input === 'd' || key.delete) {
        if (row.kind === 'detected') return setFlash({ kind: 'info', text: `${row.name} was found running on this machine; there is nothing to remove.` });
        if (row.kind === 'provider' && !row.info.connected) return setFlash({ kind: 'info', text: nothingRemoved({ name: row.name }) });
        // a provider the daemon's environment connects stays connected: its groups keep working
        if (row.kind === 'provider' && row.info.source === 'env') return setMode({ kind: 'removing', row, groups: [] });
        return askWithGroupUses(row);
      }
      const next = moveIndex(at, rows.length, key, tableRows);
      if (next !== undefined) setCursor(next);
    },
    { isActive: mode.kind === 'list' },
  );

  const remove = (r: UpstreamRow) => {
    if (r.kind === 'provider') {
      act(async (b) => {
        const res = await b.management.disconnectProvider(r.name);
        if (res.removedFrom.length === 0) return nothingRemovedFlash(res);
        // the groups first: a long keychain error may not fit the lines after them
        const notes = [
          res.stillUsedBy.length ? groupsNote(res.stillUsedBy) : '',
          res.keychainError ? `the OS keychain could not be checked (${res.keychainError})` : '',
          res.stillConnectedViaEnv ? `still connected through ${res.stillConnectedViaEnv} in the daemon's environment` : '',
        ].filter(Boolean);
        return withNotices(notedFlash(`${res.name} disconnected (removed from ${res.removedFrom.join(' and ')}).`, notes), res.modeNotices);
      });
    } else if (r.kind === 'endpoint') {
      act(async (b) => {
        const res = await b.management.removeEndpoint(r.name);
        return withNotices(notedFlash(`Endpoint ${r.name} removed.`, usesNotes(res.stillUsedBy)), res.modeNotices);
      });
    } else if (r.kind === 'local') {
      act(async (b) => notedFlash(`Local server ${r.name} removed.`, usesNotes((await b.management.removeLocal(r.name)).stillUsedBy)));
    }
  };

  let bottom;
  if (mode.kind === 'connecting') {
    const { name } = mode;
    bottom = (
      <TextField
        label={[`API key for ${name}:`, 'API key:', 'Key:']}
        width={width}
        hidden
        rows={footer}
        hint="Goes straight to the daemon and into the OS keychain; it is never shown. Enter stores it."
        onSubmit={(v) => connect(name, v, false)}
        onCancel={() => setMode({ kind: 'list' })}
      />
    );
  } else if (mode.kind === 'insecure') {
    const { name } = mode;
    bottom = (
      <Confirm question={insecureQuestion(name, width, footer)} onYes={() => answerInsecure(true)} onNo={() => answerInsecure(false)} />
    );
  } else if (mode.kind === 'base-url') {
    const editing = mode;
    const { name } = editing;
    bottom = (
      <TextField
        label={[`Base URL for ${name}:`, 'Base URL:', 'URL:']}
        width={width}
        initial={editing.typed ?? editing.current}
        problem={editing.problem}
        rows={footer}
        hint="Ctrl-U clears: empty restores the default. Enter saves."
        onSubmit={(v) =>
          act(
            async (b) => {
              const res = await b.management.setProviderBaseUrl(name, v.trim() === '' ? null : v.trim());
              return { kind: 'ok', text: `${res.name} base URL: ${displayUrl(res.baseUrl)}${res.overridden ? '' : ' (default)'}` };
            },
            (problem) => setMode({ ...editing, typed: v, problem }),
          )
        }
        onCancel={() => setMode({ kind: 'list' })}
      />
    );
  } else if (mode.kind === 'headers') {
    const editing = mode;
    const { name } = editing;
    const fields = headerFields(editing);
    bottom = (
      <Wizard
        title={[`Headers for ${name} behind a gateway (both empty: none)`, `Headers for ${name}`, 'Headers']}
        fields={fields}
        height={footer}
        answers={editing.answers}
        problem={editing.problem}
        startAt={editing.startAt}
        onDone={(v) =>
          act(
            async (b) => {
              const parsed = parseHeaderList(v.headers ?? '', v.authHeader || undefined, editing.stored);
              if ('problem' in parsed) return { kind: 'error', text: parsed.problem };
              const res = await b.management.setProviderHeaders(name, { authHeader: v.authHeader || undefined, headers: parsed.headers });
              return { kind: 'ok', text: `${name} headers: ${headerSettingsText(res) || 'none (the provider’s own)'}` };
            },
            (problem, err) => setMode({ ...editing, ...refusal(v, fields, problem, err) }),
          )
        }
        width={width}
        onCancel={() => setMode({ kind: 'list' })}
      />
    );
  } else if (mode.kind === 'removing' && question) {
    const r = mode.row;
    bottom = <Confirm question={question.text} waiting={question.waiting} onYes={() => remove(r)} onNo={() => setMode({ kind: 'list' })} />;
  } else if (mode.kind === 'adding-endpoint') {
    bottom = (
      <Wizard
        title={['Add a custom endpoint', 'Add an endpoint', 'Endpoint']}
        width={width}
        fields={ENDPOINT_FIELDS}
        height={footer}
        answers={mode.answers}
        problem={mode.problem}
        startAt={mode.startAt}
        onDone={(v) => addEndpoint(v, false)}
        onCancel={() => setMode({ kind: 'list' })}
      />
    );
  } else if (mode.kind === 'adding-local') {
    bottom = (
      <Wizard
        title={['Add a local model server (OpenAI-compatible, no key)', 'Add a local model server', 'Local server', 'Local']}
        width={width}
        fields={LOCAL_FIELDS}
        height={footer}
        answers={mode.answers}
        problem={mode.problem}
        startAt={mode.startAt}
        onDone={(v) =>
          act(
            async (b) => {
              const l = await b.management.addLocal({ slug: v.slug!, url: v.url! });
              return { kind: 'ok', text: `Local server ${l.slug} added: use models as ${l.slug}/<model>.` };
            },
            (problem, err) => setMode({ kind: 'adding-local', ...refusal(v, LOCAL_FIELDS, problem, err) }),
          )
        }
        onCancel={() => setMode({ kind: 'list' })}
      />
    );
  } else {
    bottom = <Message flash={message.flash} width={width} lines={footer} />;
  }

  const selectedError = row ? errors.get(row.name) : undefined;
  // the credential column at its least: its header in short, each row's credential in a word
  const briefWidth = Math.max(textWidth('KEY'), ...rows.map((r) => textWidth(credentialBrief(r))));
  return (
    <Box flexDirection="column" height={height}>
      {heading ? <ScreenHeading title="Providers" hints={PROVIDERS_HINTS} width={width} /> : null}
      {tableRows > 0 ? (
        <Table
          headers={['NAME', 'KIND', 'CONNECTED', 'CREDENTIAL', 'MODELS', 'LAST ERROR', 'BASE URL']}
          briefHeaders={{ 3: 'KEY' }}
          caps={[14, 13, 9, 21, 6, 30, 60]}
          // narrower, the base URL gives up cells first, then the columns the detail below spells out
          // go, so the name, whether it is connected and its models stay; the credential says where
          // it lives or what is wrong in a word (a row not connected says why) before it goes
          dropOrder={[6, 1, 5, { index: 3, min: briefWidth }, 4]}
          shrinkFirst={[{ index: 6, min: 12 }]}
          width={width}
          height={tableRows}
          cursor={at}
          empty={upstreams.loading ? 'Loading…' : 'Nothing configured.'}
          rows={rows.map((r) => {
            const ok = isConnected(r);
            const err = errors.get(r.name);
            return {
              id: `${r.kind}:${r.name}`,
              cells: [r.name, kindText(r), ok ? 'yes' : 'no', credentialText(r), modelsText(r, counts, failedLists), lastErrorText(err, (t) => ago(t)), baseUrlText(r)],
              colours: [undefined, theme.muted, ok ? theme.ok : theme.error, undefined, undefined, err ? theme.error : undefined, undefined],
              brief: { 3: credentialBrief(r) },
            };
          })}
        />
      ) : null}
      <Box flexDirection="column" height={detailLines} overflow="hidden">
        {/* only the lines that fit: in a box shorter than its lines Ink drew two on one row */}
        {(row
          ? [
              <Text key="name" bold color={theme.accent} wrap="truncate-end">
                {row.name} <Text color={theme.muted}>({kindText(row)})</Text>
              </Text>,
              <Text key="url" wrap="truncate-end">
                {'  '}base URL    {baseUrlText(row)}
                {headersText(row) ? <Text color={theme.muted}> · headers {headersText(row)}</Text> : null}
              </Text>,
              ...(problem !== undefined
                ? // not connected, so no models and no error of its own: the reason in their lines and more, … past the rows there are
                  problemLines.map((line, i) => (
                    <Text key={`problem${i}`} color={theme.error} wrap="truncate-end">
                      {'  '}
                      {line}
                    </Text>
                  ))
                : [
                    <Text key="credential" wrap="truncate-end">
                      {'  '}credential  {credentialText(row)} · models {modelsText(row, counts, failedLists)}
                      {failedLists?.[row.name] !== undefined ? <Text color={theme.error}> (list failed: {printable(listFailureText(failedLists[row.name]!))})</Text> : null}
                      {models.error ? <Text color={theme.muted}> (catalog: {models.error})</Text> : null}
                    </Text>,
                    <Text key="error" wrap="truncate-end">
                      {'  '}last error  <Text color={selectedError ? theme.error : undefined}>{printable(lastErrorText(selectedError, (t) => ago(t)))}</Text>
                    </Text>,
                  ]),
            ]
          : []
        ).slice(0, detailLines)}
      </Box>
      <Box flexDirection="column" height={footer}>
        {bottom}
      </Box>
    </Box>
  );
}

/**
 * What a change says; a note (not a plain ok) when there is more to know: model groups still
 * routing to what went, say (credentials.json found or made private is its notice: withNotices).
 */
function notedFlash(done: string, notes: readonly string[]): Flash {
  if (notes.length === 0) return { kind: 'ok', text: done };
  return { kind: 'info', text: `${done} Note: ${notes.join('; ')}.` };
}

const usesNotes = (uses: readonly GroupUse[]) => (uses.length ? [groupsNote(uses)] : []);

const groupsNote = (uses: readonly GroupUse[]) => `${groupUsesText(uses)}; those targets now fail (edit them on the Groups screen)`;

/**
 * The fixed-headers answer, checked before the next question against the key's header answered
 * before it; `stored`: the headers an editor opened with (a masked one left as it was is kept).
 */
function fixedHeadersProblem(text: string, authHeader: string | undefined, stored?: Readonly<Record<string, string>>): string | undefined {
  const parsed = parseHeaderList(text, authHeader || undefined, stored);
  return 'problem' in parsed ? parsed.problem : undefined;
}

const ENDPOINT_FIELDS: readonly WizardField[] = [
  { key: 'slug', label: ['Name (used as provider in model ids):', 'Name:'], check: (v) => (v ? undefined : 'A name is needed.') },
  { key: 'url', label: 'Base URL:', hint: 'e.g. https://api.example.com/v1', check: (v) => (v ? undefined : 'A URL is needed.') },
  { key: 'format', label: ['Format, a (OpenAI Chat Completions) or b (Anthropic Messages):', 'Format, a (OpenAI) or b (Anthropic):', 'Format a/b:'], check: (v) => (v === 'a' || v === 'b' ? undefined : 'Type a or b.') },
  { key: 'authHeader', label: ['Header that carries the key (empty: the format’s own):', 'Key header (empty: its own):', 'Key header:'], hint: 'e.g. api-key (Azure OpenAI); authorization means Bearer', check: authHeaderInputProblem },
  { key: 'headers', label: ['Fixed headers, name=value; … (empty: none):', 'Fixed headers (empty: none):', 'Headers:'], hint: 'sent with every request and kept in config.json in the clear: never a key', check: (v, answers) => fixedHeadersProblem(v, answers.authHeader) },
  { key: 'credential', label: ['API key (hidden; empty if it needs none):', 'API key (empty: none):', 'API key:'], hidden: true },
];

const LOCAL_FIELDS: readonly WizardField[] = [
  { key: 'slug', label: 'Name:', check: (v) => (v ? undefined : 'A name is needed.') },
  { key: 'url', label: 'URL:', hint: 'e.g. http://127.0.0.1:11434 (Ollama) or http://127.0.0.1:8000/v1 (vLLM)', check: (v) => (v ? undefined : 'A URL is needed.') },
];

/** The headers wizard's questions, each starting from the provider's current setting. */
function headerFields(current: { authHeader: string; headers: string; stored: Readonly<Record<string, string>> }): WizardField[] {
  return [
    { key: 'authHeader', label: ['Header that carries the key (empty: the provider’s own):', 'Key header (empty: its own):', 'Key header:'], initial: current.authHeader, hint: 'e.g. api-key; authorization means Bearer', check: authHeaderInputProblem },
    { key: 'headers', label: ['Fixed headers, name=value; … (empty: none):', 'Fixed headers (empty: none):', 'Headers:'], initial: current.headers, hint: 'kept in config.json in the clear: never a key', check: (v, answers) => fixedHeadersProblem(v, answers.authHeader, current.stored) },
  ];
}
