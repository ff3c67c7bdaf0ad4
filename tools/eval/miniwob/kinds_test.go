package main

import (
	"reflect"
	"strings"
	"testing"
)

// readme is the shape of the fixtures' README: a numbered list of kinds
// whose items name tasks among other words.
const readme = `# Tasks

Success means a raw reward > 0 (1 = solved).

Kinds of task here (one task, one kind):
1. the value to type is in the instruction: enter-text, focus-text,
   copy-paste;
2. the element to click: click-button;
3. a set of items: click-checkboxes;
4. the task varies: email-inbox asks for one of four things (reply, forward) and
   email-inbox-star-reply for one of two;
5. a value to compute: phone-book (paginated).
`

func TestParseKinds(t *testing.T) {
	known := map[string]bool{}
	for _, n := range []string{"enter-text", "focus-text", "copy-paste", "click-button", "click-checkboxes",
		"email-inbox", "email-inbox-star-reply", "phone-book", "not-listed"} {
		known[n] = true
	}
	tests := []struct {
		name, text string
		want       map[string]int
		err        string
	}{
		{name: "the list", text: readme, want: map[string]int{"enter-text": 1, "focus-text": 1, "copy-paste": 1,
			"click-button": 2, "click-checkboxes": 3, "email-inbox": 4, "email-inbox-star-reply": 4, "phone-book": 5}},
		{name: "a task under two kinds", text: readme + "6. again: click-button\n", err: "task click-button is listed under kinds 2 and 6"},
		{name: "no list", text: "# Tasks\n", err: `no "Kinds of task" list`},
		{name: "no items", text: "Kinds of task here: none\n", err: "no numbered kinds"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseKinds(tc.text, known)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("parseKinds = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func TestFreshSeeds(t *testing.T) {
	tests := []struct {
		a    string
		n    int
		want []string
	}{
		{a: "1", n: 3, want: []string{"1-1", "1-2", "1-3"}},
		{a: "3", n: 1, want: []string{"3-1"}},
		{a: "x_y", n: 2, want: []string{"x_y-1", "x_y-2"}},
	}
	for _, tc := range tests {
		got := freshSeeds(tc.a, tc.n)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("freshSeeds(%q, %d) = %v, want %v", tc.a, tc.n, got, tc.want)
		}
		seen := map[string]bool{tc.a: true}
		for _, s := range got {
			if seen[s] || !seedName.MatchString(s) {
				t.Errorf("seed %q repeats or is not a seed name", s)
			}
			seen[s] = true
		}
	}
	// Deterministic: the same demonstration seed, the same fresh seeds.
	if !reflect.DeepEqual(freshSeeds("7", 10), freshSeeds("7", 10)) {
		t.Error("fresh seeds differ between calls")
	}
}
