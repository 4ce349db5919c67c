#!/bin/sh
# The official nats alpine image's entrypoint: arguments that start with '-' are nats-server's.
set -e
if [ "${1#-}" != "$1" ]; then set -- nats-server "$@"; fi
exec "$@"
