#!/usr/bin/env bash
# `npm test` runs this first (pretest), like ensure-chromium.sh: the scale-out tests run the map step
# on GNU parallel (Debian `parallel`) and Dask distributed (Debian `python3-distributed`, for
# /usr/bin/python3). When either is missing and this runs as root with apt-get (a fresh machine of
# this project, or CI), both are installed (one `apt-get update`, none when the lists are fresh);
# otherwise a warning is printed: the GNU parallel test then fails loudly, the Dask test is skipped
# (it cannot run without Dask).
set -u
need=()
command -v parallel >/dev/null 2>&1 && parallel --version 2>/dev/null | grep -q 'GNU parallel' || need+=(parallel)
# Found, not imported (importing Dask takes seconds).
/usr/bin/python3 -c 'import importlib.util, sys; sys.exit(importlib.util.find_spec("distributed") is None)' >/dev/null 2>&1 || need+=(python3-distributed)
[ "${#need[@]}" -eq 0 ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "callpair tests: installing ${need[*]} (apt-get) for the scale-out tests" >&2
  # One `apt-get update` per test run: skipped when the package lists are fresh (ensure-chromium.sh
  # may have just updated them).
  fresh=$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -mmin -60 2>/dev/null | head -n 1)
  { { [ -n "$fresh" ] || apt-get update -qq; } && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"; } >/dev/null 2>&1 \
    || echo "callpair tests: warning: could not install ${need[*]}; the GNU parallel test will fail and the Dask test will be skipped" >&2
else
  echo "callpair tests: warning: ${need[*]} missing (apt-get install ${need[*]}); the GNU parallel test will fail and the Dask test will be skipped" >&2
fi
exit 0
