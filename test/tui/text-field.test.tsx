import { describe, expect, it } from 'vitest';
import { TextField } from '../../src/tui/components/TextField.js';
import { KeyRouter, KeyRouterProvider } from '../../src/tui/hooks/use-keys.js';
import { frameOf } from './frame-of.js';

describe('TextField', () => {
  it('counts a hidden value in characters as a person sees them, not UTF-16 units', () => {
    const frame = frameOf(
      <KeyRouterProvider value={new KeyRouter()}>
        <TextField label="Key" hidden initial={'ab👍🏽e\u0301'} onSubmit={() => undefined} onCancel={() => undefined} />
      </KeyRouterProvider>,
    );
    expect(frame).toContain('(hidden, 4 characters)');
    expect(frame).not.toContain('👍');
  });
});
