import { vi } from 'vitest';
import { AdminClient } from '../../src/cli/admin-client.js';

/**
 * Admin calls to paths starting with `prefix`, from a TUI started after this, never answer (until
 * vi.restoreAllMocks): the screen stays as it is before its data arrives. (The TUI binds its
 * client's `request` when it connects, so this has to come first.)
 */
export function holdRequests(prefix: string): void {
  const request = AdminClient.prototype.request;
  vi.spyOn(AdminClient.prototype, 'request').mockImplementation(function (this: AdminClient, ...args: Parameters<AdminClient['request']>) {
    return args[1].startsWith(prefix) ? new Promise<never>(() => {}) : request.apply(this, args);
  });
}
