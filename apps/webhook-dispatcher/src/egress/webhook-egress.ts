import { lookup } from 'node:dns/promises';
import { Inject, Injectable } from '@nestjs/common';
import { EgressRefusedError, resolveWebhookTarget, type ResolvedTarget, type Resolver } from '@switchboard/egress';
import { DISPATCHER_CONFIG } from '../config/tokens';
import type { WebhookDispatcherConfig } from '../config/webhook-dispatcher.config';

export const WEBHOOK_RESOLVER = Symbol('WEBHOOK_RESOLVER');

/** The system resolver (getaddrinfo: hosts file, then DNS), every address, in the resolver's order. */
export const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/**
 * The send-time check of a webhook URL (libs/egress holds the rule):
 * - `allowed`: connect to `target.address` and nowhere else;
 * - `refused`: the URL breaks the rule (not https, credentials, a private, loopback, link-local or otherwise
 *   special address) and no retry can change that;
 * - `unresolvable`: the name did not resolve (or not in time), which may pass: a failed attempt.
 */
export type EgressDecision =
  | { kind: 'allowed'; target: ResolvedTarget }
  | { kind: 'refused'; reason: string }
  | { kind: 'unresolvable'; reason: string };

@Injectable()
export class WebhookEgress {
  constructor(
    @Inject(DISPATCHER_CONFIG) private readonly config: Pick<WebhookDispatcherConfig, 'egress'>,
    @Inject(WEBHOOK_RESOLVER) private readonly resolver: Resolver,
  ) {}

  async check(url: string, timeoutMs: number): Promise<EgressDecision> {
    let dnsFailure: string | undefined;
    const resolve: Resolver = async (host) => {
      try {
        const addresses = await withTimeout(
          this.resolver(host),
          timeoutMs,
          `timed out after ${timeoutMs} ms resolving ${host}`,
        );
        if (addresses.length === 0) dnsFailure = `the host ${host} does not resolve`;
        return addresses;
      } catch (error) {
        const code = (error as { code?: string }).code;
        dnsFailure =
          error instanceof DnsTimeout ? error.message : `the host ${host} does not resolve${code ? ` (${code})` : ''}`;
        throw error;
      }
    };
    try {
      return { kind: 'allowed', target: await resolveWebhookTarget(url, this.config.egress, resolve) };
    } catch (error) {
      if (!(error instanceof EgressRefusedError)) throw error;
      return dnsFailure ? { kind: 'unresolvable', reason: dnsFailure } : { kind: 'refused', reason: error.message };
    }
  }
}

class DnsTimeout extends Error {}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DnsTimeout(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
