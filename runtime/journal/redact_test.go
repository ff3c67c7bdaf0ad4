package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/redact"
)

// secrets that take different forms in JSON, %q and URLs.
var testSecrets = []string{
	"hunter2",
	`p@ss "w0rd" \ <&>`,
	"pässwörd✓",
	"tok en/with?q=1&r=2",
	"line1\nline2\t",
}

// forms lists the ways a secret can show up in a file.
func forms(s string) []string {
	out := []string{s, jsonEscape(s, false), jsonEscape(s, true), quoteInner(strconv.Quote(s)),
		quoteInner(strconv.QuoteToASCII(s)), url.QueryEscape(s), url.PathEscape(s)}
	if t := strings.TrimSpace(s); t != "" {
		out = append(out, t)
	}
	return out
}

// jsonEscape is s between the quotes of a JSON string, written here
// independently of the redactor.
func jsonEscape(s string, html bool) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(html)
	if err := enc.Encode(s); err != nil {
		panic(err)
	}
	return quoteInner(strings.TrimSuffix(b.String(), "\n"))
}

func quoteInner(q string) string { return q[1 : len(q)-1] }

func TestRedaction(t *testing.T) {
	type plant struct {
		meta   func(m *RunMeta, s string)
		act    func(t *testing.T, w *Writer, s string)
		finish func(s string) error
	}
	step := func(ev StepEvent) func(*testing.T, *Writer, string) {
		return func(t *testing.T, w *Writer, s string) { must(t, w.Step(ev)) }
	}
	cases := map[string]func(s string) plant{
		"arg value": func(s string) plant {
			return plant{act: step(StepEvent{Step: "op2", Op: "type", Args: []Arg{{Name: "text", Value: "user:" + s + ":end", Source: SourceInput}}})}
		},
		"arg name": func(s string) plant {
			return plant{act: step(StepEvent{Step: "op2", Op: "type", Args: []Arg{{Name: s, Value: "v"}}})}
		},
		"value": func(s string) plant {
			return plant{act: step(StepEvent{Step: "op5", Op: "select_text", Value: "the password is " + s + ".", Source: SourceLLM})}
		},
		"value holding JSON": func(s string) plant {
			j, _ := json.Marshal(map[string]string{"pw": s}) // HTML-escaped, as json.Marshal does
			return plant{act: step(StepEvent{Step: "op5", Op: "copy", Value: string(j)})}
		},
		"value holding a URL": func(s string) plant {
			return plant{act: step(StepEvent{Step: "op1", Op: "open", Value: "https://x.test/login?pw=" + url.QueryEscape(s) + "#" + url.PathEscape(s)})}
		},
		"step error": func(s string) plant {
			return plant{act: step(StepEvent{Step: "op2", Op: "type", Outcome: Failed, Error: fmt.Sprintf("typing %q into textbox: element gone; raw: %s", s, s)})}
		},
		"loop key, iteration and interruption": func(s string) plant {
			loop := []LoopPos{{Var: "row", Index: 3, Key: s}}
			return plant{act: func(t *testing.T, w *Writer, _ string) {
				must(t, w.Step(StepEvent{Step: "op1", Op: "click", Loop: loop}))
				must(t, w.IterationDone("t", loop))
				must(t, w.Interrupted(Position{Task: "t", Step: "op2", Loop: loop}))
			}, finish: func(string) error { return errors.New("interrupted") }}
		},
		"step name and screenshot": func(s string) plant {
			return plant{act: func(t *testing.T, w *Writer, s string) {
				name, err := w.Screenshot("op_"+s, []byte("png"))
				must(t, err)
				must(t, w.Step(StepEvent{Step: "op_" + s, Task: s, Op: s, Screenshot: name}))
			}}
		},
		"input value": func(s string) plant {
			return plant{meta: func(m *RunMeta, s string) { m.Inputs = map[string]string{"password": s, "user": "ann"} }}
		},
		"input key": func(s string) plant {
			return plant{meta: func(m *RunMeta, s string) { m.Inputs = map[string]string{s: "x"} }}
		},
		"workflow path and task": func(s string) plant {
			return plant{meta: func(m *RunMeta, s string) { m.Workflow, m.Task = "/home/"+s+"/w.cog", "task_"+s }}
		},
		"finish error": func(s string) plant {
			return plant{finish: func(s string) error { return fmt.Errorf("login as %q: %w", s, errors.New("denied: "+s)) }}
		},
		"source and outcome fields": func(s string) plant {
			return plant{act: step(StepEvent{Step: "op1", Op: "click", Source: Source(s), Outcome: Outcome(s)})}
		},
	}
	for name, mk := range cases {
		for i, secret := range testSecrets {
			t.Run(fmt.Sprintf("%s/%d", name, i), func(t *testing.T) {
				setClock(t, t0, time.Millisecond)
				root := t.TempDir()
				p := mk(secret)
				m := meta("t")
				m.Secrets = redact.New("", "other-secret", secret)
				if p.meta != nil {
					p.meta(&m, secret)
				}
				w := mustOpen(t, root, m)
				// a step that holds no secret is written as it is
				must(t, w.Step(StepEvent{Step: "op0", Op: "click", Value: "plain", Source: SourceStructural}))
				if p.act != nil {
					p.act(t, w, secret)
				}
				var ferr error
				if p.finish != nil {
					ferr = p.finish(secret)
				}
				must(t, w.Finish("", ferr))

				assertNoSecret(t, w.Dir(), secret)
				all := readAll(t, w.Dir())
				if !bytes.Contains(all, []byte(Redacted)) {
					t.Errorf("no %s in the run directory: the secret was dropped rather than redacted", Redacted)
				}
				run, err := Load(root, w.ID())
				if err != nil {
					t.Fatal(err)
				}
				if s0 := run.Steps[0]; s0.Value != "plain" || s0.Outcome != OK || s0.Source != SourceStructural {
					t.Errorf("a step without secrets changed: %+v", s0)
				}
			})
		}
	}
}

// assertNoSecret greps every file name and every byte of every file in dir.
func assertNoSecret(t *testing.T, dir, secret string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		for _, f := range forms(secret) {
			if strings.Contains(rel, f) {
				t.Errorf("file name %q holds the secret (as %q)", rel, f)
			}
		}
		if d.IsDir() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, f := range forms(secret) {
			if i := bytes.Index(b, []byte(f)); i >= 0 {
				t.Errorf("%s holds the secret (as %q): …%s…", rel, f, b[max(0, i-40):min(len(b), i+len(f)+40)])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func readAll(t *testing.T, dir string) []byte {
	t.Helper()
	var all []byte
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	return all
}

// TestRedactionLeavesCallerAlone: the Writer redacts a copy; the caller's
// event, with its slices and pointers, keeps the real values.
func TestRedactionLeavesCallerAlone(t *testing.T) {
	root := t.TempDir()
	m := meta("t")
	m.Secrets = redact.New("hunter2")
	m.Inputs = map[string]string{"pw": "hunter2"}
	w := mustOpen(t, root, m)
	ev := StepEvent{Step: "op1", Op: "type", Args: []Arg{{Value: "hunter2"}}, Loop: []LoopPos{{Var: "r", Key: "hunter2"}}, Value: "hunter2"}
	must(t, w.Step(ev))
	must(t, w.Finish(OK, nil))
	if ev.Args[0].Value != "hunter2" || ev.Loop[0].Key != "hunter2" || ev.Value != "hunter2" || m.Inputs["pw"] != "hunter2" {
		t.Errorf("caller's values were changed: %+v %v", ev, m.Inputs)
	}
}

// TestRedactionLearns: a secret the run derives after the journal was
// opened (an item of a list<secret>, lower(pin)) is redacted from the
// events written after it was learned, and from the summary.
func TestRedactionLearns(t *testing.T) {
	root := t.TempDir()
	m := meta("t")
	m.Secrets = redact.New("Hunter2")
	w := mustOpen(t, root, m)
	m.Secrets.Derive("hunter2", "item-one")
	must(t, w.Step(StepEvent{Step: "op1", Op: "type", Args: []Arg{{Name: "text", Value: "hunter2"}}, Value: "hunter2",
		Loop: []LoopPos{{Var: "p", Key: "item-one"}}}))
	must(t, w.IterationDone("t", []LoopPos{{Var: "p", Key: "item-one"}}))
	must(t, w.Finish(Failed, errors.New(`typing "hunter2": item-one failed`)))
	for _, b := range [][]byte{readAll(t, w.Dir())} {
		for _, s := range []string{"hunter2", "Hunter2", "item-one"} {
			if bytes.Contains(b, []byte(s)) {
				t.Errorf("%q written in clear:\n%s", s, b)
			}
		}
		if !bytes.Contains(b, []byte(Redacted)) {
			t.Errorf("nothing redacted:\n%s", b)
		}
	}
}

func TestRedactorString(t *testing.T) {
	tests := []struct {
		name    string
		secrets []string
		in      string
		want    string
	}{
		{"no secrets", nil, "hunter2", "hunter2"},
		{"empty secret ignored", []string{""}, "abc", "abc"},
		{"one-char secret", []string{"x"}, "axbx", "a[secret]b[secret]"},
		{"every occurrence", []string{"pw"}, "pw pw", "[secret] [secret]"},
		{"longest first", []string{"abc", "abcdef"}, "xabcdefx", "x[secret]x"},
		{"overlapping secrets", []string{"xab", "abcd"}, "xabcd", "[secret]cd"},
		{"JSON-escaped form", []string{`a"b\c`}, `{"v":"a\"b\\c"}`, `{"v":"[secret]"}`},
		{"HTML-escaped JSON form", []string{"<a&b>"}, `"\u003ca\u0026b\u003e"`, `"[secret]"`},
		{"%q form", []string{"é\x01"}, `"é\x01"`, `"[secret]"`},
		{"%q ASCII form", []string{"é"}, `"\u00e9"`, `"[secret]"`},
		{"URL form", []string{"a b&c"}, "?q=a+b%26c", "?q=[secret]"},
		{"path form", []string{"a b/c"}, "/x/a%20b%2Fc", "/x/[secret]"},
		{"surrounding space trimmed", []string{" pw "}, "the pw.", "the [secret]."},
		{"secret made by a replacement", []string{"pw", "t]]"}, "a pw]] b", "[secret]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRedactor(redact.New(tc.secrets...))
			got := r.String(tc.in)
			if got != tc.want {
				t.Errorf("String(%q) = %q, want %q", tc.in, got, tc.want)
			}
			for _, s := range tc.secrets {
				if s != "" && strings.Contains(got, s) {
					t.Errorf("%q survived in %q", s, got)
				}
			}
		})
	}
}
