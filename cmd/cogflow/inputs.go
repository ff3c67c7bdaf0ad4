package main

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"unicode"

	"github.com/cogflow/cogflow/internal/readlimit"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime"
)

// inputFlags collects repeated name=value flags: --input gives the value
// itself, --input-env the environment variable holding it, --input-file
// the file holding it.
type inputFlags map[string]string

func (f inputFlags) String() string { return fmt.Sprint(map[string]string(f)) }

// Set implements flag.Value.
func (f inputFlags) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(name) == "" {
		return fmt.Errorf("want name=value, got %q", s)
	}
	f[strings.TrimSpace(name)] = value
	return nil
}

// inputSources are the run command's three ways to give an input's value.
type inputSources struct {
	plain inputFlags // --input NAME=VALUE
	env   inputFlags // --input-env NAME=VAR
	file  inputFlags // --input-file NAME=PATH, PATH "-" for standard input
}

// resolve reads the values given through the environment and files and
// returns every given value, with where each came from ("--input-env
// pin=PIN") for error messages. A name given twice is an error: which one
// was meant cannot be known.
func (s inputSources) resolve(stdin io.Reader) (values map[string]string, where map[string]string, err error) {
	values, where = map[string]string{}, map[string]string{}
	add := func(flag, name, value string) error {
		if prev, ok := where[name]; ok {
			return fmt.Errorf("input %s is given twice: %s and %s", name, prev, flag)
		}
		values[name], where[name] = value, flag
		return nil
	}
	for _, name := range sortedKeys(s.plain) {
		if err := add("--input "+name, name, s.plain[name]); err != nil {
			return nil, nil, err
		}
	}
	for _, name := range sortedKeys(s.env) {
		flag := "--input-env " + name + "=" + s.env[name]
		v, ok := os.LookupEnv(s.env[name])
		if !ok {
			return nil, nil, fmt.Errorf("%s: the environment variable %s is not set", flag, s.env[name])
		}
		if err := add(flag, name, v); err != nil {
			return nil, nil, err
		}
	}
	stdinUsed := ""
	for _, name := range sortedKeys(s.file) {
		path := s.file[name]
		flag := "--input-file " + name + "=" + path
		var data []byte
		var err error
		if path == "-" {
			if stdinUsed != "" {
				return nil, nil, fmt.Errorf("%s: standard input already gives input %s", flag, stdinUsed)
			}
			stdinUsed = name
			data, err = readlimit.Reader(stdin, "standard input", "an input value", maxInputFileSize)
		} else {
			data, err = readlimit.File(path, "an input value", maxInputFileSize)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", flag, err)
		}
		if err := add(flag, name, trimNewline(string(data))); err != nil {
			return nil, nil, err
		}
	}
	return values, where, nil
}

// trimNewline drops the one line ending that `echo` and editors add.
func trimNewline(s string) string {
	if t, ok := strings.CutSuffix(s, "\n"); ok {
		return strings.TrimSuffix(t, "\r")
	}
	return s
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// inputDecls lists the task's inputs in declaration order.
func inputDecls(t *ast.Task) []*ast.InputDecl {
	var out []*ast.InputDecl
	for _, s := range t.Body.Stmts {
		if in, ok := s.(*ast.InputDecl); ok {
			out = append(out, in)
		}
	}
	return out
}

func isSecretInput(in *ast.InputDecl) bool { return strings.Contains(in.Type.String(), "secret") }

// checkInputs checks the inputs of every run before anything starts:
// each name is an input of the task, each value is of its input's type,
// and each input without a default has a value. rows holds one set of
// values per run; with several, errors name the row (row 1 is the first).
func checkInputs(task *ast.Task, rows []map[string]string) error {
	return checkInputRows(task, rows, "")
}

// checkInputRows is checkInputs for rows read from the CSV file csvPath
// (when not empty): errors name the file, the row and the column.
func checkInputRows(task *ast.Task, rows []map[string]string, csvPath string) error {
	for i, row := range rows {
		where := func(name string) string { return "input " + name }
		prefix := ""
		switch {
		case csvPath != "":
			prefix = fmt.Sprintf("%s: row %d: ", csvPath, i+1)
			where = func(name string) string { return fmt.Sprintf("%s: row %d, column %s", csvPath, i+1, name) }
		case len(rows) > 1:
			prefix = fmt.Sprintf("row %d: ", i+1)
			where = func(name string) string { return fmt.Sprintf("row %d: input %s", i+1, name) }
		}
		if err := checkInputValues(task, row, where); err != nil {
			return err
		}
		for _, in := range inputDecls(task) {
			if _, ok := row[in.Name.Name]; !ok && in.Default == nil {
				n := in.Name.Name
				return fmt.Errorf("%sinput %s has no value: give it with --input %s=…, --input-env %s=VAR or --input-file %s=PATH", prefix, n, n, n, n)
			}
		}
	}
	return nil
}

// checkInputValues checks that every name in values is an input of the
// task and every value is of its input's type; where(name) says where a
// value came from, to begin the error. A secret's value is never shown.
func checkInputValues(task *ast.Task, values map[string]string, where func(name string) string) error {
	decls := map[string]*ast.InputDecl{}
	var names []string
	for _, in := range inputDecls(task) {
		decls[in.Name.Name] = in
		names = append(names, in.Name.Name)
	}
	for _, name := range sortedKeys(values) {
		in, ok := decls[name]
		switch {
		case !ok && len(names) == 0:
			return fmt.Errorf("%s: task %s has no inputs", where(name), task.Name.Name)
		case !ok:
			return fmt.Errorf("%s: task %s has no input %q (its inputs: %s)", where(name), task.Name.Name, name, strings.Join(names, ", "))
		}
		if err := runtime.CheckInput(in, values[name]); err != nil {
			if isSecretInput(in) {
				return fmt.Errorf("%s: not a value of type %s", where(name), in.Type)
			}
			return fmt.Errorf("%s: %w", where(name), err)
		}
	}
	return nil
}

// plainSecrets lists the secret inputs given with plain --input, whose
// value any user of the machine can read in the process list.
func plainSecrets(task *ast.Task, plain inputFlags) []string {
	var out []string
	for _, in := range inputDecls(task) {
		if _, ok := plain[in.Name.Name]; ok && isSecretInput(in) {
			out = append(out, in.Name.Name)
		}
	}
	return out
}

// readInputRows reads a CSV whose header names inputs; flags given with
// --input apply to every row unless the row sets them.
func readInputRows(path string, base map[string]string) ([]map[string]string, error) {
	data, err := readlimit.File(path, "an inputs CSV file", maxInputsCSVSize)
	if err != nil {
		return nil, err
	}
	return parseInputRows(path, data, base)
}

// utf8BOM is the byte-order mark some spreadsheet programs write first.
const utf8BOM = "\ufeff"

// trimName trims a header cell to the input name it gives: white space
// and stray byte-order marks (a spreadsheet's, after a space) are no part
// of a name.
func trimName(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '\ufeff' })
}

// parseInputRows is readInputRows for a CSV already in memory.
func parseInputRows(path string, data []byte, base map[string]string) ([]map[string]string, error) {
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte(utf8BOM))))
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: no header row: %w", path, err)
	}
	seen := map[string]bool{}
	for i, name := range header {
		name = trimName(name)
		switch {
		case name == "":
			return nil, fmt.Errorf("%s: column %d of the header has no name", path, i+1)
		case seen[name]:
			return nil, fmt.Errorf("%s: the header names column %s twice", path, name)
		}
		seen[name], header[i] = true, name
	}
	var rows []map[string]string
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		row := map[string]string{}
		for k, v := range base {
			row[k] = v
		}
		for i, name := range header {
			row[name] = rec[i]
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s has a header but no rows", path)
	}
	return rows, nil
}

// runInputs gathers and checks the inputs of every run before anything
// starts: the values from the command line, the environment, files and
// the --inputs CSV. It warns on stderr about a secret given with plain
// --input. On return cfg.inputs holds every value given on the command
// line, whatever its source. A resume checks the values given but does
// not require every input: the run it resumes has them.
func (c *cli) runInputs(task *ast.Task, cfg *runConfig) ([]map[string]string, error) {
	for _, name := range plainSecrets(task, cfg.inputs) {
		fmt.Fprintf(c.stderr, "cogflow run: warning: the secret input %s is given with --input, where every user of this machine can read it (ps, /proc/PID/cmdline); give it with --input-env %s=VAR or --input-file %s=PATH\n", name, name, name)
	}
	values, where, err := inputSources{plain: cfg.inputs, env: cfg.inputEnv, file: cfg.inputFile}.resolve(c.stdin)
	if err != nil {
		return nil, err
	}
	cfg.inputs = values
	if err := checkInputValues(task, values, func(name string) string { return where[name] }); err != nil {
		return nil, err
	}
	if cfg.inputsCSV == "" {
		rows := []map[string]string{values}
		if cfg.resume || cfg.resumeFrom != "" {
			return rows, nil // the resumed run's journal gives the inputs not given again
		}
		return rows, checkInputs(task, rows)
	}
	rows, err := readInputRows(cfg.inputsCSV, values)
	if err != nil {
		return nil, err
	}
	return rows, checkInputRows(task, rows, cfg.inputsCSV)
}
