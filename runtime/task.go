package runtime

import (
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
)

// TaskNamed returns the task called name in f, or its first task when name
// is "".
func TaskNamed(f *ast.File, name string) (*ast.Task, error) {
	var names []string
	for _, d := range f.Decls {
		if t, ok := d.(*ast.Task); ok {
			if name == "" || t.Name.Name == name {
				return t, nil
			}
			names = append(names, t.Name.Name)
		}
	}
	if name == "" {
		return nil, fmt.Errorf("%s has no task", f.Name)
	}
	return nil, fmt.Errorf("%s has no task %s (tasks: %s)", f.Name, name, strings.Join(names, ", "))
}

// DriverOf names the driver a task runs with: its driver declaration,
// "browser" without one.
func DriverOf(t *ast.Task) string {
	for _, s := range t.Body.Stmts {
		if d, ok := s.(*ast.DriverDecl); ok {
			return d.Name.Name
		}
	}
	return "browser"
}
