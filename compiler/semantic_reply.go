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

// ParseSemanticReply parses an extractor reply. steps are the step names in
// order, inputs the names a dependency may also take. Lines that are not
// reply lines are ignored; a reply line that does not parse or validate is
// dropped with a warning. It never fails.
func ParseSemanticReply(reply string, k *kb.KB, steps, inputs []string) *SemanticReply {
	if k == nil {
		k = kb.Default()
	}
	r := &SemanticReply{}
	pos := map[string]int{}
	for i, s := range steps {
		pos[s] = i
	}
	isInput := map[string]bool{}
	for _, s := range inputs {
		isInput[s] = true
	}
	warn := func(format string, args ...any) {
		r.Warnings = append(r.Warnings, fmt.Sprintf(format, args...))
	}
	for _, raw := range strings.Split(reply, "\n") {
		line := strings.TrimSpace(reLead.ReplaceAllString(strings.TrimSpace(raw), ""))
		line = strings.TrimRight(line, "`* ")
		if line == "" {
			continue
		}
		if m := reGoal.FindStringSubmatch(line); m != nil {
			g := strings.Trim(strings.TrimSpace(m[1]), "\"'`*")
			if g != "" {
				r.Goal = g
			}
			continue
		}
		if m := reParams.FindStringSubmatch(line); m != nil {
			r.Params = nil
			for _, p := range strings.FieldsFunc(m[1], func(r rune) bool { return r == ',' || r == ';' }) {
				p = strings.Trim(strings.TrimSpace(p), "\"'`*")
				if i := strings.IndexAny(p, " :("); i > 0 { // "keyword: text", "keyword (the mountain)"
					p = p[:i]
				}
				if p = identName(p); p != "" && strings.ToLower(p) != "none" {
					r.Params = append(r.Params, p)
				}
			}
			continue
		}
		m := reOpLine.FindStringSubmatch(line)
		if m == nil {
			continue // chatter
		}
		op, rhs := strings.ToLower(m[1]), strings.TrimSpace(m[2])
		word := strings.ToLower(strings.Trim(strings.SplitN(rhs+" ", " ", 2)[0], "\"'`*.,;"))
		if !strings.HasPrefix(strings.TrimSpace(line[len(m[1]):]), "=") && word != "fixed" && word != "input" && !reDep.MatchString(rhs) {
			continue // "op4: the person clicked …" is reasoning, not a reply line
		}
		i, known := pos[op]
		if !known {
			warn("semantic: %q: there is no step %s; line dropped", clipLine(line), op)
			continue
		}
		if r.Dep(op) != nil {
			warn("semantic: %q: %s was already given; line dropped", clipLine(line), op)
			continue
		}
		if word == "fixed" || word == "input" {
			r.Deps = append(r.Deps, &SemanticDep{Op: op, Kind: word})
			continue
		}
		dm := reDep.FindStringSubmatch(rhs)
		if dm == nil {
			warn("semantic: %q: not a dependency line; dropped", clipLine(line))
			continue
		}
		d := &SemanticDep{Op: op, Kind: "dep"}
		a, b := dm[1], dm[2]
		switch {
		case b == "":
			d.Sub = a
		case k.IsMain(a) && !k.IsMain(b):
			d.Main, d.Sub = a, b
		case k.IsMain(b) && !k.IsMain(a):
			d.Sub, d.Main = a, b
		default:
			warn("semantic: %q: neither %s nor %s is a main category (%s); line dropped", clipLine(line), a, b, strings.Join(kb.MainCategories(), ", "))
			continue
		}
		desc := dm[3]
		if dm[3] != "" {
			if u, err := strconv.Unquote(`"` + dm[3] + `"`); err == nil {
				desc = u
			}
		} else if dm[4] != "" {
			desc = dm[4]
		} else {
			desc = dm[5]
		}
		d.Description = strings.TrimSpace(desc)
		if d.Description == "" || strings.HasPrefix(d.Description, "TODO") {
			warn("semantic: %q: the description is empty; line dropped", clipLine(line))
			continue
		}
		if c, _, ok := k.Lookup(d.Sub); ok {
			if d.Main != "" && d.Main != c.Name {
				warn("semantic: %s: %s belongs to %s, not %s; corrected", op, d.Sub, c.Name, d.Main)
			}
			d.Main = ""
		} else {
			if d.Main == "" {
				warn("semantic: %q: unknown subcategory %s without a main category; line dropped", clipLine(line), d.Sub)
				continue
			}
			d.New = true
			hint := ""
			if cl := k.Closest(d.Sub, 1); len(cl) > 0 {
				hint = fmt.Sprintf(" (did you mean %s?)", cl[0])
			}
			warn("semantic: %s: new subcategory %s.%s, not in the knowledge base%s", op, d.Main, d.Sub, hint)
		}
		ok := true
		for _, in := range strings.Split(dm[6], ",") {
			in = strings.TrimSpace(in)
			if in == "" || strings.Contains(in, ":") { // named arguments such as within: are the compiler's
				continue
			}
			if !reIdent.MatchString(in) {
				warn("semantic: %q: input %q is not a name; line dropped", clipLine(line), in)
				ok = false
				break
			}
			if j, isStep := pos[strings.ToLower(in)]; isStep {
				if j >= i {
					warn("semantic: %q: input %s is not an earlier step than %s; line dropped", clipLine(line), in, op)
					ok = false
					break
				}
				in = strings.ToLower(in)
			} else if !isInput[in] {
				warn("semantic: %q: input %s is neither an earlier step nor an input; line dropped", clipLine(line), in)
				ok = false
				break
			}
			d.Inputs = append(d.Inputs, in)
		}
		if ok {
			r.Deps = append(r.Deps, d)
		}
	}
	return r
}

func clipLine(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}
