package reflection

import (
	"fmt"
	"regexp"
	"strings"
)

// Op is the kind of an update to the knowledge base.
type Op string

// The updates a reflection reply may propose. There is deliberately no
// update that deletes: a person retires a rule or a subcategory by editing
// the file, and the main categories are a closed set.
const (
	AddSubcategory    Op = "ADD_SUBCATEGORY"
	ModifySubcategory Op = "MODIFY_SUBCATEGORY"
	AddRule           Op = "ADD_RULE"
	ModifyRule        Op = "MODIFY_RULE"
	None              Op = "NONE"
)

// Update is one parsed update line.
type Update struct {
	Op   Op
	Line int // the line of the reply it came from, counting from 1
	// For the subcategory updates:
	Main, Sub  string
	Definition string
	Examples   []string
	// For the rule updates: the rule's number (MODIFY_RULE) and text.
	Rule string
	Text string
}

// String renders the update in the reply format.
func (u Update) String() string {
	switch u.Op {
	case AddSubcategory, ModifySubcategory:
		return fmt.Sprintf("%s %s.%s: %s | %s", u.Op, u.Main, u.Sub, u.Definition, strings.Join(u.Examples, " | "))
	case AddRule:
		return fmt.Sprintf("%s: %s", u.Op, u.Text)
	case ModifyRule:
		return fmt.Sprintf("%s %s: %s", u.Op, u.Rule, u.Text)
	}
	return string(u.Op)
}

// Reply is a parsed reflection reply.
type Reply struct {
	// Reason is the model's explanation of why the original was wrong.
	Reason string
	// Updates are the proposed updates; a reply of NONE has one update of
	// Op None.
	Updates []Update
}

// ReplyError is a reply that does not follow the format; Line is the
// offending reply line (0 when the problem is a missing line).
type ReplyError struct {
	Line int
	Msg  string
}

func (e *ReplyError) Error() string {
	if e.Line == 0 {
		return "reflection reply: " + e.Msg
	}
	return fmt.Sprintf("reflection reply line %d: %s", e.Line, e.Msg)
}

var (
	// The two section lines may carry the Markdown decoration models like
	// to add (**REASON:**, ## UPDATES); the update lines may not.
	reReason  = regexp.MustCompile(`^[#*_\s]*(?i:reason)[*_\s]*:[*_\s]*(.*)$`)
	reUpdates = regexp.MustCompile(`^[#*_\s]*(?i:updates)[*_\s]*(?::[*_\s]*(.*))?$`)
	reVerb    = regexp.MustCompile(`^([A-Z]+(?:_[A-Z]+)*)\b\s*(.*)$`)
	reSubHead = regexp.MustCompile(`^([a-z_][a-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*)$`)
	reRuleMod = regexp.MustCompile(`^([0-9]+)\s*:\s*(.*)$`)
	// reRefused recognizes updates outside the protocol that a model may
	// still try, to refuse them by name.
	reRefused = regexp.MustCompile(`^(?:ADD|REMOVE|DELETE|RENAME|MODIFY|MERGE|SPLIT)_(?:MAIN_)?CATEGORY$|^(?:REMOVE|DELETE|RENAME|MERGE)_(?:SUBCATEGORY|RULE)$`)
)

// parseReply reads a reflection reply:
//
//	REASON: why the original dependency was wrong (may go on for lines)
//	UPDATES:
//	ADD_SUBCATEGORY main.sub: definition | example 1 | example 2
//	MODIFY_SUBCATEGORY main.sub: definition | example 1 | example 2
//	ADD_RULE: text
//	MODIFY_RULE n: text
//	NONE
//
// Text before REASON is ignored. After UPDATES (on its line too) every
// non-blank line must be
// an update; lines that are only a Markdown code fence are skipped, and an
// example may be wrapped in backticks. Anything else is an error naming the
// reply line and what was expected, as are an empty reason, no updates,
// NONE with other updates, and an update that would add, remove or rename
// a main category or delete anything.
func parseReply(text string) (*Reply, error) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	reasonAt, updatesAt := -1, -1
	for i, l := range lines {
		if reasonAt < 0 && reReason.MatchString(l) {
			reasonAt = i
		} else if reasonAt >= 0 && reUpdates.MatchString(l) {
			updatesAt = i
			break
		}
	}
	switch {
	case reasonAt < 0:
		return nil, &ReplyError{Msg: `no line "REASON: …": the reply must first explain why the original dependency was wrong`}
	case updatesAt < 0:
		return nil, &ReplyError{Msg: `no line "UPDATES:" after the reason: the updates must follow it, one per line`}
	}
	reason := []string{strings.TrimSpace(reReason.FindStringSubmatch(lines[reasonAt])[1])}
	for _, l := range lines[reasonAt+1 : updatesAt] {
		reason = append(reason, strings.TrimSpace(l))
	}
	r := &Reply{Reason: strings.TrimSpace(strings.Join(reason, "\n"))}
	if r.Reason == "" {
		return nil, &ReplyError{Line: reasonAt + 1, Msg: "the reason is empty: explain why the original dependency was wrong"}
	}
	// A model may start the updates on the UPDATES line itself
	// ("UPDATES: NONE"); that text is read as the first update line.
	first := reUpdates.FindStringSubmatch(lines[updatesAt])[1]
	for i, l := range append([]string{first}, lines[updatesAt+1:]...) {
		n := updatesAt + 1 + i
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "```") {
			continue
		}
		u, err := parseUpdate(l, n)
		if err != nil {
			return nil, err
		}
		r.Updates = append(r.Updates, u)
	}
	if len(r.Updates) == 0 {
		return nil, &ReplyError{Line: updatesAt + 1, Msg: "no update after UPDATES: give at least one update line, or NONE"}
	}
	for _, u := range r.Updates {
		if u.Op == None && len(r.Updates) > 1 {
			return nil, &ReplyError{Line: u.Line, Msg: "NONE must be the only update"}
		}
	}
	return r, nil
}

const expectedUpdate = "ADD_SUBCATEGORY main.sub: …, MODIFY_SUBCATEGORY main.sub: …, ADD_RULE: …, MODIFY_RULE n: … or NONE"

// parseUpdate reads one update line; n is its line number.
func parseUpdate(l string, n int) (Update, error) {
	fail := func(format string, args ...any) (Update, error) {
		return Update{}, &ReplyError{Line: n, Msg: fmt.Sprintf(format, args...)}
	}
	m := reVerb.FindStringSubmatch(l)
	if m == nil {
		return fail("expected an update (%s), got %q", expectedUpdate, clip(l))
	}
	verb, rest := m[1], strings.TrimSpace(m[2])
	u := Update{Op: Op(verb), Line: n}
	switch u.Op {
	case None:
		if rest != "" && rest != "." {
			return fail("NONE takes nothing after it, got %q", clip(l))
		}
	case AddRule:
		text, ok := strings.CutPrefix(rest, ":")
		if u.Text = strings.TrimSpace(text); !ok || u.Text == "" {
			return fail("expected \"ADD_RULE: text\", got %q", clip(l))
		}
	case ModifyRule:
		rm := reRuleMod.FindStringSubmatch(rest)
		if rm == nil || strings.TrimSpace(rm[2]) == "" {
			return fail("expected \"MODIFY_RULE n: text\" with the rule's number, got %q", clip(l))
		}
		u.Rule, u.Text = rm[1], strings.TrimSpace(rm[2])
	case AddSubcategory, ModifySubcategory:
		sm := reSubHead.FindStringSubmatch(rest)
		if sm == nil {
			return fail("expected \"%s main.sub: definition | example 1 | example 2\" with the subcategory qualified by its main category, got %q", verb, clip(l))
		}
		u.Main, u.Sub = sm[1], sm[2]
		parts := splitBars(sm[3])
		if len(parts) != 3 {
			return fail("expected \"definition | example 1 | example 2\" after %s.%s: (3 parts separated by |), got %d part(s)", u.Main, u.Sub, len(parts))
		}
		u.Definition = parts[0]
		for _, ex := range parts[1:] {
			if len(ex) > 1 && ex[0] == '`' && ex[len(ex)-1] == '`' {
				ex = ex[1 : len(ex)-1]
			}
			u.Examples = append(u.Examples, ex)
		}
		if u.Definition == "" || u.Examples[0] == "" || u.Examples[1] == "" {
			return fail("the definition and both examples of %s.%s must not be empty", u.Main, u.Sub)
		}
	default:
		if reRefused.MatchString(verb) {
			return fail("%s is refused: the five main categories are a closed set and reflection never deletes or renames; it may only %s", verb, "add or modify subcategories and rules")
		}
		return fail("unknown update %s: expected %s", verb, expectedUpdate)
	}
	return u, nil
}

// splitBars splits s at the "|" outside double-quoted strings (an example's
// description may hold one) and trims the parts.
func splitBars(s string) []string {
	var parts []string
	var cur strings.Builder
	quoted, escaped := false, false
	for _, r := range s {
		switch {
		case escaped:
			escaped = false
		case quoted && r == '\\':
			escaped = true
		case r == '"':
			quoted = !quoted
		case r == '|' && !quoted:
			parts = append(parts, strings.TrimSpace(cur.String()))
			cur.Reset()
			continue
		}
		cur.WriteRune(r)
	}
	return append(parts, strings.TrimSpace(cur.String()))
}

func clip(s string) string {
	if len(s) > 100 {
		return s[:97] + "..."
	}
	return s
}
