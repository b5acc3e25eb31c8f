/** Errors of the config layer and of the management operations built on it. */

/**
 * config.json cannot be used: unreadable, not JSON, or not matching the schema. Never overwritten.
 * `code`: config_invalid for its content; what keeps it from being read has a code of its own.
 * credentials.json that is not JSON is `credentials_invalid` (its content never quoted: it holds secrets).
 */
export type ConfigFileCode = 'config_invalid' | 'config_unreadable' | 'config_too_large' | 'dangling_symlink' | 'credentials_invalid';

export class ConfigFileError extends Error {
  readonly code: ConfigFileCode;
  readonly file: string;
  constructor(file: string, message: string, code: ConfigFileCode = 'config_invalid') {
    super(message);
    this.code = code;
    this.name = 'ConfigFileError';
    this.file = file;
  }
}

/**
 * A management operation refused (bad argument, not found, conflict, keychain unavailable…).
 * `status` follows HTTP so the admin API can send it as is; the CLI maps 400 to exit code 2.
 */
export class OperationError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.name = 'OperationError';
    this.status = status;
    this.code = code;
  }
}
