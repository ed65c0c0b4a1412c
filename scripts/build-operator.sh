#!/usr/bin/env bash
# Build the real cosmopilot manager (the operator's own binary, v3.0.0) for test/e2e/real-operator.e2e.test.ts.
#
#   scripts/build-operator.sh          -> last stdout line: the manager binary
#
# A cached test tool with a key of its own, apart from scripts/build-tools.sh: adding or changing it never changes
# the key of kube-apiserver, etcd, kwok, cometbft or simd (a changed key rebuilds those cold). The binary goes to
#   ${CHAINNODE_TOOLS_DIR:-$HOME/.cache/kubectl-chainnode/tools}/cosmopilot-<key>/bin/manager
# where <key> hashes the recipe, the Go version and the module version. A second run is a no-op.
#
# Where from, in order:
#   1. the Go module proxy: `go install github.com/voluzi/cosmopilot/v3/cmd/manager@v3.0.0` (the module has no
#      replace directives, so it builds outside any go.mod, with its own go.sum checked by the checksum database);
#   2. when the proxy does not serve it and CHAINNODE_OPERATOR_SOURCE names a clone of voluzi/cosmopilot (the one
#      test/unit/rules/operator-format-strings.test.ts reads), the clone's tag v3.0.0, exported into a temporary
#      folder of the cache (never into this repository) and built with its own go.mod/go.sum; its dependencies
#      still come from the proxy.
# When neither works it exits 1 and its last stderr line says why (the test that needs it skips with that line).
#
# Needs Go >= 1.26 (the module says go 1.26.0; GOTOOLCHAIN=local never downloads a toolchain).
set -euo pipefail

export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-buildvcs=false

module=github.com/voluzi/cosmopilot/v3
version=v3.0.0
# Bump when the way the binary is built changes (flags, layout), to change the key.
recipe=1

log() { printf '[build-operator] %s\n' "$*" >&2; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1fs", b - a }'; }

command -v go >/dev/null || { log "cannot build the cosmopilot manager: go not found on PATH"; exit 1; }

key="$({ echo "recipe=$recipe"; go env GOVERSION GOOS GOARCH; echo "$module@$version"; } | sha256sum | cut -c1-16)"
dest="${CHAINNODE_TOOLS_DIR:-$HOME/.cache/kubectl-chainnode/tools}/cosmopilot-$key"
bin="$dest/bin"
mkdir -p "$bin"
# Concurrent runs (two e2e runs at once) serialise on the cache directory's lock.
exec 9>"$dest/.lock"
flock 9

if [[ -x "$bin/manager" && -f "$bin/.stamp-manager" ]]; then
  log "manager: up to date ($(cat "$bin/.stamp-manager"))"
  echo "$bin/manager"
  exit 0
fi

t="$(now)"
build_log="$dest/build.log"
: >"$build_log"
log "manager: go install $module/cmd/manager@$version"
if GOBIN="$dest/gobin" go install -trimpath -ldflags "-s -w" "$module/cmd/manager@$version" >>"$build_log" 2>&1; then
  mv -f "$dest/gobin/manager" "$bin/manager"
  echo "$module@$version from the Go module proxy" >"$bin/.stamp-manager"
else
  # The proxy's own answer ("reading https://proxy.golang.org/…: 403 Forbidden"), else go's last line.
  proxy_reason="$(grep -o -m1 'reading https\?://[^ ]*: .*' "$build_log" || grep -v '^go: downloading' "$build_log" | tail -n 1)"
  log "manager: the Go module proxy does not serve $module@$version: $proxy_reason"
  src="${CHAINNODE_OPERATOR_SOURCE:-}"
  if [[ -z "$src" ]]; then
    log "cannot build the cosmopilot manager $version: the Go module proxy refuses $module@$version ($proxy_reason), and CHAINNODE_OPERATOR_SOURCE names no clone of voluzi/cosmopilot to build it from"
    exit 1
  fi
  if ! git -C "$src" rev-parse --verify --quiet "refs/tags/$version^{commit}" >/dev/null; then
    log "cannot build the cosmopilot manager $version: the Go module proxy refuses it ($proxy_reason), and CHAINNODE_OPERATOR_SOURCE=$src has no tag $version"
    exit 1
  fi
  work="$dest/src.tmp"
  rm -rf "$work"
  mkdir -p "$work"
  trap 'rm -rf "$work"' EXIT
  git -C "$src" archive "$version" | tar -x -C "$work"
  if [[ "$(sed -n 's/^module //p' "$work/go.mod")" != "$module" ]]; then
    log "cannot build the cosmopilot manager $version: $src at $version is not module $module"
    exit 1
  fi
  commit="$(git -C "$src" rev-parse "$version^{commit}")"
  log "manager: building $version ($commit) from the clone in CHAINNODE_OPERATOR_SOURCE, dependencies from the proxy"
  if ! (cd "$work" && go build -trimpath -mod=readonly -ldflags "-s -w" -o "$bin/.manager.tmp" ./cmd/manager) >>"$build_log" 2>&1; then
    log "cannot build the cosmopilot manager $version from $src: $(grep -v '^go: downloading' "$build_log" | tail -n 1)"
    exit 1
  fi
  mv -f "$bin/.manager.tmp" "$bin/manager"
  echo "$module@$version (commit $commit) from CHAINNODE_OPERATOR_SOURCE" >"$bin/.stamp-manager"
fi
rm -rf "$dest/gobin"
log "manager: built in $(since "$t") ($(cat "$bin/.stamp-manager"))"
echo "$bin/manager"
