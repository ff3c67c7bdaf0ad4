package browser

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
)

// TestClear empties fields of testdata/clear.html on Chromium: the page
// sees an input and a change event, the field reads back empty, and a
// field that cannot be emptied fails the step instead of reporting ok.
func TestClear(t *testing.T) {
	html, err := os.ReadFile("testdata/clear.html")
	if err != nil {
		t.Fatal(err)
	}
	d := sharedDriver(t)
	open(t, d, newSite(t).page("/clear", string(html)))
	tests := []struct {
		id, read string // the field and the expression reading its content
		err      string // a part of the error; "" for success
	}{
		{id: "name", read: "document.getElementById('name').value"},
		{id: "notes", read: "document.getElementById('notes').value"},
		{id: "ed", read: "document.getElementById('ed').textContent"},
		{id: "size", read: "document.getElementById('size').value"},
		{id: "empty", read: "document.getElementById('empty').value"},
		{id: "fixed", err: "not editable (read-only)"},
		{id: "sticky", err: `holds "keep"`},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			_, err := d.Do(context.Background(), driver.Action{Op: action.Clear, Target: target(t, d, tc.id)})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("clear(%s) = %v, want an error with %q", tc.id, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("clear(%s): %v", tc.id, err)
			}
			if got := eval(t, d, tc.read); got != "" {
				t.Errorf("%s holds %q after clear", tc.id, got)
			}
			if tc.id == "empty" {
				return // nothing to delete: the page may see no input
			}
			if n := eval(t, d, "inputs['"+tc.id+"'] || 0"); n == "0" {
				t.Errorf("%s: the page saw no input event", tc.id)
			}
			if n := eval(t, d, "changes['"+tc.id+"'] || 0"); n != "1" {
				t.Errorf("%s: the page saw %s change events, want 1", tc.id, n)
			}
		})
	}
	if _, err := d.Do(context.Background(), driver.Action{Op: action.Clear}); err == nil || !strings.Contains(err.Error(), "needs a target") {
		t.Errorf("clear without a target = %v", err)
	}
}

// TestClearInWorkflow runs clear as a workflow writes it: checked,
// anchored by description and journalled.
func TestClearInWorkflow(t *testing.T) {
	html, err := os.ReadFile("testdata/clear.html")
	if err != nil {
		t.Fatal(err)
	}
	url := newSite(t).page("/clear", string(html))
	err, log := runFuncs(t, url, `  op1 = clear(textbox(label: "Name"))
  op2 = assert(op1.value == "", message: "the field is empty")
`)
	if err != nil {
		t.Fatalf("run: %v\njournal:\n%s", err, log)
	}
	if !strings.Contains(log, `"op":"clear"`) {
		t.Errorf("the journal has no clear step:\n%s", log)
	}
}
