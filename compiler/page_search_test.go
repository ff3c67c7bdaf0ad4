package compiler

import (
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/trace"
	"golang.org/x/tools/txtar"
)

// TestPageSearchNeedsEvidence: pages are turned only when the card's
// heading is named by the instruction and the screen has a control that
// turns the page; the value is chosen by its label only when the
// instruction names the label.
func TestPageSearchNeedsEvidence(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/golden/page_search.txtar")
	if err != nil {
		t.Fatal(err)
	}
	raw := string(ar.Files[0].Data)
	const instr = "Find Ada in the address book and click on their email."
	for _, tc := range []struct {
		name          string
		from, to      string
		loop, byLabel bool
	}{
		{"as demonstrated", "", "", true, true},
		{"no control turns the page", `"name": ">"`, `"name": "More"`, false, true},
		{"the heading is not named by the instruction", instr, "Click on their email in the address book.", false, true},
		{"the label is not named", instr, "Find Ada in the address book and click on the second line.", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := raw
			if tc.from != "" {
				src = strings.ReplaceAll(src, tc.from, tc.to)
			}
			tr, err := trace.Parse([]byte(src))
			if err != nil {
				t.Fatal(err)
			}
			got := string(compileOK(t, tr, "contacts.cog").Source)
			if has := strings.Contains(got, "until visible(heading("); has != tc.loop {
				t.Errorf("page loop %v, want %v:\n%s", has, tc.loop, got)
			}
			if has := strings.Contains(got, `within: listitem(text: regex("their (\\pL+)"`); has != tc.byLabel {
				t.Errorf("choice by label %v, want %v:\n%s", has, tc.byLabel, got)
			}
		})
	}
}
