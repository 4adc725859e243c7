#!/bin/sh
# browser-check.sh loads reports in headless Chromium and fails unless, for
# each report:
#   - the page logs no console message (a script error, a blocked or failed
#     load, a Content-Security-Policy violation);
#   - with every <details> closed, the first table of <main> that is
#     displayed starts at least 100 px above the bottom of a 1366x768
#     window, so that its header and a row or two are on the first screen;
#   - the page does not scroll sideways in that window (a table may scroll in
#     its own box);
#   - no two text boxes of one SVG chart overlap (by more than 1 px each way)
#     and no text passes the edge of its chart, which would hide its ends;
#   - with every <details> closed, the page is no higher than its budget of
#     768 px screens: 15 for the nine MySQL releases, 20 for testdata/example,
#     the PostgreSQL series and configs and the archive BROWSER_CHECK_ARCHIVE
#     names;
#   - on the nine MySQL releases, the PostgreSQL series and configs and that
#     archive, the text above the first table (title, setup, story) is at
#     most 1,500 characters;
#   - axe-core, run with every <details> open, finds no violation;
#   - printed: every table and chart is printed, folded or not, and no
#     column passes the width of an A4 page between its margins (measured
#     with the page's print rules applied in a window of that width: a
#     table too wide is printed as parts that must hold all its cells); and
#     the PDF that Chromium prints holds the title of every table.
# It also saves a screenshot of each report and its PDF.
#
#   scripts/browser-check.sh REPORT.html [SCREENSHOT.png]
#   scripts/browser-check.sh
#
# With REPORT, set BROWSER_CHECK_SCREENS and BROWSER_CHECK_BEFORE to give it
# the budgets of screens and of characters before its first table.
#
# Without REPORT it builds and checks the reports of testdata/example,
# testdata/longnames (when present), testdata/sysbench/raw, the nine
# MySQL releases of testdata/arc/nov25.sb.mysql/dop1, the client-count
# sweep of testdata/sweep/ibench, the series of thirteen PostgreSQL
# releases of testdata/arc/nov25.sb.pg/dop40 (build --series), its fifteen
# builds of four configs (build: a release axis per config group), the
# eleven MariaDB releases kept as summary tables only
# (testdata/arc/apr26.pn53.sb.ma.latin), the same four MySQL builds on
# four hosts compared (testdata/arc/dec25.sb.80plus), the
# insert benchmark's archive testdata/arc/ibench.jan2021/100m/res.a (its
# four MySQL releases told as a story; 25 screens, 1,500 characters) and, when
# BROWSER_CHECK_ARCHIVE names one, a large archive kept outside the
# repository (such as the 35 builds of bench/arc/nov25.maria.sb/hetz.2 of
# mdcallag/mytools), with screenshots browser-check-NAME.png and PDFs
# browser-check-NAME.pdf in the current directory, and fails if any of them
# fails. Chromium and pdftotext (poppler-utils) are installed from Debian's
# packages when missing; axe-core, of the version pinned below, with npm
# into BROWSER_CHECK_CACHE (default ~/.cache/ibreport-browser-check); without
# npm the axe check is skipped with a note. Set BROWSER_CHECK_SELFTEST=1 to
# first check that the checks catch what they should, on small pages. The
# window is a laptop's, 1366x768; set BROWSER_CHECK_HEIGHT to see more of
# the page in one screenshot (the width stays, and the geometry is measured
# at 768 px whatever the screenshot).
#
# The report allows no script, so the geometry is measured on a copy of it
# without its Content-Security-Policy and with axe-core and
# scripts/browser-check.js added; that script writes its findings into the
# page, which Chromium dumps. The console is checked, and the PDF printed,
# on the report itself, with its policy.
set -eu

here=$(pwd)
# abs PATH: PATH relative to the directory the script was started in.
abs() {
	case $1 in
	/*) printf '%s\n' "$1" ;;
	*) printf '%s\n' "$here/$1" ;;
	esac
}
page=
shot=
if [ $# -gt 0 ]; then
	page=$(abs "$1")
	shot=$(abs "${2:-browser-check.png}")
fi

cd "$(dirname "$0")/.."
js=$(pwd)/scripts/browser-check.js
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The geometry window.
width=1366
height=768

browser=
for b in chromium chromium-browser google-chrome; do
	if command -v "$b" >/dev/null 2>&1; then browser=$b; break; fi
done
# debian PACKAGE: install a Debian package.
debian() {
	echo "browser-check: installing Debian's $1" >&2
	sudo=
	[ "$(id -u)" = 0 ] || sudo=sudo
	$sudo apt-get update -qq >/dev/null
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$1" >/dev/null
}
if [ -z "$browser" ]; then
	debian chromium
	browser=chromium
fi
command -v pdftotext >/dev/null 2>&1 || debian poppler-utils

# axe-core, pinned: a new version may add rules, which is a change to make
# on purpose.
axe_version=4.10.2
axe=
cache=${BROWSER_CHECK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ibreport-browser-check}
if [ -s "$cache/axe-core-$axe_version/node_modules/axe-core/axe.min.js" ]; then
	axe=$cache/axe-core-$axe_version/node_modules/axe-core/axe.min.js
elif command -v npm >/dev/null 2>&1; then
	mkdir -p "$cache/axe-core-$axe_version"
	if ! npm install --silent --no-audit --no-fund --no-save --prefix "$cache/axe-core-$axe_version" \
		"axe-core@$axe_version" >"$work/npm.log" 2>&1; then
		cat "$work/npm.log" >&2
		echo "browser-check: FAIL: npm could not install axe-core@$axe_version" >&2
		exit 1
	fi
	axe=$cache/axe-core-$axe_version/node_modules/axe-core/axe.min.js
else
	echo "browser-check: note: no npm, so axe-core is not run" >&2
fi

# run ARGS...: headless Chromium, stopped after $limit seconds. The flags keep it off the network and away
# from the user's profile.
run() {
	timeout "${limit:-120}" "$browser" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$work/profile" --hide-scrollbars "$@"
}

# load PAGE SHOT LOG: render PAGE headless, write SHOT and the browser log.
load() {
	run --enable-logging=stderr --v=0 \
		--window-size="$width,${BROWSER_CHECK_HEIGHT:-$height}" --screenshot="$2" \
		"file://$(realpath "$1")" >"$3" 2>&1 || true
}

# check LOG SHOT: the number of console messages; fails without a screenshot.
check() {
	if [ ! -s "$2" ]; then
		echo "browser-check: no screenshot written; browser log:" >&2
		tail -20 "$1" >&2
		return 2
	fi
	grep -c 'CONSOLE' "$1" || true
}

# instrument PAGE COPY: write COPY, PAGE without its Content-Security-Policy
# and with axe-core (when there is one) and browser-check.js run last in its
# body.
instrument() {
	# The page is read as one string (RS is a character HTML does not use),
	# so that a tag may span lines; names are matched in any case, as HTML
	# does.
	awk -v js="$js" -v axe="$axe" '
		BEGIN { RS = "\001" }
		{ doc = doc (NR > 1 ? RS : "") $0 }
		END {
			# Drop the <meta> of the policy, and only it.
			out = ""; rest = doc
			while ((i = index(tolower(rest), "<meta")) > 0) {
				j = index(substr(rest, i), ">")
				if (j == 0) break
				if (index(tolower(substr(rest, i, j)), "content-security-policy"))
					out = out substr(rest, 1, i - 1)
				else
					out = out substr(rest, 1, i + j - 1)
				rest = substr(rest, i + j)
			}
			out = out rest
			# The script goes before the last </body>; without one, at the
			# end, where HTML puts it in the body all the same.
			low = tolower(out); at = 0
			while ((i = index(substr(low, at + 1), "</body>")) > 0) at += i
			if (at == 0) at = length(out) + 1
			printf "%s\n", substr(out, 1, at - 1)
			if (axe != "") {
				printf "<script>\n"
				while ((getline l < axe) > 0) printf "%s", l
				printf "\n</script>\n"
			}
			printf "<script>\n"
			while ((getline l < js) > 0) printf "%s", l
			printf "</script>\n%s", substr(out, at)
		}' "$1" >"$2"
	if grep -i 'http-equiv=["'\'']\{0,1\}content-security-policy' "$2" >/dev/null; then
		echo "browser-check: could not remove the Content-Security-Policy of $1" >&2
		return 1
	fi
}

# Budgets of the report being checked, empty for none: its height in
# screens of $height px with every <details> closed, and the characters of
# text above its first table. They reach browser-check.js as data-check-*
# attributes of the copy's <html>.
screens=
before=

# measure PAGE OUT: run browser-check.js on PAGE in the geometry window and
# write its findings to OUT (empty when it did not run).
measure() {
	instrument "$1" "$work/measured.html" || { : >"$2"; return 0; }
	sed -i "0,/<html/s//<html data-check-screens=\"$screens\" data-check-before-table=\"$before\"/" "$work/measured.html"
	# The virtual time budget lets the load event and the fonts settle
	# (and axe-core run) before the DOM is dumped, without waiting in real
	# time.
	# axe-core takes minutes on a large report.
	limit=900 run --window-size="$width,$((height + frame))" --virtual-time-budget=30000 \
		--dump-dom "file://$work/measured.html" >"$work/dom.html" 2>"$work/dom.log" || true
	# The findings are the text of the <pre> the script appended last to
	# the body: take it out of the markup and undo the escapes of its
	# serialization.
	awk -v start='<pre id="browser-check-result">' '
		(i = index($0, start)) { on = 1; buf = ""; $0 = substr($0, i + length(start)) }
		on && (i = index($0, "</pre>")) { found = buf substr($0, 1, i - 1); on = 0 }
		on { buf = buf $0 "\n" }
		END { printf "%s", found }' "$work/dom.html" |
		sed 's/&lt;/</g; s/&gt;/>/g; s/&nbsp;/ /g; s/&amp;/\&/g' >"$2"
}

# The width of the printed page between its margins: A4 (210 mm, 794 px at
# 96 px an inch) less the report's print margins of 1 cm each side. Letter
# paper is wider.
pagewidth=718

# measureprint PAGE OUT: as measure, with the page's print rules applied in
# a window as wide as a printed page: its "@media print" become "@media
# all" in the copy.
measureprint() {
	axe_was=$axe
	axe=
	instrument "$1" "$work/printed.html" || { axe=$axe_was; : >"$2"; return 0; }
	axe=$axe_was
	sed -i -e "0,/<html/s//<html data-check-print=\"1\"/" -e 's/@media print/@media all/g' "$work/printed.html"
	run --window-size="$pagewidth,$((height + frame))" --virtual-time-budget=10000 \
		--dump-dom "file://$work/printed.html" >"$work/pdom.html" 2>"$work/dom.log" || true
	awk -v start='<pre id="browser-check-result">' '
		(i = index($0, start)) { on = 1; buf = ""; $0 = substr($0, i + length(start)) }
		on && (i = index($0, "</pre>")) { found = buf substr($0, 1, i - 1); on = 0 }
		on { buf = buf $0 "\n" }
		END { printf "%s", found }' "$work/pdom.html" |
		sed 's/&lt;/</g; s/&gt;/>/g; s/&nbsp;/ /g; s/&amp;/\&/g' >"$2"
}

# printpdf NAME PAGE PDF: print PAGE to PDF (A4, the report's margins) and
# check that the PDF holds the title of every table of PAGE; print one line
# of what was found.
printpdf() {
	rm -f "$3"
	run --no-pdf-header-footer --print-to-pdf="$3" "file://$(realpath "$2")" >"$work/pdf.log" 2>&1 || true
	if [ ! -s "$3" ]; then
		echo "browser-check: $1: FAIL: Chromium printed no PDF; browser log:" >&2
		tail -20 "$work/pdf.log" >&2
		return 1
	fi
	pdftotext "$3" - | tr -d ' \t\n\f' >"$work/pdf.txt"
	pages=$(pdfinfo "$3" 2>/dev/null | sed -n 's/^Pages: *//p')
	# The titles, as text: tags and spaces out, the escapes of
	# html/template undone.
	sed -n 's/.*<h3 id="[^"]*">\(.*\)<\/h3>.*/\1/p' "$2" |
		sed 's/<[^>]*>//g; s/&lt;/</g; s/&gt;/>/g; s/&#34;/"/g; s/&#39;/'\''/g; s/&#43;/+/g; s/&quot;/"/g; s/&amp;/\&/g' |
		tr -d ' \t' >"$work/titles.txt"
	titles=$(wc -l <"$work/titles.txt")
	missing=0
	while IFS= read -r t; do
		if ! grep -qF -- "$t" "$work/pdf.txt"; then
			missing=$((missing + 1))
			[ "$missing" -gt 5 ] || echo "browser-check:   pdf: no table titled $t in $3" >&2
		fi
	done <"$work/titles.txt"
	echo "browser-check: $1: PDF of $pages pages holds $((titles - missing)) of $titles table titles; $3"
	[ "$missing" -eq 0 ]
}

# figure FINDINGS NAME: the figure NAME of the stats line, or "?".
figure() {
	v=$(sed -n "s/^stats.* $2=\([^ ]*\).*/\1/p" "$1")
	echo "${v:-?}"
}

# Chromium's headless window keeps part of its height for browser chrome
# that is not drawn when it dumps the DOM (but not when it takes a
# screenshot): measure that part once on an empty page, so the page itself
# gets 768 px.
frame=0
printf '<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title></head><body></body></html>\n' >"$work/empty.html"
measure "$work/empty.html" "$work/empty.txt"
vh=$(figure "$work/empty.txt" viewport | sed -n 's/^[0-9]*x\([0-9]*\)$/\1/p')
if [ -z "$vh" ]; then
	echo "browser-check: the measurement script did not run; browser log:" >&2
	tail -20 "$work/dom.log" >&2
	exit 2
fi
frame=$((height - vh))

# verdict FINDINGS: whether the findings say the page passed in the
# geometry window, with the failures on stderr.
verdict() {
	if [ ! -s "$1" ]; then
		echo "browser-check: the measurement script wrote no result; browser log:" >&2
		tail -20 "$work/dom.log" >&2
		return 1
	fi
	grep -v -e '^stats ' -e '^OK$' -e '^FAIL [0-9]*$' "$1" | sed 's/^/browser-check:   /' >&2 || true
	ok=0
	if [ "$(figure "$1" viewport)" != "${width}x$height" ]; then
		echo "browser-check:   viewport: measured in a $(figure "$1" viewport) window, not ${width}x$height" >&2
		ok=1
	fi
	[ "$(tail -1 "$1")" = OK ] || ok=1
	return $ok
}

# report NAME PAGE SHOT: check PAGE on the screen and printed, print one
# line of what was measured each and fail if a check does.
report() {
	load "$2" "$3" "$work/page.log"
	if ! n=$(check "$work/page.log" "$3"); then
		echo "browser-check: $1: FAIL: Chromium did not render $2"
		return 1
	fi
	if [ "$n" -ne 0 ]; then
		echo "browser-check:   $n console message(s):" >&2
		grep 'CONSOLE' "$work/page.log" | sed 's/^/browser-check:   /' >&2
	fi
	measure "$2" "$work/$1.txt"
	result=ok
	verdict "$work/$1.txt" || result=FAIL
	[ "$n" -eq 0 ] || result=FAIL
	f=$work/$1.txt
	echo "browser-check: $1: $result: $(figure "$f" height) px high with $(figure "$f" details) <details> closed, $(figure "$f" screens) screens (limit ${screens:-none}), $(figure "$f" tables) tables, $(figure "$f" before-table) characters before the first table (limit ${before:-none}); first table top $(figure "$f" table-top) px (limit $(figure "$f" table-limit)), scrollWidth $(figure "$f" scroll-width) px (window $width), $(figure "$f" texts) svg texts in $(figure "$f" svgs) svgs, $(figure "$f" overlaps) overlaps, $(figure "$f" clipped) clipped, $n console messages, axe-core $(figure "$f" axe): $(figure "$f" axe-violations) violations; screenshot $3"
	p=$work/$1.print.txt
	measureprint "$2" "$p"
	presult=ok
	if [ ! -s "$p" ]; then
		echo "browser-check: the print measurement wrote no result; browser log:" >&2
		tail -20 "$work/dom.log" >&2
		presult=FAIL
	else
		grep -v -e '^stats ' -e '^OK$' -e '^FAIL [0-9]*$' "$p" | sed 's/^/browser-check:   /' >&2 || true
		[ "$(tail -1 "$p")" = OK ] || presult=FAIL
	fi
	echo "browser-check: $1: print: $presult: $(figure "$p" tables) tables ($(figure "$p" whole) whole, $(figure "$p" split) split in $(figure "$p" parts) parts), $(figure "$p" cut) of $(figure "$p" columns) columns cut at $(figure "$p" print-width) px, $(figure "$p" figures-printed) of $(figure "$p" figures) charts printed"
	printpdf "$1" "$2" "${3%.png}.pdf" || presult=FAIL
	[ "$result" = ok ] && [ "$presult" = ok ]
}

if [ "${BROWSER_CHECK_SELFTEST:-}" = 1 ]; then
	pre='<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src '\''none'\''; style-src '\''unsafe-inline'\''"><title>t</title></head><body><main><h1>t</h1>'
	table='<table><tr><th>dbms</th></tr><tr><td>1</td></tr></table>'
	post='</main></body></html>'

	printf '<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title></head><body><script>notDefined()</script></body></html>\n' >"$work/bad.html"
	load "$work/bad.html" "$work/bad.png" "$work/bad.log"
	n=$(check "$work/bad.log" "$work/bad.png")
	if [ "$n" -eq 0 ]; then
		echo "browser-check: self-test failed: a script error went unnoticed" >&2
		exit 1
	fi
	echo "browser-check: self-test: a script error gives $n console message"

	# Each page must fail with only the failures of its check.
	printf '%s<div style="height:800px"></div>%s%s\n' "$pre" "$table" "$post" >"$work/table.html"
	printf '%s%s<div style="width:2000px">wide</div>%s\n' "$pre" "$table" "$post" >"$work/width.html"
	printf '%s%s<figure id="f"><svg width="200" height="50"><text x="10" y="20">first</text><text x="16" y="24">second</text></svg></figure>%s\n' \
		"$pre" "$table" "$post" >"$work/overlap.html"
	# A title wider than its chart, centred: cut at both edges.
	printf '%s%s<figure id="f"><svg width="200" height="50"><text x="100" y="20" text-anchor="middle">a title far too long for a chart only two hundred pixels wide</text></svg></figure>%s\n' \
		"$pre" "$table" "$post" >"$work/clip.html"
	# A box that scrolls and takes no focus, as the heat table's did:
	# axe-core's scrollable-region-focusable.
	rows=$(printf '<tr><td>%s</td></tr>' $(seq 30))
	printf '%s%s<div style="overflow:auto;max-height:100px"><table>%s</table></div>%s\n' "$pre" "$table" "$rows" "$post" >"$work/axe.html"
	cases="table width overlap clip"
	[ -z "$axe" ] || cases="$cases axe"
	for c in $cases; do
		measure "$work/$c.html" "$work/$c.txt"
		if [ "$(tail -1 "$work/$c.txt")" = OK ] || [ ! -s "$work/$c.txt" ] ||
			grep -v -e '^stats ' -e '^FAIL [0-9]*$' -e "^$c: " "$work/$c.txt" >/dev/null; then
			echo "browser-check: self-test failed: the page made to fail the $c check gave:" >&2
			cat "$work/$c.txt" >&2
			exit 1
		fi
		echo "browser-check: self-test: $(grep "^$c: " "$work/$c.txt")"
	done

	# The budgets: a page of 3 screens with a budget of 2, and 200
	# characters before the first table with a budget of 100; the text in
	# a closed <details> does not count.
	printf '%s%s<div style="height:2000px"></div>%s\n' "$pre" "$table" "$post" >"$work/screens.html"
	words=$(printf 'abcd %.0s' $(seq 40))
	printf '%s<p>%s</p><details><summary>s</summary>%s%s</details>%s%s\n' "$pre" "$words" "$words" "$words" "$table" "$post" >"$work/findings.html"
	for c in screens findings; do
		screens=2 before=100
		measure "$work/$c.html" "$work/$c.txt"
		screens= before=
		if [ "$(tail -1 "$work/$c.txt")" = OK ] || [ ! -s "$work/$c.txt" ] ||
			grep -v -e '^stats ' -e '^FAIL [0-9]*$' -e "^$c: " "$work/$c.txt" >/dev/null; then
			echo "browser-check: self-test failed: the page made to fail the $c check gave:" >&2
			cat "$work/$c.txt" >&2
			exit 1
		fi
		echo "browser-check: self-test: $(grep "^$c: " "$work/$c.txt")"
	done

	# A page that must pass: a wide table in its own scrolling box, and an
	# svg with two texts apart, plus a blank text and a <title> text on top
	# of the first, which do not count.
	printf '%s%s<div style="overflow-x:auto" role="region" tabindex="0" aria-label="wide"><table><tr><td style="width:3000px">wide</td></tr></table></div><figure><svg width="200" height="50"><title><text x="10" y="20">title</text></title><text x="10" y="20">first</text><text x="10" y="20"> </text><text x="100" y="20">second</text></svg></figure>%s\n' \
		"$pre" "$table" "$post" >"$work/good.html"
	load "$work/good.html" "$work/good.png" "$work/good.log"
	n=$(check "$work/good.log" "$work/good.png")
	measure "$work/good.html" "$work/good.txt"
	if [ "$n" -ne 0 ] || [ "$(tail -1 "$work/good.txt")" != OK ] || [ "$(figure "$work/good.txt" texts)" != 2 ]; then
		echo "browser-check: self-test failed: the page made to pass gave $n console message(s) and:" >&2
		cat "$work/good.txt" >&2
		exit 1
	fi
	echo "browser-check: self-test ok"
fi

if [ -n "$page" ]; then
	screens=${BROWSER_CHECK_SCREENS:-} before=${BROWSER_CHECK_BEFORE:-}
	report "$(basename "$page" .html)" "$page" "$shot"
	exit
fi

# Build once, then each report.
if ! go build -o "$work/ibreport" ./cmd/ibreport; then
	echo "browser-check: FAIL: go build ./cmd/ibreport failed; no report checked"
	exit 1
fi
failed=0
for t in example:testdata/example longnames:testdata/longnames sysbench:testdata/sysbench/raw \
	archive:testdata/arc/nov25.sb.mysql/dop1 sweep:testdata/sweep/ibench series:testdata/arc/nov25.sb.pg/dop40 \
	configs:testdata/arc/nov25.sb.pg/dop40 ibstory:testdata/arc/ibench.jan2021/100m/res.a \
	summary:testdata/arc/apr26.pn53.sb.ma.latin hosts:testdata/arc/dec25.sb.80plus \
	"big:${BROWSER_CHECK_ARCHIVE:-}"; do
	name=${t%%:*}
	dir=${t#*:}
	[ "$name" != big ] || [ -z "$dir" ] || dir=$(abs "$dir")
	args=
	case $name in
	archive) screens=15 before=1500 ;;
	series | configs | summary | hosts | big) screens=20 before=1500 ;;
	ibstory) screens=25 before=1500 ;;
	example) screens=20 before= ;;
	*) screens= before= ;;
	esac
	if [ "$name" = series ]; then
		args="--series --dbms $dir.series"
	fi
	if [ "$name" = big ] && [ -z "$dir" ]; then
		echo "browser-check: big: skipped, BROWSER_CHECK_ARCHIVE names no archive (such as bench/arc/nov25.maria.sb/hetz.2 of mdcallag/mytools)"
		continue
	fi
	if [ ! -d "$dir" ]; then
		echo "browser-check: $name: skipped, there is no $dir"
		continue
	fi
	# shellcheck disable=SC2086 # args are words
	if ! "$work/ibreport" build $args "$dir" -o "$work/$name.html" 2>"$work/$name.build"; then
		cat "$work/$name.build" >&2
		echo "browser-check: $name: FAIL: ibreport build $dir failed"
		failed=$((failed + 1))
		continue
	fi
	report "$name" "$work/$name.html" "$here/browser-check-$name.png" || failed=$((failed + 1))
done
if [ "$failed" -ne 0 ]; then
	echo "browser-check: $failed report(s) failed"
	exit 1
fi
