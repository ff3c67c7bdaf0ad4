package compiler

// Parsing the extractor's reply: robust to chatter and formatting,
// strict about what a line may say.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/stdlib/kb"
)

// fence keeps a value from closing its data fence.
func fence(s string) string { return strings.ReplaceAll(s, "```", "'''") }

var (
	reLead   = regexp.MustCompile("^[\\s>*•`#-]*(?:\\d+[.)]\\s*)?[\\s*`]*")
	reOpLine = regexp.MustCompile(`^(?i:(op\d+))\s*(?:=|:|->|→)\s*(.*)$`)
	reDep    = regexp.MustCompile(`^([A-Za-z_]\w*)(?:\s*\.\s*([A-Za-z_]\w*))?\s*<\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([^<>"]*))\s*>\s*\(([^()]*)\)`)
	reGoal   = regexp.MustCompile(`^(?i:goal)\s*[:=]\s*(.+)$`)
	reParams = regexp.MustCompile(`^(?i:param(?:eter)?s?)\s*[:=]\s*(.*)$`)
	reIdent  = regexp.MustCompile(`^[A-Za-z_]\w*$`)
)

// parseSemanticReply parses an extractor reply. steps are the step names in
// order, inputs the names a dependency may also take. Lines that are not
// reply lines are ignored; a reply line that does not parse or validate is
// dropped with a warning. It never fails.
func parseSemanticReply(reply string, k *kb.KB, steps, inputs []string) *semanticReply {
	if k == nil {
		k = kb.Default()
	}
	p := &replyParser{k: k, r: &semanticReply{}, pos: map[string]int{}, isInput: map[string]bool{}}
	for i, s := range steps {
		p.pos[s] = i
	}
	for _, s := range inputs {
		p.isInput[s] = true
	}
	for _, raw := range strings.Split(reply, "\n") {
		line := strings.TrimSpace(reLead.ReplaceAllString(strings.TrimSpace(raw), ""))
		line = strings.TrimRight(line, "`* ")
		switch {
		case line == "":
		case reGoal.MatchString(line):
			if g := strings.Trim(strings.TrimSpace(reGoal.FindStringSubmatch(line)[1]), "\"'`*"); g != "" {
				p.r.Goal = g
			}
		case reParams.MatchString(line):
			p.params(reParams.FindStringSubmatch(line)[1])
		default:
			p.opLine(line)
		}
	}
	return p.r
}

// replyParser holds what parseSemanticReply checks lines against.
type replyParser struct {
	k       *kb.KB
	r       *semanticReply
	pos     map[string]int // step name → its place
	isInput map[string]bool
}

// warn records a dropped or corrected line about the step op ("" when
// the line names no step that exists).
func (p *replyParser) warn(op, format string, args ...any) {
	p.r.Warnings = append(p.r.Warnings, replyWarning{Step: op, Message: fmt.Sprintf(format, args...)})
}

// params reads "params: keyword, date" (or "keyword: text", "none").
func (p *replyParser) params(list string) {
	p.r.Params = nil
	for _, name := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ';' }) {
		name = strings.Trim(strings.TrimSpace(name), "\"'`*")
		if i := strings.IndexAny(name, " :("); i > 0 { // "keyword: text", "keyword (the mountain)"
			name = name[:i]
		}
		if name = identName(name); name != "" && strings.ToLower(name) != "none" {
			p.r.Params = append(p.r.Params, name)
		}
	}
}

// opLine reads "opK = …": fixed, input or a dependency; anything else is
// chatter or reasoning and is skipped.
func (p *replyParser) opLine(line string) {
	m := reOpLine.FindStringSubmatch(line)
	if m == nil {
		return // chatter
	}
	op, rhs := strings.ToLower(m[1]), strings.TrimSpace(m[2])
	word := strings.ToLower(strings.Trim(strings.SplitN(rhs+" ", " ", 2)[0], "\"'`*.,;"))
	if !strings.HasPrefix(strings.TrimSpace(line[len(m[1]):]), "=") && word != "fixed" && word != "input" && !reDep.MatchString(rhs) {
		return // "op4: the person clicked …" is reasoning, not a reply line
	}
	i, known := p.pos[op]
	switch {
	case !known:
		p.warn("", "semantic: %q: there is no step %s; line dropped", clipLine(line), op)
	case p.r.Dep(op) != nil:
		p.warn(op, "semantic: %q: %s was already given; line dropped", clipLine(line), op)
	case word == "fixed" || word == "input":
		p.r.Deps = append(p.r.Deps, &semanticDep{Op: op, Kind: word})
	default:
		if d := p.dep(line, op, i, rhs); d != nil {
			p.r.Deps = append(p.r.Deps, d)
		}
	}
}

// dep reads the dependency of op (the i-th step), or warns and returns nil.
func (p *replyParser) dep(line, op string, i int, rhs string) *semanticDep {
	dm := reDep.FindStringSubmatch(rhs)
	if dm == nil {
		p.warn(op, "semantic: %q: not a dependency line; dropped", clipLine(line))
		return nil
	}
	d := &semanticDep{Op: op, Kind: "dep"}
	a, b := dm[1], dm[2]
	switch {
	case b == "":
		d.Sub = a
	case p.k.IsMain(a) && !p.k.IsMain(b):
		d.Main, d.Sub = a, b
	case p.k.IsMain(b) && !p.k.IsMain(a):
		d.Sub, d.Main = a, b
	default:
		p.warn(op, "semantic: %q: neither %s nor %s is a main category (%s); line dropped", clipLine(line), a, b, strings.Join(kb.MainCategories(), ", "))
		return nil
	}
	d.Description = strings.TrimSpace(description(dm[3], dm[4], dm[5]))
	if d.Description == "" || strings.HasPrefix(d.Description, "TODO") {
		p.warn(op, "semantic: %q: the description is empty; line dropped", clipLine(line))
		return nil
	}
	if c, _, ok := p.k.Lookup(d.Sub); ok {
		if d.Main != "" && d.Main != c.Name {
			p.warn(op, "semantic: %s: %s belongs to %s, not %s; corrected", op, d.Sub, c.Name, d.Main)
		}
		d.Main = ""
	} else {
		if d.Main == "" {
			p.warn(op, "semantic: %q: unknown subcategory %s without a main category; line dropped", clipLine(line), d.Sub)
			return nil
		}
		d.New = true
		hint := ""
		if cl := p.k.Closest(d.Sub, 1); len(cl) > 0 {
			hint = fmt.Sprintf(" (did you mean %s?)", cl[0])
		}
		p.warn(op, "semantic: %s: new subcategory %s.%s, not in the knowledge base%s", op, d.Main, d.Sub, hint)
	}
	ins, ok := p.inputs(line, op, i, dm[6])
	if !ok {
		return nil
	}
	d.Inputs = ins
	return d
}

// description is the dependency's description from whichever quoting the
// reply used: "double" (with escapes), 'single' or none.
func description(double, single, bare string) string {
	switch {
	case double != "":
		if u, err := strconv.Unquote(`"` + double + `"`); err == nil {
			return u
		}
		return double
	case single != "":
		return single
	}
	return bare
}

// inputs reads a dependency's inputs: earlier steps or inputs of the task.
func (p *replyParser) inputs(line, op string, i int, list string) ([]string, bool) {
	var out []string
	for _, in := range strings.Split(list, ",") {
		in = strings.TrimSpace(in)
		if in == "" || strings.Contains(in, ":") { // named arguments such as within: are the compiler's
			continue
		}
		if !reIdent.MatchString(in) {
			p.warn(op, "semantic: %q: input %q is not a name; line dropped", clipLine(line), in)
			return nil, false
		}
		if j, isStep := p.pos[strings.ToLower(in)]; isStep {
			if j >= i {
				p.warn(op, "semantic: %q: input %s is not an earlier step than %s; line dropped", clipLine(line), in, op)
				return nil, false
			}
			in = strings.ToLower(in)
		} else if !p.isInput[in] {
			p.warn(op, "semantic: %q: input %s is neither an earlier step nor an input; line dropped", clipLine(line), in)
			return nil, false
		}
		out = append(out, in)
	}
	return out, true
}

func clipLine(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}
