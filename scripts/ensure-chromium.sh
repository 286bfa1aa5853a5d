#!/usr/bin/env bash
# `npm test` runs this first (pretest): the html report's browser tests drive Debian's Chromium
# through playwright-core, which downloads no browser. When /usr/bin/chromium is missing and this
# runs as root with apt-get (a fresh machine of this project, or CI), it is installed; otherwise a
# warning is printed and the browser tests fail loudly (they never skip).
set -u
chromium="${CALLPAIR_CHROMIUM:-/usr/bin/chromium}"
[ -x "$chromium" ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "callpair tests: installing chromium (apt-get) for the browser tests" >&2
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium; } >/dev/null 2>&1 \
    || echo "callpair tests: warning: could not install chromium; the browser tests will fail" >&2
else
  echo "callpair tests: warning: $chromium is missing (install Debian's chromium, or set CALLPAIR_CHROMIUM); the browser tests will fail" >&2
fi
exit 0
