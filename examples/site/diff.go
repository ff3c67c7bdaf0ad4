package site

import (
	"encoding/json"
	"fmt"
	"sort"
)

// Diff lists what differs between two states, one line per changed field:
// `reading_list[1].title: "Attention" → "ATTENTION"`. It is what `cogflow
// demo run` shows after a run, and what a test can print when it fails.
func Diff(before, after State) []string {
	a, b := flatten(before), flatten(after)
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	var sorted []string
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	var out []string
	for _, k := range sorted {
		va, inA := a[k]
		vb, inB := b[k]
		switch {
		case !inA:
			out = append(out, fmt.Sprintf("%s: added %s", k, vb))
		case !inB:
			out = append(out, fmt.Sprintf("%s: removed (was %s)", k, va))
		case va != vb:
			out = append(out, fmt.Sprintf("%s: %s → %s", k, va, vb))
		}
	}
	return out
}

// flatten maps every leaf of the state's JSON form to its path.
func flatten(st State) map[string]string {
	data, _ := json.Marshal(st)
	var v any
	_ = json.Unmarshal(data, &v)
	out := map[string]string{}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				p := k
				if path != "" {
					p = path + "." + k
				}
				walk(p, x)
			}
		case []any:
			for i, x := range v {
				walk(fmt.Sprintf("%s[%d]", path, i), x)
			}
		default:
			b, _ := json.Marshal(v)
			out[path] = string(b)
		}
	}
	walk("", v)
	return out
}
