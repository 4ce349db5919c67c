// The ceiling of the API benchmark: a bare Fastify hello-world server (the same Fastify the gateway runs on), in
// a process of its own. Prints its port on stdout, then serves until killed.
import { require } from './common.mjs';

const fastify = require('fastify')({ logger: false });
fastify.get('/', async () => ({ hello: 'world' }));
const address = await fastify.listen({ port: Number(process.argv[2] ?? 0), host: '127.0.0.1' });
console.log(new URL(address).port);
