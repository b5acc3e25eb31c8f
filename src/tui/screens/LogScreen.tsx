/**
 * The live request log: newest on top, filters (text, status class, key), pause, and a detail pane
 * for the selected request. With nothing selected the view follows new requests; once a row is
 * selected it stays where it is on screen while new rows arrive above.
 */
import { Box, Text } from 'ink';
import { useKeys } from '../hooks/use-keys.js';
import { useMemo, useRef, useState } from 'react';
import { useLatestState } from '../hooks/use-latest-state.js';
import type { RequestLogEntry } from '../../log/entry.js';
import { TextField } from '../components/TextField.js';
import { moveIndex } from '../hooks/cursor.js';
import type { LogFeed } from '../hooks/use-log-feed.js';
import { useResource } from '../hooks/use-resource.js';
import { fitColumns } from '../log/columns.js';
import { detailLines } from '../log/detail-lines.js';
import { formatTime } from '../../cli/log-format.js';
import { recentStats, RECENT_WINDOW_MS } from '../log/recent-stats.js';
import { compileViewFilter, describeFilter, isFiltering, nextKey, nextStatusClass, NO_FILTER, type ViewFilter } from '../log/view-filter.js';
import { DETAIL_HINTS } from '../log/footer-hints.js';
import { fittingHints } from '../key-hints.js';
import { footerLines, logFooterLayout } from '../log/footer-layout.js';
import { messageLines } from '../components/Message.js';
import { useTheme } from '../theme.js';
import { LogDetail } from './LogDetail.js';
import { LogFooter } from './LogFooter.js';
import { LogTable } from './LogTable.js';

export interface LogScreenProps {
  feed: LogFeed;
  width: number;
  height: number;
  /** Footer refresh interval (default 5 s). */
  statsPollMs?: number;
}

/** Lines an active filter too wide to go beside the counts may take: one where the table has few rows. */
const filterLines = (height: number) => (height >= 8 ? 2 : 1);

function describedFilter(f: ViewFilter): { full: string; short: string } | undefined {
  const full = describeFilter(f);
  return full === undefined ? undefined : { full, short: describeFilter(f, true)! };
}

export function LogScreen({ feed, width, height, statsPollMs = 5_000 }: LogScreenProps) {
  const theme = useTheme();
  const [filter, setFilter] = useState<ViewFilter>(NO_FILTER);
  const [editing, setEditing, getEditing] = useLatestState<boolean>(false);
  const [selectedId, setSelectedId, getSelectedId] = useLatestState<string | null>(null);
  const [detail, setDetail, getDetail] = useLatestState<{ entry: RequestLogEntry; offset: number } | null>(null);
  // Screen row of the selection, kept while new rows push the list down.
  const anchor = useRef(0);

  const stats = useResource(async (b) => ({ report: await b.logs.stats({ since: Date.now() - RECENT_WINDOW_MS }, 'provider'), at: new Date().toISOString() }), { pollMs: statsPollMs });
  const keys = useResource((b) => b.management.listKeys(), { pollMs: 30_000 });

  const all = feed.buffer.entries();
  const visible = useMemo(() => (isFiltering(filter) ? all.filter(compileViewFilter(filter)) : all), [all, feed.version, filter]);
  const columns = useMemo(() => fitColumns(width), [width]);
  const counts = isFiltering(filter) ? `${visible.length} of ${all.length}` : `${all.length}`;
  // a failed poll keeps the last figures, marked with the time they stand from
  const summary = stats.data ? { figures: recentStats(stats.data.report), staleSince: stats.error === undefined ? undefined : formatTime(stats.data.at) } : stats.error ? { unavailable: stats.error } : undefined;
  const footer = logFooterLayout({ paused: feed.paused, held: feed.held, counts, filter: describedFilter(filter), error: feed.error, summary }, width, filterLines(height), messageLines(width, height));
  // the table's header, then its rows, then the footer's lines
  const rows = Math.max(1, height - 1 - footerLines(footer));

  // -1: nothing selected, or the selection was evicted or filtered out (back to live).
  const indexOf = (id: string | null) => (id === null ? -1 : visible.findIndex((e) => e.id === id));
  const index = indexOf(selectedId);
  // where it sat on screen, within the rows there are now (a shorter terminal keeps it in view)
  const at = () => Math.min(anchor.current, rows - 1);
  const start = index < 0 ? 0 : Math.max(0, Math.min(index - at(), Math.max(0, visible.length - rows)));
  const page = visible.slice(start, start + rows);

  const keyNames = useMemo(() => {
    const names = new Set<string>((keys.data ?? []).map((k) => k.name));
    for (const e of all.slice(0, 200)) if (e.keyName) names.add(e.keyName);
    return [...names].sort();
  }, [keys.data, all]);

  const select = (i: number, from: number) => {
    const e = visible[i];
    if (!e) return;
    // Keep the selection inside the window; remember where it sits on screen.
    const current = from < 0 ? 0 : Math.max(0, Math.min(from - at(), Math.max(0, visible.length - rows)));
    let s = current;
    if (i < s) s = i;
    if (i >= s + rows) s = i - rows + 1;
    anchor.current = i - s;
    setSelectedId(e.id);
  };

  // wrapped to the width: the scroll counts the lines shown
  const lines = useMemo(() => (detail ? detailLines(detail.entry, width) : []), [detail?.entry, width]);
  const lineCount = (d: { entry: RequestLogEntry } | null) => (d === detail ? lines.length : d ? detailLines(d.entry, width).length : 0);
  const detailRows = Math.max(1, height - 1);
  // a terminal grown taller (or wider, wrapping less) since the scroll shows the end at its last row, not over blank rows
  const shownOffset = (d: { entry: RequestLogEntry; offset: number }) => Math.min(d.offset, Math.max(0, lineCount(d) - detailRows));

  useKeys(
    (input, key) => {
      if (getEditing()) return;
      const open = getDetail();
      if (open) {
        if (key.escape || key.return || key.backspace || key.delete) return setDetail(null);
        const next = moveIndex(shownOffset(open), Math.max(1, lineCount(open) - detailRows + 1), key, detailRows);
        if (next !== undefined) setDetail({ ...open, offset: next });
        return;
      }
      const index = indexOf(getSelectedId());
      if (input === '/') return setEditing(true);
      if (input === 's') return setFilter((f) => ({ ...f, status: nextStatusClass(f.status) }));
      if (input === 'k') return setFilter((f) => ({ ...f, key: nextKey(f.key, keyNames) }));
      if (input === ' ' || input === 'p') return feed.setPaused(!feed.paused);
      if (input === 'r') return stats.reload();
      if (key.escape) {
        setFilter(NO_FILTER);
        setSelectedId(null);
        return;
      }
      if (key.return) {
        const e = index >= 0 ? visible[index] : visible[0];
        if (e) {
          if (index < 0) select(0, index);
          setDetail({ entry: e, offset: 0 });
        }
        return;
      }
      if (key.downArrow && index < 0) return select(0, index);
      if (key.upArrow && index <= 0) return setSelectedId(null); // back to following the newest
      const next = moveIndex(Math.max(index, 0), visible.length, key, rows);
      if (next !== undefined) select(next, index);
    },
    { isActive: !editing },
  );

  if (detail) {
    return (
      <Box flexDirection="column" height={height}>
        <LogDetail lines={lines} offset={shownOffset(detail)} rows={detailRows} />
        <Text color={theme.muted} wrap="truncate-end">
          {fittingHints(DETAIL_HINTS, width, '')}
        </Text>
      </Box>
    );
  }

  const empty = all.length === 0 ? 'No requests yet: they appear here as they arrive.' : 'No request matches the filter (Esc clears it).';
  const field = editing ? (
    <TextField
      label="filter /"
      width={width}
      initial={filter.text}
      onChange={(text) => setFilter((f) => ({ ...f, text }))}
      onSubmit={() => setEditing(false)}
      onCancel={() => {
        setFilter((f) => ({ ...f, text: '' }));
        setEditing(false);
      }}
    />
  ) : undefined;

  return (
    <Box flexDirection="column" height={height}>
      <LogTable entries={page} columns={columns} selectedId={index >= 0 ? selectedId : null} rows={rows} empty={empty} />
      <LogFooter layout={footer} field={field} width={width} />
    </Box>
  );
}
