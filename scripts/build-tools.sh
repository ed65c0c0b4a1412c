#!/usr/bin/env bash
# Build the Go binaries of the kubectl-chainnode test cluster, once per input.
#
#   scripts/build-tools.sh            -> last stdout line: the bin directory
#
# Builds kube-apiserver and kubectl (tools/kube-apiserver, version-stamped),
# etcd (tools/etcd), kwok (tools/kwok), cometbft (tools/cometbft), simd (tools/simd: the Cosmos SDK's own
# simapp, for the slashing/staking/upgrade/governance scenarios), pprofd (test/pprofd) and leakgen (test/leakgen) into
#   ${CHAINNODE_TOOLS_DIR:-$HOME/.cache/kubectl-chainnode/tools}/<key>/bin/
# where <key> hashes every tools/*/go.{mod,sum} and the test/pprofd sources.
# kwok's stage and CRD YAML are copied next to it, into <key>/kwok/.
# A binary whose stamp exists is not rebuilt; a second run is a no-op.
# Progress and timings go to stderr. Concurrent runs serialise on a lock.
#
# Needs Go >= 1.26 (GOTOOLCHAIN=local: never downloads a toolchain) and the
# Go module proxy. Set CHAINNODE_TOOLS_FORCE=1 to rebuild everything.
set -euo pipefail

export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-buildvcs=false

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Bump when the way binaries are built changes (flags, layout), to change the key.
recipe=3

log() { printf '[build-tools] %s\n' "$*" >&2; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1fs", b - a }'; }

command -v go >/dev/null || { log "go not found on PATH"; exit 1; }

inputs=()
while IFS= read -r f; do inputs+=("$f"); done < <(
  cd "$repo" && { ls tools/*/go.mod tools/*/go.sum; find test/pprofd test/signerd test/leakgen -type f \( -name '*.go' -o -name 'go.mod' -o -name 'go.sum' \); } | LC_ALL=C sort
)
key="$(
  cd "$repo"
  { echo "recipe=$recipe"; go env GOVERSION GOOS GOARCH; for f in "${inputs[@]}"; do printf '%s\n' "$f"; sha256sum <"$f"; done; } |
    sha256sum | cut -c1-16
)"
root="${CHAINNODE_TOOLS_DIR:-$HOME/.cache/kubectl-chainnode/tools}"
dest="$root/$key"
bin="$dest/bin"
mkdir -p "$bin"

exec 9>"$dest/.lock"
if ! flock -n 9; then
  log "another build holds $dest/.lock; waiting"
  flock 9
fi

t_all="$(now)"
built=0
[[ "${CHAINNODE_TOOLS_FORCE:-}" == 1 ]] && rm -f "$bin"/.stamp-*

# Per-tool input hash: lets a new key directory reuse a binary whose own inputs did not
# change (e.g. editing test/pprofd does not relink kube-apiserver).
tool_hash() { # tool_hash <module dir relative to repo>
  (cd "$repo" && { echo "recipe=$recipe"; go env GOVERSION GOOS GOARCH;
    find "$1" -maxdepth 1 -type f \( -name '*.go' -o -name 'go.mod' -o -name 'go.sum' \) | LC_ALL=C sort |
      while IFS= read -r f; do printf '%s\n' "$f"; sha256sum <"$f"; done; } | sha256sum | cut -c1-16)
}

# build <name> <module dir relative to repo> <package> [extra go build args...]
build() {
  local name="$1" dir="$2" pkg="$3" t th other
  shift 3
  th="$(tool_hash "$dir")"
  if [[ -x "$bin/$name" && "$(cat "$bin/.stamp-$name" 2>/dev/null)" == "$th" ]]; then
    log "$name: up to date"
    return
  fi
  for other in "$root"/*/bin/.stamp-"$name"; do
    [[ -f "$other" && "$other" != "$bin/.stamp-$name" && "$(cat "$other")" == "$th" && -x "${other%/.stamp-*}/$name" ]] || continue
    ln -f "${other%/.stamp-*}/$name" "$bin/.$name.tmp" 2>/dev/null || cp -f "${other%/.stamp-*}/$name" "$bin/.$name.tmp"
    mv -f "$bin/.$name.tmp" "$bin/$name"
    echo "$th" >"$bin/.stamp-$name"
    built=$((built + 1))
    log "$name: reused from ${other%/bin/.stamp-*}"
    return
  done
  log "$name: building $pkg"
  t="$(now)"
  (cd "$repo/$dir" && go build -trimpath "$@" -o "$bin/.$name.tmp" "$pkg")
  mv -f "$bin/.$name.tmp" "$bin/$name"
  echo "$th" >"$bin/.stamp-$name"
  built=$((built + 1))
  log "$name: built in $(since "$t")"
}

# kube-apiserver/kubectl version stamping, as kubernetes' hack/lib/version.sh does.
k8s_ldflags() {
  local v info major minor date
  info="$(cd "$repo/tools/kube-apiserver" && go list -m -f '{{.Version}} {{if .Time}}{{.Time.UTC.Format "2006-01-02T15:04:05Z"}}{{end}}' k8s.io/kubernetes)"
  v="${info%% *}"
  date="${info#* }"
  major="${v#v}"; major="${major%%.*}"
  minor="${v#v*.}"; minor="${minor%%.*}"
  local f=()
  for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    f+=("-X '$p.gitVersion=$v'" "-X '$p.gitMajor=$major'" "-X '$p.gitMinor=$minor'"
        "-X '$p.gitTreeState=clean'" "-X '$p.buildDate=$date'")
  done
  echo "-s -w ${f[*]}"
}

log "key $key -> $dest"
build pprofd test/pprofd . -ldflags "-s -w"
build signerd test/signerd . -ldflags "-s -w"
# A Go process that leaks memory and goroutines on purpose, for `pprof --growth` (test/e2e/pprof-leak.e2e.test.ts).
build leakgen test/leakgen . -ldflags "-s -w"
# krew v0.4.4 through a wrapper module: `go install ...@v0.4.4` fails on a deprecation look-up.
build krew tools/krew sigs.k8s.io/krew/cmd/krew -ldflags "-s -w -X sigs.k8s.io/krew/internal/version.gitTag=v0.4.4"
build etcd tools/etcd go.etcd.io/etcd/server/v3 -ldflags "-s -w"
build kwok tools/kwok sigs.k8s.io/kwok/cmd/kwok -ldflags "-s -w"
# Real chain nodes for the chain-probe scenarios (`cometbft start --proxy_app=kvstore`).
build cometbft tools/cometbft github.com/cometbft/cometbft/cmd/cometbft -ldflags "-s -w"
# A real Cosmos SDK chain (cosmos-sdk v0.50.3's simapp; about 6 minutes cold on 2 cores). -mod=mod: simapp's own
# requirements are not tidy (test-only imports at versions the proxy refuses), the build itself is complete.
build simd tools/simd cosmossdk.io/simapp/simd -mod=mod -ldflags "-s -w"
k8s_hash="$(tool_hash tools/kube-apiserver)"
need_k8s=0
for n in kube-apiserver kubectl; do
  [[ -x "$bin/$n" && "$(cat "$bin/.stamp-$n" 2>/dev/null)" == "$k8s_hash" ]] || need_k8s=1
done
ldf=""
[[ $need_k8s == 1 ]] && ldf="$(k8s_ldflags)"
build kube-apiserver tools/kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver -ldflags "$ldf"
build kubectl tools/kube-apiserver k8s.io/kubernetes/cmd/kubectl -ldflags "$ldf"

# kwok's upstream stages and CRDs, for the cluster harness (read-only in GOMODCACHE).
if [[ ! -f "$dest/kwok/.stamp" ]]; then
  t="$(now)"
  kwok_dir="$(cd "$repo/tools/kwok" && go list -m -f '{{.Dir}}' sigs.k8s.io/kwok)"
  if [[ -z "$kwok_dir" || ! -d "$kwok_dir/kustomize" ]]; then
    kwok_dir="$(cd "$repo/tools/kwok" && go mod download -json sigs.k8s.io/kwok | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  fi
  rm -rf "$dest/kwok"
  mkdir -p "$dest/kwok/stage" "$dest/kwok/crd"
  cp -R "$kwok_dir/kustomize/stage/." "$dest/kwok/stage/"
  cp "$kwok_dir"/kustomize/crd/bases/*.yaml "$dest/kwok/crd/"
  chmod -R u+w "$dest/kwok"
  echo "$kwok_dir" >"$dest/kwok/.stamp"
  log "kwok manifests copied from $kwok_dir in $(since "$t")"
fi

if [[ $built -gt 0 || ! -f "$dest/versions.txt" ]]; then
  {
    echo "kube-apiserver: $("$bin/kube-apiserver" --version 2>&1 | head -1)"
    echo "kubectl: $("$bin/kubectl" version --client 2>&1 | head -1)"
    echo "etcd: $("$bin/etcd" --version 2>&1 | head -1)"
    echo "kwok: $("$bin/kwok" --version 2>&1 | head -1)"
    echo "cometbft: $("$bin/cometbft" version 2>&1 | head -1)"
    echo "simd: cosmossdk.io/simapp $(sed -n 's/^require cosmossdk.io\/simapp //p' "$repo/tools/simd/go.mod") (cosmos-sdk $(sed -n 's/^[[:space:]]*github.com\/cosmos\/cosmos-sdk \(v[^ ]*\).*/\1/p' "$repo/tools/simd/go.mod"))"
    echo "go: $(go env GOVERSION)"
  } >"$dest/versions.txt"
fi
sed 's/^/[build-tools]   /' "$dest/versions.txt" >&2
log "done in $(since "$t_all") ($built built)"
echo "$bin"
