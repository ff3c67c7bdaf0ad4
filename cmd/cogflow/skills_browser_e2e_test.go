package main

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/examples/site"
	"github.com/cogflow/cogflow/stdlib/funcs"
)

// End-to-end tests of the browser skill library (stdlib/skills/browser.cog):
// tasks on the demo site call each library skill without declaring it, in
// real headless Chromium, and the tests read back what the site stored.

// runSkillTask writes a workflow with the demo site's address, runs it
// with the inputs and fails the test unless it succeeds.
func runSkillTask(t *testing.T, base, src string, inputs ...string) result {
	t.Helper()
	path := writeWorkflow(t, "skills.cog", strings.ReplaceAll(src, "http://127.0.0.1:8088", base))
	args := []string{"run", path, "--dir", t.TempDir()}
	for _, in := range inputs {
		args = append(args, "--input", in)
	}
	r := runWith(context.Background(), "", args...)
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	return r
}

// TestE2ESkillSearchByQuery: open_with_query opens the wiki's results for
// a keyword with spaces, & and non-ASCII letters; fill_and_send submits
// the same keyword through the search form, and the two addresses must be
// one; the notes get the address and the result count (set_field,
// send_form).
func TestE2ESkillSearchByQuery(t *testing.T) {
	needChromium(t)
	s, base := demo(t)
	const src = `task search "Look a keyword up by its results address and note what it found" {
  driver browser
  input site: url = "http://127.0.0.1:8088"
  input keyword: text = "Mount Kenya"

  op1 = open_with_query(site + "/wiki", "q", keyword)
  op2 = copy(text(id: "result-count"))
  op3 = open(site + "/wiki")
  op4 = fill_and_send(textbox(name: "Search"), keyword)
  op5 = assert(op4.url == op1.url, message: "the form went elsewhere than the skill")
  op6 = open(site + "/notes")
  op7 = set_field(textbox(name: "Notes"), op1.url + "\n" + op2)
  op8 = send_form(textbox(name: "Notes"))
}
`
	for _, kw := range []string{"Mount Kenya", "Kilimanjaro & Zanzibar = #1", "Zürich 東京 ~*"} {
		t.Run(kw, func(t *testing.T) {
			s.Reset()
			runSkillTask(t, base, src, "keyword="+kw)
			lines := strings.Split(s.State().Notes, "\n")
			if len(lines) != 2 {
				t.Fatalf("notes %q, want two lines", s.State().Notes)
			}
			if want := base + "/wiki?q=" + funcs.FormEscape(kw); lines[0] != want {
				t.Errorf("the skill opened %s, want %s", lines[0], want)
			}
			if !strings.Contains(lines[1], "“"+kw+"”") {
				t.Errorf("the result count %q does not name the keyword %q", lines[1], kw)
			}
		})
	}
}

// TestE2ESkillFillForm: set_field fills the order form's fields (a list
// by its option's text) and send_form submits it through its button.
func TestE2ESkillFillForm(t *testing.T) {
	needChromium(t)
	s, base := demo(t)
	runSkillTask(t, base, `task order "Fill in the order form and send it" {
  driver browser
  input site: url = "http://127.0.0.1:8088"

  op1 = open(site + "/form")
  op2 = set_field(textbox(name: "Name"), "Wangari Maathai")
  op3 = set_field(textbox(name: "Email"), "w.maathai@greenbelt.example")
  op4 = set_field(combobox(name: "Country"), "Kenya")
  op5 = send_form(button(name: "Submit"))
  op6 = assert("Thank you", message: "no confirmation")
}
`)
	subs := s.State().Submissions
	if len(subs) != 1 {
		t.Fatalf("%d submissions, want 1: %+v", len(subs), subs)
	}
	want := site.Submission{Name: "Wangari Maathai", Email: "w.maathai@greenbelt.example", Country: "Kenya"}
	if subs[0] != want {
		t.Errorf("submission %+v, want %+v", subs[0], want)
	}
}

// TestE2ESkillTableAndDownload: table_data reads the Orders table as
// rows; download and download_to fetch its CSV (the second download gets
// a new name, never the first file's); the Total box gets what the table
// said, and the files hold the very table.
func TestE2ESkillTableAndDownload(t *testing.T) {
	needChromium(t)
	s, base := demo(t)
	dir := t.TempDir()
	t.Chdir(dir)
	to := filepath.Join(t.TempDir(), "mine.csv")
	runSkillTask(t, base, `task orders "Keep the orders as a file and note the first amount" {
  driver browser
  input site: url = "http://127.0.0.1:8088"
  input to: text

  op1 = open(site + "/sheet")
  op2 = table_data(table(name: "Orders"))
  op3 = download(link(name: "Download orders (CSV)"))
  op4 = download(link(name: "Download orders (CSV)"))
  op5 = assert(op3 != op4, message: "the second download took the first one's file")
  op6 = download_to(link(name: "Download orders (CSV)"), to)
  op7 = set_field(textbox(name: "Total"), format("%d rows; %s: %s", length(op2), op2[1][0], op2[1][4]))
  op8 = send_form(textbox(name: "Total"))
}
`, "to="+to)
	if got, want := s.State().Total, "6 rows; ada lovelace: 1,234.50"; got != want {
		t.Errorf("Total = %q, want %q", got, want)
	}
	for _, p := range []string{filepath.Join(dir, "orders.csv"), filepath.Join(dir, "orders (1).csv"), to} {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := csv.NewReader(strings.NewReader(string(data))).ReadAll()
		if err != nil || len(recs) != 6 || recs[0][0] != "Name" || recs[1][4] != "1,234.50" {
			t.Errorf("%s: %q (%v)", p, recs, err)
		}
	}
	// Run again: download_to's file exists, and the step fails rather
	// than write over it.
	path := writeWorkflow(t, "again.cog", `task again "T" {
  driver browser
  input to: text
  op1 = open("`+base+`/sheet")
  op2 = download_to(link(name: "Download orders (CSV)"), to)
}
`)
	r := runWith(context.Background(), "", "run", path, "--dir", t.TempDir(), "--input", "to="+to)
	if r.code == exitOK || !strings.Contains(r.stderr, "never overwrites") {
		t.Errorf("download_to over a file: exit %d\n%s", r.code, r.stderr)
	}
}
