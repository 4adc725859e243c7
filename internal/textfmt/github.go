package textfmt

import "strings"

// GitHubEscape escapes the message of a GitHub Actions workflow command
// (::error title=…::message): a newline would end the command, and the
// runner obeys the legacy form ##[command] anywhere in a line, so its
// "##[" is written "#%23[" (a file of annotations is safe to cat in a
// step too).
func GitHubEscape(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", "##[", "#%23[").Replace(s)
}

// GitHubProp escapes a property of a workflow command (title=, file=):
// also the characters that separate properties.
func GitHubProp(s string) string {
	return strings.NewReplacer(":", "%3A", ",", "%2C").Replace(GitHubEscape(s))
}
