package browser

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/journal"
	"github.com/cogflow/cogflow/runtime/redact"
)

// TestAPIActionsInWorkflow runs the API-first actions as a workflow
// writes them: read_table's rows are a list<list<text>> the next steps
// index, download_link's to: and its path result, set_value's element.
func TestAPIActionsInWorkflow(t *testing.T) {
	d := sharedDriver(t)
	_, url := apiSite(t)
	t.Chdir(t.TempDir())
	err, log := runFuncs(t, url, `  op1 = read_table(table(id: "t"))
  op2 = assert(length(op1) == 4 && op1[2][1] == "Large" && op1[3][0] == "Total of both", message: "the table as data")
  op3 = set_value(textbox(id: "name"), op1[1][0] + " " + op1[2][2])
  op4 = assert(op3.value == "Tea 3.75", message: "set_value's element holds the value")
  op5 = download_link(link(name: "Report"), to: "saved.csv")
  op6 = assert(ends_with(op5, "saved.csv"), message: "the path")
  op7 = submit_form(op3)
`)
	if err != nil {
		t.Fatalf("run: %v\njournal:\n%s", err, log)
	}
	if got, err := os.ReadFile("saved.csv"); err != nil || string(got) != "item,price\ntea,2.50\n" {
		t.Errorf("saved.csv holds %q (%v)", got, err)
	}
	if got := eval(t, d, "document.getElementById('q').textContent"); !strings.HasPrefix(got, "name=Tea+3.75&") {
		t.Errorf("the form sent %q", got)
	}
}

// TestSetValueSecretInWorkflow: a secret input set with set_value is a
// run secret like a typed one: it reaches the field and no journal line.
func TestSetValueSecretInWorkflow(t *testing.T) {
	_, url := apiSite(t)
	const pin = "s3cr3t-PIN-42"
	src := "task t {\n  driver browser\n  input pin: secret\n  op0 = open(\"" + url + "\")\n" +
		"  op1 = set_value(textbox(id: \"pw\"), pin)\n  op2 = set_value(textbox(id: \"name\"), \"x\" + pin)\n  op3 = submit_form(textbox(id: \"pw\"))\n}\n"
	file, task, info := checkedTask(t, "secret.cog", []byte(src))
	// As a real run does: one set of secrets for the interpreter and the
	// journal, which redacts what the steps' values carry (the address a
	// GET form went to holds the field's value).
	secrets := redact.New()
	w, err := journal.Open(t.TempDir(), journal.RunMeta{Workflow: "secret.cog", Task: "t", Driver: "browser", Row: -1, Secrets: secrets})
	if err != nil {
		t.Fatal(err)
	}
	rec := &runtime.JournalObserver{W: w, Task: "t"}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, runErr := runtime.New(file, task, info, sharedDriver(t), runtime.Options{Observer: rec, Secrets: secrets, Inputs: map[string]string{"pin": pin}}).Run(ctx)
	if err := w.Finish(journal.OK, runErr); err != nil || rec.Err != nil {
		t.Fatalf("journal: %v %v", err, rec.Err)
	}
	if runErr != nil {
		t.Fatalf("run: %v", runErr)
	}
	data, err := os.ReadFile(filepath.Join(w.Dir(), journal.JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), pin) {
		t.Errorf("the journal holds the secret:\n%s", data)
	}
	if !strings.Contains(string(data), `"op":"set_value"`) || !strings.Contains(string(data), "pw="+redact.Redacted) {
		t.Errorf("the journal has no set_value step:\n%s", data)
	}
	if got := eval(t, sharedDriver(t), "document.getElementById('q').textContent"); !strings.Contains(got, "pw="+pin) {
		t.Errorf("the form sent %q, want the secret in pw", got)
	}
}
