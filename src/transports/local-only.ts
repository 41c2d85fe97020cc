// The node door's guard for the paths only this machine's own clients may use (the control API).
// Any web page a browser on this machine shows can send it requests: a page of another site
// sends its `Origin`; a page that rebinds its own DNS name to 127.0.0.1 (to read the answers)
// sends that name as `Host`. Both are refused, with 403. curl, SDKs and test runners send no
// `Origin` and name the address they connect to. The port is not compared: a port mapping
// (docker -p 9000:8080) changes it, and rebinding is told by the name alone.
import type { Rendered } from '../http/incoming.js';
import type { LocalOnly } from './listen.js';

export interface LocalPolicy {
  prefix: string;
  /** Host names besides the loopback ones: the bound host, the emulator's configured URLs'. */
  hosts: ReadonlySet<string>;
  /** Bound to every address (0.0.0.0, ::): any IP address names this machine. */
  anyAddress: boolean;
  /** Origins besides the request's own: the emulator's configured URLs'. */
  origins: ReadonlySet<string>;
  /** A control token guards the paths: any Host may ask, the token decides. */
  tokenGuarded: boolean;
}

const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::\d{1,5})?$/i;

/** A host name as URLs compare it: lowercase, IPv6 in brackets and compressed, no trailing dot. */
function normalName(name: string): string | undefined {
  const bracketed = name.includes(':') && !name.startsWith('[') ? `[${name}]` : name;
  try {
    return new URL(`http://${bracketed}/`).hostname.replace(/\.$/, '');
  } catch {
    return undefined;
  }
}

const isIpAddress = (name: string) => name.startsWith('[') || /^\d{1,3}(?:\.\d{1,3}){3}$/.test(name);

/** localhost, 127.0.0.0/8 or ::1: a host that only this machine reaches. */
export function isLoopbackHost(host: string): boolean {
  const name = normalName(host);
  return name === 'localhost' || name === '[::1]' || (name !== undefined && /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name));
}

export function localPolicy(localOnly: LocalOnly, boundHost: string): LocalPolicy {
  const bound = normalName(boundHost);
  const hosts = new Set<string>(bound ? [bound] : []);
  const origins = new Set<string>();
  for (const u of localOnly.urls) {
    try {
      const url = new URL(u);
      hosts.add(url.hostname.replace(/\.$/, ''));
      origins.add(url.origin);
    } catch {
      // not a URL: names nothing
    }
  }
  return { prefix: localOnly.prefix, hosts, anyAddress: bound === '0.0.0.0' || bound === '[::]', origins, tokenGuarded: localOnly.tokenGuarded === true };
}

function refuse(message: string): Rendered {
  return {
    status: 403,
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' },
    body: JSON.stringify({ message }),
  };
}

/** The 403 for a request to the guarded paths from a foreign Host or Origin; undefined when it may pass. */
export function localRefusal(policy: LocalPolicy, pathname: string, origin: string | null, hostHeader: string | undefined): Rendered | undefined {
  if (!pathname.startsWith(policy.prefix)) return undefined;
  const host = hostHeader ?? '';
  const name = HOST_HEADER.test(host) ? normalName(host.replace(/:\d{1,5}$/, '')) : undefined;
  const ownHost = name !== undefined && (isLoopbackHost(name) || policy.hosts.has(name) || (policy.anyAddress && isIpAddress(name)));
  if (!ownHost && !policy.tokenGuarded) {
    return refuse(
      `the control API answers only requests addressed to this machine: Host '${host}' is not localhost, 127.0.0.1, [::1] or the address the server listens on ` +
        '(behind a container name, start it with --control-token and send the token)',
    );
  }
  if (origin === null) return undefined;
  let asked: string | undefined;
  try {
    asked = new URL(origin).origin;
  } catch {
    asked = undefined;
  }
  let own: string;
  try {
    own = new URL(`http://${host}`).origin;
  } catch {
    own = 'this server';
  }
  if (asked !== undefined && asked !== 'null' && (asked === own || policy.origins.has(asked))) return undefined;
  return refuse(`the control API refuses cross-origin requests from web pages: Origin '${origin}' is not ${own}`);
}
