package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
)

// inputFlags collects repeated --input name=value flags.
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

// secretValues lists the values given for secret inputs, for redaction.
func secretValues(t *ast.Task, inputs map[string]string) []string {
	var out []string
	for _, s := range t.Body.Stmts {
		if in, ok := s.(*ast.InputDecl); ok && strings.Contains(in.Type.String(), "secret") {
			if v, ok := inputs[in.Name.Name]; ok && v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}

// readInputRows reads a CSV whose header names inputs; flags given with
// --input apply to every row unless the row sets them.
func readInputRows(path string, base map[string]string) ([]map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	header, err := r.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: no header row: %w", path, err)
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
			row[strings.TrimSpace(name)] = rec[i]
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s has a header but no rows", path)
	}
	return rows, nil
}
