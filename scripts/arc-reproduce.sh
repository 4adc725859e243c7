#!/bin/sh
# arc-reproduce.sh: for each archive of bench/arc and bench/results of a
# mirror of mdcallag/mytools (a bare git repository, $MYTOOLS_MIRROR),
# count the summaries the original scripts wrote that `ibreport tables
# --compat` rebuilds byte for byte from the archived inputs, with no flag
# but --cores, --sb-tag and --dbms:
#
#   - sysbench: every qps.{abs,rel}.<tag>.{tsv,csv} beside the DBMS folders
#     (x.<dbms>… folders or .tar.gz archives of them), run with --sb-tag
#     <tag> and --dbms the col-N names of qps.abs.<tag>.tsv; every o.met.<x>
#     (its blocks in any order: sum_met.sh ordered them by file times, which
#     git does not keep), run with --sb-tag <x> and --dbms the names of its
#     first block; and, where the iostat and vmstat logs are archived, the
#     per-run sb.r.*, sb.met.* and sb.prepare.met.* files;
#   - insert benchmark: the rel.<step>, mrg.some and rel.some of each folder
#     of archived mrg.<step> tables.
#
# --cores is the CPU count of the iostat banner when one is archived. Every
# archive is listed, with "no sysbench or insert-benchmark inputs" when it
# holds summaries only or the outputs of other tools.
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
ib=$tmp/ibreport
archives=${*:-$(git -C "$m" ls-tree -d --name-only HEAD bench/arc/ bench/results/)}

# blocks FILE: the blocks of an o.met file, one a line, sorted.
blocks() {
	awk 'BEGIN { RS = ""; ORS = "\n" } { gsub(/\n/, "\001"); print }' "$1" | LC_ALL=C sort
}

# same WANT GOT: 0 when GOT has WANT's bytes.
same() { [ -f "$2" ] && cmp -s "$1" "$2"; }

# sysbench STUDY: counts the summaries of one folder of DBMS folders into
# the files $tmp/n.*.
sysbench() {
	s=$1
	cores=$(find "$s" -name 'sb.io.*' 2>/dev/null | head -1 | xargs -r sed -n '1s/.*(\([0-9]*\) CPU).*/\1/p')
	cf=""
	[ -n "$cores" ] && cf="--cores $cores"
	for t in "$s"/qps.abs.*.tsv; do
		[ -f "$t" ] || continue
		tag=${t##*/qps.abs.}
		tag=${tag%.tsv}
		sed -n 's/^col-[0-9]* : //p' "$t" >"$tmp/list"
		rm -rf "$tmp/out"
		"$ib" tables --compat --quiet $cf --sb-tag "$tag" --dbms "$tmp/list" -o "$tmp/out" "$s" >/dev/null 2>"$tmp/err" || true
		for k in abs rel; do
			for e in tsv csv; do
				w=$s/qps.$k.$tag.$e
				[ -f "$w" ] || continue
				echo >>"$tmp/n.qps"
				# sum_qps_csv_nopre.sh wrote the tables of tests with no .pre
				# run under the same names.
				if same "$w" "$tmp/out/qps.$k.$tag.$e" || same "$w" "$tmp/out/qps.$k.$tag.nopre.$e"; then
					echo >>"$tmp/n.qpsok"
				fi
			done
		done
	done
	for w in "$s"/o.met.*; do
		[ -f "$w" ] || continue
		x=${w##*/o.met.}
		awk '/^--- relative/ || (a && !NF) { exit } /^--- absolute/ { a = 1; next } a && /^cpu\/o/ { next } a { print $NF }' "$w" |
			awk '!seen[$0]++' >"$tmp/list"
		[ -s "$tmp/list" ] || continue
		rm -rf "$tmp/out"
		"$ib" tables --compat --quiet $cf --sb-tag "$x" --dbms "$tmp/list" -o "$tmp/out" "$s" >/dev/null 2>"$tmp/err" || true
		echo >>"$tmp/n.met"
		blocks "$w" >"$tmp/want"
		n=$(wc -l <"$tmp/want")
		echo "$n" >>"$tmp/n.blk"
		best=0
		for g in "$tmp/out/o.met.$x".dop* "$tmp/out/o.met.$x"; do
			[ -f "$g" ] || continue
			blocks "$g" >"$tmp/got"
			k=$(LC_ALL=C comm -12 "$tmp/want" "$tmp/got" | wc -l)
			[ "$k" -gt "$best" ] && best=$k
		done
		echo "$best" >>"$tmp/n.blkok"
		[ "$best" -eq "$n" ] && echo >>"$tmp/n.metok"
	done
	# Per-run files, where their inputs (iostat, vmstat) are archived.
	if [ -n "$(find "$s" -name 'sb.io.*' -print -quit)" ]; then
		rm -rf "$tmp/out"
		if "$ib" tables --compat --quiet $cf -o "$tmp/out" "$s" >/dev/null 2>"$tmp/err"; then
			for f in $(cd "$s" && find . -type f \( -name 'sb.r.*' -o -name 'sb.met.*' -o -name 'sb.prepare.met.*' \)); do
				echo >>"$tmp/n.run"
				cmp -s "$s/$f" "$tmp/out/$f" && echo >>"$tmp/n.runok"
			done
		fi
	fi
}

# ibench DIR: the files rebuilt from one folder of mrg.<step> tables.
ibench() {
	d=$1
	rm -rf "$tmp/out"
	"$ib" tables --compat --quiet -o "$tmp/out" "$d" >/dev/null 2>"$tmp/err" || true
	for w in "$d"/rel.* "$d"/mrg.some; do
		[ -f "$w" ] || continue
		echo >>"$tmp/n.ib"
		same "$w" "$tmp/out/${w##*/}" && echo >>"$tmp/n.ibok"
	done
}

count() { if [ -f "$tmp/$1" ]; then wc -l <"$tmp/$1" | tr -d ' '; else echo 0; fi; }
sum() { if [ -f "$tmp/$1" ]; then awk '{ s += $1 } END { print s + 0 }' "$tmp/$1"; else echo 0; fi; }

printf '%s\t%s\t%s\t%s\t%s\n' archive qps-tables o.met-files o.met-blocks per-run/ibench
for a in $archives; do
	d="$tmp/x"
	rm -rf "$d" "$tmp"/n.*
	git -C "$m" ls-tree -r HEAD "$a" | while read -r _ type obj p; do
		[ "$type" = blob ] || continue
		mkdir -p "$d/$(dirname "$p")"
		git -C "$m" cat-file blob "$obj" >"$d/$p" 2>/dev/null || rm -f "$d/$p"
	done
	# Folders of DBMS folders: parents of x.* folders with sysbench files,
	# or of x.*.tar.gz archives.
	studies=$( (
		find "$d/$a" -type f \( -name 'sb.o.*' -o -name 'sb.met.*' \) -path '*/x.*/*' |
			sed 's,/x\.[^/]*/[^/]*$,,'
		find "$d/$a" -type f \( -name 'x.*.tar.gz' -o -name 'x.*.tgz' \) | sed 's,/[^/]*$,,'
	) | sort -u)
	# Folders of archived insert-benchmark tables.
	ibdirs=$(find "$d/$a" -type f -name 'mrg.l.i0' | sed 's,/[^/]*$,,' | sort -u)
	if [ -z "$studies" ] && [ -z "$ibdirs" ]; then
		printf '%s\tno sysbench or insert-benchmark inputs\n' "$a"
		continue
	fi
	for s in $studies; do sysbench "$s"; done
	for s in $ibdirs; do ibench "$s"; done
	run=-
	[ -f "$tmp/n.run" ] && run="$(count n.runok)/$(count n.run) per-run"
	[ -f "$tmp/n.ib" ] && run="$(count n.ibok)/$(count n.ib) rel/some"
	printf '%s\t%s\t%s\t%s\t%s\n' "$a" "$(count n.qpsok)/$(count n.qps)" "$(count n.metok)/$(count n.met)" "$(sum n.blkok)/$(sum n.blk)" "$run"
done
