/**
 * Whether tool-keys.json can be saved, asked before `env`/`run` make a key to save in it: a key
 * made and then not saved has to be revoked again (as it still is, should the save fail anyway).
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeTarget } from '../../config/link-target.js';
import { folderInTheWay, toolKeysUnwritable } from './tool-keys-unwritable.js';

/**
 * Refused as the save would be: a folder or a link to one, a link to nothing (its own
 * dangling_symlink), a folder the write cannot create its temp file in.
 */
export async function checkToolKeysSavable(file: string): Promise<void> {
  let at: string;
  try {
    at = writeTarget(file).file;
  } catch (err) {
    throw toolKeysUnwritable(file, err);
  }
  if ((await stat(at).catch(() => undefined))?.isDirectory()) throw folderInTheWay(file, at);
  await access(dirname(at), constants.W_OK).catch((err: unknown) => {
    throw toolKeysUnwritable(file, err);
  });
}
