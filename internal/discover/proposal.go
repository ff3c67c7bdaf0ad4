package discover

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Effects a skill declares: whether running it changes the site or app.
const (
	ReadOnly = "read_only"
	Mutating = "mutating"
)

// Param is a skill parameter as a proposal and a stored skill give it.
type Param struct {
	Name string `json:"name"`
	// Type is text, number, bool, url or secret: what an input may be
	// and a generated value can stand for.
	Type string `json:"type"`
}

// FinalState is the predicate a skill's run must leave true: every check
// given must hold. A {name} in it is replaced by the parameter's value of
// the run; a secret parameter may not appear in it, since the check is
// written down.
type FinalState struct {
	// URLContains must be part of the final address, compared with the
	// address's escapes decoded (q=Mount+Kenya reads q=Mount Kenya).
	URLContains string `json:"url_contains,omitempty"`
	// Shows are texts the final screen must show.
	Shows []string `json:"shows,omitempty"`
	// Elements are element descriptions in the language
	// (`link(name: "{title}")`) that must each anchor on the final screen.
	Elements []string `json:"elements,omitempty"`
}

// empty reports a predicate that checks nothing.
func (f FinalState) empty() bool {
	return f.URLContains == "" && len(f.Shows) == 0 && len(f.Elements) == 0
}

// Proposal is one skill the model proposes from the trajectories.
type Proposal struct {
	Name        string  `json:"name"`
	Description string  `json:"description"`
	Params      []Param `json:"params"`
	// ParameterSets are generated values, one map per run of the
	// dynamic validation; values are JSON strings, numbers or booleans.
	ParameterSets []map[string]any `json:"parameter_sets"`
	// Steps is the skill as the UI does it: a whole `skill` declaration.
	Steps string `json:"steps"`
	// API is the same skill as API calls (open of a GET form's URL, …),
	// a `skill` declaration with the same signature; "" when none exists.
	API    string `json:"api,omitempty"`
	Effect string `json:"effect"`
	// FinalState is checked after every validation run.
	FinalState FinalState `json:"final_state"`
}

// answer is the JSON the model answers with.
type answer struct {
	Skills []json.RawMessage `json:"skills"`
}

// fence matches a Markdown code fence around the answer.
var fence = regexp.MustCompile("(?s)^\\s*```[a-zA-Z]*\\s*\n(.*?)\n\\s*```\\s*$")

// parseAnswer reads the model's answer into proposals. A proposal that is
// not an object of the expected shape comes back with its error, located
// by its JSON path, so that the others still go on.
func parseAnswer(text string) ([]Proposal, []error, error) {
	if m := fence.FindStringSubmatch(text); m != nil {
		text = m[1]
	}
	var a answer
	if err := json.Unmarshal([]byte(text), &a); err != nil {
		return nil, nil, fmt.Errorf("the model's answer is not the JSON asked for: %v (answer begins %q)", jsonErr(err), clip(text, 80))
	}
	if a.Skills == nil {
		return nil, nil, fmt.Errorf("the model's answer has no \"skills\" list (answer begins %q)", clip(text, 80))
	}
	var out []Proposal
	var bad []error
	for i, raw := range a.Skills {
		var p Proposal
		if err := json.Unmarshal(raw, &p); err != nil {
			bad = append(bad, fmt.Errorf("$.skills[%d]: %v", i, jsonErr(err)))
			continue
		}
		out = append(out, p)
	}
	return out, bad, nil
}

// jsonErr says where a JSON error is.
func jsonErr(err error) string {
	switch e := err.(type) {
	case *json.SyntaxError:
		return fmt.Sprintf("%v at byte %d", e, e.Offset)
	case *json.UnmarshalTypeError:
		return fmt.Sprintf("%s must be %s, not %s", strings.TrimPrefix("."+e.Field, "."), e.Type, e.Value)
	}
	return err.Error()
}

// valueText turns a generated value into the text an input is given as.
func valueText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case bool:
		return strconv.FormatBool(x), true
	}
	return "", false
}

// placeholder is {name} in a predicate.
var placeholder = regexp.MustCompile(`\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// substitute fills the {name} placeholders of s with values, each through
// esc.
func substitute(s string, values map[string]string, esc func(string) string) string {
	return placeholder.ReplaceAllStringFunc(s, func(m string) string {
		v, ok := values[m[1:len(m)-1]]
		if !ok {
			return m
		}
		return esc(v)
	})
}

// clip shortens s to n characters.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
