/**
 * Facts about the built-in providers that the config layer, the CLI and the credential store need
 * without loading the routing core: default base URLs and the environment variables that override
 * a stored credential.
 */
import type { BuiltinProvider } from './schema.js';

export const DEFAULT_BASE_URLS: Readonly<Record<BuiltinProvider, string>> = {
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com/v1',
  openrouter: 'https://openrouter.ai/api/v1',
  gemini: 'https://generativelanguage.googleapis.com/v1beta/openai',
};

/** Read by the daemon at start; they win over the keychain (headless use). */
export const CREDENTIAL_ENV_VARS: Readonly<Record<BuiltinProvider, string>> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
  openrouter: 'OPENROUTER_API_KEY',
  gemini: 'GEMINI_API_KEY',
};
