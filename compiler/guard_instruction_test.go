package compiler

import (
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/trace"
	"golang.org/x/tools/txtar"
)

// TestGuardInstruction: the guard is written only when the instruction
// itself (the innermost sentence, not the page around it) names a value
// and no step reads it, and never for a workflow with inputs.
func TestGuardInstruction(t *testing.T) {
	ar, err := txtar.ParseFile("testdata/stages/guard.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var raw string
	for _, f := range ar.Files {
		if f.Name == "trace.json" {
			raw = string(f.Data)
		}
	}
	const sentence = `Draw the number \"4\" in the boxes, then press Submit.`
	for _, tc := range []struct {
		name       string
		query      string // the instruction's text
		wrap       string // the page wrapper's text
		guard      bool
		valueShown string
	}{
		{"the instruction quotes a value", sentence, "", true, `== "4"`},
		{"a date", "Select 06/07/2016 as the date and hit submit.", "", true, `== "06/07/2016"`},
		{"no value in the instruction, numbers on the page around it", "Click on the numbers in ascending order.",
			"Click on the numbers in ascending order. 1 2 3 4 5", false, ""},
		{"no order: a status line is no instruction", `Results for \"4\": 2 found.`, "", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(raw, `"text": "`+sentence+`"`, `"text": "`+tc.query+`"`, 1)
			if tc.wrap != "" {
				src = strings.Replace(src, `"id": "wrap"`, `"id": "wrap", "text": "`+tc.wrap+`"`, 1)
			}
			tr, err := trace.Parse([]byte(src))
			if err != nil {
				t.Fatal(err)
			}
			got := string(compileOK(t, tr, "draw.cog").Source)
			if has := strings.Contains(got, "same_instruction = assert("); has != tc.guard || (tc.guard && !strings.Contains(got, tc.valueShown)) {
				t.Errorf("guard %v, want %v (%s):\n%s", has, tc.guard, tc.valueShown, got)
			}
		})
	}

	// The recorder made the instruction a list item, so the instruction
	// found is the page around it; a step that reads the list item reads
	// the value, and no guard is written.
	t.Run("a step reads the value through another element", func(t *testing.T) {
		src := strings.Replace(raw, `"id": "query",`, `"id": "query", "list": {"container": "div", "index": 0, "size": 1},`, 1)
		src = strings.Replace(src, `"role": "text",`, `"role": "listitem",`, 1)
		src = strings.Replace(src, `"id": "wrap"`, `"id": "wrap", "text": "`+sentence+` Submit"`, 1)
		for _, b := range []string{"4", "7"} {
			src = strings.Replace(src, `"ref": "b1",`, `"ref": "n`+b+`", "role": "button", "parent": 0, "visible": true, "enabled": true, "path": "div/span[`+b+`]", "name": "`+b+`", "text": "`+b+`", "bounds": {"x": 100, "y": 60, "w": 20, "h": 20}}, {"ref": "b1",`, 1)
		}
		src = strings.Replace(src, `"target": {
    "ref": "c2"
   }`, `"target": {
    "ref": "n4"
   }`, 1)
		tr, err := trace.Parse([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		got := string(compileOK(t, tr, "draw.cog").Source)
		if strings.Contains(got, "same_instruction") || !strings.Contains(got, `listitem(id: "query").text`) {
			t.Errorf("want the button read from the list item and no guard:\n%s", got)
		}
	})
}
