import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { ClaimsRpc, FoundItemsRpc, LocationsRpc, SimulatedSmsRpc } from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { createLogger } from '@switchboard/observability';
import { testNatsEnv, testNatsOptions, testNatsUrl } from '@switchboard/testing';
import { createLostfoundApp } from '../src/bootstrap';
import { newAccountId } from './factories/account.factory';
import { claimBody } from './factories/claim.factory';
import { foundItemBody } from './factories/found-item.factory';

jest.setTimeout(120_000);

/** `npm start` with no database URL runs lostfound on PGlite: the hand-written search SQL must work there too. */
describe('lostfound on the embedded database (PGlite)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sb-lostfound-'));
  const prefix = `t${randomBytes(5).toString('hex')}`;
  let app: INestApplicationContext;
  let nc: NatsConnection;
  let rpc: RpcClient;

  beforeAll(async () => {
    app = await createLostfoundApp(
      {
        ...process.env,
        ...testNatsEnv('lostfound'),
        LOSTFOUND_DATABASE_URL: '',
        DATA_DIR: dataDir,
        NATS_SUBJECT_PREFIX: prefix,
        NODE_ENV: 'test',
      },
      createLogger('lostfound', 'silent'),
    );
    nc = await connect(testNatsOptions());
    rpc = new RpcClient(nc, { natsUrl: testNatsUrl(), prefix, requestTimeoutMs: 30_000 });
  });
  afterAll(async () => {
    await app?.close();
    if (nc) {
      const jsm = await jetstreamManager(nc);
      for await (const stream of jsm.streams.list())
        if (stream.config.name.startsWith(`${prefix.toUpperCase()}_`)) await jsm.streams.delete(stream.config.name);
      await nc.close();
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('logs, searches, matches, texts and reunites', async () => {
    const accountId = newAccountId();
    const { id: locationId } = await rpc.request(LocationsRpc.create, { account_id: accountId, name: 'Depot' });
    const claim = await rpc.request(ClaimsRpc.file, claimBody(locationId), { accountId });
    const item = await rpc.request(FoundItemsRpc.log, foundItemBody(locationId), { accountId });
    await rpc.request(
      FoundItemsRpc.log,
      foundItemBody(locationId, { category: 'wallet', description: 'Brown wallet', color: 'brown' }),
      { accountId },
    );

    const found = await rpc.request(FoundItemsRpc.list, { location_id: locationId, q: 'red umbr' }, { accountId });
    expect(found.data.map((row) => row.id)).toEqual([item.id]);
    expect((await rpc.request(SimulatedSmsRpc.list, { to: claim.claimant_phone })).data).toHaveLength(1);
    expect(
      await rpc.request(
        ClaimsRpc.reunite,
        { location_id: locationId, id: claim.id, found_item_id: item.id },
        { accountId },
      ),
    ).toMatchObject({ reunited: true });
    expect((await rpc.request(FoundItemsRpc.get, { location_id: locationId, id: item.id }, { accountId })).status).toBe(
      'returned',
    );
  });
});
