/**
 * Service keys: the list (never a key), create (the full key shown once, with "copy it now"), and
 * revoke after a confirmation. Same admin calls as `svc-proxy key create|list|revoke`.
 */
import { Box, Text } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { useKeys } from '../hooks/use-keys.js';
import { useLatestState } from '../hooks/use-latest-state.js';
import { useDialogMode } from '../hooks/use-dialog-mode.js';
import type { CreatedKey, KeyInfo } from '../../keys/operations.js';
import { Confirm, fittingQuestion } from '../components/Confirm.js';
import { Message, messageLines } from '../components/Message.js';
import { messageUnderList } from '../message-under-list.js';
import { ScreenHeading } from '../components/ScreenHeading.js';
import { Table } from '../components/Table.js';
import { TextField } from '../components/TextField.js';
import { fieldUnderList, TABLE_ABOVE } from '../field-line.js';
import { wrapLines } from '../wrap-lines.js';
import { ago } from '../format.js';
import { useCaptureHold, useCaptureKeys } from '../hooks/use-capture.js';
import { createWithin, CREATE_KEY_WITHIN_MS } from '../keys/create-within.js';
import { moveIndex } from '../hooks/cursor.js';
import { useResource } from '../hooks/use-resource.js';
import { useAction } from '../hooks/use-action.js';
import { useTheme } from '../theme.js';
import { newKeyLayout } from '../new-key-layout.js';
import { useCopy } from '../hooks/use-copy.js';
import type { Copied } from '../clipboard/copy-to-clipboard.js';
import { clipPrefixCell, prefixCell } from '../key-prefix.js';

const KEYS_HINTS = ['n new', 'd revoke'];

/** A refused name opens the field again with it and the daemon's reason. */
type Mode = { kind: 'list' } | { kind: 'naming'; name?: string; problem?: string } | { kind: 'revoking'; key: KeyInfo } | { kind: 'created'; key: CreatedKey };

function shortDay(iso: string): string {
  return iso.slice(0, 10);
}

/**
 * The one-time display of a new key (new-key-layout.ts). c copies it (useCopy), and says what that
 * did; any of Enter/Esc dismisses it, and it is gone for good.
 */
function NewKey({ created, width, height, onDone }: { created: CreatedKey; width: number; height: number; onDone(): void }) {
  const theme = useTheme();
  const copy = useCopy();
  const [copied, setCopied] = useState<Copied>();
  useCaptureKeys(true);
  useKeys((input, key) => {
    if (key.return || key.escape) return onDone();
    if (input === 'c') void copy(created.key).then(setCopied);
  });
  const layout = newKeyLayout(created, width, height, copied?.text);
  return (
    <Box flexDirection="column" borderStyle={layout.boxed ? 'round' : undefined} borderColor={theme.ok} paddingX={layout.boxed ? 1 : 0}>
      {layout.title ? (
        <Text bold color={theme.ok}>
          {layout.title}
        </Text>
      ) : null}
      {layout.key.map((line, i) => (
        <Text key={`k${i}`}>{line}</Text>
      ))}
      {layout.warning.map((line, i) => (
        <Text key={`w${i}`} bold color={theme.warn}>
          {line}
        </Text>
      ))}
      {layout.copied.map((line, i) => (
        <Text key={`c${i}`} color={copied?.copied ? theme.ok : theme.error}>
          {line}
        </Text>
      ))}
      {layout.done ? <Text color={theme.muted}>{layout.done}</Text> : null}
    </Box>
  );
}

export function KeysScreen({ width, height }: { width: number; height: number }) {
  const theme = useTheme();
  const keys = useResource((b) => b.management.listKeys(), { pollMs: 10_000 });
  const [cursor, setCursor, getCursor] = useLatestState(0);
  const { flash, setFlash, run } = useAction(() => keys.reload());
  const [mode, setMode, getMode] = useDialogMode<Mode>({ kind: 'list' }, () => setFlash(undefined));
  const list = keys.data ?? [];
  const clamp = (i: number) => Math.min(i, Math.max(0, list.length - 1));
  const at = clamp(cursor);

  // A key just created is selected once it is listed, so what is done next (revoke) is done to it.
  const selectWhenListed = useRef<string | null>(null);
  useEffect(() => {
    const i = list.findIndex((k) => k.id === selectWhenListed.current);
    if (i < 0) return;
    selectWhenListed.current = null;
    setCursor(i);
  }, [keys.data]);

  // the new key is shown once, by this screen: switching screens or quitting waits for the daemon's answer
  const holdKeys = useCaptureHold();
  const create = (name: string) => {
    setMode({ kind: 'list' });
    if (!name.trim()) return;
    run(
      async (b) => {
        const release = holdKeys();
        try {
          const created = await createWithin(b.management.createKey(name.trim()), name.trim(), CREATE_KEY_WITHIN_MS);
          selectWhenListed.current = created.id;
          setMode({ kind: 'created', key: created });
          return { kind: 'info', text: `Key "${created.name}" created.` };
        } finally {
          release();
        }
      },
      undefined,
      (problem) => setMode({ kind: 'naming', name, problem }),
    );
  };

  const revoke = (key: KeyInfo) => {
    setMode({ kind: 'list' });
    run(async (b) => {
      const r = await b.management.revokeKey(key.id);
      return r.alreadyRevoked ? { kind: 'info', text: `Key "${r.name}" was already revoked.` } : { kind: 'ok', text: `Key "${r.name}" revoked: it no longer works.` };
    });
  };

  // title, table header, the message
  // a name being typed has its hint wrapped under it, and a refusal's reason rows of its own, so the
  // way out (Esc) stays; the heading, table header and a row stay over it while they leave it room
  const reasonRows = mode.kind === 'naming' && mode.problem ? wrapLines(mode.problem, width, 2).length : 0;
  const room = mode.kind === 'naming' ? fieldUnderList(height, reasonRows) : undefined;
  const message = messageUnderList({ flash, loadError: keys.error, width, height, above: TABLE_ABOVE, listed: mode.kind === 'list' });
  const footer = room ? (room.list ? Math.max(message.reserved, room.rows) : room.rows) : message.rows;
  const heading = room?.heading !== false && message.heading;
  const rows = room && !room.list ? 0 : Math.max(1, height - (heading ? 2 : 1) - footer);
  useKeys(
    (input, key) => {
      if (getMode().kind !== 'list') return;
      const at = clamp(getCursor());
      const selected = list[at];
      if (input === 'n') return setMode({ kind: 'naming' });
      if (input === 'r') return keys.reload();
      if ((input === 'd' || key.delete) && selected) {
        if (selected.state === 'revoked') return setFlash({ kind: 'info', text: `Key "${selected.name}" is already revoked.` });
        return setMode({ kind: 'revoking', key: selected });
      }
      const next = moveIndex(at, list.length, key, rows);
      if (next !== undefined) setCursor(next);
    },
    { isActive: mode.kind === 'list' },
  );

  if (mode.kind === 'created') {
    return (
      <Box flexDirection="column" height={height}>
        <NewKey
          created={mode.key}
          width={width}
          height={height}
          onDone={() => {
            setMode({ kind: 'list' });
            setFlash({ kind: 'info', text: `Key "${mode.key.name}" is ready; only its prefix is shown from now on.` });
          }}
        />
      </Box>
    );
  }

  const active = list.filter((k) => k.state === 'active').length;
  return (
    <Box flexDirection="column" height={height}>
      {/* no count before the list has loaded: "0 active" would say there are none */}
      {heading ? <ScreenHeading title="Service keys" detail={keys.data && [`${active} active, ${list.length - active} revoked`, `${active} active`, String(active)]} hints={KEYS_HINTS} width={width} /> : null}
      {rows > 0 ? (
        <Table
          headers={['NAME', 'PREFIX', 'CREATED', 'LAST USED', 'STATE']}
          caps={[24, 22, 10, 12, 20]}
          // a narrow terminal keeps the name, prefix (its end) and state: which key, and whether it works
          dropOrder={[2, 3]}
          clips={{ 1: clipPrefixCell }}
          width={width}
          height={rows}
          cursor={mode.kind === 'list' || mode.kind === 'revoking' ? at : -1}
          empty={keys.loading ? 'Loading…' : 'No keys yet: press n to create one.'}
          rows={list.map((k) => ({
            id: k.id,
            cells: [k.name, prefixCell(k.prefix), shortDay(k.created), ago(k.lastUsed), k.state === 'revoked' ? `revoked ${ago(k.revoked)}` : 'active'],
            colours: [undefined, undefined, undefined, undefined, k.state === 'revoked' ? theme.error : theme.ok],
            dim: k.state === 'revoked',
          }))}
        />
      ) : null}
      <Box height={footer} flexDirection="column">
        {mode.kind === 'naming' ? (
          <TextField label={['Name for the new key:', 'Key name:', 'Name:']} width={width} rows={footer} initial={mode.name} problem={mode.problem} hint="e.g. laptop-claude · Enter creates it" onSubmit={create} onCancel={() => setMode({ kind: 'list' })} />
        ) : mode.kind === 'revoking' ? (
          <Confirm
            question={fittingQuestion([`Revoke key "${mode.key.name}" (${mode.key.prefix}…)? Tools using it stop working at once.`, `Revoke key "${mode.key.name}"?`], width, messageLines(width, height))}
            onYes={() => revoke(mode.key)}
            onNo={() => setMode({ kind: 'list' })}
          />
        ) : (
          <Message flash={message.flash} width={width} lines={footer} />
        )}
      </Box>
    </Box>
  );
}
