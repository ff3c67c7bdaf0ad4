// Package journal records what a workflow run did and reads it back.
//
// Every run gets a directory <root>/runs/<id>/ (root is normally .cogflow)
// holding journal.jsonl — one JSON object per line, one line per event —
// summary.json, written when the run finishes, and the screenshots the
// steps took. The id sorts by start time: 20261123T011530.123Z-1f0c.
//
// A Writer appends each event as one whole line with a single write, so a
// crash or a Ctrl-C leaves a journal that is valid up to the last completed
// step; Interrupted and Finish also fsync. Before anything reaches the disk
// every string in it is redacted: each secret value, and its JSON-, Go- and
// URL-escaped forms, becomes "[secret]". Numbers and timestamps are not
// strings and are written as they are.
//
// List, Load and Render serve `cogflow runs`; (*Run).Completed and
// (*Run).StoppedAt serve `--resume`.
package journal

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/cogflow/cogflow/runtime/redact"
)

// File names inside a run directory.
const (
	JournalFile = "journal.jsonl"
	SummaryFile = "summary.json"
)

// ErrClosed is returned by a Writer's methods after Finish.
var ErrClosed = errors.New("journal: writer is finished")

// Outcome is how a step or a run ended.
type Outcome string

// Step outcomes.
const (
	OK       Outcome = "ok"
	Failed   Outcome = "failed"
	Skipped  Outcome = "skipped"  // not run, e.g. its iteration was done by the resumed run
	Declined Outcome = "declined" // a person said no to a `confirm` step
	// InDoubt is a step whose action was under way when the run lost its
	// driver (the browser exited) or was stopped hard: it may or may not
	// have taken effect. A resume decides what to do with it (--in-doubt).
	InDoubt Outcome = "in_doubt"
)

// Run outcomes besides OK and Failed.
const (
	Interrupted Outcome = "interrupted" // stopped by Ctrl-C; see Run.StoppedAt
	BadWorkflow Outcome = "bad_workflow"
)

var outcomes = map[Outcome]bool{OK: true, Failed: true, Skipped: true, Declined: true, InDoubt: true, Interrupted: true, BadWorkflow: true}

// Source names the answerer that produced a value.
type Source string

// Sources, cheapest first as the answerer cascade tries them.
const (
	SourceLiteral    Source = "literal"
	SourceInput      Source = "input"
	SourceStep       Source = "step"
	SourceStructural Source = "structural"
	SourceFunction   Source = "function"
	SourceCache      Source = "cache"
	SourceLLM        Source = "llm"
	SourceAsk        Source = "ask"
)

var sources = map[Source]bool{SourceLiteral: true, SourceInput: true, SourceStep: true, SourceStructural: true,
	SourceFunction: true, SourceCache: true, SourceLLM: true, SourceAsk: true}

// Event types: the "type" field of each journal line.
const (
	EventRunStarted    = "run_started"
	EventStep          = "step"
	EventIntent        = "intent" // written and synced before a step's action; its step event follows
	EventInDoubt       = "in_doubt_resolved"
	EventIterationDone = "iteration_done"
	EventInterrupted   = "interrupted"
	EventRunFinished   = "run_finished"
)

// RunMeta describes a run as it starts.
type RunMeta struct {
	Workflow string            // path of the .cog file
	Task     string            // task name
	Driver   string            // driver name
	Inputs   map[string]string // input values as given (redacted when written)
	Secrets  *redact.Set       // the run's secrets, a set that grows as the run goes: never written anywhere; nil: none
	Resume   string            // id of the run this one resumes, or ""
	Row      int               // CSV row this run works on, -1 if none
	// Batch is the id of the batch (several rows of one inputs file, run
	// by `run --inputs` or submitted to Temporal) this run is a row of;
	// "" for a run on its own.
	Batch string
	// WorkflowSHA256 is the hex SHA-256 of the workflow file's bytes, so
	// that a resume can refuse a workflow that changed since.
	WorkflowSHA256 string
	// Settled is how the resumed run's in-doubt step was settled, if it
	// had one; Open journals it and, for a skipped item, carries the item
	// over as finished.
	Settled *Settlement
}

// RunStarted is the first line of every journal.
type RunStarted struct {
	ID       string            `json:"id"`
	Workflow string            `json:"workflow"`
	Task     string            `json:"task"`
	Driver   string            `json:"driver,omitempty"`
	Inputs   map[string]string `json:"inputs,omitempty"`
	Resume   string            `json:"resume,omitempty"`
	Row      int               `json:"row"`
	Batch    string            `json:"batch,omitempty"`
	Started  time.Time         `json:"started"`
	// WorkflowSHA256: see RunMeta.
	WorkflowSHA256 string `json:"workflow_sha256,omitempty"`
}

// LoopPos is the position in one enclosing `for` loop: the loop variable,
// the 0-based index of the item, and the item's key (its rendered identity,
// e.g. the row's title) so a resumed run recognizes items that moved.
//
// After is the item's key when its iteration finished (iteration_done
// only): a loop that changes its items (writes a row's title in capitals)
// changes their text, so a resumed run recognizes a finished item by its
// index and either the key it started with or the one it ended with.
type LoopPos struct {
	Var   string `json:"var"`
	Index int    `json:"index"`
	Key   string `json:"key,omitempty"`
	After string `json:"after,omitempty"`
	// Broke marks, in an iteration_done event, an iteration that ended
	// its loop with break.
	Broke bool `json:"broke,omitempty"`
}

// Arg is one argument of a step as it was resolved.
type Arg struct {
	Name   string `json:"name,omitempty"` // parameter name, "" for positional
	Value  string `json:"value"`          // rendered value
	Source Source `json:"source,omitempty"`
}

// Tokens counts LLM tokens.
type Tokens struct {
	In  int `json:"in"`
	Out int `json:"out"`
	// CostUSD is the estimated price at list prices (0 when unknown).
	CostUSD float64 `json:"cost_usd,omitempty"`
	// Calls counts model requests (retries and repairs included), and
	// Latency the time spent waiting for them.
	Calls   int      `json:"calls,omitempty"`
	Latency Duration `json:"latency,omitempty"`
}

// StepEvent is one executed (or skipped, or declined) step.
type StepEvent struct {
	Seq  int       `json:"seq"` // 1-based, assigned by the Writer
	Task string    `json:"task,omitempty"`
	Step string    `json:"step"`
	Line int       `json:"line,omitempty"`
	Loop []LoopPos `json:"loop,omitempty"` // outermost first
	// Branches are the if branches the step ran in, outermost first, as
	// "line 5: else if n > 1".
	Branches   []string  `json:"branches,omitempty"`
	Op         string    `json:"op"`
	Args       []Arg     `json:"args,omitempty"`
	Value      string    `json:"value,omitempty"`  // result, rendered
	Source     Source    `json:"source,omitempty"` // which answerer answered
	Started    time.Time `json:"started"`          // zero: the Writer uses now - Duration
	Duration   Duration  `json:"duration_ms"`
	Outcome    Outcome   `json:"outcome"` // "" is written as ok
	Error      string    `json:"error,omitempty"`
	Screenshot string    `json:"screenshot,omitempty"` // file name returned by Writer.Screenshot
	Tokens     *Tokens   `json:"tokens,omitempty"`
	// NoScreenshot says why a screenshot asked for was not taken (one that
	// would show a secret the driver could not cover is left out).
	NoScreenshot string `json:"no_screenshot,omitempty"`
	// Ties say how anchoring settled a tie between candidates for the
	// step ("twins: 2 tied, the first of identical siblings taken"), by
	// rule and count only.
	Ties []string `json:"ties,omitempty"`
}

// Intent is an intent event: a step about to act, with its resolved
// arguments. It is synced before the driver acts; the step event with the
// same Seq is its outcome. An intent without one is a step in doubt.
type Intent struct {
	Seq  int       `json:"seq"` // the Seq its step event gets
	Task string    `json:"task,omitempty"`
	Step string    `json:"step"`
	Line int       `json:"line,omitempty"`
	Loop []LoopPos `json:"loop,omitempty"`
	// Branches are the branches the step is about to act in (an if's, a
	// try's body or fallback), as in StepEvent.
	Branches []string  `json:"branches,omitempty"`
	Op       string    `json:"op"`
	Args     []Arg     `json:"args,omitempty"`
	Started  time.Time `json:"started"`
}

// Settlement is an in_doubt_resolved event: how a resume settled the step
// its resumed run left in doubt. Policy is skip (the step's loop item
// counts as done and is not repeated; outside a loop the step is left
// out), redo (the item is run again) or check (the step's effect is read
// back after doing it again: typing sets a field, open loads a URL).
type Settlement struct {
	Run    string    `json:"run"` // the run whose step was in doubt
	Intent Intent    `json:"intent"`
	Policy string    `json:"policy"`
	From   string    `json:"from,omitempty"` // what chose Policy: "flag" (--in-doubt), "step" (its in_doubt:), "terminal" or "read back"
	Time   time.Time `json:"time"`
}

// Position is where in a task a run was: a step and its loop position.
type Position struct {
	Task string    `json:"task,omitempty"`
	Step string    `json:"step,omitempty"`
	Line int       `json:"line,omitempty"`
	Loop []LoopPos `json:"loop,omitempty"`
}

func (p Position) String() string {
	var b strings.Builder
	b.WriteString(p.Step)
	if p.Line > 0 {
		fmt.Fprintf(&b, " (line %d)", p.Line)
	}
	if len(p.Loop) > 0 {
		b.WriteString(" in ")
		b.WriteString(loopString(p.Loop))
	}
	return strings.TrimSpace(b.String())
}

// Iteration is an iteration_done event: the loop iteration at the end of
// Loop finished as a whole (the earlier elements are enclosing loops).
type Iteration struct {
	Task        string    `json:"task,omitempty"`
	Loop        []LoopPos `json:"loop"`
	Time        time.Time `json:"time"`
	ResumedFrom string    `json:"resumed_from,omitempty"` // set when carried over from the resumed run
}

// Interruption is an interrupted event: where the run was when it was
// stopped (the step that was running or about to run).
type Interruption struct {
	Position
	Time time.Time `json:"time"`
}

// RunFinished is the last line of a journal whose run ended normally.
type RunFinished struct {
	Outcome  Outcome   `json:"outcome"`
	Error    string    `json:"error,omitempty"`
	Finished time.Time `json:"finished"`
	Duration Duration  `json:"duration_ms"`
}

// StepCounts counts steps by outcome.
type StepCounts struct {
	OK       int `json:"ok"`
	Failed   int `json:"failed"`
	Skipped  int `json:"skipped"`
	Declined int `json:"declined"`
	InDoubt  int `json:"in_doubt,omitempty"`
}

// Total is the number of steps counted.
func (c StepCounts) Total() int { return c.OK + c.Failed + c.Skipped + c.Declined + c.InDoubt }

// StepTime aggregates the durations of one step over all its executions.
type StepTime struct {
	Task  string   `json:"task,omitempty"`
	Step  string   `json:"step"`
	Line  int      `json:"line,omitempty"`
	Op    string   `json:"op"`
	Count int      `json:"count"`
	Total Duration `json:"total_ms"`
	Max   Duration `json:"max_ms"`
}

// Summary is summary.json. For a run without one (killed, or still
// running) List and (*Run).Summarize derive it from the journal, with an
// empty Outcome unless the journal has a run_finished line.
type Summary struct {
	ID                string         `json:"id"`
	Workflow          string         `json:"workflow"`
	Task              string         `json:"task"`
	Driver            string         `json:"driver,omitempty"`
	Resume            string         `json:"resume,omitempty"`
	Row               int            `json:"row"`
	Batch             string         `json:"batch,omitempty"` // see RunMeta.Batch
	Started           time.Time      `json:"started"`
	Finished          time.Time      `json:"finished"`
	Duration          Duration       `json:"duration_ms"`
	Outcome           Outcome        `json:"outcome"`
	Error             string         `json:"error,omitempty"`
	Steps             StepCounts     `json:"steps"`
	Iterations        int            `json:"iterations"`                   // iterations this run finished
	ResumedIterations int            `json:"resumed_iterations,omitempty"` // carried over from the resumed run
	Tokens            Tokens         `json:"tokens"`
	Sources           map[Source]int `json:"sources,omitempty"` // steps per answerer
	StepTimes         []StepTime     `json:"step_durations,omitempty"`
}

// Duration is a time.Duration written to JSON as milliseconds (a number,
// with up to three decimals).
type Duration time.Duration

// MarshalJSON writes d in milliseconds.
func (d Duration) MarshalJSON() ([]byte, error) {
	us := time.Duration(d).Round(time.Microsecond) / time.Microsecond
	return strconv.AppendFloat(nil, float64(us)/1000, 'f', -1, 64), nil
}

// UnmarshalJSON reads milliseconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	ms, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("journal: duration %s: not a number of milliseconds", b)
	}
	*d = Duration(time.Duration(math.Round(ms*1000)) * time.Microsecond)
	return nil
}

// String formats d for people: 340ms, 1.2s, 2m03s.
func (d Duration) String() string {
	t := time.Duration(d)
	switch {
	case t < 0:
		return "-" + Duration(-t).String()
	case t < time.Millisecond && t > 0:
		return fmt.Sprintf("%dµs", t/time.Microsecond)
	case t < time.Second:
		return fmt.Sprintf("%dms", t.Round(time.Millisecond)/time.Millisecond)
	case t < time.Minute:
		return fmt.Sprintf("%.1fs", t.Seconds())
	case t < time.Hour:
		t = t.Round(time.Second)
		return fmt.Sprintf("%dm%02ds", t/time.Minute, t%time.Minute/time.Second)
	default:
		t = t.Round(time.Minute)
		return fmt.Sprintf("%dh%02dm", t/time.Hour, t%time.Hour/time.Minute)
	}
}

// IterationKey is the key under which (*Run).Completed reports a finished
// iteration: each enclosing loop's variable, index and item key, outermost
// first, e.g. `paper[2]"Attention Is All You Need"`.
func IterationKey(loop []LoopPos) string {
	var b strings.Builder
	for i, p := range loop {
		if i > 0 {
			b.WriteByte('/')
		}
		b.WriteString(p.Var)
		b.WriteByte('[')
		b.WriteString(strconv.Itoa(p.Index))
		b.WriteByte(']')
		b.WriteString(strconv.Quote(p.Key))
	}
	return b.String()
}

// loopString is the short form people read: paper[2] "Attention…".
func loopString(loop []LoopPos) string {
	parts := make([]string, len(loop))
	for i, p := range loop {
		parts[i] = fmt.Sprintf("%s[%d]", p.Var, p.Index)
		if p.Key != "" {
			parts[i] += " " + strconv.Quote(clip(p.Key, 24))
		}
	}
	return strings.Join(parts, " / ")
}

// clip shortens s to n runes, marking the cut with an ellipsis.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

const idLayout = "20060102T150405.000Z"

var idPattern = regexp.MustCompile(`^[0-9]{8}T[0-9]{6}\.[0-9]{3}Z-[0-9a-f]{4}$`)

// ValidID reports whether id has the form of a run id. Only such ids are
// turned into paths, so an id can never leave <root>/runs.
func ValidID(id string) bool { return idPattern.MatchString(id) }

// now is the clock; tests replace it.
var now = time.Now
