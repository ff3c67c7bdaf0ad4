package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/trace"
)

// TestCompileNoAPIFirst: `compile` opens a proven GET form's address;
// --no-api-first keeps the typing and the submission; both are in the help.
func TestCompileNoAPIFirst(t *testing.T) {
	isolateConfig(t)
	tr := filepath.Join("testdata", "apifirst", "search.trace.json")
	for _, tc := range []struct {
		name          string
		args          []string
		want, notWant []string
	}{
		{"api-first", []string{"compile", "--no-llm", "--dir", t.TempDir(), tr},
			[]string{`op2 = open("http://127.0.0.1:8088/wiki?q=" + urlquery(search))`, "# api-first: "}, []string{"  op2 = type("}},
		{"no-api-first", []string{"compile", "--no-llm", "--no-api-first", "--dir", t.TempDir(), tr},
			[]string{"op2 = type(", "op3 = enter()"}, []string{"urlquery("}},
		{"help", []string{"compile", "-h"}, []string{"[--no-api-first]", "-no-api-first"}, nil},
		{"record help", []string{"record", "-h"}, []string{"[--no-api-first]", "-no-api-first"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runCLI(t, "", tc.args...)
			if r.code != exitOK {
				t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.stdout, w) {
					t.Errorf("output lacks %s:\n%s", w, r.stdout)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(r.stdout, w) {
					t.Errorf("output has %s:\n%s", w, r.stdout)
				}
			}
		})
	}
}

// `record --no-api-first` drops every form fact, the compiler's only proof.
func TestDropFormFacts(t *testing.T) {
	tr, err := trace.Load(filepath.Join("testdata", "apifirst", "search.trace.json"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, s := range tr.Snapshots {
		for _, el := range s.Elements {
			if el.Form != nil {
				n++
			}
		}
	}
	if n == 0 {
		t.Fatal("the test trace has no form facts")
	}
	dropFormFacts(tr)
	dropFormFacts(nil) // a recording that produced no trace
	for id, s := range tr.Snapshots {
		for i, el := range s.Elements {
			if el.Form != nil {
				t.Errorf("snapshot %s element %d keeps its form facts", id, i)
			}
		}
	}
}
