package runtime_test

import (
	"testing"

	"github.com/cogflow/cogflow/lang/syntax"
	"github.com/cogflow/cogflow/runtime"
)

func TestTaskNamedDriverOfStepPolicy(t *testing.T) {
	src := `task first "One" {
  driver android
  op1 = click(button(name: "A"), in_doubt: "skip")
}

task second "Two" {
  for x in ["a"] {
    op1 = click(button(name: "B"), in_doubt: "redo")
  }
}
`
	f, diags := syntax.Parse("two.cog", []byte(src))
	if f == nil {
		t.Fatal(diags.Err())
	}
	for _, tt := range []struct {
		name, task, driver, err string
	}{
		{"", "first", "android", ""},
		{"second", "second", "browser", ""},
		{"third", "", "", "two.cog has no task third (tasks: first, second)"},
	} {
		task, err := runtime.TaskNamed(f, tt.name)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("TaskNamed(%q): error %v, want %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil || task.Name.Name != tt.task || runtime.DriverOf(task) != tt.driver {
			t.Errorf("TaskNamed(%q) = %v (driver %s), %v", tt.name, task.Name.Name, runtime.DriverOf(task), err)
		}
	}
	for _, tt := range []struct {
		step string
		line int
		want string
	}{
		{"op1", 3, "skip"}, {"op1", 8, "redo"}, {"op1", 4, ""}, {"op2", 3, ""},
	} {
		if got := runtime.StepPolicy(f, tt.step, tt.line); got != tt.want {
			t.Errorf("StepPolicy(%s, line %d) = %q, want %q", tt.step, tt.line, got, tt.want)
		}
	}
}
