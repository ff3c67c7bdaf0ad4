package goal

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cogflow/cogflow/runtime/trace"
)

// Files of an evaluation folder: NAME.trace.json is a demonstration and
// NAME.goal.txt its reference goal.
const (
	TraceSuffix = ".trace.json"
	GoalSuffix  = ".goal.txt"
)

// Reference is the content of a NAME.goal.txt: the first line that is
// not a directive is the reference goal; `param: VALUE` lines are its
// parameters' values (default: its "quoted" parts; `params: none` says it
// has none); `mask: #ID` hides an element and what is inside it
// from the inference, `mask: TEXT` a text. The reference goal itself is
// always hidden.
type Reference struct {
	Goal   string
	Params []string
	Mask   MaskSpec
}

// ReadReference parses a NAME.goal.txt.
func ReadReference(path string) (*Reference, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := &Reference{}
	none := false // `params: none`: no parameters, not the quoted parts
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	n := 1
	for ; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		key, val, _ := strings.Cut(line, ":")
		val = strings.TrimSpace(val)
		switch {
		case line == "":
		case key == "param" && val == "":
			return nil, fmt.Errorf("%s:%d:1: an empty param", path, n)
		case key == "param":
			r.Params = append(r.Params, val)
		case key == "params" && val == "none":
			none = true
		case key == "params":
			return nil, fmt.Errorf("%s:%d:1: `params:` takes only `none` (a goal without parameters); give values with `param: VALUE`", path, n)
		case key == "mask" && strings.Trim(val, "# ") == "":
			// Nothing named: the instruction would go to the model unmasked.
			return nil, fmt.Errorf("%s:%d:1: an empty mask; use `mask: #ID` or `mask: TEXT`", path, n)
		case key == "mask" && strings.HasPrefix(val, "#"):
			r.Mask.IDs = append(r.Mask.IDs, val[1:])
		case key == "mask":
			r.Mask.Texts = append(r.Mask.Texts, val)
		case r.Goal == "":
			r.Goal = line
		default:
			return nil, fmt.Errorf("%s:%d:1: a second goal line; use `param: VALUE` or `mask: #ID|TEXT`", path, n)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d:1: %w", path, n, err)
	}
	if r.Goal == "" {
		return nil, fmt.Errorf("%s:1:1: no reference goal line", path)
	}
	switch {
	case none && len(r.Params) > 0:
		return nil, fmt.Errorf("%s:1:1: `params: none` and `param:` lines: give one or the other", path)
	case !none && len(r.Params) == 0:
		r.Params = quotedValues(r.Goal)
	}
	r.Mask.Texts = append(r.Mask.Texts, r.Goal)
	return r, nil
}

// quotedValues are the "quoted" parts of a sentence.
func quotedValues(s string) []string {
	var out []string
	parts := strings.Split(strings.NewReplacer("“", `"`, "”", `"`).Replace(s), `"`)
	for i := 1; i < len(parts); i += 2 {
		if v := strings.TrimSpace(parts[i]); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// Row is one demonstration's result.
type Row struct {
	Name      string
	Reference *Reference
	Masked    int // texts hidden before inferring
	Inferred  *Goal
	// Recovered counts the reference's parameter values among the
	// inferred ones (equal after case and white space); Extra the
	// inferred values that are none of them.
	Recovered, Extra int
	// Exact says the inferred sentence equals the reference (case,
	// white space, the kind of quotes and the final stop ignored).
	Exact   bool
	Verdict *Verdict
	Err     string
}

// AllParams says every reference parameter was recovered (and there was
// at least one).
func (r *Row) AllParams() bool {
	return r.Reference != nil && len(r.Reference.Params) > 0 && r.Recovered == len(r.Reference.Params)
}

// Report is an evaluation's rows, in name order.
type Report struct {
	Dir  string
	Rows []*Row
	// Source is SourceModel when the goals were asked of a model, even
	// if every request failed; else SourceRules (or empty).
	Source string
}

// Evaluate runs the protocol over a folder: for each NAME.trace.json with
// a NAME.goal.txt, hide what the reference says (the reference goal, the
// masked elements and texts), infer the goal from what is left, and judge
// the reference (with the demonstration) against the inferred goal (with
// the same demonstration). A demonstration that fails is a row with its
// error; the folder itself must hold at least one demonstration.
func Evaluate(ctx context.Context, dir string, opts Options) (*Report, error) {
	names, err := demonstrations(dir)
	if err != nil {
		return nil, err
	}
	rep := &Report{Dir: dir, Source: SourceRules}
	if opts.LLM != nil {
		rep.Source = SourceModel
	}
	for _, name := range names {
		if ctx.Err() != nil {
			return rep, ctx.Err()
		}
		rep.Rows = append(rep.Rows, evalOne(ctx, dir, name, opts))
	}
	return rep, nil
}

// demonstrations are the names with both files, sorted; a trace without
// a goal file is an error (a folder with a forgotten reference).
func demonstrations(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), TraceSuffix)
		if !ok || e.IsDir() {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, name+GoalSuffix)); err != nil {
			return nil, fmt.Errorf("%s: no reference goal %s%s next to it", filepath.Join(dir, e.Name()), name, GoalSuffix)
		}
		names = append(names, name)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s: no demonstrations (NAME%s with NAME%s)", dir, TraceSuffix, GoalSuffix)
	}
	sort.Strings(names)
	return names, nil
}

// evalOne is the protocol on one demonstration.
func evalOne(ctx context.Context, dir, name string, opts Options) *Row {
	row := &Row{Name: name}
	ref, err := ReadReference(filepath.Join(dir, name+GoalSuffix))
	if err != nil {
		row.Err = err.Error()
		return row
	}
	row.Reference = ref
	tr, err := trace.Load(filepath.Join(dir, name+TraceSuffix))
	if err != nil {
		row.Err = err.Error()
		return row
	}
	masked, n, err := Mask(tr, ref.Mask)
	if err != nil {
		row.Err = err.Error()
		return row
	}
	row.Masked = n
	g, err := Infer(ctx, masked, opts)
	if err != nil {
		row.Err = err.Error()
		return row
	}
	row.Inferred = g
	row.Recovered, row.Extra = compareParams(ref.Params, g.Params)
	row.Exact = sameSentence(ref.Goal, g.Sentence)
	v, err := Judge(ctx, Described{Goal: ref.Goal, Trace: masked}, Described{Goal: g.Sentence, Trace: masked}, opts)
	if err != nil {
		row.Err = err.Error()
		return row
	}
	row.Verdict = v
	return row
}

// compareParams counts the reference values found among the inferred
// ones, and the inferred values that match none.
func compareParams(ref []string, got []Param) (recovered, extra int) {
	used := make([]bool, len(got))
	for _, r := range ref {
		for i, p := range got {
			if !used[i] && sameValue(r, p.Value) {
				used[i] = true
				recovered++
				break
			}
		}
	}
	for _, u := range used {
		if !u {
			extra++
		}
	}
	return recovered, extra
}

func sameValue(a, b string) bool {
	trim := func(s string) string { return strings.Trim(normalize(s), ` "'.,;:!?`) }
	return trim(a) != "" && trim(a) == trim(b)
}

// sameSentence compares two sentences ignoring case, white space, the
// kind of quotes and the final stop.
func sameSentence(a, b string) bool {
	f := func(s string) string {
		s = strings.NewReplacer("“", `"`, "”", `"`, "‘", "'", "’", "'").Replace(normalize(s))
		return strings.TrimRight(s, ".!")
	}
	return f(a) == f(b)
}
