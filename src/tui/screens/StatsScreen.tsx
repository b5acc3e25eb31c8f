/**
 * Usage over a window (the last hour, day, week, or everything retained) by provider, model or
 * key: the same summary as `svc-proxy stats`, from the same admin call, polled while shown. The
 * selected row is spelled out in full below the table (in the lines a message takes: two at 80
 * columns), since 80 columns hold only the main figures. A summary that fails says why in those
 * same lines, so the table does not move while a poll fails and recovers.
 */
import { Box, Text } from 'ink';
import { formatCount, formatMs, formatTime, percentOf } from '../../cli/log-format.js';
import { STATS_BY, type StatsBy, type StatsRow } from '../../log/stats.js';
import { Message, messageLines } from '../components/Message.js';
import { ScreenHeading } from '../components/ScreenHeading.js';
import { Table } from '../components/Table.js';
import { moveIndex } from '../hooks/cursor.js';
import { useKeys } from '../hooks/use-keys.js';
import { useLatestState } from '../hooks/use-latest-state.js';
import { useResource } from '../hooks/use-resource.js';
import { useTheme } from '../theme.js';
import { printable } from '../../util/printable.js';
import { wrapLines } from '../wrap-lines.js';

/**
 * The windows `t` cycles through; `undefined` ms is everything the log still holds. Each summary
 * reads the log files of its window in the daemon (with bodies logged, up to logMaxTotalBytes),
 * so the longer windows are summed again less often.
 */
export const STATS_WINDOWS: ReadonlyArray<{ label: string; short: string; ms: number | undefined; pollMs: number }> = [
  { label: 'last hour', short: '1h', ms: 3_600_000, pollMs: 5_000 },
  { label: 'last 24 hours', short: '24h', ms: 86_400_000, pollMs: 15_000 },
  { label: 'last 7 days', short: '7d', ms: 7 * 86_400_000, pollMs: 60_000 },
  { label: 'everything retained', short: 'all', ms: undefined, pollMs: 60_000 },
];

const STATS_HINTS = ['b by provider/model/key', 't window'];

/** Below this width the fallbacks and cached-tokens columns give their room to the names. */
const WIDE = 100;

/**
 * Narrower still, a long name gives up cells first (down to NAME_MIN, where "PROVIDER" and the
 * start of a name still say which row it is), then the figures go, least needed first: requests,
 * errors and p50 stay longest, the rest of each row is spelled out under the table.
 */
const DROPPED_FIRST = ['TTFB', 'FB', 'CACHED', 'P95', 'OUT', 'IN', 'P50'];
const NAME_MIN = 8;

function cellsOf(r: StatsRow, wide: boolean): string[] {
  const ttfb = r.p50TtfbMs === null ? '-' : formatMs(r.p50TtfbMs);
  const errors = percentOf(r.errors, r.requests);
  return wide
    ? [r.name, String(r.requests), errors, String(r.fallbacks), formatCount(r.inputTokens), formatCount(r.outputTokens), formatCount(r.cachedTokens), formatMs(r.p50LatencyMs), formatMs(r.p95LatencyMs), ttfb]
    : [r.name, String(r.requests), errors, formatCount(r.inputTokens), formatCount(r.outputTokens), formatMs(r.p50LatencyMs), formatMs(r.p95LatencyMs), ttfb];
}

/** Every figure of one row, for the line under the table. */
export function rowDetail(r: StatsRow): string {
  const parts = [
    `${r.requests} request${r.requests === 1 ? '' : 's'} (${r.streamed} streamed)`,
    `${r.errors} error${r.errors === 1 ? '' : 's'}`,
    `${r.fallbacks} fell back`,
    `in ${formatCount(r.inputTokens)} (cached ${formatCount(r.cachedTokens)})`,
    `out ${formatCount(r.outputTokens)} (reasoning ${formatCount(r.reasoningTokens)})`,
    `p50 ${formatMs(r.p50LatencyMs)} p95 ${formatMs(r.p95LatencyMs)}`,
  ];
  if (r.cancelled > 0) parts.splice(2, 0, `${r.cancelled} cancelled by the client`);
  if (r.p50TtfbMs !== null) parts.push(`TTFB p50 ${formatMs(r.p50TtfbMs)}`);
  return `${r.name}: ${parts.join(' · ')}`;
}

export function StatsScreen({ width, height }: { width: number; height: number }) {
  const theme = useTheme();
  const [by, setBy, getBy] = useLatestState<StatsBy>('provider');
  const [windowAt, setWindowAt, getWindowAt] = useLatestState(1);
  const [cursor, setCursor, getCursor] = useLatestState(0);
  const window = STATS_WINDOWS[windowAt]!;
  const stats = useResource(
    async (b) => {
      const asked = { by: getBy(), windowAt: getWindowAt() };
      const ms = STATS_WINDOWS[asked.windowAt]!.ms;
      const report = await b.logs.stats(ms === undefined ? {} : { since: Date.now() - ms }, asked.by);
      return { ...asked, report, at: new Date().toISOString() };
    },
    // a new grouping or window is asked for at once, not at the next poll, and an error of the
    // one asked before is not taken for its answer
    { pollMs: STATS_WINDOWS[windowAt]!.pollMs, key: `${by} ${windowAt}` },
  );
  const { reload } = stats;

  // figures for another grouping or window than the one shown are not shown under its title
  const report = stats.data?.by === by && stats.data.windowAt === windowAt ? stats.data.report : undefined;
  const rows = report && report.total.requests > 0 ? [...report.rows, { ...report.total, name: 'TOTAL' }] : [];
  const clamp = (i: number) => Math.min(i, Math.max(0, rows.length - 1));
  // title, table header, then the lines a message takes (fewer in a short terminal): the selected
  // row's figures, or why the summary failed; the same lines either way, so no row moves
  const bottomLines = Math.max(0, Math.min(messageLines(width, height), height - 3));
  const tableRows = Math.max(1, height - 2 - bottomLines);

  useKeys((input, key) => {
    if (input === 'b') {
      setCursor(0);
      return setBy(STATS_BY[(STATS_BY.indexOf(getBy()) + 1) % STATS_BY.length]!);
    }
    if (input === 't') return setWindowAt((getWindowAt() + 1) % STATS_WINDOWS.length);
    if (input === 'r') return reload();
    const next = moveIndex(clamp(getCursor()), rows.length, key, tableRows);
    if (next !== undefined) setCursor(next);
  });

  const wide = width >= WIDE;
  const headers = wide ? [by.toUpperCase(), 'REQ', 'ERR%', 'FB', 'IN', 'OUT', 'CACHED', 'P50', 'P95', 'TTFB'] : [by.toUpperCase(), 'REQ', 'ERR%', 'IN', 'OUT', 'P50', 'P95', 'TTFB'];
  const cells = rows.map((r) => cellsOf(r, wide));
  // the figures take what they need (at most 6 each); a name what it needs, and it is cut first
  const figureCaps = headers.slice(1).map(() => 6);
  const dropOrder = DROPPED_FIRST.map((h) => headers.indexOf(h)).filter((i) => i > 0);
  const at = clamp(cursor);
  const selected = rows[at];
  const loading = stats.loading || (stats.data !== undefined && report === undefined);
  const empty = report === undefined && stats.error ? 'No figures to show.' : loading ? 'Loading…' : `No requests in the ${window.label === 'everything retained' ? 'log' : window.label}.`;
  // the rows shown are the last good summary: the error says how old they are
  const failure = stats.error && (report && stats.data ? `not updated since ${formatTime(stats.data.at)}: ${stats.error}` : stats.error);
  return (
    <Box flexDirection="column" height={height}>
      <ScreenHeading title="Usage" detail={[`${window.label}, by ${by}`, `${window.short}, by ${by}`, `${window.short} ${by}`]} hints={STATS_HINTS} width={width} />
      <Table
        headers={headers}
        caps={[width, ...figureCaps]}
        dropOrder={dropOrder}
        shrinkFirst={[{ index: 0, min: NAME_MIN }]}
        width={width}
        height={tableRows}
        cursor={rows.length > 0 ? at : -1}
        empty={empty}
        rows={rows.map((r, i) => ({
          id: `${i}:${r.name}`,
          cells: cells[i]!,
          colours: [undefined, undefined, r.errors > 0 ? theme.error : undefined],
          bold: i === rows.length - 1,
        }))}
      />
      <Box height={bottomLines} flexDirection="column" overflow="hidden">
        {/* wrapped here, not by Ink, so the last line kept ends in … where the figures go on */}
        {failure ? (
          <Message flash={{ kind: 'error', text: failure }} width={width} lines={bottomLines} />
        ) : selected ? (
          wrapLines(printable(rowDetail(selected)), width, bottomLines).map((line, i) => (
            <Text key={i} color={theme.muted} wrap="truncate-end">
              {line}
            </Text>
          ))
        ) : null}
      </Box>
    </Box>
  );
}
