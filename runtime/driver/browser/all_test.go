package browser

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime"
)

// ordinalPage serves testdata/ordinal.html: groups of alike fields the
// instruction names by position.
func ordinalPage(t *testing.T) string {
	t.Helper()
	html, err := os.ReadFile("testdata/ordinal.html")
	if err != nil {
		t.Fatal(err)
	}
	return newSite(t).page("/ordinal", string(html))
}

// TestAllOnChromium: nth(all(…), parse_ordinal(…)) picks the element the
// instruction names by position, counting only the visible ones, from the
// start or from the end.
func TestAllOnChromium(t *testing.T) {
	tests := []struct {
		name, steps, want string
	}{
		{"ordinal read from the screen", `  op1 = click(nth(all(textbox(within: element(id: "area"))), parse_ordinal(regex("(?i)\\b([0-9]+(?:st|nd|rd|th)|[a-z]+(?: to last)?) input\\b", text(id: "query").text))), example: "3rd")
  op2 = click(nth(all(checkbox(class: "opt", within: element(id: "boxes"))), parse_ordinal(regex("(?i)\\b([0-9]+(?:st|nd|rd|th)|[a-z]+(?: to last)?) checkbox\\b", text(id: "query").text))))
`, "[t3][c3]"},
		{"hidden elements are not counted", `  op1 = click(nth(all(checkbox(within: element(id: "boxes"))), 2))
`, "[c2]"},
		{"from the end", `  op1 = click(nth(all(textbox(within: element(id: "area"))), -1))
  op2 = assert(length(all(checkbox(class: "opt"))) == 3, message: "three visible boxes")
`, "[t4]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			url := ordinalPage(t)
			err, log := runFuncs(t, url, tc.steps)
			if err != nil {
				t.Fatalf("run: %v\njournal:\n%s", err, log)
			}
			if got := eval(t, sharedDriver(t), "document.getElementById('log').textContent"); got != tc.want {
				t.Errorf("acted on %q, want %q", got, tc.want)
			}
		})
	}
}

// TestAllErrorsOnChromium: a description that matches nothing, or a
// position the group does not have, fails the step naming it.
func TestAllErrorsOnChromium(t *testing.T) {
	tests := []struct {
		name, step, want string
	}{
		{"no match", `  op1 = click(nth(all(button(within: element(id: "area"))), 1))`, "all: no visible element matches"},
		{"out of range", `  op1 = click(nth(all(textbox(within: element(id: "area"))), 5))`, "nth: there is no item 5 in a list of 4 items"},
		{"css", `  op1 = click(nth(all(textbox(css: "#area input")), 1))`, "css and xpath descriptions cannot be enumerated"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err, _ := runFuncs(t, ordinalPage(t), tc.step+"\n")
			var se *runtime.StepError
			if !errors.As(err, &se) || se.Step.Name.Name != "op1" || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("run error %v, want step op1 to fail with %q", err, tc.want)
			}
		})
	}
}
