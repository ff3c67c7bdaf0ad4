package trace

import (
	"strings"
	"testing"
)

// Form facts are proof for the compiler's api-first stage: a malformed one
// is an error naming its JSON path, a well-formed one reads back as it was.
func TestFormFacts(t *testing.T) {
	const head = `{"format":"cogflow-trace","version":1,"driver":"browser","events":[` +
		`{"id":"e1","time":0,"kind":"input","target":{"ref":"a"},"snapshot":"s1"}],` +
		`"snapshots":{"s1":{"elements":[{"ref":"a","parent":-1,"form":`
	for _, tc := range []struct {
		name, form, err string
	}{
		{"ok", `{"action":"http://h/wiki","method":"get","field":"q","hidden":0,"filled":["lang"],"script":"none"}`, ""},
		{"relative action", `{"action":"/wiki","method":"get","hidden":0,"script":"none"}`, `$.snapshots.s1.elements[0].form.action: "/wiki" is not an absolute address`},
		{"method", `{"action":"http://h/","method":"put","hidden":0,"script":"none"}`, `form.method`},
		{"script", `{"action":"http://h/","method":"get","hidden":0,"script":"maybe"}`, `form.script`},
		{"negative hidden", `{"action":"http://h/","method":"get","hidden":-1,"script":"none"}`, `form.hidden`},
		{"empty filled name", `{"action":"http://h/","method":"get","hidden":0,"filled":[""],"script":"none"}`, `form.filled[0]: empty field name`},
		{"script missing", `{"action":"http://h/","method":"get","hidden":0}`, `script`},
		{"unknown field", `{"action":"http://h/","method":"get","hidden":0,"script":"none","values":{}}`, `values`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := Parse([]byte(head + tc.form + `}]}}}`))
			if tc.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				f := tr.Snapshots["s1"].Elements[0].Form
				if f == nil || f.Action != "http://h/wiki" || f.Field != "q" || f.Script != FormScriptNone || len(f.Filled) != 1 {
					t.Errorf("form = %+v", f)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("error = %v, want one containing %q", err, tc.err)
			}
		})
	}
}
