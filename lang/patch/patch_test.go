package patch

import (
	"strings"
	"testing"
)

const notes = `# Save the notes.
task notes_save "Write a line into my notes and save them" {
  driver browser
  input site: url = "http://127.0.0.1:8088"

  anchor notes = textbox(name: "Notes", id: "notes")

  op1 = open(site + "/notes")
  op2 = type(notes, "x")  # replaces the notes
  # Save at once.
  op3 = click(button(name: "Save"))
}
`

func TestApply(t *testing.T) {
	more := []Step{{Op: "click", Target: `button(name: "More")`}}
	tests := []struct {
		name string
		src  string
		ins  []Insertion
		want []string // lines the result holds, in this order
		err  string
	}{
		{
			name: "before a step, above its comment",
			src:  notes,
			ins:  []Insertion{{Before: "op3", Line: 11, Steps: more, Note: "found by --heal"}},
			want: []string{"  op2 = type(notes, \"x\")  # replaces the notes", "  # found by --heal", "  click_more = click(button(name: \"More\"))", "  # Save at once.", "  op3 = click(button(name: \"Save\"))"},
		},
		{
			name: "a name in use gets a number",
			src:  strings.Replace(notes, "op1 =", "click_more =", 1),
			ins:  []Insertion{{Before: "op3", Line: 11, Steps: more}},
			want: []string{"  click_more2 = click(button(name: \"More\"))", "  # Save at once."},
		},
		{
			name: "several steps, text quoted, aligned",
			src:  notes,
			ins: []Insertion{{Before: "op2", Line: 9, Steps: []Step{
				{Op: "key", Text: "Escape"},
				{Op: "type", Target: `textbox(name: "Filter")`, Text: `say "hi"`},
			}}},
			want: []string{`  op1         = open(site + "/notes")`, `  key_escape  = key("Escape")`, `  type_filter = type(textbox(name: "Filter"), "say \"hi\"")`, `  op2         = type(notes, "x")  # replaces the notes`},
		},
		{
			name: "inside a loop",
			src:  "task t {\n  for x in [1, 2] {\n    op1 = click(button(name: \"Rename\"))\n  }\n}\n",
			ins:  []Insertion{{Before: "op1", Line: 3, Steps: more}},
			want: []string{"  for x in [1, 2] {", "    click_more = click(button(name: \"More\"))", "    op1        = click(button(name: \"Rename\"))"},
		},
		{
			name: "a file not in the canonical layout keeps its layout",
			src:  "task t {\n    op1   =  click(button(name: \"Save\"))\n}\n",
			ins:  []Insertion{{Before: "op1", Line: 2, Steps: more}},
			want: []string{"    click_more = click(button(name: \"More\"))", "    op1   =  click(button(name: \"Save\"))"},
		},
		{
			name: "the step moved",
			src:  notes,
			ins:  []Insertion{{Before: "op3", Line: 10, Steps: more}},
			err:  "no step op3 at line 10",
		},
		{
			name: "a target that is not an expression",
			src:  notes,
			ins:  []Insertion{{Before: "op3", Line: 11, Steps: []Step{{Op: "click", Target: `button(name: "More"`}}}},
			err:  "the patched x.cog does not parse",
		},
		{
			name: "a source that does not parse",
			src:  "task t {\n  op1 = \n}\n",
			ins:  []Insertion{{Before: "op1", Line: 2, Steps: more}},
			err:  "x.cog does not parse",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Apply("x.cog", []byte(tc.src), tc.ins)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want one with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := string(out)
			at := 0
			for _, w := range tc.want {
				i := strings.Index(got[at:], w+"\n")
				if i < 0 {
					t.Fatalf("no line %q after offset %d in:\n%s", w, at, got)
				}
				at += i + len(w)
			}
			// Every comment of the source is still there.
			for _, line := range strings.Split(tc.src, "\n") {
				if _, c, ok := strings.Cut(line, "#"); ok && !strings.Contains(got, "#"+c) {
					t.Errorf("comment %q lost:\n%s", c, got)
				}
			}
		})
	}
}

func TestSource(t *testing.T) {
	tests := []struct {
		s    Step
		want string
	}{
		{Step{Op: "click", Target: `button(name: "More")`}, `click(button(name: "More"))`},
		{Step{Op: "back"}, `back()`},
		{Step{Op: "key", Text: "Ctrl+S"}, `key("Ctrl+S")`},
		{Step{Op: "type", Target: `textbox(name: "Q")`, Text: "a\nb"}, `type(textbox(name: "Q"), "a\nb")`},
	}
	for _, tc := range tests {
		if got := Source(tc.s); got != tc.want {
			t.Errorf("Source(%+v) = %s, want %s", tc.s, got, tc.want)
		}
	}
}
