/**
 * A prepared tool setup as text a shell can evaluate (POSIX sh/bash/zsh, fish, PowerShell), or as
 * JSON. Everything that is not a variable (config file snippets, settings to type in an app,
 * notes) is printed as comments, so `eval "$(svc-proxy env …)"` stays safe.
 */
import type { Prepared } from './prepare.js';
import { quoteSh } from '../../util/quote-sh.js';

export const SHELLS = ['sh', 'fish', 'powershell'] as const;
export type Shell = (typeof SHELLS)[number];

/** The shell to print for when --shell is not given: fish or PowerShell when evident, else sh. */
export function defaultShell(env: Record<string, string | undefined>, platform: NodeJS.Platform = process.platform): Shell {
  const shell = env.SHELL ?? '';
  if (/(^|[/\\])fish$/.test(shell)) return 'fish';
  if (/(^|[/\\])(pwsh|powershell)(\.exe)?$/i.test(shell)) return 'powershell';
  if (platform === 'win32' && !shell) return 'powershell';
  return 'sh';
}

/** A single-quoted word for fish (which escapes \\ and ' inside quotes). */
export function quoteFish(value: string): string {
  return `'${value.replace(/[\\']/g, (c) => `\\${c}`)}'`;
}

function quotePowerShell(value: string): string {
  // PowerShell also treats the typographic single quotes as quote characters.
  return `'${value.replace(/['\u2018\u2019\u201A\u201B]/g, (c) => c + c)}'`;
}

function setLine(shell: Shell, name: string, value: string): string {
  if (shell === 'fish') return `set -gx ${name} ${quoteFish(value)}`;
  if (shell === 'powershell') return `$env:${name} = ${quotePowerShell(value)}`;
  return `export ${name}=${quoteSh(value)}`;
}

function unsetLine(shell: Shell, name: string): string {
  if (shell === 'fish') return `set -e ${name}`;
  if (shell === 'powershell') return `Remove-Item Env:${name} -ErrorAction SilentlyContinue`;
  return `unset ${name}`;
}

function comment(text: string): string[] {
  return text.split('\n').map((line) => (line ? `# ${line}` : '#'));
}

const PROTOCOL = { a: 'protocol A (OpenAI)', b: 'protocol B (Anthropic)' } as const;

export function renderShell(p: Prepared, shell: Shell): string {
  const { tool, input, setup } = p;
  const out: string[] = [];
  const where = input.group ? `group "${input.group}" ${PROTOCOL[tool.base]}` : PROTOCOL[tool.base];
  out.push(`# ${tool.title} → svc-proxy ${where}: ${input.baseUrl}`);
  for (const [name, value] of setup.env) out.push(setLine(shell, name, value));
  for (const name of setup.unset) out.push(unsetLine(shell, name));
  if (setup.file) {
    out.push(`# ${setup.file.path} (${setup.file.how}):`);
    for (const line of setup.file.content.replace(/\n$/, '').split('\n')) out.push(line ? `#   ${line}` : '#');
  }
  if (setup.settings) {
    out.push(`# ${tool.title} settings (type these in its settings screen):`);
    for (const s of setup.settings) out.push(`#   ${s.label}: ${s.value}`);
  }
  for (const note of setup.notes) out.push(...comment(`note: ${note}`));
  return `${out.join('\n')}\n`;
}

/** Machine-readable form; `unset` lists variables to remove, `runArgs` what `svc-proxy run` adds. */
export function toJson(p: Prepared): Record<string, unknown> {
  const { tool, input, setup, key } = p;
  return {
    tool: tool.id,
    title: tool.title,
    protocol: tool.base,
    baseUrl: input.baseUrl,
    group: input.group ?? null,
    model: input.model ?? null,
    key: { id: key.id, name: key.name, source: key.source, value: key.key },
    env: Object.fromEntries(setup.env),
    unset: setup.unset,
    file: setup.file ?? null,
    settings: setup.settings ?? null,
    command: tool.command ?? null,
    runArgs: setup.runArgs,
    notes: setup.notes,
  };
}
