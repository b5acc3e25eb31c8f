/**
 * Text and Enter that reach the terminal in one read (a pasted key ending in a line break, keys a
 * program sends, a busy machine) are still text, then Enter: Ink marks Enter only on a read that
 * is `\r` alone, so without the split the field kept the text and dropped the Enter.
 */
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { TextField } from '../../src/tui/components/TextField.js';
import { Wizard } from '../../src/tui/components/Wizard.js';
import { KeyRouterProvider, splitAtLineBreaks, useKeyRouterRoot } from '../../src/tui/hooks/use-keys.js';
import { settleInk } from './harness.js';

function Field({ hidden, onSubmit }: { hidden: boolean; onSubmit(v: string): void }) {
  const router = useKeyRouterRoot();
  return (
    <KeyRouterProvider value={router}>
      <TextField label="API key:" width={60} hidden={hidden} onSubmit={onSubmit} onCancel={() => undefined} />
    </KeyRouterProvider>
  );
}

async function submittedAfter(chunk: string, hidden = true): Promise<string[]> {
  const submitted: string[] = [];
  const ui = render(<Field hidden={hidden} onSubmit={(v) => submitted.push(v)} />);
  try {
    await settleInk();
    ui.stdin.write(chunk);
    await settleInk();
    return submitted;
  } finally {
    ui.unmount();
    ui.cleanup();
  }
}

function TwoQuestions({ onDone }: { onDone(v: Record<string, string>): void }) {
  const router = useKeyRouterRoot();
  return (
    <KeyRouterProvider value={router}>
      <Wizard
        title="Add a model name"
        width={60}
        height={8}
        fields={[
          { key: 'name', label: 'Model name:' },
          { key: 'targets', label: 'Targets:' },
        ]}
        onDone={onDone}
        onCancel={() => undefined}
      />
    </KeyRouterProvider>
  );
}

describe('a read that carries text and Enter together', () => {
  it('answers a wizard line by line: what follows a line break goes to the question asked next', async () => {
    const done: Record<string, string>[] = [];
    const ui = render(<TwoQuestions onDone={(v) => done.push(v)} />);
    try {
      await settleInk();
      ui.stdin.write('fast\rollama/llama3\r');
      await settleInk();
      expect(done).toEqual([{ name: 'fast', targets: 'ollama/llama3' }]);
    } finally {
      ui.unmount();
      ui.cleanup();
    }
  });

  it('submits the text typed before the line break, whichever break a terminal or a paste sends', async () => {
    expect(await submittedAfter('sk-ant-pasted-0001\r')).toEqual(['sk-ant-pasted-0001']);
    expect(await submittedAfter('sk-ant-pasted-0002\n')).toEqual(['sk-ant-pasted-0002']);
    expect(await submittedAfter('sk-ant-pasted-0003\r\n', false)).toEqual(['sk-ant-pasted-0003']);
  });

  it('a line break with nothing before it is one Enter, \\r\\n included', async () => {
    expect(await submittedAfter('\r\n')).toEqual(['']);
  });

  it('splits at each break, keeps the text between, and leaves a read without one whole', () => {
    expect(splitAtLineBreaks('abc')).toEqual(['abc']);
    expect(splitAtLineBreaks('\r')).toEqual(['\r']);
    expect(splitAtLineBreaks('ab\r\ncd\nef\r')).toEqual(['ab', '\r', 'cd', '\r', 'ef', '\r']);
    expect(splitAtLineBreaks('\r\r')).toEqual(['\r', '\r']);
  });
});
