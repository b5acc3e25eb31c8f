/**
 * tool-keys.json cannot be saved: said with the path and what to do, code tool_keys_unwritable,
 * instead of Node's raw text (`EISDIR: illegal operation on a directory, rename …`). The save's
 * own failure and the check before a key is made (tool-keys-savable.ts) say it in the same words.
 */
import { CliError } from '../io.js';

const ANEW = 'the next svc-proxy env or run makes the file anew';

/**
 * `file` is a folder (`at` is `file`), or a link to the folder `at`. Moving a linked folder
 * would leave a link to nothing: the link is what to change.
 */
export function folderInTheWay(file: string, at: string): CliError {
  const message =
    at === file
      ? `Cannot save the key in ${file}: it is a folder, not a file. Move that folder away; ${ANEW}.`
      : `Cannot save the key in ${file}: it is a link to a folder (${at}), not to a file. Point the link at a file, or remove it; ${ANEW}.`;
  return new CliError(message, 1, { code: 'tool_keys_unwritable', details: { file: at } });
}

/** A refusal of the file system, said as above; any other error (a link to nothing keeps its own) as it is. */
export function toolKeysUnwritable(file: string, err: unknown): unknown {
  const errno = err as NodeJS.ErrnoException & { dest?: string };
  if (!(err instanceof Error) || typeof errno.code !== 'string' || !/^E[A-Z]+$/.test(errno.code)) return err;
  // rename names where the data was going: a link's target when the path is a symlink
  const at = errno.dest ?? file;
  if (errno.code === 'EISDIR') return folderInTheWay(file, at);
  return new CliError(`Cannot save the key in ${file}: ${err.message}. Fix that path, or move it away; ${ANEW}.`, 1, { code: 'tool_keys_unwritable', details: { file: at } });
}
