#!/bin/sh
# browser-check.sh loads a report in headless Chromium, fails on any console
# message (a script error, a blocked or failed load, a Content-Security-Policy
# violation), and saves a screenshot of the page.
#
#   scripts/browser-check.sh [REPORT.html [SCREENSHOT.png]]
#
# Without REPORT it builds the report of testdata/example first. Chromium is
# installed from Debian's packages when it is missing. Set BROWSER_CHECK_SELFTEST=1
# to also check that a page with a script error is caught. The window is a
# laptop's, 1366x768; set BROWSER_CHECK_HEIGHT to see more of the page in
# one screenshot (the width stays).
set -eu

cd "$(dirname "$0")/.."
page=${1:-}
shot=${2:-browser-check.png}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -z "$page" ]; then
	page=$work/report.html
	go run ./cmd/ibreport build testdata/example -o "$page" 2>/dev/null
fi

browser=
for b in chromium chromium-browser google-chrome; do
	if command -v "$b" >/dev/null 2>&1; then browser=$b; break; fi
done
if [ -z "$browser" ]; then
	echo "browser-check: installing Debian's chromium" >&2
	sudo=
	[ "$(id -u)" = 0 ] || sudo=sudo
	$sudo apt-get update -qq >/dev/null
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
	browser=chromium
fi

# load PAGE SHOT LOG: render PAGE headless, write SHOT and the browser log.
load() {
	# The flags keep Chromium off the network and away from the user's profile.
	timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$work/profile" \
		--enable-logging=stderr --v=0 --hide-scrollbars \
		--window-size=1366,"${BROWSER_CHECK_HEIGHT:-768}" --screenshot="$2" \
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

if [ "${BROWSER_CHECK_SELFTEST:-}" = 1 ]; then
	printf '<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title></head><body><script>notDefined()</script></body></html>\n' >"$work/bad.html"
	load "$work/bad.html" "$work/bad.png" "$work/bad.log"
	n=$(check "$work/bad.log" "$work/bad.png")
	if [ "$n" -eq 0 ]; then
		echo "browser-check: self-test failed: a script error went unnoticed" >&2
		exit 1
	fi
	echo "browser-check: self-test ok (a script error gives $n console message)"
fi

load "$page" "$shot" "$work/page.log"
n=$(check "$work/page.log" "$shot")
if [ "$n" -ne 0 ]; then
	echo "browser-check: $page: $n console message(s):" >&2
	grep 'CONSOLE' "$work/page.log" >&2
	exit 1
fi
echo "browser-check: $page loaded with no console message; screenshot in $shot"
