#!/usr/bin/env bash
# Regenerate the pinned wrapper modules under tools/ (go.mod + go.sum).
#
# This is only needed to BUMP a version; the generated go.mod/go.sum are
# committed and scripts/build-tools.sh builds from them as they are.
#
#   tools/regen.sh                    # regenerate all three with the pins below
#   K8S_VERSION=v1.36.4 tools/regen.sh kube-apiserver
#   ETCD_VERSION=v3.6.17 tools/regen.sh etcd
#   KWOK_VERSION=v0.8.1 tools/regen.sh kwok
#
# tools/simd is not regenerated here: its go.mod is simapp's own (cosmossdk.io/simapp, the SDK's v0.50.3 line) with
# the two edits that let it build outside the SDK's repository (no `cosmos-sdk => ../.` replace; client/v2 at
# v2.0.0-beta.1, which the proxy serves) and a `tool` line; bump it by repeating those edits on a newer simapp.
#
# Check a candidate first: `go mod download -json k8s.io/kubernetes@VERSION`
# (an "Error" field means the module proxy will not serve it). Keep kwok's
# k8s library minor equal to the apiserver minor (kwok v0.8.0 -> k8s 1.36).
set -euo pipefail

K8S_VERSION="${K8S_VERSION:-v1.36.3}"
ETCD_VERSION="${ETCD_VERSION:-v3.6.16}"
KWOK_VERSION="${KWOK_VERSION:-v0.8.0}"
COMETBFT_VERSION="${COMETBFT_VERSION:-v0.38.26}"
GO_DIRECTIVE="${GO_DIRECTIVE:-1.26.0}"

export GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-buildvcs=false
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

fresh() { # fresh <dir> <module path>
  rm -f "$1/go.mod" "$1/go.sum"
  mkdir -p "$1"
  (cd "$1" && go mod init "$2" >/dev/null 2>&1 && go mod edit -go="$GO_DIRECTIVE")
}

regen_kube_apiserver() {
  local d="$here/kube-apiserver" staging_v="v0.${K8S_VERSION#v1.}" gomod mod n=0
  echo "kube-apiserver: k8s.io/kubernetes $K8S_VERSION, staging $staging_v" >&2
  fresh "$d" chainnode.local/tools/kube-apiserver
  cd "$d"
  go mod edit -godebug=default=go"${GO_DIRECTIVE%.*}"
  gomod="$(go mod download -json "k8s.io/kubernetes@$K8S_VERSION" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p')"
  [[ -f "$gomod" ]] || { echo "cannot download k8s.io/kubernetes@$K8S_VERSION" >&2; exit 1; }
  # Every staging module appears in upstream's go.mod as `k8s.io/<x> v0.0.0`.
  for mod in $(grep -Eo 'k8s\.io/[a-z0-9-]+ v0\.0\.0$' "$gomod" | awk '{print $1}' | sort -u); do
    go mod edit -replace="$mod=$mod@$staging_v"
    n=$((n + 1))
  done
  echo "  $n staging replaces" >&2
  go get -tool "k8s.io/kubernetes/cmd/kube-apiserver@$K8S_VERSION"
  go mod edit -tool=k8s.io/kubernetes/cmd/kubectl
  go mod tidy
}

regen_etcd() {
  local d="$here/etcd"
  echo "etcd: go.etcd.io/etcd/server/v3 $ETCD_VERSION" >&2
  fresh "$d" chainnode.local/tools/etcd
  cd "$d"
  # Pin explicitly: a bare `go get -tool go.etcd.io/etcd/server/v3` takes the newest release.
  go get -tool "go.etcd.io/etcd/server/v3@$ETCD_VERSION"
  go mod tidy
}

regen_kwok() {
  local d="$here/kwok"
  echo "kwok: sigs.k8s.io/kwok $KWOK_VERSION" >&2
  fresh "$d" chainnode.local/tools/kwok
  cd "$d"
  go get -tool "sigs.k8s.io/kwok/cmd/kwok@$KWOK_VERSION"
  go mod tidy
}

regen_cometbft() {
  local d="$here/cometbft"
  echo "cometbft: github.com/cometbft/cometbft $COMETBFT_VERSION" >&2
  fresh "$d" chainnode.local/tools/cometbft
  cd "$d"
  go get -tool "github.com/cometbft/cometbft/cmd/cometbft@$COMETBFT_VERSION"
  go mod tidy
}

targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(kube-apiserver etcd kwok cometbft)
for t in "${targets[@]}"; do
  case "$t" in
    kube-apiserver) (regen_kube_apiserver) ;;
    etcd) (regen_etcd) ;;
    kwok) (regen_kwok) ;;
    cometbft) (regen_cometbft) ;;
    *) echo "unknown tool: $t (kube-apiserver|etcd|kwok|cometbft)" >&2; exit 2 ;;
  esac
done
echo "done; now run scripts/build-tools.sh (the cache key changes with go.mod/go.sum)" >&2
