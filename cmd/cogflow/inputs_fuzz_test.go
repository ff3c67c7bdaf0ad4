package main

import (
	"strings"
	"testing"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/syntax"
	"github.com/cogflow/cogflow/runtime"
)

// fuzzTask has an input of every kind a value is parsed into.
func fuzzTask(tb testing.TB) *ast.Task {
	tb.Helper()
	f, diags := syntax.Parse("fuzz.cog", []byte(`task t "x" {
  driver browser
  input n: number
  input flag: bool = false
  input nums: list<number> = []
  input words: list<text> = []
  input pin: secret
  input note: text = ""
  op1 = open("http://127.0.0.1:1/")
}
`))
	if f == nil {
		tb.Fatal(diags)
	}
	task, err := runtime.TaskNamed(f, "")
	if err != nil {
		tb.Fatal(err)
	}
	return task
}

// FuzzInputFlag: any --input argument is either refused by the flag
// parser or parsed into one name and its value, and checking that value
// against the task's inputs never panics (NaN did, in cty).
func FuzzInputFlag(f *testing.F) {
	for _, s := range []string{"n=1", "n=NaN", "n=-Inf", "n=1e999", "n= 0x1p-2 ", "flag=maybe", "nums=[1, 2]", "nums=1, nan",
		"words=[\"a\",\"b\"]", "pin=s3cret", " note = a=b", "=x", "n", "", "unknown=1", "nums=[", "n=\u00a01"} {
		f.Add(s)
	}
	task := fuzzTask(f)
	f.Fuzz(func(t *testing.T, s string) {
		flags := inputFlags{}
		if err := flags.Set(s); err != nil {
			if strings.Contains(s, "=") && strings.TrimSpace(s[:strings.Index(s, "=")]) != "" {
				t.Fatalf("Set(%q) refused a name=value: %v", s, err)
			}
			return
		}
		if len(flags) != 1 {
			t.Fatalf("Set(%q) gave %d entries", s, len(flags))
		}
		for name, value := range flags {
			if name == "" || name != strings.TrimSpace(name) || !strings.HasSuffix(s, "="+value) {
				t.Fatalf("Set(%q) = %q: %q", s, name, value)
			}
		}
		err := checkInputValues(task, flags, func(name string) string { return "--input " + name })
		if pin, ok := flags["pin"]; ok && err != nil && len(pin) > 3 && strings.Contains(err.Error(), pin) {
			t.Fatalf("the error shows the secret: %v", err)
		}
		_ = checkInputs(task, []map[string]string{flags})
	})
}

// FuzzInputRows: any --inputs CSV is either refused with an error naming
// the file or read into rows whose names are the header's (none empty,
// none beginning or ending with white space or a byte-order mark), and
// checking the rows never panics.
func FuzzInputRows(f *testing.F) {
	for _, s := range []string{"n\n1\n", "\ufeffn,flag\n1,true\n", "n,pin\nNaN,x\n", "n,n\n1,2\n", "n,\n1,2\n", "n\n\"1\n", "n,flag\n1\n",
		"n,nums\n2,\"[1,Inf]\"\n", "\ufeff\n", "a\"b\n1\n", "n\r\n3\r\n"} {
		f.Add([]byte(s))
	}
	task := fuzzTask(f)
	base := map[string]string{"note": "from the command line"}
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, err := parseInputRows("rows.csv", data, base)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "rows.csv") {
				t.Fatalf("error without the file's name: %v", err)
			}
			return
		}
		if len(rows) == 0 {
			t.Fatal("no rows and no error")
		}
		for _, row := range rows {
			for name := range row {
				if name == "" || name != trimName(name) {
					t.Fatalf("input name %q", name)
				}
			}
			if len(row) != len(rows[0]) {
				t.Fatalf("rows of different shapes: %v", rows)
			}
		}
		if err := checkInputRows(task, rows, "rows.csv"); err != nil && !strings.HasPrefix(err.Error(), "rows.csv: row ") {
			t.Fatalf("error without the file and row: %v", err)
		}
	})
}
