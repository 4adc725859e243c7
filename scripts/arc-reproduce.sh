#!/bin/sh
# arc-reproduce.sh: for each archive of bench/arc and bench/results of a
# mirror of mdcallag/mytools (a bare git repository, $MYTOOLS_MIRROR) that
# has raw sysbench inputs, count the per-run and summary files that
# `ibreport tables --compat` rebuilds byte for byte, with no flag but
# --cores (the CPUs of the iostat banner).
#
#   MYTOOLS_MIRROR=/path/to/repo.git scripts/arc-reproduce.sh [archive ...]
#
# Blobs absent from the mirror are skipped. Needs the network for nothing.
set -eu
m=${MYTOOLS_MIRROR:?set MYTOOLS_MIRROR to a bare git mirror of mdcallag/mytools}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/ibreport" "$root/cmd/ibreport"
archives=${*:-$(git -C "$m" ls-tree -d --name-only HEAD bench/arc/ bench/results/)}
for a in $archives; do
	if ! git -C "$m" ls-tree -r --name-only HEAD "$a" | grep -Eq '/sb\.o\.|\.tar\.gz$|\.tgz$'; then
		continue
	fi
	d="$tmp/x"
	rm -rf "$d" "$tmp/out"
	git -C "$m" ls-tree -r HEAD "$a" | while read -r _ type obj p; do
		[ "$type" = blob ] || continue
		mkdir -p "$d/$(dirname "$p")"
		git -C "$m" cat-file blob "$obj" >"$d/$p" 2>/dev/null || rm -f "$d/$p"
	done
	cores=$(find "$d/$a" -name 'sb.io.*' | head -1 | xargs -r sed -n '1s/.*(\([0-9]*\) CPU).*/\1/p')
	flags=""
	[ -n "$cores" ] && flags="--cores $cores"
	if ! "$tmp/ibreport" tables --compat --quiet $flags -o "$tmp/out" "$d/$a" >/dev/null 2>"$tmp/err"; then
		echo "$a: fails: $(head -1 "$tmp/err")"
		continue
	fi
	ok=0 tot=0
	for f in $(cd "$d/$a" && find . -type f \( -name 'sb.r.*' -o -name 'sb.met.*' -o -name 'sb.prepare.met.*' \)); do
		tot=$((tot + 1))
		cmp -s "$d/$a/$f" "$tmp/out/$f" && ok=$((ok + 1))
	done
	echo "$a: per-run files $ok/$tot"
done
