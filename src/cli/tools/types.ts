/**
 * What a tool profile is: how one coding tool (or SDK) is pointed at the proxy. `svc-proxy env`
 * prints a profile's setup, `svc-proxy run` starts the tool with it. One file per tool in this
 * folder; the list is in index.ts.
 */
import type { ModelInput } from '../../providers/models.js';

/** Which base the tool speaks: A = OpenAI (Chat Completions / Responses), B = Anthropic Messages. */
export type BaseKind = 'a' | 'b';

export interface ToolInput {
  /** The base URL for the tool's protocol: a provider base, or a group's base with --group. */
  baseUrl: string;
  /** The service key (sk-svc-proxy-…). */
  key: string;
  /** `provider/model` on a provider base, a group's model name on a group base. */
  model?: string;
  /** The group slug when the tool is pointed at a group base. */
  group?: string;
  /**
   * The longest the daemon waits for an upstream's first byte before it answers with an error
   * (connect, headers, then a stream's first event: see routing/exchange.ts streamBodyTimeout):
   * a tool's own timeout should outlast it.
   */
  upstreamWaitMs: number;
  /** For profiles with `usesModelFacts` (see model-facts.ts): the model's context window, when the daemon's catalog knows it, */
  contextWindow?: number;
  /** the most output tokens it writes, where the provider's list (Anthropic's, Gemini's) or pages (OpenAI's) state it, */
  maxOutput?: number;
  /** whether that output comes on top of the window (the window is the input alone: OpenAI's, Gemini's), */
  outputBesideWindow?: boolean;
  /** what it is known to read besides text, */
  inputs?: ModelInput[];
  /** whether it is known to reason (false: known not to), */
  reasons?: boolean;
  /** and whether it is known to call tools. */
  callsTools?: boolean;
}

/** A snippet for the tool's own config file, for tools that read their settings from one. */
export interface ConfigFileSnippet {
  /** Where it goes, as the user would write it (e.g. ~/.codex/config.toml). */
  path: string;
  format: 'toml' | 'json' | 'yaml';
  content: string;
  /** One line: how to apply it (merge into the file, or create it). */
  how: string;
}

/** A value typed into an app's settings screen (editor extensions and IDEs that read no env). */
export interface ManualSetting {
  label: string;
  value: string;
}

export interface ToolSetup {
  /** Variables to set, in the order they are printed. */
  env: Array<[name: string, value: string]>;
  /** Variables to remove because they would override or conflict with the ones set. */
  unset: string[];
  file?: ConfigFileSnippet;
  settings?: ManualSetting[];
  /** Arguments `svc-proxy run` puts before the user's own (e.g. Codex `-c` overrides). */
  runArgs: string[];
  /**
   * For a tool that takes its settings only from a file it can be pointed at (Continue's `cn
   * --config`): `run` writes `content` to a private file for that run (0600, in the state dir,
   * beside the saved keys) and passes `flag <path>` first; the file goes when the tool ends.
   */
  runConfig?: { flag: string; content: string; extension: string };
  /** Short lines shown as comments after the exports (and in --json). */
  notes: string[];
}

export interface ToolProfile {
  /** The name on the command line (`svc-proxy env claude-code`). */
  id: string;
  aliases: readonly string[];
  title: string;
  base: BaseKind;
  /**
   * How the tool takes its settings: the environment, a config file, or app settings typed in;
   * `env+file` either way, `env&file` both (a config file that reads the key from the environment).
   */
  via: 'env' | 'env+file' | 'env&file' | 'file' | 'app';
  /** The executable `svc-proxy run` starts; absent for apps it cannot start. */
  command?: string;
  /** How to install the executable, shown when it is not on PATH. */
  install?: string;
  /** For a program `run` does not start: why, and what to do instead (instead of the generic refusal). */
  runRefusal?: string;
  /** The tool cannot be set up without a model (its config entry names one). */
  needsModel?: boolean;
  /** Its setup uses what is known of the model (model-facts.ts): `env` and `run` look it up, asking the running daemon. */
  usesModelFacts?: boolean;
  setup(input: ToolInput): ToolSetup;
}

/** Does the tool read variables `env` exports? */
export function setsEnvironment(via: ToolProfile['via']): boolean {
  return via === 'env' || via === 'env+file' || via === 'env&file';
}

/** Has the tool a config file snippet (`env --config-file`)? */
export function hasConfigFile(via: ToolProfile['via']): boolean {
  return via === 'file' || via === 'env+file' || via === 'env&file';
}

/** A setup with nothing in it yet (profiles fill in what they need). */
export function emptySetup(): ToolSetup {
  return { env: [], unset: [], runArgs: [], notes: [] };
}
