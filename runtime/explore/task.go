package explore

import (
	"slices"
	"strings"
	"time"

	"github.com/cogflow/cogflow/runtime/knowledge"
)

// TaskMemory is a Memory that also keeps task knowledge: the commands
// explorations carried out, their intents and their parameters. It is
// optional so that a Memory for one run need not keep it.
type TaskMemory interface {
	SaveTask(knowledge.Task) error
}

// task is the command this exploration carried out, as task knowledge:
// its intent is the command with every parameter's value written {name},
// so that "import contacts from backup.vcf" with file=backup.vcf is the
// same intent as the same command with another file. Secret parameters
// are left out of both.
func (e *explorer) task(now time.Time) knowledge.Task {
	t := knowledge.Task{App: e.app, Command: e.command, Intent: e.command, Saved: now}
	names := make([]string, 0, len(e.o.Params))
	for name, v := range e.o.Params {
		if v != "" && !slices.Contains(e.o.Secrets, name) {
			names = append(names, name)
		}
	}
	// Longer values first, so that a value inside another is not
	// replaced in the middle of the longer one.
	slices.SortFunc(names, func(a, b string) int { return len(e.o.Params[b]) - len(e.o.Params[a]) })
	for _, name := range names {
		if t.Params == nil {
			t.Params = map[string]string{}
		}
		t.Params[name] = e.o.Params[name]
		t.Intent = replaceFold(t.Intent, e.o.Params[name], "{"+name+"}")
	}
	return t
}

// replaceFold replaces every case-insensitive occurrence of old in s.
func replaceFold(s, old, repl string) string {
	lower, lowerOld := strings.ToLower(s), strings.ToLower(old)
	if len(lower) != len(s) || len(lowerOld) != len(old) {
		return strings.ReplaceAll(s, old, repl) // case folding changed lengths: exact only
	}
	var b strings.Builder
	for {
		i := strings.Index(lower, lowerOld)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		b.WriteString(repl)
		s, lower = s[i+len(old):], lower[i+len(old):]
	}
}
