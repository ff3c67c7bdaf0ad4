package browser

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/journal"
)

// funcsPage serves testdata/funcs.html, the page the structural and text
// functions of stdlib/funcs are run against.
func funcsPage(t *testing.T) string {
	t.Helper()
	html, err := os.ReadFile("testdata/funcs.html")
	if err != nil {
		t.Fatal(err)
	}
	return newSite(t).page("/funcs", string(html))
}

// runFuncs runs one task on the page, journalled into a fresh folder,
// and returns the run's error and the journal's text.
func runFuncs(t *testing.T, url, steps string) (error, string) {
	t.Helper()
	src := "task t {\n  driver browser\n  op0 = open(\"" + url + "\")\n" + steps + "}\n"
	file, task, info := checkedTask(t, "funcs.cog", []byte(src))
	root := t.TempDir()
	w, err := journal.Open(root, journal.RunMeta{Workflow: "funcs.cog", Task: "t", Driver: "browser", Row: -1})
	if err != nil {
		t.Fatal(err)
	}
	rec := &runtime.JournalObserver{W: w, Task: "t"}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, runErr := runtime.New(file, task, info, sharedDriver(t), runtime.Options{Observer: rec}).Run(ctx)
	if err := w.Finish(journal.OK, runErr); err != nil || rec.Err != nil {
		t.Fatalf("journal: %v %v", err, rec.Err)
	}
	data, err := os.ReadFile(filepath.Join(w.Dir(), journal.JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	return runErr, string(data)
}

// TestFuncsOnChromium runs with_text, lookup, find_row and the text
// functions on a real page, the way compiled workflows use them.
func TestFuncsOnChromium(t *testing.T) {
	url := funcsPage(t)
	d := sharedDriver(t)
	steps := `  op1 = type(textbox(id: "color"), lookup(table(id: "facts"), "Color"), example: "Red")
  op2 = type(textbox(id: "country"), lookup(table(id: "profile"), "Country") + "/" + lookup(table(id: "profile"), "Language"))
  op3 = click(button(name: "Select", within: find_row(table(id: "people"), "Name", " Grace  Hopper")), in_doubt: "skip")
  op4 = click(first(with_text(items(list(id: "results")), "PDF")), example: "Annual report (PDF)")
  op5 = click(with_text(rows(table(id: "people")), "London")[1].cell("Action"))
  op6 = type(textbox(id: "word"), nth(words(regex("“(.*)”", text(id: "instruction").text)), parse_ordinal(regex("the ([a-z0-9]+) word", text(id: "instruction").text))))
  op7 = type(textbox(id: "time"), reformat_date(nonempty(text(id: "when").text), "h:mm a", "HH:mm"), example: "08:22")
  op8 = assert(length(with_text(items(list(id: "results")), "report")) == 2, message: "two reports")
  op9 = assert(lookup(table(id: "facts"), "Year of Birth") == "1815")
`
	err, log := runFuncs(t, url, steps)
	if err != nil {
		t.Fatalf("run: %v\njournal:\n%s", err, log)
	}
	for field, want := range map[string]string{
		"color": "Magenta", "country": "Norway/Norwegian Bokmål", "word": "gamma", "time": "20:22",
	} {
		if got := eval(t, d, "document.getElementById('"+field+"').value"); got != want {
			t.Errorf("field %s = %q, want %q", field, got, want)
		}
	}
	if got, want := eval(t, d, "document.getElementById('log').textContent"), "[Grace Hopper][Annual report (PDF)][Ada Lovelace]"; got != want {
		t.Errorf("clicks: %q, want %q", got, want)
	}
	// in_doubt: is for a resume: the run neither acts on it nor journals it
	// as one of the step's arguments.
	if strings.Contains(log, `"name":"in_doubt"`) || !strings.Contains(log, `"name":"target"`) {
		t.Errorf("the journal records in_doubt: as an argument (or no arguments at all):\n%s", log)
	}
}

// TestFuncsErrorsOnChromium: a value that is not on the page stops the
// run at its step with an error naming what was looked for.
func TestFuncsErrorsOnChromium(t *testing.T) {
	url := funcsPage(t)
	tests := []struct {
		name, step, want string
	}{
		{"absent key", `  op1 = type(textbox(id: "color"), lookup(table(id: "facts"), "Colour"))`,
			`lookup: no cell reads "Colour" (the rows start with "Color", "First name", "Year of Birth", "Nickname")`},
		{"empty value", `  op1 = type(textbox(id: "color"), lookup(table(id: "facts"), "Nickname"))`,
			`lookup: the cell after "Nickname" (row 3) is empty`},
		{"absent value", `  op1 = click(find_row(table(id: "people"), "Name", "Edsger Dijkstra"))`,
			`find_row: no row has "Edsger Dijkstra" under "Name" (3 rows looked at)`},
		{"absent column", `  op1 = click(find_row(table(id: "people"), "Country", "Norway"))`,
			`find_row: row 0: rows(table(id: "people"))[0].cell("Country"): the row has no column "Country" (columns: "Name", "City", "Action")`},
		{"empty list", `  op1 = click(first(with_text(items(list(id: "results")), "DOCX")))`,
			"first: the list is empty"},
		{"no such item", `  op1 = click(nth(with_text(items(list(id: "results")), "PDF"), 3))`,
			"nth: there is no item 3 in a list of 2 items"},
		{"not a time", `  op1 = type(textbox(id: "time"), reformat_date(text(id: "instruction").text, "h:mm a", "HH:mm"))`,
			`text: reformat_date: "Enter the 3rd word of “alpha beta gamma delta” and the time "… does not match the layout "h:mm a": expected an hour (h) at`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err, log := runFuncs(t, url, tc.step+"\n")
			var se *runtime.StepError
			if !errors.As(err, &se) || se.Step.Name.Name != "op1" || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("run error %v, want step op1 to fail with %q", err, tc.want)
			}
			if !strings.Contains(log, `"outcome":"failed"`) {
				t.Errorf("the journal does not record the failure:\n%s", log)
			}
		})
	}
}

// TestExampleIgnoredOnChromium: example: on every kind of action changes
// nothing the run does, and its value never reaches the journal, even
// where it differs from what the step computes.
func TestExampleIgnoredOnChromium(t *testing.T) {
	url := funcsPage(t)
	d := sharedDriver(t)
	steps := `  op1 = type(textbox(id: "color"), lookup(table(id: "facts"), "Color"), example: "EXAMPLE-ONE")
  op2 = click(first(with_text(items(list(id: "results")), "Budget")), example: "EXAMPLE-TWO")
  op3 = copy(text(id: "when"), example: "EXAMPLE-THREE")
  op4 = paste(textbox(id: "word"), op3, example: ["EXAMPLE-FOUR", "EXAMPLE-FIVE"])
  op5 = wait(element(id: "log"), example: "EXAMPLE-SIX")
  op6 = assert(op1 == "Magenta", example: "EXAMPLE-SEVEN")
  op7 = scroll(example: "EXAMPLE-EIGHT")
  op8 = key("Tab", example: "EXAMPLE-NINE")
`
	err, log := runFuncs(t, url, steps)
	if err != nil {
		t.Fatalf("run: %v\njournal:\n%s", err, log)
	}
	if got := eval(t, d, "document.getElementById('color').value"); got != "Magenta" {
		t.Errorf("color = %q: the step typed something other than what it computed", got)
	}
	if got := eval(t, d, "document.getElementById('log').textContent"); got != "[Budget (PDF)]" {
		t.Errorf("clicks: %q", got)
	}
	if got := eval(t, d, "document.getElementById('word').value"); got != "8:22 PM" {
		t.Errorf("pasted %q, want the copied text", got)
	}
	if strings.Contains(log, "EXAMPLE") || strings.Contains(log, `"example"`) {
		t.Errorf("the journal holds an example:\n%s", log)
	}
	n := 0
	for _, line := range strings.Split(log, "\n") {
		if strings.Contains(line, `"type":"step"`) && strings.Contains(line, `"outcome":"ok"`) {
			n++
		}
	}
	if n != 9 {
		t.Errorf("%d steps ok in the journal, want 9:\n%s", n, log)
	}
}
