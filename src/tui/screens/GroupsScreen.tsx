/**
 * Model groups: each group, its model names and their targets in fallback order, with the
 * group's two base URLs. Add a group, add or edit a name, reorder or remove targets, remove a
 * name or a group — the same admin calls as `svc-proxy group add|set|unset|remove`.
 */
import { Box, Text } from 'ink';
import { useKeys } from '../hooks/use-keys.js';
import { useRef } from 'react';
import { useLatestState } from '../hooks/use-latest-state.js';
import { useDialogMode } from '../hooks/use-dialog-mode.js';
import type { GroupDetail } from '../../config/groups.js';
import { Confirm, fittingQuestion } from '../components/Confirm.js';
import { Message, type Flash } from '../components/Message.js';
import { messageUnderList } from '../message-under-list.js';
import { ScreenHeading } from '../components/ScreenHeading.js';
import { TextField } from '../components/TextField.js';
import { fieldUnderList } from '../field-line.js';
import { wrapLines } from '../wrap-lines.js';
import { Wizard, type WizardField } from '../components/Wizard.js';
import { clip } from '../format.js';
import { groupRows, moveTarget, parseTargets, rowId, type GroupRow } from '../groups/rows.js';
import { checkTargetsAsShown, TargetsChangedError } from '../groups/targets-as-shown.js';
import { moveIndex, windowStart } from '../hooks/cursor.js';
import { useResource } from '../hooks/use-resource.js';
import { useAction } from '../hooks/use-action.js';
import type { TuiBackend } from '../backend.js';
import { useTheme, type Theme } from '../theme.js';
import { wizardRoom, wizardWanted } from '../wizard-rows.js';

type Mode =
  | { kind: 'list' }
  // a refused answer opens its field (or wizard) again with what was typed and the daemon's reason
  | { kind: 'adding-group'; typed?: string; problem?: string }
  | { kind: 'adding-name'; slug: string; answers?: Record<string, string>; problem?: string }
  | { kind: 'editing'; slug: string; name: string; targets: string[]; typed?: string; problem?: string }
  | { kind: 'removing'; row: GroupRow };

const GROUPS_HINTS = ['a add group', 'n add name', 'e edit', '[ ] reorder', 'd remove'];

/** The selected group's base URLs: a heading, then A and B. */
const URL_LINES = 3;

/** What stays over a field or wizard while it can: the screen's heading and a row of the list. */
const LIST_ABOVE = 2;

const TARGETS_HINT = 'provider/model, comma-separated, in fallback order (e.g. anthropic/claude-sonnet-4-5, openrouter/anthropic/claude-sonnet-4.5)';

const NAME_FIELDS: readonly WizardField[] = [
  { key: 'name', label: ['Model name (as clients send it):', 'Model name:', 'Name:'], check: (v) => (v ? undefined : 'A model name cannot be empty.') },
  { key: 'targets', label: 'Targets:', hint: TARGETS_HINT, check: (v) => (parseTargets(v).length ? undefined : 'Give at least one provider/model target.') },
];

function RowLine({ row, selected, width, theme }: { row: GroupRow; selected: boolean; width: number; theme: Theme }) {
  if (row.kind === 'group') {
    return (
      <Text wrap="truncate-end" inverse={selected} bold>
        {clip(`▸ ${row.slug}`, width - 14)}
        <Text color={selected ? undefined : theme.muted}> ({row.names === 1 ? '1 name' : `${row.names} names`})</Text>
      </Text>
    );
  }
  if (row.kind === 'name') {
    return (
      <Text wrap="truncate-end" inverse={selected}>
        {'    '}
        <Text bold>{row.name}</Text>
        <Text color={selected ? undefined : theme.muted}> → {row.targets.length === 1 ? '1 target' : `${row.targets.length} targets`}</Text>
      </Text>
    );
  }
  const { status } = row;
  return (
    <Text wrap="truncate-end" inverse={selected}>
      {`        ${row.index + 1}. ${status.target}`}
      {status.problem ? <Text color={selected ? undefined : theme.warn}> ⚠ {status.problem}</Text> : null}
    </Text>
  );
}

export function GroupsScreen({ width, height }: { width: number; height: number }) {
  const theme = useTheme();
  const groups = useResource<GroupDetail[]>(async (b) => Promise.all((await b.groups.list()).map((g) => b.groups.show(g.slug))), { pollMs: 15_000 });
  const [cursor, setCursor, getCursor] = useLatestState(0);
  const start = useRef(0);
  const { flash, setFlash, run } = useAction(() => groups.reload());
  const [mode, setMode, getMode] = useDialogMode<Mode>({ kind: 'list' }, () => setFlash(undefined));

  const details = groups.data ?? [];
  const rows = groupRows(details);
  const clamp = (i: number) => Math.min(i, Math.max(0, rows.length - 1));
  const at = clamp(cursor);
  const row = rows[at];
  const group = row ? details.find((g) => g.slug === row.slug) : undefined;

  // a wizard keeps the title and a row of the list over it while it can
  // a name or targets being typed has its hint wrapped under it, and a refusal's reason rows of its
  // own, so the way out (Esc) stays; the title and a row stay over it while they leave it room
  const reason = mode.kind === 'adding-group' || mode.kind === 'editing' ? mode.problem : undefined;
  const reasonRows = reason ? wrapLines(reason, width, 2).length : 0;
  const room = mode.kind === 'adding-group' || mode.kind === 'editing' ? fieldUnderList(height, reasonRows, LIST_ABOVE) : undefined;
  const message = messageUnderList({ flash, loadError: groups.error, width, height, above: LIST_ABOVE, listed: mode.kind === 'list' });
  const footer = room
    ? room.rows
    : mode.kind === 'adding-name'
      ? wizardRoom(wizardWanted(NAME_FIELDS.length), height, LIST_ABOVE)
      : mode.kind === 'removing'
        ? 2
        : message.rows;
  const heading = room?.heading !== false && message.heading;
  // the base URLs give way first in a short terminal: the title and a row of the list stay. Their
  // heading goes first, then both (a lone one was B, what Ink's squeeze happened to leave)
  const urlRoom = Math.min(URL_LINES, height - LIST_ABOVE - footer);
  const urlLines = urlRoom >= 2 ? urlRoom : 0;
  // none at all while a wizard or a field has the rows of a short terminal
  const listRows = Math.max(mode.kind === 'adding-name' || room?.list === false ? 0 : 1, height - (heading ? 1 : 0) - urlLines - footer);
  const first = (start.current = windowStart(at, rows.length, listRows, start.current));

  const act = (what: (b: TuiBackend) => Promise<Flash>, then?: () => void, refused?: (reason: string, err: unknown) => void) => {
    setMode({ kind: 'list' });
    run(what, then, refused);
  };

  const move = (at: number, row: GroupRow | undefined, delta: -1 | 1) => {
    if (row?.kind !== 'target') return;
    const next = moveTarget(row.targets, row.index, delta);
    if (!next) return;
    act(async (b) => {
        await checkTargetsAsShown(b.groups, row);
        await b.groups.set(row.slug, row.name, next);
        return { kind: 'ok', text: `${row.slug} / ${row.name}: ${next.join(' → ')}` };
      },
      () => setCursor(at + delta),
    );
  };

  useKeys(
    (input, key) => {
      if (getMode().kind !== 'list') return;
      const at = clamp(getCursor());
      const row = rows[at];
      if (input === 'a') return setMode({ kind: 'adding-group' });
      if (input === 'r') return groups.reload();
      if (!row) return;
      if (input === 'n') return setMode({ kind: 'adding-name', slug: row.slug });
      if (input === 'e' || key.return) {
        if (row.kind === 'name' || row.kind === 'target') return setMode({ kind: 'editing', slug: row.slug, name: row.name, targets: row.targets });
        return setFlash({ kind: 'info', text: 'Select a model name (or one of its targets) to edit its targets; n adds a name.' });
      }
      if (input === 'd' || key.delete) {
        // a name's last target cannot go (the daemon refuses a name without one): say so at once, not after a question
        if (row.kind === 'target' && row.targets.length === 1) return setFlash({ kind: 'error', text: `"${row.name}" needs at least one target: remove the name instead (select it, then d).` });
        return setMode({ kind: 'removing', row });
      }
      if (input === '[' || (key.shift && key.upArrow)) return move(at, row, -1);
      if (input === ']' || (key.shift && key.downArrow)) return move(at, row, 1);
      const next = moveIndex(at, rows.length, key, listRows);
      if (next !== undefined) setCursor(next);
    },
    { isActive: mode.kind === 'list' },
  );

  const remove = (r: GroupRow) => {
    if (r.kind === 'group') {
      act(async (b) => {
        await b.groups.remove(r.slug);
        return { kind: 'ok', text: `Group "${r.slug}" removed.` };
      });
    } else if (r.kind === 'name') {
      act(async (b) => {
        await b.groups.unset(r.slug, r.name);
        return { kind: 'ok', text: `"${r.name}" removed from ${r.slug}.` };
      });
    } else {
      const rest = r.targets.filter((_, i) => i !== r.index);
      act(async (b) => {
        await checkTargetsAsShown(b.groups, r);
        await b.groups.set(r.slug, r.name, rest);
        return { kind: 'ok', text: `${r.slug} / ${r.name}: ${rest.join(' → ')}` };
      });
    }
  };

  // fullest first: a narrow terminal gets the short one, with its [y/N] in view
  const question = (r: GroupRow) =>
    r.kind === 'group'
      ? [`Remove group "${r.slug}" and its ${r.names} name(s)? Tools using its base URLs stop working.`, `Remove group "${r.slug}"?`]
      : r.kind === 'name'
        ? [`Remove "${r.name}" from group ${r.slug}?`, `Remove "${r.name}"?`]
        : [`Remove target ${r.status.target} from "${r.name}"?`, `Remove ${r.status.target}?`];

  let bottom;
  if (mode.kind === 'adding-group') {
    bottom = (
      <TextField
        label={['New group name:', 'Group name:', 'Name:']}
        width={width}
        rows={footer}
        initial={mode.typed}
        problem={mode.problem}
        hint="letters, digits, - and _ (it becomes part of the URL: /g/<name>/…)"
        onSubmit={(slug) =>
          slug.trim()
            ? act(
                async (b) => {
                  const g = await b.groups.add(slug.trim(), []);
                  return { kind: 'ok', text: `Group "${g.slug}" added: select it and press n to add a model name.` };
                },
                undefined,
                (problem) => setMode({ kind: 'adding-group', typed: slug, problem }),
              )
            : setMode({ kind: 'list' })
        }
        onCancel={() => setMode({ kind: 'list' })}
      />
    );
  } else if (mode.kind === 'adding-name') {
    const slug = mode.slug;
    bottom = (
      <Wizard
        title={[`Add a model name to ${slug}`, `New name in ${slug}`, 'New name']}
        width={width}
        fields={NAME_FIELDS}
        height={footer}
        answers={mode.answers}
        problem={mode.problem}
        onDone={(v) =>
          act(
            async (b) => {
              const res = await b.groups.set(slug, v.name!, parseTargets(v.targets!));
              return { kind: 'ok', text: `${res.replaced ? 'Updated' : 'Added'} "${v.name}" in ${slug}.` };
            },
            undefined,
            (problem) => setMode({ kind: 'adding-name', slug, answers: v, problem }),
          )
        }
        onCancel={() => setMode({ kind: 'list' })}
      />
    );
  } else if (mode.kind === 'editing') {
    const editing = mode;
    const { slug, name } = editing;
    bottom = (
      <TextField
        label={[`Targets of "${name}":`, 'Targets:']}
        width={width}
        initial={editing.typed ?? editing.targets.join(', ')}
        problem={editing.problem}
        rows={footer}
        hint={TARGETS_HINT}
        onSubmit={(text) =>
          act(
            async (b) => {
              const targets = parseTargets(text);
              await checkTargetsAsShown(b.groups, editing);
              await b.groups.set(slug, name, targets);
              return { kind: 'ok', text: `${slug} / ${name}: ${targets.join(' → ')}` };
            },
            undefined,
            (problem, err) => setMode({ ...editing, targets: err instanceof TargetsChangedError ? err.now : editing.targets, typed: text, problem }),
          )
        }
        onCancel={() => setMode({ kind: 'list' })}
      />
    );
  } else if (mode.kind === 'removing') {
    const r = mode.row;
    bottom = <Confirm question={fittingQuestion(question(r), width, footer)} onYes={() => remove(r)} onNo={() => setMode({ kind: 'list' })} />;
  } else {
    bottom = <Message flash={message.flash} width={width} lines={footer} />;
  }

  const shown = rows.slice(first, first + listRows);
  return (
    <Box flexDirection="column" height={height}>
      {/* no count before the groups have loaded: "0" would say there are none */}
      {heading ? <ScreenHeading title="Model groups" detail={groups.data && [String(details.length)]} hints={GROUPS_HINTS} width={width} /> : null}
      <Box flexDirection="column" height={listRows} overflow="hidden">
        {rows.length === 0 ? (
          <Text color={theme.muted}>{groups.loading ? 'Loading…' : 'No groups yet: press a to add one.'}</Text>
        ) : (
          shown.map((r, i) => <RowLine key={rowId(r)} row={r} selected={first + i === at} width={width} theme={theme} />)
        )}
      </Box>
      <Box flexDirection="column" height={urlLines} overflow="hidden">
        {group ? (
          <>
            {urlLines === URL_LINES ? (
              <Text color={theme.accent} bold wrap="truncate-end">
                Base URLs of {group.slug}
              </Text>
            ) : null}
            <Text wrap="truncate-end">  A (OpenAI)    {group.baseUrls.a}</Text>
            <Text wrap="truncate-end">  B (Anthropic) {group.baseUrls.b}</Text>
          </>
        ) : null}
      </Box>
      <Box flexDirection="column" height={footer}>
        {bottom}
      </Box>
    </Box>
  );
}
