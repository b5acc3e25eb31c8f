/**
 * glibc's malloc_trim(0), through the optional native helper built at install time
 * (native/malloc-trim.c, scripts/build-native.cjs). Off Linux/glibc, or where no C compiler was
 * there at install, it is absent and the daemon keeps its freed C-heap pages as before.
 */
import { createRequire } from 'node:module';

const HELPER = '../../native/build/malloc-trim.node'; // the same from src/daemon and dist/daemon

/** Hand the C heap's free pages back to the OS; true when glibc released any. */
export type MallocTrim = () => boolean;

/** The helper's function, or null when it was not built here. */
export function loadMallocTrim(): MallocTrim | null {
  if (process.platform !== 'linux') return null;
  try {
    const helper = createRequire(import.meta.url)(HELPER) as { mallocTrim?: unknown };
    return typeof helper.mallocTrim === 'function' ? (helper.mallocTrim as MallocTrim) : null;
  } catch {
    return null;
  }
}
