package browser

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
)

// apiSite serves testdata/api.html with the files its links point at, an
// /echo page that shows the query a form sent, and a link to a second
// origin that allows no CORS.
func apiSite(t *testing.T) (*site, string) {
	t.Helper()
	page, err := os.ReadFile("testdata/api.html")
	if err != nil {
		t.Fatal(err)
	}
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "elsewhere") }))
	t.Cleanup(other.Close)
	s := newSite(t)
	s.handle("/echo", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<title>Echo</title><pre id=q>%s</pre>", html.EscapeString(r.URL.RawQuery))
	})
	s.handle("/files/", func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/files/report.csv":
			w.Header().Set("Content-Disposition", `attachment; filename="q3 report.csv"`)
			fmt.Fprint(w, "item,price\ntea,2.50\n")
		case "/files/blob":
			fmt.Fprint(w, "notes for id "+r.URL.Query().Get("id"))
		case "/files/data set.json":
			fmt.Fprint(w, `{"ok":true}`)
		case "/files/empty.txt":
		default:
			http.NotFound(w, r)
		}
	})
	return s, s.page("/api", strings.Replace(string(page), "CROSS", other.URL+"/x.csv", 1))
}

// TestSetValue sets fields by value on Chromium: the page sees input and
// change, the field holds the value; what cannot hold it fails the step.
func TestSetValue(t *testing.T) {
	d := sharedDriver(t)
	_, url := apiSite(t)
	open(t, d, url)
	tests := []struct {
		id, text, read, want string
		err                  string // a part of the error; "" for success
	}{
		{id: "name", text: "Ada Lovelace", read: "document.getElementById('name').value", want: "Ada Lovelace"},
		{id: "bio", text: "line 1\nline 2", read: "document.getElementById('bio').value", want: "line 1\nline 2"},
		{id: "country", text: "Tanzania", read: "document.getElementById('country').value", want: "tz"},
		{id: "country", text: "ke", read: "document.getElementById('country').value", want: "ke"},
		{id: "day", text: "2026-11-25", read: "document.getElementById('day').value", want: "2026-11-25"},
		{id: "ed", text: "new html", read: "document.getElementById('ed').textContent", want: "new html"},
		{id: "country", text: "Tanz", err: `has no option "Tanz"`},
		{id: "country", text: "Uganda", err: `the option "Uganda" of the list select#country`},
		{id: "country", text: "rw", err: `the option "Rwanda" of the list select#country`},
		{id: "day", text: "25/11/2026", err: "holds \"\" after set_value"},
		{id: "sticky", text: "quiet", err: `holds "QUIET" after set_value "quiet"`},
		{id: "fixed", text: "x", err: "not editable (read-only)"},
		{id: "agree", text: "true", err: "<input type=checkbox>: click it"},
		{id: "para", text: "x", err: "is not a field"},
	}
	for _, tc := range tests {
		t.Run(tc.id+"="+tc.text, func(t *testing.T) {
			before := eval(t, d, "changes['"+tc.id+"'] || 0")
			_, err := d.Do(context.Background(), driver.Action{Op: action.SetValue, Target: target(t, d, tc.id), Text: tc.text})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("set_value(%s, %q) = %v, want an error with %q", tc.id, tc.text, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("set_value(%s, %q): %v", tc.id, tc.text, err)
			}
			if got := eval(t, d, tc.read); got != tc.want {
				t.Errorf("%s holds %q, want %q", tc.id, got, tc.want)
			}
			if eval(t, d, "inputs['"+tc.id+"'] || 0") == "0" {
				t.Errorf("%s: the page saw no input event", tc.id)
			}
			if after := eval(t, d, "changes['"+tc.id+"'] || 0"); tc.id != "ed" && after == before {
				t.Errorf("%s: the page saw no change event", tc.id)
			}
		})
	}
}

// TestSetValueSecret: a secret set into a field is covered in screenshots
// like a typed one, and a value that does not take is told without it.
func TestSetValueSecret(t *testing.T) {
	d := sharedDriver(t)
	_, url := apiSite(t)
	open(t, d, url)
	const pin = "s3cr3t-PIN"
	do(t, d, driver.Action{Op: action.SetValue, Target: target(t, d, "pw"), Text: pin, Secret: true})
	if got := eval(t, d, "document.getElementById('pw').value"); got != pin {
		t.Errorf("the password field holds %q", got)
	}
	d.life.Lock()
	noted := strings.Join(d.secrets, "|")
	d.life.Unlock()
	if !strings.Contains(noted, pin) {
		t.Error("the driver did not note the secret for its screenshots")
	}
	_, err := d.Do(context.Background(), driver.Action{Op: action.SetValue, Target: target(t, d, "sticky"), Text: "hush-" + pin, Secret: true})
	if err == nil || strings.Contains(strings.ToUpper(err.Error()), strings.ToUpper(pin)) || !strings.Contains(err.Error(), "masked") {
		t.Errorf("set_value of a secret that did not take: %v", err)
	}
}

// TestSubmitForm submits forms on Chromium: the target's form navigates
// with its fields (and a submit button target's name=value); a page's
// submit handler sees the event; no form or an invalid one fails.
func TestSubmitForm(t *testing.T) {
	d := sharedDriver(t)
	_, url := apiSite(t)
	tests := []struct {
		target string
		want   string // the echoed query, or the page's text
		err    string
	}{
		{target: "name", want: "name=Grace+%26+co&bio=old+bio&country=&day=&pw=&sticky=&fixed=keep"},
		{target: "go", want: "name=Grace+%26+co&bio=old+bio&country=&day=&pw=&sticky=&fixed=keep&go=yes"},
		{target: "jsq", want: "sent hello"},
		{target: "loose", err: "is in no form"},
		{target: "need", err: "the field input#need is invalid"},
	}
	for _, tc := range tests {
		t.Run(tc.target, func(t *testing.T) {
			open(t, d, url)
			do(t, d, driver.Action{Op: action.SetValue, Target: target(t, d, "name"), Text: "Grace & co"})
			do(t, d, driver.Action{Op: action.SetValue, Target: target(t, d, "jsq"), Text: "hello"})
			res, err := d.Do(context.Background(), driver.Action{Op: action.SubmitForm, Target: target(t, d, tc.target)})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("submit_form(%s) = %v, want an error with %q", tc.target, err, tc.err)
				}
				if got := eval(t, d, "location.pathname"); got != "/api" {
					t.Errorf("the page went to %s", got)
				}
				return
			}
			if err != nil {
				t.Fatalf("submit_form(%s): %v", tc.target, err)
			}
			if tc.target == "jsq" {
				if got := eval(t, d, "document.getElementById('jsout').textContent"); got != tc.want {
					t.Errorf("the page's handler shows %q, want %q", got, tc.want)
				}
				return
			}
			if got := eval(t, d, "document.getElementById('q').textContent"); got != tc.want {
				t.Errorf("the form sent %q, want %q", got, tc.want)
			}
			if res.Window == nil || res.Window.Title != "Echo" || !strings.Contains(res.Window.URL, "/echo?") {
				t.Errorf("the result window is %+v", res.Window)
			}
		})
	}
}

// TestReadTable reads an HTML table (spans filled in, a field by its
// value) and an ARIA grid; anything else fails.
func TestReadTable(t *testing.T) {
	d := sharedDriver(t)
	_, url := apiSite(t)
	open(t, d, url)
	tests := []struct {
		id   string
		want [][]string
		err  string
	}{
		{id: "t", want: [][]string{
			{"Item", "Size", "Price"},
			{"Tea", "Small", "2.50"},
			{"Tea", "Large", "3.75"},
			{"Total of both", "Total of both", "6.25"},
		}},
		{id: "grid", want: [][]string{{"Name", "City"}, {"Ada", "London"}}},
		{id: "empty-table", want: [][]string{}},
		{id: "para", err: "is not a table (read_table needs"},
		{id: "price", err: "is not a table but is inside table#t"},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			res, err := d.Do(context.Background(), driver.Action{Op: action.ReadTable, Target: target(t, d, tc.id)})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("read_table(%s) = %v, want an error with %q", tc.id, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("read_table(%s): %v", tc.id, err)
			}
			if !reflect.DeepEqual(res.Table, tc.want) {
				t.Errorf("read_table(%s) = %q, want %q", tc.id, res.Table, tc.want)
			}
		})
	}
}

// TestDownloadLink downloads links' targets on Chromium into a folder:
// the name the server, the link or the address gives, never over a file
// that is there; what cannot be downloaded fails and writes nothing.
func TestDownloadLink(t *testing.T) {
	d := sharedDriver(t)
	_, url := apiSite(t)
	open(t, d, url)
	dir := t.TempDir()
	t.Chdir(dir)
	tests := []struct {
		id, to    string
		file      string // the path written, relative to dir
		content   string
		err       string
		wantFiles int // files in dir afterwards
	}{
		{id: "csv", file: "q3 report.csv", content: "item,price\ntea,2.50\n", wantFiles: 1},
		{id: "csv", file: "q3 report (1).csv", content: "item,price\ntea,2.50\n", wantFiles: 2},
		{id: "named", file: "notes.txt", content: "notes for id 1", wantFiles: 3},
		{id: "plain", to: "out/", err: "the folder out/ does not exist", wantFiles: 3},
		{id: "plain", file: "data set.json", content: `{"ok":true}`, wantFiles: 4},
		{id: "named", to: "mine.txt", file: "mine.txt", content: "notes for id 1", wantFiles: 5},
		{id: "csv", to: "mine.txt", err: "exists; download_link never overwrites", wantFiles: 5},
		{id: "empty", err: "the file is empty (0 bytes)", wantFiles: 5},
		{id: "missing", err: "the server answered 404", wantFiles: 5},
		{id: "cross", err: "CORS", wantFiles: 5},
		{id: "nolink", err: "is not a link", wantFiles: 5},
	}
	for i, tc := range tests {
		t.Run(fmt.Sprint(i, tc.id), func(t *testing.T) {
			res, err := d.Do(context.Background(), driver.Action{Op: action.DownloadLink, Target: target(t, d, tc.id), Text: tc.to})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("download_link(%s, to: %q) = %v, want an error with %q", tc.id, tc.to, err, tc.err)
				}
			} else {
				if err != nil {
					t.Fatalf("download_link(%s, to: %q): %v", tc.id, tc.to, err)
				}
				if want := filepath.Join(dir, tc.file); res.Text != want {
					t.Errorf("the result is %q, want %q", res.Text, want)
				}
				if got, err := os.ReadFile(filepath.Join(dir, tc.file)); err != nil || string(got) != tc.content {
					t.Errorf("%s holds %q (%v), want %q", tc.file, got, err, tc.content)
				}
			}
			if got, _ := os.ReadDir(dir); len(got) != tc.wantFiles {
				t.Errorf("%d files in the folder, want %d", len(got), tc.wantFiles)
			}
		})
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "mine.txt")); string(got) != "notes for id 1" {
		t.Errorf("mine.txt was overwritten: %q", got)
	}
}

func TestSafeName(t *testing.T) {
	for in, want := range map[string]string{
		"report.csv": "report.csv", "../../etc/passwd": "_.._etc_passwd", "..": "", ".hidden": "hidden",
		"a\x00b\nc": "a_b_c", `C:\x\y.txt`: "C__x_y.txt", "  ": "",
		strings.Repeat("é", 150): strings.Repeat("é", 100), // 200 bytes, no character cut
	} {
		if got := safeName(in); got != want {
			t.Errorf("safeName(%q) = %q, want %q", in, got, want)
		}
	}
}
