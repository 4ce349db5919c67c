import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { classifyAddress } from './address-policy';

export interface EgressPolicy {
  /** Host names or IPs exempt from the private-address ban (`WEBHOOK_ALLOWED_PRIVATE_HOSTS`), for local testing. */
  allowedPrivateHosts: ReadonlySet<string>;
}

export function egressPolicyFromEnv(env: NodeJS.ProcessEnv = process.env): EgressPolicy {
  const hosts = (env.WEBHOOK_ALLOWED_PRIVATE_HOSTS ?? '')
    .split(',')
    .map((h) => normalizeHost(h.trim()))
    .filter(Boolean);
  return { allowedPrivateHosts: new Set(hosts) };
}

/** Why a URL was refused, in words fit for a 400 message or a delivery log. */
export class EgressRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EgressRefusedError';
  }
}

/** A URL checked for sending: connect to `address` (never resolve again), send `host` as Host and TLS name. */
export interface ResolvedTarget {
  url: URL;
  host: string;
  port: number;
  address: string;
  family: 4 | 6;
}

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * Parses an https URL, resolves its host and refuses it unless every address it resolves to is public (an
 * attacker's name that answers one public and one private address is refused). Returns the address to connect
 * to, so a DNS answer that changes between check and connect cannot slip through.
 */
export async function resolveWebhookTarget(
  rawUrl: string,
  policy: EgressPolicy,
  resolve: Resolver = systemResolver,
): Promise<ResolvedTarget> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new EgressRefusedError('not an absolute URL');
  }
  if (url.protocol !== 'https:') throw new EgressRefusedError('only https:// URLs are allowed');
  if (url.username || url.password) throw new EgressRefusedError('credentials in the URL are not allowed');
  const host = normalizeHost(url.hostname);
  const port = url.port ? Number(url.port) : 443;
  const exempt = policy.allowedPrivateHosts.has(host);

  let addresses: { address: string; family: number }[];
  if (ipaddr.isValid(host)) {
    addresses = [{ address: host, family: ipaddr.parse(host).kind() === 'ipv4' ? 4 : 6 }];
  } else {
    try {
      addresses = await resolve(host);
    } catch {
      throw new UnresolvableHostError(host);
    }
    if (addresses.length === 0) throw new UnresolvableHostError(host);
  }
  if (!exempt) {
    for (const { address } of addresses) {
      const verdict = classifyAddress(address);
      if (!verdict.public) throw new EgressRefusedError(`the host ${host} is not public (${verdict.reason})`);
    }
  }
  const chosen = addresses[0];
  return { url, host, port, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}

/**
 * The check when a webhook URL is set (not when it is used): https, no credentials, not a private IP literal,
 * and not a name that resolves to a private address. A name that does not resolve now is accepted: its DNS may
 * not exist yet, and every delivery checks again with `resolveWebhookTarget` and connects only to what it checked.
 */
export async function checkWebhookUrl(
  rawUrl: string,
  policy: EgressPolicy,
  resolve: Resolver = systemResolver,
): Promise<void> {
  try {
    await resolveWebhookTarget(rawUrl, policy, resolve);
  } catch (error) {
    if (error instanceof UnresolvableHostError) return;
    throw error;
  }
}

/** The host has no address now (a refusal at send time, not at creation). */
export class UnresolvableHostError extends EgressRefusedError {
  constructor(host: string) {
    super(`the host ${host} does not resolve`);
    this.name = 'UnresolvableHostError';
  }
}

/** Lower case, IPv6 brackets removed, a trailing dot dropped: the form hosts are compared in. */
export function normalizeHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
}
