package chart

import "unicode"

// The page sets chart text in this list: Liberation Sans has the metrics of
// Arial and Helvetica, so a browser with any of them draws text of the
// widths the layout measured.
const chartFontFamily = "Liberation Sans,Arial,Helvetica,sans-serif"

// Vertical metrics of Liberation Sans (hhea ascender 1854 and descender
// 434 of 2048 units per em).
const (
	ascent  = 1854.0 / 2048
	descent = 434.0 / 2048
)

// textHeight is the height of a line of text of the given size.
func textHeight(size float64) float64 { return (ascent + descent) * size }

// advance is the width of r in thousandths of an em: from the table of
// Liberation Sans (widths.go) where it has the rune, else an em for the
// wide East Asian scripts and 0.6 em for the rest, wider than most Latin
// letters, so that a label of unknown letters is cut rather than overlap.
func advance(r rune) float64 {
	if r >= 0x20 && r < 0x100 {
		if a := latinAdvance[r-0x20]; a > 0 {
			return float64(a)
		}
	} else if a, ok := extraAdvance[r]; ok {
		return float64(a)
	}
	if wide(r) {
		return 1000
	}
	return 600
}

// wide reports whether r is of a script whose letters are an em wide.
func wide(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) ||
		r >= 0x3000 && r <= 0x303f || // CJK punctuation
		r >= 0xff00 && r <= 0xff60 // full-width forms
}

// textWidth is the width of s set at size points, without kerning (which
// only narrows it).
func textWidth(size float64, s string) float64 {
	w := 0.0
	for _, r := range s {
		w += advance(r)
	}
	return w * size / 1000
}

// TextWidth is the width in px of s set in the page's font (Liberation
// Sans metrics) at size px: package render uses it to tell which tables fit
// a printed page.
func TextWidth(size float64, s string) float64 { return textWidth(size, s) }
