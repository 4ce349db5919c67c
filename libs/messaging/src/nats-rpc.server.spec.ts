import type { MessageHandler } from '@nestjs/microservices';
import { NatsRpcServer, type NatsRpcServerOptions } from './nats-rpc.server';

describe("NatsRpcServer's handler lookup", () => {
  const server = new NatsRpcServer({ service: 'numbers-billing' } as NatsRpcServerOptions);
  const handler = (() => Promise.resolve(undefined)) as unknown as MessageHandler;
  server.addHandler('numbers.get', handler);
  afterEach(() => jest.restoreAllMocks());

  it("finds a plain subject's handler without reading the subject as JSON", () => {
    const parse = jest.spyOn(JSON, 'parse');
    expect(server.getHandlerByPattern('numbers.get')).toBe(handler);
    expect(parse).not.toHaveBeenCalled();
  });

  it('finds no handler for a subject it does not serve', () => {
    expect(server.getHandlerByPattern('numbers.delete')).toBeNull();
  });
});
