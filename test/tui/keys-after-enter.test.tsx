/**
 * Keys that reach the app in one read with an Enter: what follows the Enter goes to what that
 * Enter put on screen (Ink hands a read's escape sequences over one by one, before React has
 * committed anything), none is lost or doubled, and text without a line break stays one key.
 */
import { render } from 'ink-testing-library';
import { Text } from 'ink';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { KeyRouterProvider, useKeyRouterRoot, useKeys } from '../../src/tui/hooks/use-keys.js';
import { settleInk } from './harness.js';

/** A list that Enter turns into a detail view; each key is noted with the view that got it. */
function TwoViews({ seen }: { seen: string[] }) {
  const router = useKeyRouterRoot();
  return (
    <KeyRouterProvider value={router}>
      <Views seen={seen} />
    </KeyRouterProvider>
  );
}

function Views({ seen }: { seen: string[] }) {
  const [view, setView] = useState<'list' | 'detail'>('list');
  useKeys((input, key) => {
    const name = key.return ? 'Enter' : key.upArrow ? 'Up' : key.escape ? 'Esc' : input;
    seen.push(`${view}:${name}`);
    if (key.return) setView('detail');
  });
  return <Text>{view}</Text>;
}

async function seenAfter(...chunks: string[]): Promise<string[]> {
  const seen: string[] = [];
  const ui = render(<TwoViews seen={seen} />);
  try {
    await settleInk();
    for (const chunk of chunks) ui.stdin.write(chunk);
    // each key held for the next screen waits one commit
    for (let i = 0; i < 5; i++) await settleInk();
    return seen;
  } finally {
    ui.unmount();
    ui.cleanup();
  }
}

describe('keys in the read of an Enter', () => {
  it('an arrow key after the Enter goes to the view the Enter opened', async () => {
    expect(await seenAfter('\r\x1b[A')).toEqual(['list:Enter', 'detail:Up']);
    expect(await seenAfter('x\r\x1b[A')).toEqual(['list:x', 'list:Enter', 'detail:Up']);
  });

  it('text and keys after the Enter keep their order, each once', async () => {
    expect(await seenAfter('a\rb\x1b[Ac')).toEqual(['list:a', 'list:Enter', 'detail:b', 'detail:Up', 'detail:c']);
    expect(await seenAfter('a\r', '\x1b[A', 'c')).toEqual(['list:a', 'list:Enter', 'detail:Up', 'detail:c']);
  });

  it('a long paste with no line break is one key, whole', async () => {
    const paste = 'x'.repeat(10_000);
    expect(await seenAfter(paste)).toEqual([`list:${paste}`]);
  });
});
