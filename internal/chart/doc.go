// Package chart draws the charts of a report.Report as inline SVG with
// gonum/plot: horizontal bar charts (a row per DBMS or test, a panel per
// unit), line charts of per-interval series (decimated to the model's
// point limit, keeping spikes and dips), dashed reference and stall lines,
// at least five labelled ticks per value axis, and names too long for their
// place cut in the middle with the whole name in a tooltip.
//
// Render draws every chart of a report once; package render places the
// results in the HTML page. The text is set in Liberation Sans, whose
// metrics match the page's Arial and Helvetica, so labels measured here
// fit in the browser.
package chart
