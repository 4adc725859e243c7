package textfmt

// formatAliases are the other spellings of output formats every command
// accepts.
var formatAliases = map[string]string{"markdown": "md", "txt": "text"}

// FormatName returns the name of an output format as the commands and the
// writers know it: "markdown" is "md" and "txt" is "text"; any other name
// is returned as it is, for the writer to accept or refuse. It is the one
// place format names are spelled, so build, series, tables and diff take
// the same names.
func FormatName(s string) string {
	if c, ok := formatAliases[s]; ok {
		return c
	}
	return s
}
