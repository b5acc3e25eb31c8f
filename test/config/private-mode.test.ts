import { describe, expect, it } from 'vitest';
import { chmodCommand, octalMode, openToOthers } from '../../src/config/private-mode.js';

describe('private modes', () => {
  it('group or others bits make a mode open, except on Windows, whose modes say nothing of other users', () => {
    expect(openToOthers(0o600, 'linux')).toBe(false);
    expect(openToOthers(0o700, 'darwin')).toBe(false);
    expect(openToOthers(0o640, 'linux')).toBe(true);
    expect(openToOthers(0o601, 'darwin')).toBe(true);
    expect(openToOthers(0o666, 'win32')).toBe(false);
  });

  it('modes read as ls and chmod users write them; a path with a space or quote is quoted for a POSIX shell', () => {
    expect(octalMode(0o644)).toBe('0644');
    expect(octalMode(0o100600)).toBe('0600');
    expect(chmodCommand('/home/u/.config/svc-proxy/credentials.json', 0o600)).toBe('chmod 600 /home/u/.config/svc-proxy/credentials.json');
    expect(chmodCommand("/home/u/dot files/it's.json", 0o600)).toBe(`chmod 600 '/home/u/dot files/it'\\''s.json'`);
  });
});
