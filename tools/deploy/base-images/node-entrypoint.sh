#!/bin/sh
# The official node image's entrypoint: `docker run node:x -e '...'` or `docker run node:x app.js` runs node with
# those arguments; anything that is a command (node, sh, npm) runs as given.
set -e
if [ "${1#-}" != "$1" ] || [ -z "$(command -v "$1" 2>/dev/null)" ] || { [ -f "$1" ] && ! [ -x "$1" ]; }; then
  set -- node "$@"
fi
exec "$@"
