#!/usr/bin/env bash
# Install headless Chromium from Debian's packages, for the test that opens `pprof flame`'s page in a real
# browser and takes the README's screenshot (test/e2e/pprof-flame-browser.e2e.test.ts).
#
#   scripts/setup-chromium.sh        -> last stdout line: the path of the chromium executable
#
# A second run is a no-op. Needs root (apt-get) unless chromium is already installed; CI on a fresh machine
# runs it as root through `npm test`. No browser is ever downloaded by npm: playwright-core drives this one.
set -euo pipefail

log() { printf '[setup-chromium] %s\n' "$*" >&2; }

for candidate in /usr/bin/chromium "$(command -v chromium || true)"; do
  if [[ -n "$candidate" && -x "$candidate" ]]; then
    echo "$candidate"
    exit 0
  fi
done
if [[ "$(id -u)" != 0 ]]; then
  log "chromium not found and not root: run 'sudo $0' (or apt-get install chromium)"
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
# Another install (setup-prometheus.sh, a colleague's apt-get) may hold the lock: wait for it rather than fail.
apt_get() { apt-get -o DPkg::Lock::Timeout=600 "$@"; }
log "apt-get update"
apt_get update -qq >&2
log "apt-get install chromium"
apt_get install -y -qq --no-install-recommends chromium fonts-dejavu-core >&2
[[ -x /usr/bin/chromium ]] || { log "/usr/bin/chromium missing after install"; exit 1; }
echo /usr/bin/chromium
