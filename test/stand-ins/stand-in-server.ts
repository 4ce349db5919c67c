import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What every provider stand-in shares: a plain HTTP server on 127.0.0.1 (a free port unless one is given) that reads
 * each request's whole body before handing it to the stand-in, and stops with its connections.
 */
export abstract class StandInServer {
  private server: Server | undefined;
  url = '';

  async start(port = 0): Promise<string> {
    this.server = createServer((req, res) => void this.receive(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  /** Answers one request, its body read whole. */
  protected abstract handle(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> | void;

  private async receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    await this.handle(req, res, Buffer.concat(chunks));
  }
}
