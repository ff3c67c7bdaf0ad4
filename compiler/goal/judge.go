package goal

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/cogflow/cogflow/runtime/trace"
)

// Verdicts of Judge.
const (
	Match   = "match"   // each trajectory fulfils the other description
	Partial = "partial" // one does, or either only partly
	No      = "no"      // neither does
	// Unknown is the rules' verdict when a trajectory has no value to
	// compare: rules cannot tell.
	Unknown = "unknown"
)

// Answers to one direction's question.
const (
	Yes    = "yes"
	Partly = "partly"
	Not    = "no"
)

// Described is a goal description with the trajectory that carried it out.
type Described struct {
	Goal  string
	Trace *trace.Trace
}

// Direction is one half of mutual satisfaction: does From's trajectory
// fulfil To's description?
type Direction struct {
	From, To string // "A" or "B"
	Answer   string // Yes, Partly, Not, or "" when the rules cannot tell
	Reason   string
}

// Verdict is Judge's answer.
type Verdict struct {
	Verdict string // Match, Partial, No or Unknown
	Source  string // SourceRules or SourceModel
	// AB asks whether A's trajectory fulfils B; BA the converse.
	AB, BA Direction
}

// judgeSystem is the system message of each direction's request.
const judgeSystem = `You judge whether a trajectory in a user interface fulfils a task description. A person carried out one task; you see what they did. Decide whether doing exactly that fulfils the other task description given: every part of it, with the same values (the same item, text, number), in this interface.
Answer with exactly two lines:
answer: yes | partly | no
reason: <one sentence>`

// Judge decides whether A and B describe the same task in their UI by
// mutual satisfaction: A's trajectory must fulfil B's description and B's
// must fulfil A's. Both yes is Match, both no is No, anything else
// Partial. Without a model the rules compare parameter values: the values
// each trajectory typed, chose or clicked must appear in the other
// description.
func Judge(ctx context.Context, a, b Described, opts Options) (*Verdict, error) {
	if a.Trace == nil || b.Trace == nil {
		return nil, errors.New("judge: both descriptions need a trajectory")
	}
	if strings.TrimSpace(a.Goal) == "" || strings.TrimSpace(b.Goal) == "" {
		return nil, errors.New("judge: both descriptions need a text")
	}
	v := &Verdict{Source: SourceRules}
	dir := func(from, to string, d, other Described) (Direction, error) {
		if opts.LLM == nil {
			return rulesDirection(from, to, d.Trace, other.Goal), nil
		}
		return modelDirection(ctx, from, to, d, other.Goal, opts)
	}
	var err error
	if v.AB, err = dir("A", "B", a, b); err != nil {
		return nil, err
	}
	if v.BA, err = dir("B", "A", b, a); err != nil {
		return nil, err
	}
	if opts.LLM != nil {
		v.Source = SourceModel
	}
	v.Verdict = combine(v.AB.Answer, v.BA.Answer)
	return v, nil
}

// combine makes two directions' answers one verdict.
func combine(ab, ba string) string {
	switch {
	case ab == "" || ba == "":
		return Unknown // the rules could not tell one direction
	case ab == Yes && ba == Yes:
		return Match
	case ab == Not && ba == Not:
		return No
	}
	return Partial
}

// modelDirection asks the model whether from's trajectory fulfils the
// other description.
func modelDirection(ctx context.Context, from, to string, d Described, other string, opts Options) (Direction, error) {
	user := fmt.Sprintf("The person was asked: %q\n\nTrajectory:\n%s\nDoes this trajectory fulfil the task description %q?",
		d.Goal, Trajectory(d.Trace), other)
	text, err := complete(ctx, opts, judgeSystem, user)
	if err != nil {
		return Direction{}, fmt.Errorf("judge: the model (does %s's trajectory fulfil %s?): %w", from, to, err)
	}
	out := Direction{From: from, To: to}
	answered := false
	for _, line := range strings.Split(text, "\n") {
		key, val, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(strings.TrimLeft(val, "*_ ")) // "**Reason:** …"
		switch strings.ToLower(strings.Trim(key, " *-")) {
		case "answer":
			w := answerWord(val)
			if answered && w != out.Answer {
				return Direction{}, fmt.Errorf("judge: the model's answer (does %s's trajectory fulfil %s?) gives two answers, %q and %q: %q", from, to, dash(out.Answer), val, capText(text, 200))
			}
			out.Answer, answered = w, true
		case "reason":
			if out.Reason == "" {
				out.Reason = val
			}
		}
	}
	if out.Answer == "" {
		// Never a guessed verdict: an answer that says none is an error.
		return Direction{}, fmt.Errorf("judge: the model's answer (does %s's trajectory fulfil %s?) has no \"answer: yes|partly|no\" line: %q", from, to, capText(text, 200))
	}
	return out, nil
}

// answerWord reads yes / partly / no from the start of an answer; "" when
// it states none of them, or more than one: the echoed template
// "yes | partly | no", a hedge ("not sure", "no idea", "yes or no",
// "partly yes"). A word followed by more text must end its clause
// ("No, the name differs"; "Yes - …"), so that it is the answer and not
// the start of another phrase.
func answerWord(s string) string {
	if strings.ContainsAny(s, "|/") {
		return ""
	}
	// "**Answer:** Yes" leaves "** Yes": markdown emphasis is not a word.
	words := strings.Fields(strings.ToLower(strings.TrimLeft(strings.TrimSpace(s), "*_ ")))
	if len(words) == 0 {
		return ""
	}
	trim := func(w string) string { return strings.Trim(w, ".,;:!\"'*") }
	w := answerWords[trim(words[0])]
	if w == "" || len(words) == 1 {
		return w
	}
	first := strings.TrimRight(words[0], "*\"'")
	ends := strings.ContainsAny(first[len(first)-1:], ".,;:!") || words[1] == "-" || words[1] == "–" || words[1] == "—"
	next := trim(words[1])
	if !ends || answerWords[next] != "" || next == "or" || next == "and" || next == "not" {
		return ""
	}
	return w
}

// answerWords are the words that state an answer.
var answerWords = map[string]string{"yes": Yes, "fully": Yes, "true": Yes,
	"partly": Partly, "partially": Partly, "partial": Partly, "no": Not, "false": Not}

// rulesDirection compares values: those the trajectory typed, chose or
// clicked, against the other description's text.
func rulesDirection(from, to string, tr *trace.Trace, other string) Direction {
	d := Direction{From: from, To: to}
	ps := rulesParams(Steps(tr))
	if len(ps) == 0 {
		d.Reason = fmt.Sprintf("rules only: %s's trajectory types, chooses or clicks no value to compare", from)
		return d
	}
	text := normalize(other)
	var found, missing []string
	for _, p := range ps {
		if containsValue(text, normalize(p.Value)) {
			found = append(found, fmt.Sprintf("%q", p.Value))
		} else {
			missing = append(missing, fmt.Sprintf("%q", p.Value))
		}
	}
	switch {
	case len(missing) == 0:
		d.Answer = Yes
		d.Reason = fmt.Sprintf("rules only: %s names every value %s's trajectory used (%s)", to, from, strings.Join(found, ", "))
	case len(found) == 0:
		d.Answer = Not
		d.Reason = fmt.Sprintf("rules only: %s names none of the values %s's trajectory used (%s)", to, from, strings.Join(missing, ", "))
	default:
		d.Answer = Partly
		d.Reason = fmt.Sprintf("rules only: %s names %s but not %s", to, strings.Join(found, ", "), strings.Join(missing, ", "))
	}
	return d
}

// containsValue reports whether text contains v as whole words (a value
// "1" is not found in "10").
func containsValue(text, v string) bool {
	return wholeValue(v)(text)
}

// wholeValue returns a test of whether a text contains v as whole words;
// an empty v is in no text.
func wholeValue(v string) func(text string) bool {
	if v == "" {
		return func(string) bool { return false }
	}
	re, err := regexp.Compile(`(^|[^\p{L}\p{N}])` + regexp.QuoteMeta(v) + `($|[^\p{L}\p{N}])`)
	if err != nil {
		return func(text string) bool { return strings.Contains(text, v) }
	}
	return re.MatchString
}
