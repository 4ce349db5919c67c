import { context, propagation, type Context, type TextMapGetter, type TextMapSetter } from '@opentelemetry/api';
import { headers as natsHeaders, type MsgHdrs } from '@nats-io/transport-node';

const setter: TextMapSetter<MsgHdrs> = { set: (carrier, key, value) => carrier.set(key, value) };
const getter: TextMapGetter<MsgHdrs | undefined> = {
  keys: (carrier) => (carrier ? carrier.keys() : []),
  get: (carrier, key) => carrier?.get(key) || undefined,
};

const recordSetter: TextMapSetter<Record<string, string>> = { set: (carrier, key, value) => (carrier[key] = value) };
const recordGetter: TextMapGetter<Record<string, string>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key],
};

/** NATS headers carrying the active W3C trace context (NATS has no instrumentation of its own). */
export function headersWithTrace(ctx: Context = context.active()): MsgHdrs {
  const h = natsHeaders();
  propagation.inject(ctx, h, setter);
  return h;
}

export function contextFromHeaders(h: MsgHdrs | undefined): Context {
  return propagation.extract(context.active(), h, getter);
}

/** The trace context as a plain record, for storing beside an outbox row. */
export function traceRecord(ctx: Context = context.active()): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier, recordSetter);
  return carrier;
}

export function contextFromRecord(carrier: Record<string, string> | null | undefined): Context {
  return propagation.extract(context.active(), carrier ?? {}, recordGetter);
}
