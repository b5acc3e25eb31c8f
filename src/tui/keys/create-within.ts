/**
 * A key create the daemon does not answer in time gives up: the keys screen holds the app's keys
 * while it waits (the new key is shown once), so a daemon that never answers would leave the user
 * stuck. The create may still have happened, so the message says how to find and revoke it.
 */
export const CREATE_KEY_WITHIN_MS = 15_000;

export function createWithin<T>(create: Promise<T>, name: string, ms: number = CREATE_KEY_WITHIN_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `The daemon did not answer within ${ms / 1000} s. The key "${name}" may have been created without being shown: if it appears in the list, revoke it (d) and create another.`,
          ),
        ),
      ms,
    );
  });
  return Promise.race([create, late]).finally(() => clearTimeout(timer));
}
