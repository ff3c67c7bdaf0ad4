package compiler

import (
	"os"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/trace"
)

// TestNumberLoopNeedsEvidence: a click per item compiles to a loop with an
// if only when one rule over the items' numbers explains every choice,
// each side of it seen; otherwise each item's choice stays as demonstrated
// (with its warning) and no rule is made up.
func TestNumberLoopNeedsEvidence(t *testing.T) {
	raw, err := os.ReadFile("testdata/per_item_choice.trace.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		rewrite []string // pairs: an item's number, what it becomes
		want    []string
		notWant []string
	}{
		{"parity explains 7 Odd, 4 Even, 9 Odd", nil,
			[]string{`if parse_number(regex("-?[0-9]+", item.text)) % 2 == 0 {`}, []string{"listitem(text:", "< 0"}},
		{"parity explains 7 Odd, 4 Even, -9 Odd; the sign does not", []string{"9", "-9"},
			[]string{`% 2 == 0 {`}, []string{"< 0", "listitem(text:"}},
		{"the sign explains 8 Odd, -4 Even, 9 Odd; parity does not", []string{"7", "8", "4", "-4"},
			[]string{`if parse_number(regex("-?[0-9]+", item.text)) < 0 {`, `op3 = click(button(name: "Even", within: item))`}, []string{"% 2", "listitem(text:"}},
		{"both explain 7 Odd, -4 Even, 9 Odd: no evidence for either", []string{"4", "-4"},
			[]string{`within: listitem(text: "Odd -4 Even")`}, []string{"for item", "% 2", "< 0"}},
		{"no rule explains 7 Odd, 4 Even, 8 Odd", []string{"9", "8"},
			[]string{`op4 = click(button(name: "Odd", within: listitem(text: "Odd 8 Even")))`}, []string{"for item", "% 2", "< 0"}},
		{"an item with two numbers is not read", []string{"9", "9 of 10"},
			[]string{`listitem(text: "Odd 9 of 10 Even")`}, []string{"for item"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := string(raw)
			for k := 0; k+1 < len(tc.rewrite); k += 2 {
				from, to := tc.rewrite[k], tc.rewrite[k+1]
				src = strings.ReplaceAll(src, `"text": "Odd `+from+` Even"`, `"text": "Odd `+to+` Even"`)
				src = strings.ReplaceAll(src, `"text": "`+from+`"`, `"text": "`+to+`"`)
			}
			tr, err := trace.Parse([]byte(src))
			if err != nil {
				t.Fatal(err)
			}
			res := compileOK(t, tr, "numbers.cog")
			assertSource(t, string(res.Source), tc.want, tc.notWant)
		})
	}
}
