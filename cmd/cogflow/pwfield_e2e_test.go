package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// pinEntry types a plain text input, not declared secret, into the demo
// site's PIN field (a password field), copies it back out of the field
// and types the copy into the Code field.
const pinEntry = `task pin_entry "Send an entry with its PIN" {
  driver browser
  input pin: text = "0000"
  op1 = open("BASE/entries/3")
  op2 = type(textbox(name: "PIN"), pin)
  op3 = copy(textbox(name: "PIN"))
  op4 = type(textbox(name: "Code"), op3)
  op5 = click(button(name: "Submit"))
}
`

const plainPIN = "Tq8-Basil-3307"

// TestE2EPasswordFieldTextIsSecret runs pinEntry in real headless
// Chromium with screenshots and checks that the text typed into the
// password field, though its input is plain text, reaches none of what the
// run leaves (the run folder's text files, standard output and error), nor
// the JUnit and HTML reports, nor the graph of the run; and that the
// journal holds the steps with the value redacted.
func TestE2EPasswordFieldTextIsSecret(t *testing.T) {
	needChromium(t)
	s, base := demo(t)
	root := t.TempDir()
	wf := writeWorkflow(t, "pin_entry.cog", strings.ReplaceAll(pinEntry, "BASE", base))
	r := runWith(context.Background(), "", "run", wf, "--input", "pin="+plainPIN, "--screenshots", "--yes", "--dir", root)
	if r.code != exitOK {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	sum := sha256.Sum256([]byte(plainPIN))
	if e := s.Entries(); len(e) != 1 || e[0].N != 3 || e[0].PINSHA256 != hex.EncodeToString(sum[:]) || e[0].Code != plainPIN {
		t.Fatalf("the entry was not posted with the PIN typed and copied: %+v", e)
	}
	m := regexp.MustCompile(`runs show (\S+)|\(run (\S+)\)`).FindStringSubmatch(r.stdout + r.stderr)
	if m == nil {
		t.Fatalf("no run id in\n%s%s", r.stdout, r.stderr)
	}
	id := m[1] + m[2]
	outs := []result{r}
	xmlPath := filepath.Join(t.TempDir(), "report.xml")
	for _, args := range [][]string{
		{"report", id, "-o", xmlPath, "--dir", root},
		{"report", id, "--format", "html", "--dir", root},
		{"graph", wf, "--format", "html", "--run", id, "--dir", root},
	} {
		o := runWith(context.Background(), "", args...)
		if o.code != exitOK {
			t.Fatalf("%q: exit %d\n%s%s", args, o.code, o.stdout, o.stderr)
		}
		outs = append(outs, o)
	}
	if xml, err := os.ReadFile(xmlPath); err != nil || !strings.Contains(string(xml), "pin_entry") {
		t.Errorf("JUnit report: %v\n%s", err, xml)
	} else if strings.Contains(string(xml), plainPIN) {
		t.Errorf("the JUnit report holds the PIN:\n%s", xml)
	}
	for _, o := range outs {
		if strings.Contains(o.stdout+o.stderr, plainPIN) {
			t.Errorf("output holds the PIN:\n%s%s", o.stdout, o.stderr)
		}
	}
	if !strings.Contains(outs[2].stdout, "<html") || !strings.Contains(outs[2].stdout, "op2") {
		t.Errorf("the HTML report does not show the run:\n%.400s", outs[2].stdout)
	}
	// Every text file of the run folder; screenshots are images.
	journal := ""
	files := 0
	_ = filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return nil
		}
		files++
		b, _ := os.ReadFile(path)
		if strings.Contains(path+string(b), plainPIN) {
			t.Errorf("%s holds the PIN", path)
		}
		if info.Name() == "journal.jsonl" {
			journal += string(b)
		}
		return nil
	})
	if files < 3 || journal == "" {
		t.Fatalf("%d files, journal %q: the search proves nothing", files, journal)
	}
	// The steps that typed and copied the PIN are journaled, redacted.
	for _, step := range []string{"op2", "op3", "op4"} {
		if !regexp.MustCompile(`"step":"` + step + `"[^\n]*\[secret\]`).MatchString(journal) {
			t.Errorf("the journal has no redacted event of %s:\n%s", step, journal)
		}
	}
}
