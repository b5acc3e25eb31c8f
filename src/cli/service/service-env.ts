/**
 * What a login service's daemon gets of the environment `service install` runs in. A service does
 * not start from the user's shell: without this it would lose the proxy the shell names, the CA
 * file of a TLS-inspecting network, and the state dir `SVC_PROXY_HOME` points at. Only settings
 * are carried, written into a file in the clear, so a proxy URL with a user and password stays
 * out (with a note), as do provider keys, which belong in the keychain.
 */
import { CREDENTIAL_ENV_VARS } from '../../config/builtin-providers.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Read by the daemon (or by Node for it), carried when set. */
const CARRIED = [
  'SVC_PROXY_KEYCHAIN_SERVICE',
  'SVC_PROXY_NO_LOCAL_DETECT',
  'NODE_EXTRA_CA_CERTS',
  // glibc's malloc settings of the user's own win over the daemon's defaults, as under `start`
  'MALLOC_ARENA_MAX',
  'MALLOC_TRIM_THRESHOLD_',
  'MALLOC_MMAP_THRESHOLD_',
  'GLIBC_TUNABLES',
] as const;

const PROXY_VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY', 'no_proxy', 'NO_PROXY'] as const;

export interface ServiceEnv {
  /** Variables to write into the service definition. */
  env: Record<string, string>;
  /** What was left out and what to do instead. */
  notes: string[];
}

function carriesCredentials(value: string): boolean {
  try {
    const url = new URL(value.includes('://') ? value : `http://${value}`);
    return url.username !== '' || url.password !== '';
  } catch {
    return false;
  }
}

/** `launchEnv`: what the daemon needs whatever the shell (daemonLaunch); `shell`: this environment. */
export function serviceEnv(launchEnv: Readonly<Record<string, string>>, shell: Env): ServiceEnv {
  const env: Record<string, string> = { ...launchEnv };
  const notes: string[] = [];
  for (const name of CARRIED) {
    const value = shell[name];
    if (value) env[name] = value;
  }
  const withCredentials: string[] = [];
  for (const name of PROXY_VARIABLES) {
    const value = shell[name]?.trim();
    if (!value) continue;
    if (!name.toLowerCase().startsWith('no_') && carriesCredentials(value)) withCredentials.push(name);
    else env[name] = value;
  }
  if (withCredentials.length) {
    notes.push(
      `${withCredentials.join(' and ')} in this shell carr${withCredentials.length > 1 ? 'y' : 'ies'} a user and password, which are not written into the service file: ` +
        'give the service that proxy yourself (systemd: `systemctl --user edit svc-proxy`, an Environment= line), or use a proxy that needs none.',
    );
  }
  const keys = Object.entries(CREDENTIAL_ENV_VARS).filter(([, variable]) => shell[variable]);
  if (keys.length) {
    const names = keys.map(([, variable]) => variable).join(', ');
    const connect = keys.map(([provider]) => `svc-proxy provider connect ${provider}`).join('; ');
    notes.push(`The service does not see ${names} from this shell (a daemon started here uses ${keys.length > 1 ? 'them' : 'it'} before the keychain). Store the key${keys.length > 1 ? 's' : ''} for the service: ${connect}.`);
  }
  return { env, notes };
}
