// browser-check.js measures a report as Chromium lays it out. browser-check.sh
// injects it into a copy of the report (the report itself allows no script)
// and reads the findings back from the DOM that Chromium dumps: the text of
// a pre element, id browser-check-result, appended to the body, with a
// "stats" line, one line per failure and a last line "OK" or "FAIL n".
(function () {
	'use strict';

	// The first table must start this far above the bottom of the first
	// screen, so that its header and a row or two are visible.
	var tableMargin = 100;
	// Boxes that meet or share an antialiased edge are not an overlap.
	var tolerance = 1;

	function px(v) {
		return String(Math.round(v * 10) / 10);
	}

	function box(r) {
		return px(r.left) + ',' + px(r.top) + ' ' + px(r.width) + 'x' + px(r.height);
	}

	function label(s) {
		s = s.replace(/\s+/g, ' ').trim();
		if (s.length > 60) {
			s = s.slice(0, 57) + '...';
		}
		return JSON.stringify(s);
	}

	// shown reports whether el is drawn. The content of a closed <details>
	// keeps its boxes (its ::details-content is only content-visibility:
	// hidden), so boxes do not tell; checkVisibility does.
	function shown(el) {
		if (el.checkVisibility) {
			return el.checkVisibility();
		}
		return el.getClientRects().length > 0;
	}

	// firstTable checks that the first table of main displayed with every
	// <details> closed starts in the first screen and returns it and where
	// it starts (page coordinates, or "none").
	function firstTable(fails) {
		var all = document.querySelectorAll('main table');
		if (all.length === 0) {
			fails.push('table: there is no table in main');
			return { table: null, top: 'none' };
		}
		var t = null;
		for (var i = 0; i < all.length && !t; i++) {
			if (shown(all[i])) {
				t = all[i];
			}
		}
		if (!t) {
			fails.push('table: with every <details> closed no table of main is displayed');
			return { table: null, top: 'none' };
		}
		var top = t.getBoundingClientRect().top + window.scrollY;
		var limit = window.innerHeight - tableMargin;
		if (top > limit) {
			fails.push('table: with every <details> closed the first table in main starts at ' + px(top) +
				' px, below ' + px(limit) + ' px (window height ' + window.innerHeight + ' - ' + tableMargin + ')');
		}
		return { table: t, top: px(top) };
	}

	// pageWidth checks that the page does not scroll sideways, first with
	// the <details> as loaded, then with all of them open (a chart or table
	// in a closed <details> has no layout until the reader opens it; the
	// charts are then checked open too). It returns the larger width.
	function pageWidth(fails) {
		var loaded = document.documentElement.scrollWidth;
		var ds = document.querySelectorAll('details');
		for (var i = 0; i < ds.length; i++) {
			ds[i].open = true;
		}
		var open = document.documentElement.scrollWidth;
		var w = window.innerWidth;
		if (loaded > w) {
			fails.push('width: the page is ' + loaded + ' px wide, wider than the ' + w + ' px window');
		} else if (open > w) {
			fails.push('width: with all <details> open the page is ' + open + ' px wide, wider than the ' +
				w + ' px window');
		}
		return Math.max(loaded, open);
	}

	// svgTexts checks that no two text boxes of one svg overlap and that no
	// text passes the edge of its svg, which hides what is beyond it; it
	// returns the number of texts, of overlaps and of texts clipped.
	function svgTexts(fails) {
		var svgs = document.querySelectorAll('svg');
		var texts = 0, overlaps = 0, clipped = 0;
		for (var k = 0; k < svgs.length; k++) {
			var svg = svgs[k];
			var fig = svg.closest('figure');
			var name = fig && fig.id ? fig.id : 'svg ' + (k + 1);
			var edge = svg.getBoundingClientRect();
			var boxes = [];
			var els = svg.querySelectorAll('text');
			for (var i = 0; i < els.length; i++) {
				var t = els[i];
				// A nested svg is checked on its own; a <title> is not drawn.
				if (t.closest('svg') !== svg || t.closest('title')) {
					continue;
				}
				var s = t.textContent;
				if (s.trim() === '') {
					continue;
				}
				var r = t.getBoundingClientRect();
				// Text that is not drawn (in <defs>, hidden) has no box.
				if (r.width === 0 && r.height === 0) {
					continue;
				}
				boxes.push({ s: s, r: r });
				if (r.left < edge.left - tolerance || r.right > edge.right + tolerance ||
					r.top < edge.top - tolerance || r.bottom > edge.bottom + tolerance) {
					clipped++;
					fails.push('clip: ' + name + ': ' + label(s) + ' at ' + box(r) + ' passes the edge of its chart at ' + box(edge));
				}
			}
			texts += boxes.length;
			// Sorted by left edge, a box can only overlap the boxes that
			// start before its right edge.
			boxes.sort(function (a, b) { return a.r.left - b.r.left; });
			for (i = 0; i < boxes.length; i++) {
				var a = boxes[i].r;
				for (var j = i + 1; j < boxes.length && boxes[j].r.left < a.right - tolerance; j++) {
					var b = boxes[j].r;
					var w = Math.min(a.right, b.right) - b.left;
					var h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
					if (w > tolerance && h > tolerance) {
						overlaps++;
						fails.push('overlap: ' + name + ': ' + label(boxes[i].s) + ' at ' + box(a) +
							' and ' + label(boxes[j].s) + ' at ' + box(b));
					}
				}
			}
		}
		return { svgs: svgs.length, texts: texts, overlaps: overlaps, clipped: clipped };
	}

	// budgets reads the limits browser-check.sh put in the page's
	// data-check-* attributes of <html> (none: no limit).
	function budget(name) {
		var v = document.documentElement.getAttribute('data-check-' + name);
		return v === null || v === '' ? null : Number(v);
	}

	// screens checks the page's height with every <details> closed, in
	// screens of the window's height, against the budget, and returns it.
	function screens(fails) {
		var ds = document.querySelectorAll('details');
		var open = 0;
		for (var i = 0; i < ds.length; i++) {
			if (ds[i].open) {
				open++;
			}
			ds[i].open = false;
		}
		var h = document.documentElement.scrollHeight;
		var n = h / window.innerHeight;
		var max = budget('screens');
		if (max !== null && n > max) {
			fails.push('screens: with all ' + ds.length + ' <details> closed the page is ' + h + ' px high, ' +
				(Math.round(n * 10) / 10) + ' screens of ' + window.innerHeight + ' px, more than ' + max);
		}
		return { height: h, screens: Math.round(n * 10) / 10, details: ds.length, open: open };
	}

	// findingsBeforeTable checks that the text of <main> before its first
	// displayed table t (the title, setup and findings) stays within the
	// budget of characters, and returns its length.
	function findingsBeforeTable(fails, t) {
		var main = document.querySelector('main');
		if (!main || !t) {
			return -1;
		}
		var r = document.createRange();
		r.setStart(main, 0);
		r.setEndBefore(t);
		// Text in a closed <details> is not on the screen: drop it.
		var frag = r.cloneContents();
		var closed = frag.querySelectorAll('details:not([open])');
		for (var i = 0; i < closed.length; i++) {
			var keep = closed[i].querySelector('summary');
			closed[i].textContent = keep ? keep.textContent : '';
		}
		var n = frag.textContent.replace(/\s+/g, ' ').trim().length;
		var max = budget('before-table');
		if (max !== null && n > max) {
			fails.push('findings: ' + n + ' characters of text before the first table of main, more than ' + max);
		}
		return n;
	}

	// dataTables counts the tables of main, not their printed parts.
	function dataTables() {
		return document.querySelectorAll('main table').length -
			document.querySelectorAll('main div.print table').length;
	}


	// cellTexts is the multiset of the texts of the data cells of tables.
	function cellTexts(tables) {
		var m = {};
		for (var i = 0; i < tables.length; i++) {
			var tds = tables[i].querySelectorAll('td');
			for (var j = 0; j < tds.length; j++) {
				var s = tds[j].textContent.replace(/\s+/g, ' ').trim();
				m[s] = (m[s] || 0) + 1;
			}
		}
		return m;
	}

	// printed measures the page as printed: browser-check.sh turned its
	// print rules into rules for every medium and sized the window to the
	// width a page leaves between its margins. Every table must be
	// displayed and within that width, or be hidden with parts that are
	// (a div.print after its box) and hold all its data cells; every chart
	// must be displayed and within the width.
	function printed(fails) {
		var w = document.documentElement.clientWidth;
		var tables = document.querySelectorAll('main table');
		var columns = 0, cut = 0, split = 0, parts = 0, whole = 0;
		for (var i = 0; i < tables.length; i++) {
			var t = tables[i];
			if (t.closest('div.print')) {
				continue;
			}
			var head = t.rows.length ? t.rows[0].cells : [];
			columns += head.length;
			var name = t.id || 'table ' + (i + 1);
			if (shown(t)) {
				whole++;
				var n = 0;
				for (var j = 0; j < head.length; j++) {
					if (head[j].getBoundingClientRect().right > w + tolerance) {
						n++;
					}
				}
				if (n > 0) {
					cut += n;
					fails.push('print: ' + name + ': ' + n + ' of ' + head.length + ' columns pass the ' + w + ' px of a page');
				}
				continue;
			}
			var box = t.closest('div.scroll');
			var next = box ? box.nextElementSibling : null;
			var ps = next && next.matches('div.print') ? next.querySelectorAll('table') : [];
			var ok = ps.length > 0;
			for (j = 0; j < ps.length; j++) {
				if (!shown(ps[j])) {
					ok = false;
				} else if (ps[j].getBoundingClientRect().right > w + tolerance) {
					ok = false;
					fails.push('print: ' + name + ': part ' + (j + 1) + ' passes the ' + w + ' px of a page');
				}
			}
			if (!ok) {
				cut += head.length;
				fails.push('print: ' + name + ' (' + head.length + ' columns) is not printed' +
					(ps.length ? ' whole in its parts' : ''));
				continue;
			}
			var want = cellTexts([t]), have = cellTexts(ps);
			for (var s in want) {
				if ((have[s] || 0) < want[s]) {
					ok = false;
					fails.push('print: ' + name + ': its parts hold ' + (have[s] || 0) + ' cells ' +
						JSON.stringify(s) + ', the table ' + want[s]);
					break;
				}
			}
			if (ok) {
				split++;
				parts += ps.length;
			} else {
				cut += head.length;
			}
		}
		var figs = document.querySelectorAll('main figure');
		var figsShown = 0;
		for (i = 0; i < figs.length; i++) {
			var f = figs[i];
			if (!shown(f)) {
				fails.push('print: chart ' + (f.id || i + 1) + ' is not printed');
			} else if (f.getBoundingClientRect().right > w + tolerance) {
				fails.push('print: chart ' + (f.id || i + 1) + ' passes the ' + w + ' px of a page');
			} else {
				figsShown++;
			}
		}
		return 'stats print-width=' + w + ' tables=' + dataTables() +
			' whole=' + whole + ' split=' + split + ' parts=' + parts + ' columns=' + columns + ' cut=' + cut +
			' figures=' + figs.length + ' figures-printed=' + figsShown;
	}

	// accessibility runs axe-core, when browser-check.sh injected it, and
	// adds its violations.
	function accessibility(fails) {
		if (!window.axe) {
			return Promise.resolve('axe=none');
		}
		return window.axe.run(document, { resultTypes: ['violations'] }).then(function (r) {
			var n = 0;
			for (var i = 0; i < r.violations.length; i++) {
				var v = r.violations[i];
				n += v.nodes.length;
				var where = v.nodes.slice(0, 3).map(function (x) { return x.target.join(' '); }).join('; ');
				fails.push('axe: ' + v.id + ' (' + v.impact + '): ' + v.nodes.length + ' element(s): ' + where);
			}
			return 'axe=' + window.axe.version + ' axe-violations=' + n;
		});
	}

	function finish(fails, stats) {
		var pre = document.createElement('pre');
		pre.id = 'browser-check-result';
		pre.textContent = (stats ? stats + '\n' : '') + fails.join('\n') + (fails.length ? '\n' : '') +
			(fails.length ? 'FAIL ' + fails.length : 'OK') + '\n';
		document.body.appendChild(pre);
	}

	function measure() {
		var fails = [];
		if (budget('print') !== null) {
			var stats = '';
			try {
				stats = printed(fails);
			} catch (e) {
				fails.push('error: the measurement failed: ' + e);
			}
			finish(fails, stats);
			return;
		}
		// axe-core sees the page as loaded, as a reader does; the other
		// checks then open and close the <details>.
		accessibility(fails).then(function (a) {
			finish(fails, screen(fails) + ' ' + a);
		}, function (e) {
			fails.push('error: axe failed: ' + e);
			finish(fails, screen(fails));
		});
	}

	// screen runs the checks of the page on the screen and returns their
	// stats line.
	function screen(fails) {
		try {
			// The screens are measured first: they close every <details>,
			// as the first screen is then measured.
			var s = screens(fails);
			var first = firstTable(fails);
			var before = findingsBeforeTable(fails, first.table);
			var w = pageWidth(fails);
			var t = svgTexts(fails);
			return 'stats viewport=' + window.innerWidth + 'x' + window.innerHeight +
				' table-top=' + first.top + ' table-limit=' + (window.innerHeight - tableMargin) +
				' scroll-width=' + w + ' svgs=' + t.svgs +
				' texts=' + t.texts + ' overlaps=' + t.overlaps + ' clipped=' + t.clipped +
				' height=' + s.height + ' screens=' + s.screens + ' details=' + s.details +
				' details-open=' + s.open + ' before-table=' + before +
				' tables=' + dataTables();
		} catch (e) {
			fails.push('error: the measurement failed: ' + e);
			return '';
		}
	}

	// Measure once the page and its fonts are loaded: text boxes depend on
	// the font.
	window.addEventListener('load', function () {
		var ready = document.fonts ? document.fonts.ready : Promise.resolve();
		ready.then(measure, measure);
	});
})();
