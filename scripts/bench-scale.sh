#!/usr/bin/env bash
# bench-scale.sh: times `ibreport build --format md` on big results folders
# against reading the same files with cat, in paired, interleaved runs
# (cat, ibreport, cat, ibreport, ...), in the default mode and with
# --compat. It prints, per folder and mode, the medians of the wall times,
# the median of the per-pair ratios ibreport/cat, ibreport's median CPU
# time and its peak RSS (the largest of the runs), with the load average
# before and after. Beside them it prints the CPU time of the floor (the
# least a report that uses every number costs: floor.c reads every line of
# every file and converts every number, on one core) and the median of the
# per-pair ratios of ibreport's CPU time to the floor's.
#
#   scripts/bench-scale.sh [-n RUNS] [-m MB] [-b BINARY ...] [-f FLOOR.c] [-p] [-k] [FOLDER ...]
#
# Without FOLDER it writes two synthetic folders of about MB megabytes
# (default 450) under a temporary folder in /tmp and removes them at the
# end (-k keeps them): an insert-benchmark tree stretched from
# testdata/example (TestWriteScaleTree) and sysbench folders made from
# testdata/arc/nov25.sb.pg/dop40 with the query plans sysbench prints put
# back (TestWriteSysbenchScaleTree). A FOLDER is timed as it is, with the
# flags of $IBREPORT_FLAGS. -b times a given binary instead of building
# one from this checkout; given more than once (an older build and a newer
# one), the binaries take turns in every round: cat, floor, first,
# second, ... -f names floor.c (default ../shared/floor/floor.c beside the
# checkout); it is built with the system C compiler (cc -O2), and the floor
# columns are left out, with a note, when either is missing.
# -p pins each round to one CPU, the rounds taking the CPUs in turn: cat,
# the floor and every binary of a round run on the same CPU (taskset). On a
# virtual machine whose CPUs run at different speeds (a busy neighbour on
# one of them) the floor, on one CPU, and ibreport, on both, are otherwise
# timed on different hardware, and their ratio measures the CPUs as much as
# the tool; pinned, ibreport runs its work on one CPU (GOMAXPROCS 1).
# Unpinned, ibreport spreads its work over all CPUs, and the floor of each
# round is the mean of the floor's CPU time on each CPU in turn (taskset):
# where one virtual CPU runs slower than the other, a floor left to the
# scheduler lands on either and its ratio to ibreport's measures where it
# landed. Before and after the rounds it times the floor on each CPU and
# warns when they differ by more than a tenth.
# Needs GNU time (/usr/bin/time), and taskset for -p.
set -eu
runs=5
mb=450
bins=()
keep=
floorc=
pinned=
while getopts n:m:b:f:pk opt; do
	case $opt in
	n) runs=$OPTARG ;;
	m) mb=$OPTARG ;;
	b) bins+=("$OPTARG") ;;
	f) floorc=$OPTARG ;;
	k) keep=1 ;;
	p) pinned=1 ;;
	*) sed -n '2,39s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ -x /usr/bin/time ] || { echo "bench-scale.sh: needs GNU time at /usr/bin/time" >&2; exit 1; }
[ -z "$pinned" ] || command -v taskset >/dev/null || { echo "bench-scale.sh: -p needs taskset" >&2; exit 1; }
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/bench-scale.XXXXXX)
cleanup() { [ -n "$keep" ] && echo "kept $tmp" >&2 || rm -rf "$tmp"; }
trap cleanup EXIT
[ -n "$floorc" ] || floorc=$root/../shared/floor/floor.c
floor=
if [ ! -f "$floorc" ]; then
	floornote="no floor column: $floorc not found (-f names floor.c)"
elif ! command -v cc >/dev/null; then
	floornote="no floor column: no C compiler (cc)"
elif cc -O2 -o "$tmp/floor" "$floorc" 2>"$tmp/err"; then
	floor=$tmp/floor
	floornote="floor: $(cd "$(dirname "$floorc")" && pwd)/$(basename "$floorc"), cc -O2, one core"
else
	floornote="no floor column: cc -O2 $floorc failed: $(head -1 "$tmp/err")"
fi
if [ ${#bins[@]} -eq 0 ]; then
	bins=("$tmp/ibreport")
	(cd "$root" && go build -o "${bins[0]}" ./cmd/ibreport)
fi

# folders holds "label|path|flags" entries.
folders=()
if [ $# -eq 0 ]; then
	(cd "$root" && go test ./report -count=1 -run '^TestWriteScaleTree$' -scale-dir "$tmp/insert" -scale-mb "$mb" >/dev/null)
	(cd "$root" && go test ./report -count=1 -run '^TestWriteSysbenchScaleTree$' -scale-dir "$tmp/sysbench" -scale-mb "$mb" >/dev/null)
	folders+=("insert|$tmp/insert|--cores 2 --device vda")
	folders+=("sysbench|$tmp/sysbench|")
else
	for d in "$@"; do
		folders+=("$(basename "$d")|$d|${IBREPORT_FLAGS:-}")
	done
fi

# median prints the median of its arguments.
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

# timed runs a command under GNU time and prints "wall cpu rssKB"; its
# standard input is $stdin (default /dev/null).
# With -p it runs on CPU $cpu.
timed() {
	local pin=()
	[ -n "$pinned" ] && pin=(taskset -c "$cpu")
	/usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "${pin[@]}" "$@" <"${stdin:-/dev/null}" >/dev/null 2>"$tmp/err" || {
		echo "bench-scale.sh: failed: $*" >&2; cat "$tmp/err" >&2; exit 1; }
	awk '{printf "%.2f %.2f %d\n", $1, $2+$3, $4}' "$tmp/time"
}

# floor_on prints the floor's CPU time on CPU $1 over the files listed in
# $2 (timed reads pinned and cpu, here set for this call only).
floor_on() {
	local pinned=1 cpu=$1
	stdin=$2 timed "$floor" | awk '{print $2}'
}

# speeds prints the floor's CPU time on each CPU (taskset, the median of
# three runs) on the first folder's files and says when they differ by
# more than a tenth: a virtual CPU that shares its core with a busy
# neighbour runs slower, and ibreport's CPU time on two CPUs is then
# inflated against the floor's on one; the unpinned ratios measure the
# machine more than the tool, the pinned ones (-p) do not.
speeds() {
	[ -n "$floor" ] && command -v taskset >/dev/null || return 0
	local first dir c r ts=() line="floor s per CPU $1:"
	first=${folders[0]}
	IFS='|' read -r _ dir _ <<<"$first"
	find "$dir" -type f -print0 >"$tmp/speedfiles"
	for c in $(seq 0 $(($(nproc) - 1))); do
		local runs3=()
		for r in 1 2 3; do
			runs3+=("$(floor_on "$c" "$tmp/speedfiles")")
		done
		ts+=("$(median "${runs3[@]}")")
		line+=" CPU $c ${ts[-1]}"
	done
	echo "$line"
	printf '%s\n' "${ts[@]}" | sort -g | awk 'NR == 1 {lo = $1} {hi = $1}
		END {if (lo > 0 && hi / lo > 1.1) printf "warning: the CPUs run at different speeds (%.0f%% apart): ratios measured while they did depend on the machine; compare with -p\n", (hi / lo - 1) * 100}'
}

echo "load before: $(uptime | sed 's/.*load average: //')"
echo "$(nproc) CPUs${pinned:+, each round on one CPU in turn}, $runs paired runs, checkout $(cd "$root" && git describe --always --dirty 2>/dev/null || true)"
spread=
[ -n "$floor" ] && [ -z "$pinned" ] && [ "$(nproc)" -gt 1 ] && command -v taskset >/dev/null && spread=1
echo "$floornote${spread:+, the mean of its times on each CPU in turn}"
speeds before
if [ -n "$floor" ]; then
	printf '%-10s %5s %-14s %-7s %6s %7s %7s %8s %7s %8s %7s\n' folder MB binary mode "cat s" "tool s" ratio "cpu s" "RSS MB" "floor s" "/floor"
else
	printf '%-10s %5s %-14s %-7s %6s %7s %7s %8s %7s\n' folder MB binary mode "cat s" "tool s" ratio "cpu s" "RSS MB"
fi
for entry in "${folders[@]}"; do
	IFS='|' read -r label dir flags <<<"$entry"
	size=$(du -sbL "$dir" | awk '{printf "%.0f", $1/1e6}')
	catcmd=(sh -c 'find "$1" -type f -print0 | xargs -0 cat >/dev/null' sh "$dir")
	"${catcmd[@]}" # warm the page cache
	find "$dir" -type f -print0 >"$tmp/files"
	for mode in default compat; do
		extra=()
		[ $mode = compat ] && extra=(--compat)
		declare -A tools=() ratios=() cpus=() rss=() fratios=()
		cats=() floors=()
		for round in $(seq "$runs"); do
			cpu=$((round % $(nproc)))
			for b in "${!bins[@]}"; do
				read -r cw _ _ < <(timed "${catcmd[@]}")
				fc=
				if [ -n "$spread" ]; then
					# Unpinned, ibreport spreads its work over the CPUs:
					# the floor it is held to is the mean of the floor's
					# time on each of them.
					fc=$(for c in $(seq 0 $(($(nproc) - 1))); do
						floor_on "$c" "$tmp/files"
					done | awk '{s += $1} END {printf "%.2f", s / NR}')
				elif [ -n "$floor" ]; then
					read -r _ fc _ < <(stdin=$tmp/files timed "$floor")
				fi
				[ -n "$fc" ] && floors+=("$fc")
				# shellcheck disable=SC2086 # flags are words
				read -r tw tc tr < <(timed "${bins[$b]}" build --quiet --format md $flags "${extra[@]}" -o "$tmp/out.md" "$dir")
				cats+=("$cw")
				tools[$b]+=" $tw" cpus[$b]+=" $tc"
				ratios[$b]+=" $(awk -v a="$tw" -v c="$cw" 'BEGIN {printf "%.2f", (c > 0 ? a / c : 0)}')"
				[ -n "$fc" ] && fratios[$b]+=" $(awk -v a="$tc" -v f="$fc" 'BEGIN {printf "%.2f", (f > 0 ? a / f : 0)}')"
				[ "$tr" -gt "${rss[$b]:-0}" ] && rss[$b]=$tr
			done
		done
		for b in "${!bins[@]}"; do
			# shellcheck disable=SC2086 # lists of numbers
			line=$(printf '%-10s %5s %-14s %-7s %6.2f %7.2f %6.2fx %8.2f %7.0f' "$label" "$size" "$(basename "${bins[$b]}")" "$mode" \
				"$(median "${cats[@]}")" "$(median ${tools[$b]})" "$(median ${ratios[$b]})" "$(median ${cpus[$b]})" "$((rss[$b] / 1024))")
			if [ -n "$floor" ]; then
				# shellcheck disable=SC2086 # lists of numbers
				line+=$(printf ' %8.2f %6.2fx' "$(median "${floors[@]}")" "$(median ${fratios[$b]})")
			fi
			echo "$line"
		done
		unset tools ratios cpus rss fratios
	done
done
speeds after
echo "load after: $(uptime | sed 's/.*load average: //')"
