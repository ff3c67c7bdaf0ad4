package main

import (
	"strings"
	"testing"
)

// TestInstructionParams: the values of an instruction are what other
// instances word differently; instances of another wording are not
// compared.
func TestInstructionParams(t *testing.T) {
	cases := []struct {
		main   string
		others []string
		want   []string
	}{
		{`Click on the "ok" button.`, []string{`Click on the "no" button.`, `Click on the "Yes" button.`}, []string{"ok"}},
		{"Select ab, cd, ef and click Submit.", []string{"Select gh and click Submit.", "Select ij, kl and click Submit."}, []string{"ab", "cd", "ef"}},
		{"Select a, b, c, d, e, f, g, h and click Submit.", []string{"Select i, j and click Submit.", "Select k, l, m and click Submit."}, []string{"a", "b", "c", "d", "e", "f", "g", "h"}},
		{"Enter 8:22 AM as the time and press submit.", []string{"Enter 11:05 PM as the time and press submit.", "Enter 1:10 AM as the time and press submit."}, []string{"8:22 AM"}},
		{"Find the email by Ann and click the star icon to mark it as important.",
			[]string{"Find the email by Bo and reply to them with the text \"hi\".", "Find the email by Cy and click the star icon to mark it as important."},
			[]string{"Ann"}},
		{`Copy the text "x" here.`, []string{"Something else entirely, worded apart from it all."}, []string{"x"}},
		{"Copy the text below and press Submit.", []string{"Copy the text below and press Submit."}, nil},
	}
	for _, c := range cases {
		got := instructionParams(c.main, c.others)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%q: got %q, want %q", c.main, got, c.want)
		}
	}
}
