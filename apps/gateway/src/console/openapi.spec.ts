import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { ClaimantHttpController } from '../claimant/claimant.http.controller';
import { publicOpenApiDocument } from '../public/openapi-document';
import { CONSOLE_CONTROLLERS } from './console.module';
import { consoleOpenApiDocument } from './openapi-document';

const root = join(__dirname, '..', '..', '..', '..');

/** Every route of the console's and its claimant page's controllers, read from Nest's own metadata (what the router serves). */
function consoleRoutes(): string[] {
  return [...CONSOLE_CONTROLLERS, ClaimantHttpController]
    .flatMap((controller) => {
      const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
      const prototype = controller.prototype as Record<string, unknown>;
      return Object.getOwnPropertyNames(prototype)
        .filter(
          (name) =>
            name !== 'constructor' && Reflect.getMetadata(PATH_METADATA, prototype[name] as object) !== undefined,
        )
        .map((name) => {
          const handler = prototype[name] as object;
          const sub = String(Reflect.getMetadata(PATH_METADATA, handler));
          const path = `/${[base, sub].filter((part) => part && part !== '/').join('/')}`.replace(
            /:([a-z_]+)/gi,
            '{$1}',
          );
          const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number].toLowerCase();
          return `${method} ${path}`;
        });
    })
    .sort();
}

type Operations = Record<
  string,
  { responses?: Record<string, { content?: Record<string, unknown> }>; parameters?: { name: string; in: string }[] }
>;

let document: OpenAPIObject;
beforeAll(async () => {
  document = await consoleOpenApiDocument();
}, 60_000);

describe("the console API's OpenAPI description", () => {
  it('describes every /console/api and /claim/api route, and no route that does not exist', () => {
    const routes = consoleRoutes();
    expect(routes.length).toBeGreaterThan(50);
    const described = Object.entries(document.paths)
      .flatMap(([path, item]) =>
        Object.keys(item)
          .filter((key) => ['get', 'post', 'put', 'patch', 'delete'].includes(key))
          .map((method) => `${method} ${path}`),
      )
      .sort();
    expect(described).toEqual(routes);
  });

  // The console's client is typed from these answers: an operation without one would answer `unknown` there.
  it('declares a typed success answer for every operation (none for a 204)', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item as Operations)) {
        const success = Object.entries(operation.responses ?? {}).filter(([status]) => status.startsWith('2'));
        expect({ path, method, success: success.length > 0 }).toEqual({ path, method, success: true });
        for (const [status, answer] of success) {
          expect({ path, method, status, typed: Object.keys(answer.content ?? {}).length > 0 }).toEqual({
            path,
            method,
            status,
            typed: status !== '204',
          });
        }
      }
    }
  });

  it('names every path parameter', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      for (const [method, operation] of Object.entries(item as Operations)) {
        const declared = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
        expect({ path, method, declared }).toEqual({ path, method, declared: names });
      }
    }
  });

  it('leaves the console out of the public description, before and after its own is built', async () => {
    const consolePaths = (described: OpenAPIObject) =>
      Object.keys(described.paths).filter((path) => path.includes('console'));
    expect(consolePaths(await publicOpenApiDocument())).toEqual([]);
    expect(Object.keys((await consoleOpenApiDocument()).paths).length).toBeGreaterThan(0);
    expect(consolePaths(await publicOpenApiDocument())).toEqual([]);
  }, 60_000);

  // The console's typed client and the SDK are generated from the descriptions: a route or DTO changed without
  // running the generator fails here (and so `npm test`), naming the command that brings them up to date. Here, in
  // the gateway's tests, as their inputs are the gateway's and its libraries' sources.
  it('matches the files the console and the SDK are typed from (node tools/sdk/generate.mjs --check)', () => {
    expect(() =>
      execFileSync(process.execPath, [join(root, 'tools/sdk/generate.mjs'), '--check'], {
        cwd: root,
        stdio: 'pipe',
        timeout: 60_000,
      }),
    ).not.toThrow();
  }, 90_000);
});
