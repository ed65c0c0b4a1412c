#!/usr/bin/env bash
# Install a Prometheus server and promtool from Debian's packages, for `promtool test rules` and the e2e test
# that scrapes `chainnode serve` (test/e2e/serve-prometheus.e2e.test.ts).
#
#   scripts/setup-prometheus.sh        -> last stdout line: the directory holding prometheus and promtool
#
# A second run is a no-op. Needs root (apt-get) unless both are already on PATH; CI on a fresh machine runs it
# as root through `npm test`. The package's own service is never started: the tests run their own server,
# listening on 127.0.0.1 only.
set -euo pipefail

log() { printf '[setup-prometheus] %s\n' "$*" >&2; }

if command -v prometheus >/dev/null && command -v promtool >/dev/null; then
  dirname "$(command -v promtool)"
  exit 0
fi
if [[ "$(id -u)" != 0 ]]; then
  log "prometheus/promtool not found and not root: run 'sudo $0' (or apt-get install prometheus)"
  exit 1
fi

# Keep invoke-rc.d from starting the packaged daemon (it would listen on every address, on 9090).
policy=/usr/sbin/policy-rc.d
own_policy=0
if [[ ! -e "$policy" ]]; then
  printf '#!/bin/sh\nexit 101\n' >"$policy"
  chmod 755 "$policy"
  own_policy=1
fi
trap '[[ $own_policy == 1 ]] && rm -f "$policy"' EXIT

export DEBIAN_FRONTEND=noninteractive
log "apt-get update"
apt-get update -qq >&2
log "apt-get install prometheus (server and promtool)"
apt-get install -y -qq --no-install-recommends prometheus >&2
command -v promtool >/dev/null || { log "promtool missing after install"; exit 1; }
dirname "$(command -v promtool)"
