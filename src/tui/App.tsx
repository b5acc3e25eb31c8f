/**
 * The whole TUI: tab bar, connection line, the current screen, help, and in a narrow terminal the
 * global keys on the bottom line. Draws exactly one line less than the terminal's height so Ink
 * never falls back to clearing the screen on each frame.
 */
import { Box, useApp } from 'ink';
import { KeyRouterProvider, useKeyRouterRoot, useKeys } from './hooks/use-keys.js';
import { useEffect, useRef, useState } from 'react';
import { Help } from './components/Help.js';
import { StatusLine } from './components/StatusLine.js';
import { TabBar, tabBarNamesKeys } from './components/TabBar.js';
import { GlobalKeys } from './components/GlobalKeys.js';
import type { DaemonLink } from './daemon-link.js';
import { CaptureContext } from './hooks/use-capture.js';
import { LinkContext, useLinkState } from './hooks/use-link.js';
import { useLogFeed, type FeedOptions } from './hooks/use-log-feed.js';
import { useTerminalSize, type TerminalSize } from './hooks/use-terminal-size.js';
import { GroupsScreen } from './screens/GroupsScreen.js';
import { KeysScreen } from './screens/KeysScreen.js';
import { LogScreen } from './screens/LogScreen.js';
import { ProvidersScreen } from './screens/ProvidersScreen.js';
import { SCREENS, type ScreenId } from './screens/screens.js';
import { StatsScreen } from './screens/StatsScreen.js';
import { NOTICE_LINES, statusLayout } from './status-text.js';
import { ThemeContext, type Theme } from './theme.js';
import { TerminalEnvContext } from './hooks/use-copy.js';

export interface AppProps {
  link: DaemonLink;
  theme: Theme;
  /** A fixed size (tests); otherwise the terminal's, following resizes. */
  size?: TerminalSize;
  /** Shown on the status line, e.g. that the daemon was started for us. */
  notice?: string;
  /** Running inside `start --foreground`: quitting stops the daemon. */
  foreground?: boolean;
  initialScreen?: ScreenId;
  feed?: FeedOptions;
  statsPollMs?: number;
  /** The terminal's environment: TMUX or STY says a copy to the clipboard goes through tmux or GNU screen. */
  env?: Record<string, string | undefined>;
}

function Shell({ size, notice, foreground, initialScreen = 'log', feed: feedOptions, statsPollMs }: Omit<AppProps, 'link' | 'theme' | 'env'>) {
  const { exit } = useApp();
  const { columns, rows } = useTerminalSize(size);
  const state = useLinkState();
  const feed = useLogFeed(feedOptions);
  const [screen, setScreen] = useState<ScreenId>(initialScreen);
  const [help, setHelp] = useState(false);
  // Open fields and dialogs (see useCaptureKeys); read when a key arrives, never rendered.
  const captures = useRef(new Set<symbol>()).current;

  useKeys(
    (input, key) => {
      if (captures.size > 0) return;
      if (input === 'q') return exit();
      if (input === '?') return setHelp(true);
      const byKey = SCREENS.find((s) => s.key === input);
      if (byKey) return setScreen(byKey.id);
      if (key.tab) {
        const i = SCREENS.findIndex((s) => s.id === screen);
        setScreen(SCREENS[(i + (key.shift ? SCREENS.length - 1 : 1)) % SCREENS.length]!.id);
      }
    },
  );

  const width = Math.max(20, columns);
  const height = Math.max(6, rows - 1);
  // a notice wrapped below the status takes rows from the screen, at most a quarter of them
  const noticeLines = Math.min(NOTICE_LINES, Math.floor((height - 2) / 4));
  const keysLine = !tabBarNamesKeys(width);
  const body = height - 2 - statusLayout(state, foreground === true, notice, width, noticeLines).below.length - (keysLine ? 1 : 0);
  return (
    <CaptureContext.Provider value={captures}>
      <Box flexDirection="column" width={width} height={height} overflow="hidden">
        <TabBar current={screen} width={width} />
        <StatusLine state={state} notice={notice} width={width} foreground={foreground} noticeLines={noticeLines} />
        {/* clipped to its rows: a screen's question wrapped past them must not run over the keys line */}
        <Box flexDirection="column" height={body} flexShrink={0} overflow="hidden">
          {help ? (
            <Help screen={screen} width={width} height={body} onClose={() => setHelp(false)} />
          ) : screen === 'log' ? (
            <LogScreen feed={feed} width={width} height={body} statsPollMs={statsPollMs} />
          ) : screen === 'keys' ? (
            <KeysScreen width={width} height={body} />
          ) : screen === 'groups' ? (
            <GroupsScreen width={width} height={body} />
          ) : screen === 'providers' ? (
            <ProvidersScreen width={width} height={body} feed={feed} />
          ) : (
            <StatsScreen width={width} height={body} />
          )}
        </Box>
        {keysLine ? <GlobalKeys width={width} /> : null}
      </Box>
    </CaptureContext.Provider>
  );
}

const NO_ENV = {};

export function App({ link, theme, env = NO_ENV, ...rest }: AppProps) {
  const router = useKeyRouterRoot();
  useEffect(() => {
    link.start();
  }, [link]);
  return (
    <ThemeContext.Provider value={theme}>
      <LinkContext.Provider value={link}>
        <KeyRouterProvider value={router}>
          <TerminalEnvContext.Provider value={env}>
            <Shell {...rest} />
          </TerminalEnvContext.Provider>
        </KeyRouterProvider>
      </LinkContext.Provider>
    </ThemeContext.Provider>
  );
}
