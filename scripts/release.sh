#!/usr/bin/env bash
# release.sh VERSION DIR writes the archives of a release into DIR, one a
# target (ibreport_VERSION_OS_ARCH.tar.gz: the binary, LICENSE, README.md,
# CHANGELOG.md) and SHA256SUMS, the checksums to verify a download with
# (sha256sum -c --ignore-missing SHA256SUMS). The release workflow runs it
# for a pushed tag vMAJOR.MINOR.PATCH; TARGETS (OS/ARCH, blank-separated)
# narrows the list. Binaries are static (CGO_ENABLED=0) and built with
# -trimpath, so that they name no path of the machine that built them, and
# the archives hold no owner or time of that machine: one tag, one set of
# bytes.
set -euo pipefail
usage="usage: release.sh vMAJOR.MINOR.PATCH DIR"
version=${1:?$usage}
out=${2:?$usage}
if ! [[ $version =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
  echo "release.sh: version '$version' is not vMAJOR.MINOR.PATCH" >&2
  exit 2
fi
targets=${TARGETS:-linux/amd64 linux/arm64 darwin/amd64 darwin/arm64}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
cd "$root"
# In a clone, the binary names its revision, and its version when the
# revision is the tag's (ibreport version).
vcs=-buildvcs=false
if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then vcs=-buildvcs=true; fi
for t in $targets; do
  os=${t%/*} arch=${t#*/}
  name=ibreport_${version#v}_${os}_${arch}
  mkdir -p "$stage/$name"
  CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build "$vcs" -trimpath -ldflags "-s -w" -o "$stage/$name/ibreport" ./cmd/ibreport
  cp LICENSE README.md CHANGELOG.md "$stage/$name/"
  tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -cf - "$name" | gzip -n -9 > "$out/$name.tar.gz.tmp"
  mv -f "$out/$name.tar.gz.tmp" "$out/$name.tar.gz"
done
cd "$out"
sha256sum -- *.tar.gz > SHA256SUMS.tmp
mv -f SHA256SUMS.tmp SHA256SUMS
