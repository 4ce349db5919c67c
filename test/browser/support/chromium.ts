/** Debian's Chromium (`apt-get install chromium`; .ci/run installs it), or CHROMIUM_PATH. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
