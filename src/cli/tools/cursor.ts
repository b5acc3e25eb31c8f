/**
 * Cursor: Settings → Models → API Keys, "OpenAI API Key" plus "Override OpenAI Base URL".
 * Cursor sends these requests from its own servers, not from the editor, so a loopback address
 * is unreachable for it: the proxy must be exposed at an address Cursor's servers can reach (a
 * tunnel you trust, with its host in settings.allowedHosts). That caveat is printed every time.
 */
import { emptySetup, type ToolProfile } from './types.js';

export const cursor: ToolProfile = {
  id: 'cursor',
  aliases: [],
  title: 'Cursor',
  base: 'a',
  via: 'app',
  setup({ baseUrl, key, model }) {
    const s = emptySetup();
    s.settings = [
      { label: 'OpenAI API Key', value: key },
      { label: 'Override OpenAI Base URL', value: baseUrl },
    ];
    if (model) s.settings.push({ label: 'Add Custom Model', value: model });
    s.notes.push(
      "Cursor calls the base URL from Cursor's servers, not from this machine: a 127.0.0.1 address only works once the proxy is reachable from the internet (e.g. an HTTPS tunnel, its host added to settings.allowedHosts).",
    );
    return s;
  },
};
