package explore

import (
	"context"
	"maps"
	"testing"

	"github.com/cogflow/cogflow/runtime/knowledge"
)

// taskMemory is a memory that also keeps task knowledge.
type taskMemory struct {
	*memory
	tasks []knowledge.Task
}

func (m *taskMemory) SaveTask(t knowledge.Task) error {
	m.tasks = append(m.tasks, t)
	return nil
}

// TestExploreSavesTheCommand: a successful exploration keeps its command
// as task knowledge, the parameters' values written {name} in the intent,
// a secret parameter left out; a Memory without SaveTask is left alone.
func TestExploreSavesTheCommand(t *testing.T) {
	cases := []struct {
		command    string
		params     map[string]string
		secrets    []string
		wantIntent string
		wantParams map[string]string
	}{
		{"import contacts from a file", nil, nil, "import contacts from a file", nil},
		{"import contacts from Contacts.VCF", map[string]string{"file": "contacts.vcf"}, nil,
			"import contacts from {file}", map[string]string{"file": "contacts.vcf"}},
		{"import contacts.vcf with pin 4711", map[string]string{"file": "contacts.vcf", "pin": "4711"}, []string{"pin"},
			"import {file} with pin 4711", map[string]string{"file": "contacts.vcf"}},
		{"import contacts from contacts.vcf", map[string]string{"name": "contacts", "file": "contacts.vcf"}, nil,
			"import {name} from {file}", map[string]string{"name": "contacts", "file": "contacts.vcf"}},
	}
	for _, tc := range cases {
		mem := &taskMemory{memory: newMemory()}
		o := Options{Memory: mem, Command: tc.command, Params: tc.params, Secrets: tc.secrets}
		res, err := Explore(context.Background(), newFakeApp(androidURL, contactsScreens(), "list"), importGoal, o)
		if err != nil || !res.Reached {
			t.Fatalf("%q: err %v, reached %v", tc.command, err, res.Reached)
		}
		if len(mem.tasks) != 1 {
			t.Fatalf("%q: %d tasks saved, want 1", tc.command, len(mem.tasks))
		}
		got := mem.tasks[0]
		if got.Command != tc.command || got.Intent != tc.wantIntent || !maps.Equal(got.Params, tc.wantParams) || got.App == "" {
			t.Errorf("%q: saved %+v, want intent %q params %v", tc.command, got, tc.wantIntent, tc.wantParams)
		}
	}
	// A plain Memory still works: task knowledge is optional.
	if res, err := Explore(context.Background(), newFakeApp(androidURL, contactsScreens(), "list"), importGoal,
		Options{Memory: newMemory(), Command: "import contacts"}); err != nil || !res.Reached {
		t.Fatalf("plain memory: err %v, reached %v", err, res.Reached)
	}
}

// The project's store keeps task knowledge.
var _ TaskMemory = (*knowledge.Store)(nil)
