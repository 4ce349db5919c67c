#!/usr/bin/env node
// The image's HEALTHCHECK (Docker and Compose; Kubernetes uses its own probes): GET /healthz on this container.
// The gateway answers it on PORT (over TLS when TLS_CERT is set), every other service on HEALTH_PORT.
'use strict';
const gateway = process.env.APP_NAME === 'gateway';
const tls = gateway && Boolean(process.env.TLS_CERT);
const port = Number(gateway ? process.env.PORT || 3000 : process.env.HEALTH_PORT || 8080);
const client = require(tls ? 'node:https' : 'node:http');

const request = client.get(
  { host: '127.0.0.1', port, path: '/healthz', timeout: 4000, rejectUnauthorized: false },
  (res) => {
    res.resume();
    process.exit(res.statusCode === 200 ? 0 : 1);
  },
);
request.on('timeout', () => request.destroy(new Error('timeout')));
request.on('error', () => process.exit(1));
