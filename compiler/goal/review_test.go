package goal

import (
	"testing"
)

// TestAnswerWordNeverGuesses: a reply line is read as a verdict only when
// it states one; an echoed template, a hedge or two verdicts are none.
func TestAnswerWordNeverGuesses(t *testing.T) {
	cases := []struct{ in, want string }{
		{"yes", Yes},
		{"Yes.", Yes},
		{"**No**", Not},
		{"partly", Partly},
		{"No, the trajectory types another name", Not},
		{"Yes - every value matches", Yes},
		{"yes | partly | no", ""}, // the template echoed
		{"yes/no", ""},
		{"not sure", ""},
		{"no idea", ""},
		{"yes or no", ""},
		{"Partly yes", ""},
		{"maybe", ""},
		{"unknown", ""},
		{"", ""},
	}
	for _, c := range cases {
		if got := answerWord(c.in); got != c.want {
			t.Errorf("answerWord(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
