/** Turning the text of config.json into a validated Config, with errors that name the file and the field. */
import { withoutByteOrderMark } from './byte-order-mark.js';
import { ConfigFileError } from './errors.js';

export { withoutByteOrderMark };
import { describeJsonSyntaxError } from './json-syntax.js';
import { migrate, MigrationError } from './migrations.js';
import { configSchema, type Config } from './schema.js';
import { unknownFields } from './unknown-fields.js';

/** `unknown`: fields the schema does not know, ignored (and dropped at the next write). */
export function parseConfigText(text: string, file: string): { config: Config; migrated: boolean; unknown: string[] } {
  let raw: unknown;
  const json = withoutByteOrderMark(text);
  try {
    raw = JSON.parse(json);
  } catch (err) {
    throw new ConfigFileError(file, `${file} is not valid JSON at ${describeJsonSyntaxError(json, err as Error)} Fix it by hand, or restore config.json.bak (the file as it was before svc-proxy last changed it, so that change is not in it); svc-proxy will not overwrite it.`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigFileError(file, `${file} must hold a JSON object.`);
  }
  let upgraded: { raw: Record<string, unknown>; migrated: boolean };
  try {
    upgraded = migrate(raw as Record<string, unknown>);
  } catch (err) {
    if (err instanceof MigrationError) throw new ConfigFileError(file, `${file}: ${err.message}`);
    throw err;
  }
  const result = configSchema.safeParse(upgraded.raw);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const where = issue.path.length ? issue.path.map(String).join('.') : '(top level)';
      return `${where}: ${issue.message}`;
    });
    throw new ConfigFileError(file, `${file} does not match the config schema:\n  - ${problems.join('\n  - ')}\nFix it by hand, or restore config.json.bak (the file as it was before svc-proxy last changed it, so that change is not in it); svc-proxy will not overwrite it.`);
  }
  return { config: result.data, migrated: upgraded.migrated, unknown: unknownFields(upgraded.raw, result.data) };
}

/** Stable serialisation of a config (what we write). */
export function serializeConfig(config: Config): string {
  return `${JSON.stringify(config, null, 2)}\n`;
}
